"""Oh Hell!, Whist, Spades, Hearts and Euchre: the published rules (John McLeod, pagat.com) as exact tests of
games/oh-hell.yaml, whist.yaml, spades.yaml, hearts.yaml and euchre.yaml.

Every score here is produced by the game's own rules: a state is put at a step of a round (hands, won cards,
tricks, bids and totals set as they would be at that point), then the rule file's steps run. Worked examples
are pagat's where the page gives numbers, else derived strictly from its rules (marked "derived")."""

from __future__ import annotations

import pytest

from interpreter.cli import main
from interpreter.engine.compile import supported_players
from interpreter.engine.observation import observe
from interpreter.engine.state import CHANCE
from interpreter.harness.runner import play_game
from interpreter.rules.loader import load_rules

from .conftest import ROOT, card, game_of

SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
N, E, S, W = 0, 1, 2, 3


def lab(short: str) -> str:
    """'QS' -> 'Q of spades', '10H' -> '10 of hearts'."""
    return f"{short[:-1]} of {SUITS[short[-1]]}"


def labs(text: str) -> list[str]:
    return [lab(x) for x in text.split()]


def at(game, step: str, hands=None, *, won=None, zones=None, seat_zones=None, tricks=None, seat_values=None,
       totals=None, teams=None, game_values=None, **round_values):
    """A state of round 1 at ``step``: zones emptied, then the given cards, counters and values set, then the
    step entered (and the rule file's steps run on until someone must decide)."""
    state = game.new_state()
    for zone in state.per_seat.values():
        for cards in zone:
            cards.clear()
    for zone in state.shared.values():
        zone.clear()
    taken: set[int] = set()
    for seat, text in (hands or {}).items():
        state.per_seat["hand"][seat] = [card(game, x, taken) for x in labs(text)]
    for seat, text in (won or {}).items():
        state.per_seat["won"][seat] = [card(game, x, taken) for x in labs(text)]
    for zone, text in (zones or {}).items():
        state.shared[zone] = [card(game, x, taken) for x in labs(text)]
    for zone, by_seat in (seat_zones or {}).items():
        for seat, text in by_seat.items():
            state.per_seat[zone][seat] = [card(game, x, taken) for x in labs(text)]
    if tricks is not None:
        state.counters["tricks"] = list(tricks)
    for name, values in (seat_values or {}).items():
        state.seat_vars[name] = list(values)
    if totals is not None:
        state.totals = list(totals)
    if teams is not None:
        state.teams = list(teams)
    state.game_vars.update(game_values or {})
    if "dealer" in round_values:
        state.dealer = round_values["dealer"]
    state.vars.update(round_values)
    index = [s.name for s in game.steps].index(step)
    game.rounds.advance(state, game.rounds.enter(state, index))
    return state


def play(game, state, *labels: str) -> None:
    for label in labels:
        game.apply(state, game.action_for_label(state, label))


def finish_round(game, state) -> list[int]:
    """Play the first legal action until the round is scored; the round's points."""
    done = len(state.round_results)
    while len(state.round_results) == done:
        game.apply(state, game.legal_actions(state)[0])
    return state.round_results[-1]


def deal(game, state, hands: dict[int, str], rest: str = "", hand_size: int | None = None) -> None:
    """Apply the pending deal with these cards in these hands; ``rest`` starts the stock (its top card first),
    every other card is placed in deck order."""
    assert state.pending.actor == CHANCE
    taken: set[int] = set()
    fixed = {seat: [card(game, x, taken) for x in labs(text)] for seat, text in hands.items()}
    top = [card(game, x, taken) for x in labs(rest)]
    free = [c for c in game.deck if c not in taken]
    k = hand_size if hand_size is not None else state.progress.count
    order: list[int] = []
    for seat in range(game.players):
        mine = fixed.get(seat, [])
        order += mine + [free.pop(0) for _ in range(k - len(mine))]
    game.apply_chance(state, order + top + free)


def asked(game, state) -> str:
    return game.seat_names[game.current(state)]


def hand_of(game, state, seat) -> list[str]:
    return sorted(game.cards.labels[c] for c in state.per_seat["hand"][seat])


# ================================================================= every game: decks and random games


@pytest.mark.parametrize("name", ["oh-hell", "whist", "spades", "hearts", "euchre"])
def test_the_rule_file_validates(name, capsys):
    assert main(["validate", str(ROOT / "games" / f"{name}.yaml")]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("name,size", [("oh-hell", 52), ("whist", 52), ("spades", 52), ("hearts", 52),
                                       ("euchre", 24)])
def test_decks(name, size):
    game = game_of(name, min(supported_players(load_rules(name))))
    assert len(game.deck) == size and len(set(game.cards.labels)) == size


@pytest.mark.parametrize("name,counts", [("oh-hell", [3, 4, 5, 6, 7]), ("whist", [4]), ("spades", [4]),
                                         ("hearts", [4]), ("euchre", [4])])
def test_supported_player_counts_and_random_games_terminate(name, counts):
    assert supported_players(load_rules(name)) == counts
    for players in counts:
        game = game_of(name, players)
        for seed in range(4):
            out = play_game(game, seed=f"classic/{seed}")
            assert out.rounds == len(out.round_results) >= 1
            assert sum(map(sum, out.round_results)) == sum(out.totals) and out.winners


# ================================================================= Oh Hell!


def oh_hell_sizes(players, **options):
    """The number of cards dealt in each hand of a whole random game."""
    game = game_of("oh-hell", players, **options)
    sizes: dict[int, int] = {}

    def watch(state):
        d = state.pending
        if d is not None and d.step.name == "bids" and state.round_number not in sizes:
            sizes[state.round_number] = len(state.per_seat["hand"][0])

    out = play_game(game, seed=3, after_each=watch)
    assert out.rounds == len(sizes)
    return [sizes[r] for r in sorted(sizes)]


@pytest.mark.parametrize("players,largest", [(3, 10), (4, 10), (5, 10), (6, 8), (7, 7)])
def test_oh_hell_hands_go_down_from_the_largest_to_one_and_back_up(players, largest):
    # pagat: 10 cards each with 3-5 players, 8 with 6, 7 with 7; one fewer each hand down to 1, then back up.
    # pagat's example, 7 players: 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7 = 13 hands
    down = list(range(largest, 0, -1))
    assert oh_hell_sizes(players) == down + down[::-1][1:]


@pytest.mark.parametrize("hands,expected", [("up_down", [1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1]),
                                            ("down", [7, 6, 5, 4, 3, 2, 1]),
                                            ("up", [1, 2, 3, 4, 5, 6, 7])])
def test_oh_hell_other_hand_sequences_are_options(hands, expected):
    assert oh_hell_sizes(7, hands=hands) == expected


def test_oh_hell_the_largest_hand_is_an_option():
    assert oh_hell_sizes(4, largest=13, hands="down") == list(range(13, 0, -1))


def test_oh_hell_the_card_after_the_deal_is_turned_up_and_its_suit_is_trump():
    game = game_of("oh-hell", 4)
    state = game.new_state()
    deal(game, state, {}, rest="7D")       # 10 cards each, then the 7 of diamonds on top of the stock
    assert state.vars["trump"] == "diamonds"
    assert [game.cards.labels[c] for c in state.shared["turnup"]] == ["7 of diamonds"]
    assert len(state.shared["stock"]) == 52 - 40 - 1
    assert observe(game, state, 2)["zones"]["turnup"] == ["7 of diamonds"]   # face up for everyone


def test_oh_hell_no_trumps_when_no_card_is_left_to_turn_up():
    game = game_of("oh-hell", 4, largest=13)                 # 13 each: the whole pack is dealt
    state = game.new_state()
    deal(game, state, {})
    assert state.vars["trump"] is None and not state.shared["turnup"] and not state.shared["stock"]
    # without trumps the highest card of the suit led wins, whatever else is played
    state = at(game, "tricks", {N: "2S 3C", E: "3S 4C", S: "AH 5C", W: "4S 6C"}, dealer=W, trump=None)
    play(game, state, "2 of spades", "3 of spades", "A of hearts", "4 of spades")
    assert state.counters["tricks"] == [0, 0, 0, 1]


def test_oh_hell_the_highest_trump_wins():
    game = game_of("oh-hell", 4)
    state = at(game, "tricks", {N: "AH 2C", E: "2D 3C", S: "3D 4C", W: "KH 5C"}, dealer=W, trump="diamonds")
    play(game, state, "A of hearts", "2 of diamonds", "3 of diamonds", "K of hearts")
    assert state.counters["tricks"] == [0, 0, 1, 0]          # the 3 of diamonds: the highest trump


def test_oh_hell_bidding_starts_left_of_the_dealer_and_the_dealer_bids_last():
    game = game_of("oh-hell", 4)
    state = at(game, "bids", {N: "AH 2H", E: "KH 3H", S: "QH 4H", W: "JH 5H"}, dealer=S, trump="clubs")
    order = []
    while state.pending.step.name == "bids":
        order.append(asked(game, state))
        assert game.labels(state)[:2] == ["bid 0", "bid 1"]   # 0 to the cards dealt; zero is a bid
        game.apply(state, game.legal_actions(state)[0])
    assert order == ["D", "A", "B", "C"]


@pytest.mark.parametrize("cards,bids,dealer_may", [
    (5, [2, 0, 1], [0, 1, 3, 4, 5]),     # derived: total 3 of 5 tricks, so the dealer may not bid 2
    (5, [3, 1, 2], [0, 1, 2, 3, 4, 5]),  # derived: already 6 > 5, no dealer bid can make 5
    (1, [0, 0, 0], [0]),                 # derived: 1 card each, the dealer may not bid 1
])
def test_oh_hell_the_hook_forbids_the_dealer_the_bid_that_makes_the_total_equal_the_tricks(cards, bids, dealer_may):
    hands = {s: " ".join(f"{r}{'CDHS'[s]}" for r in ["A", "K", "Q", "J", "10"][:cards]) for s in range(4)}
    for hook in (True, False):
        game = game_of("oh-hell", 4, hook=hook)
        state = at(game, "bids", hands, dealer=W, trump="clubs")
        play(game, state, *(f"bid {b}" for b in bids))
        assert asked(game, state) == "D"
        allowed = dealer_may if hook else list(range(cards + 1))
        assert game.labels(state) == [f"bid {b}" for b in allowed]


def winning_hands(takes: list[int]) -> dict[int, str]:
    """Hands of one card per suit for 3 seats, with seat s holding the ace of takes[s] of the suits: every
    trick is then one whole suit (all must follow), so seat s takes exactly takes[s] tricks however it is
    played."""
    winners = [s for s in range(3) for _ in range(takes[s])]
    hands = {s: [] for s in range(3)}
    for suit, winner in zip("CDH", winners):
        low = iter(["2", "3"])
        for s in range(3):
            hands[s].append(("A" if s == winner else next(low)) + suit)
    return {s: " ".join(h) for s, h in hands.items()}


@pytest.mark.parametrize("scoring,bid,took,points", [
    # 1 point per trick, and 10 more for exactly the bid: pagat's examples for a bid of 2
    ("tricks_and_bonus", 2, 2, 12), ("tricks_and_bonus", 2, 1, 1), ("tricks_and_bonus", 2, 3, 3),
    ("tricks_and_bonus", 0, 0, 10),                                          # derived
    # 10 + the bid for exactly the bid, else nothing: pagat's examples 10, 11, 12 and "missed" 0
    ("exact_only", 0, 0, 10), ("exact_only", 1, 1, 11), ("exact_only", 2, 2, 12),
    ("exact_only", 2, 1, 0), ("exact_only", 2, 3, 0),
])
def test_oh_hell_scoring(scoring, bid, took, points):
    game = game_of("oh-hell", 3, scoring=scoring)
    takes = [took] + ([3 - took, 0] if took < 3 else [0, 0])
    state = at(game, "bids", winning_hands(takes), dealer=2, trump="spades")
    play(game, state, f"bid {bid}", f"bid {takes[1]}")        # A bids first, then B; C (the dealer) last
    game.apply(state, game.legal_actions(state)[0])
    result = finish_round(game, state)
    assert result[0] == points
    assert result[1] == (takes[1] + 10 if scoring == "tricks_and_bonus" else 10 + takes[1])


def test_oh_hell_the_default_scoring_is_the_widespread_one():
    assert load_rules("oh-hell").data["options"]["scoring"]["default"] == "tricks_and_bonus"


# ================================================================= Whist


def test_whist_the_dealers_last_card_is_turned_up_for_trump():
    game = game_of("whist", 4)
    state = game.new_state()
    deal(game, state, {N: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 7H"})   # North deals; the 7 of hearts is last
    assert state.vars["trump"] == "hearts"
    assert observe(game, state, E)["zones"]["turned"]["North"] == ["7 of hearts"]   # face up for everyone
    assert len(state.per_seat["hand"][N]) == 12 and asked(game, state) == "East"     # left of the dealer leads


def test_whist_the_turned_card_is_the_dealers_to_play_and_is_taken_up_after_the_first_trick():
    game = game_of("whist", 4)
    hands = {N: "2C 5C", E: "AC 2D", S: "3C 3D", W: "4C 4D"}
    state = at(game, "trump", hands, seat_zones={"turned": {N: "7H"}}, teams=[0, 1, 0, 1], dealer=N)
    assert state.vars["trump"] == "hearts"
    play(game, state, "A of clubs", "3 of clubs", "4 of clubs")
    assert game.labels(state) == ["2 of clubs", "5 of clubs"]         # North must follow clubs
    play(game, state, "2 of clubs")
    assert hand_of(game, state, N) == ["5 of clubs", "7 of hearts"] and not state.per_seat["turned"][N]
    state = at(game, "trump", {N: "2C 5C", E: "AH 2D", S: "3C 3D", W: "4C 4D"},
               seat_zones={"turned": {N: "7H"}}, teams=[0, 1, 0, 1], dealer=N)
    play(game, state, "A of hearts", "3 of clubs", "4 of clubs")
    assert game.labels(state) == ["7 of hearts from turned"]         # hearts led: the turned card follows


def whist_score(tricks, totals=(0, 0, 0, 0), **options):
    game = game_of("whist", 4, **options)
    state = at(game, "score", tricks=tricks, totals=totals, teams=[0, 1, 0, 1], trump="spades",
               seat_values={"honours": [0, 0, 0, 0]})
    return game, state


@pytest.mark.parametrize("tricks,points", [
    ([5, 2, 4, 2], [3, 0, 3, 0]),    # derived: 9 tricks to 4 -> 9 - 6 = 3 odd tricks
    ([3, 3, 4, 3], [1, 0, 1, 0]),    # derived: 7 to 6 -> 1
    ([0, 6, 0, 7], [0, 7, 0, 7]),    # derived: all 13 -> 7
])
def test_whist_one_point_per_trick_over_six_to_the_side_with_more_tricks(tricks, points):
    game, state = whist_score(tricks)
    assert state.round_results[-1] == points


def test_whist_game_is_five_points_and_an_option_sets_seven_or_ten():
    # derived: North-South have 3 and win 8 tricks (+2): 5, game
    game, state = whist_score([4, 2, 4, 3], totals=(3, 1, 3, 1))
    assert state.finished and game.winners(state) == [N, S] and state.totals == [5, 1, 5, 1]
    for target in (7, 10):
        game, state = whist_score([4, 2, 4, 3], totals=(3, 1, 3, 1), target=target)
        assert not state.finished and state.totals == [5, 1, 5, 1]


def honours_hand(hearts: dict[int, str], tricks_before, totals, honours=True):
    """The last four tricks of a deal, hearts trump (West dealt and turned a heart): every seat holds two
    hearts and two clubs, so every trick is all hearts or all clubs; North's A K of clubs take the club
    tricks and East's A K of hearts the heart tricks."""
    game = game_of("whist", 4, honours=honours)
    clubs = {N: "AC KC", E: "2C 3C", S: "4C 5C", W: "6C 7C"}
    hands = {s: hearts[s] + " " + clubs[s] for s in (N, E, S)}
    hands[W] = hearts[W].split()[0] + " " + clubs[W]
    state = at(game, "trump", hands, seat_zones={"turned": {W: hearts[W].split()[1]}}, tricks=tricks_before,
               totals=totals, teams=[0, 1, 0, 1], dealer=W)
    assert state.vars["trump"] == "hearts"
    finish_round(game, state)
    return game, state


def test_whist_honours_held_are_counted_at_the_deal_and_known_only_to_their_holder():
    game = game_of("whist", 4, honours=True)
    hands = {N: "AH KH 2C", E: "QH 3C 4C", S: "5C 6C 7C", W: "8C 9C"}
    state = at(game, "trump", hands, seat_zones={"turned": {W: "JH"}}, teams=[0, 1, 0, 1], dealer=W)
    assert state.seat_vars["honours"] == [2, 1, 0, 1]                # the dealer's turned jack is one of them
    assert observe(game, state, E)["seat_values"]["honours"] == {"East": 1}


def test_whist_honours_three_of_four_score_two():
    # derived: East-West held A K Q of trumps; North-South take 7 tricks (+1), East-West 6 and honours (+2)
    game, state = honours_hand({N: "JH 3H", E: "AH KH", S: "4H 5H", W: "QH 2H"}, [3, 2, 2, 2], [0, 0, 0, 0])
    assert state.round_results[-1] == [1, 2, 1, 2]
    game, state = honours_hand({N: "JH 3H", E: "AH KH", S: "4H 5H", W: "QH 2H"}, [3, 2, 2, 2], [0, 0, 0, 0],
                               honours=False)
    assert state.round_results[-1] == [1, 0, 1, 0]                   # without the option: tricks only


def test_whist_honours_come_after_tricks():
    # derived from pagat: A 3, B 1; A wins 8 tricks (+2), B held all four honours: A reaches 5 and wins
    game, state = honours_hand({N: "2H 3H", E: "AH KH", S: "4H 5H", W: "QH JH"}, [3, 2, 3, 1], [3, 1, 3, 1])
    assert state.totals == [5, 1, 5, 1] and state.finished and game.winners(state) == [N, S]


def test_whist_no_honours_for_a_side_on_four():
    # derived from pagat: B has 4 and holds all four honours but wins only 5 tricks: B nothing, A 2
    game, state = honours_hand({N: "2H 3H", E: "AH KH", S: "4H 5H", W: "QH JH"}, [3, 2, 3, 1], [0, 4, 0, 4])
    assert state.totals == [2, 4, 2, 4] and not state.finished


# ================================================================= Spades


def spades_score(bids, tricks, totals=(0, 0, 0, 0), bags=(0, 0), **options):
    """Score a deal; ``bags`` are each side's bags before it (North-South, East-West), kept by both partners."""
    game = game_of("spades", 4, **options)
    state = at(game, "score", tricks=tricks, totals=totals, teams=[0, 1, 0, 1],
               seat_values={"bid": bids, "bags": [bags[0], bags[1], bags[0], bags[1]]})
    return game, state


def test_spades_bidding_starts_left_of_the_dealer_and_contracts_are_the_sums_of_the_bids():
    # pagat: South deals; West bids 3, North 1, East 4, South 4: North-South need 5, East-West 7
    game = game_of("spades", 4)
    state = at(game, "bids", {s: "AC" if s == 0 else f"{s + 1}C" for s in range(4)}, dealer=S,
               teams=[0, 1, 0, 1])
    order = []
    for bid in (3, 1, 4, 4):
        order.append(asked(game, state))
        assert game.labels(state) == ["nil"] + [f"bid {n}" for n in range(1, 14)]   # 0 to 13, no passing
        play(game, state, f"bid {bid}")
    assert order == ["West", "North", "East", "South"]
    assert state.seat_vars["bid"] == [1, 4, 4, 3] and state.pending.step.name == "tricks"
    # derived: North-South take 5, East-West 8: 50, and 70 + 1 bag
    game, state = spades_score([1, 4, 4, 3], [3, 4, 2, 4])
    assert state.round_results[-1] == [50, 71, 50, 71]
    assert state.round_number == 2 and state.seat_vars["bags"] == [0, 1, 0, 1]   # kept into the next deal
    assert game.new_state().seat_vars["bags"] == [0, 0, 0, 0]                    # none at the start


@pytest.mark.parametrize("took,total,bags", [
    (7, 389, 9),     # pagat: 337 bids 5 and takes 7: +52
    (8, 290, 10),    # pagat: takes 8: +53 but now 10 bags, -100
    (9, 291, 11),    # pagat: takes 9: +54, -100
    (5, 387, 7),     # derived: exactly the bid: +50, no bags
    (4, 287, 7),     # derived: one short: -50
])
def test_spades_ten_per_trick_bid_one_per_bag_and_100_off_at_ten_bags(took, total, bags):
    game, state = spades_score([3, 4, 2, 4], [took - 2, 13 - took, 2, 0], totals=(337, 0, 337, 0),
                               bags=(7, 0))
    assert state.totals[N] == state.totals[S] == total
    assert state.seat_vars["bags"][N] == state.seat_vars["bags"][S] == bags


def test_spades_bags_beyond_ten_carry_over_to_twenty():
    game, state = spades_score([3, 4, 2, 4], [5, 4, 2, 2], totals=(100, 0, 100, 0), bags=(18, 0))
    assert state.totals[N] == 100 + 52 - 100 and state.seat_vars["bags"] == [20, 0, 20, 0]


@pytest.mark.parametrize("bids,tricks,points,bags", [
    ([0, 4, 4, 4], [0, 4, 5, 4], 141, 1),    # derived: North Nil takes 0, South bids 4 takes 5: 100 + 40 + 1
    ([0, 4, 3, 4], [1, 4, 3, 5], -69, 1),    # derived: Nil fails (-100), South 3 of 3 (+30), North's trick a bag
    ([0, 4, 4, 4], [0, 5, 3, 5], 60, 0),     # derived: Nil made (+100), South 3 of 4 (-40)
])
def test_spades_nil(bids, tricks, points, bags):
    game, state = spades_score(bids, tricks)
    assert state.round_results[-1][N] == state.round_results[-1][S] == points
    assert state.seat_vars["bags"][N] == state.seat_vars["bags"][S] == bags


def test_spades_without_nil_the_bids_are_one_to_thirteen():
    game = game_of("spades", 4, nil=False)
    state = at(game, "bids", {s: f"{s + 2}C" for s in range(4)}, dealer=S)
    assert game.labels(state) == [f"bid {n}" for n in range(1, 14)]


def spades_tricks(hands, **values):
    game = game_of("spades", 4)
    return game, at(game, "tricks", hands, dealer=W, teams=[0, 1, 0, 1], **values)


def test_spades_are_trumps_and_may_not_be_led_until_broken():
    game, state = spades_tricks({N: "AH 2S KD", E: "KH 3S 2D", S: "QH 4S 3D", W: "7D 5S 4D"})
    assert game.labels(state) == ["A of hearts", "K of diamonds"]        # not a spade on the first lead
    play(game, state, "A of hearts", "K of hearts", "Q of hearts", "5 of spades")   # West trumps: broken
    assert state.counters["tricks"] == [0, 0, 0, 1] and asked(game, state) == "West"
    assert game.labels(state) == ["7 of diamonds", "4 of diamonds"]     # West has no spade left
    play(game, state, "7 of diamonds", "K of diamonds", "2 of diamonds", "3 of diamonds")
    assert asked(game, state) == "North"
    assert game.labels(state) == ["2 of spades"]                         # only a spade left: may lead it


def test_spades_may_be_led_once_a_spade_was_played_and_by_a_leader_with_only_spades():
    game, state = spades_tricks({N: "AH 2S", E: "KH 3S", S: "QH 4S", W: "JH 5S"})
    assert game.labels(state) == ["A of hearts"]
    play(game, state, "A of hearts", "K of hearts", "Q of hearts", "J of hearts")   # no spade played yet
    assert game.labels(state) == ["2 of spades"]                         # North holds only spades
    game, state = spades_tricks({N: "AH 2S 2H", E: "3D 3S 6S", S: "QH 4S 4H", W: "JH 5S 5H"})
    play(game, state, "A of hearts", "3 of spades", "Q of hearts", "J of hearts")   # East trumps: broken
    assert asked(game, state) == "East"
    assert game.labels(state) == ["3 of diamonds", "6 of spades"]
    game, state = spades_tricks({N: "AH 2S 2H", E: "3D 3S 6S", S: "QH 4S 4H", W: "JH 5S 5H"})
    play(game, state, "A of hearts", "3 of diamonds", "Q of hearts", "J of hearts")
    assert asked(game, state) == "North"
    assert game.labels(state) == ["2 of hearts"]                         # spades not broken: no 2 of spades


def test_spades_game_is_500_and_a_side_at_minus_500_loses():
    game, state = spades_score([3, 4, 2, 4], [3, 4, 2, 4], totals=(460, 300, 460, 300))
    assert state.totals == [510, 380, 510, 380] and state.finished and game.winners(state) == [N, S]
    game, state = spades_score([3, 4, 2, 4], [3, 4, 2, 4], totals=(460, 300, 460, 300), target=1000)
    assert not state.finished
    game, state = spades_score([3, 7, 2, 4], [3, 4, 2, 4], totals=(0, -420, 0, -420))
    assert state.totals == [50, -530, 50, -530] and state.finished and game.winners(state) == [N, S]
    game, state = spades_score([3, 7, 2, 4], [3, 4, 2, 4], totals=(0, -420, 0, -420), minus_500_loses=False)
    assert not state.finished


# ================================================================= Hearts


@pytest.mark.parametrize("number,direction", [(1, "left"), (2, "right"), (3, "across"), (4, "hold"),
                                              (5, "left"), (6, "right"), (7, "across"), (8, "hold")])
def test_hearts_three_cards_pass_left_right_across_then_none(number, direction):
    # pagat: hand 1 left, 2 right, 3 opposite, 4 no passing, then again (derived: 5 left ... 8 hold)
    game = game_of("hearts", 4)
    hands = {N: "2C 3C 4C 5C", E: "2D 3D 4D 5D", S: "2H 3H 4H 5H", W: "2S 3S 4S 5S"}
    state = at(game, "pass", hands, dealer=W, number=number)
    if direction == "hold":
        assert state.pending.step.name == "tricks"
    else:
        passing = {N: "2C 3C 4C", E: "2D 3D 4D", S: "2H 3H 4H", W: "2S 3S 4S"}
        for seat in (N, E, S, W):                   # from the dealer's left; face down until all have chosen
            assert asked(game, state) == game.seat_names[seat]
            assert observe(game, state, (seat + 1) % 4)["zones"]["hand"][game.seat_names[seat]] == {"count": 4}
            play(game, state, *labs(passing[seat]))
        assert state.pending.step.name == "tricks"
        to = {"left": 1, "right": 3, "across": 2}[direction]
        for seat in (N, E, S, W):
            receiver = (seat + to) % 4
            assert set(labs(passing[seat])) <= set(hand_of(game, state, receiver))
    assert all(len(h) == 4 for h in state.per_seat["hand"])


def hearts_tricks(hands, **options):
    game = game_of("hearts", 4, **options)
    return game, at(game, "tricks", hands, dealer=W)


def test_hearts_the_two_of_clubs_leads_the_first_trick():
    game, state = hearts_tricks({N: "AC 3H", E: "3C 4C", S: "2C AH", W: "KC 2H"})
    assert asked(game, state) == "South" and game.labels(state) == ["2 of clubs"]


def test_hearts_may_be_discarded_on_the_first_trick_but_not_led_until_broken():
    game, state = hearts_tricks({N: "AC 3H 2D", E: "3C 4C 3D", S: "2C AH 4D", W: "KC 2H 5D"})
    play(game, state, "2 of clubs", "K of clubs", "A of clubs", "3 of clubs")   # no heart played: not broken
    assert asked(game, state) == "North" and game.labels(state) == ["2 of diamonds"]
    game, state = hearts_tricks({N: "AC 3H 2D", E: "AH 3D 5D", S: "2C KH 4D", W: "KC 2H 6D"})
    play(game, state, "2 of clubs", "K of clubs", "A of clubs")
    assert "A of hearts" in game.labels(state)                 # East, void in clubs, may discard a heart
    play(game, state, "A of hearts")
    assert asked(game, state) == "North" and game.labels(state) == ["3 of hearts", "2 of diamonds"]   # broken


def test_hearts_a_leader_with_only_hearts_may_lead_one():
    game, state = hearts_tricks({N: "AC 3H 4H", E: "3C 4C 3D", S: "2C AH 4D", W: "KC 2H 5D"})
    play(game, state, "2 of clubs", "K of clubs", "A of clubs", "3 of clubs")
    assert game.labels(state) == ["3 of hearts", "4 of hearts"]


def test_hearts_the_queen_of_spades_breaks_hearts_only_with_the_option():
    hands = {N: "AC 3H 2D", E: "QS 4D 3D", S: "2C AH 5D", W: "KC 2H 6D"}
    for option, leads in ((False, ["2 of diamonds"]), (True, ["3 of hearts", "2 of diamonds"])):
        game, state = hearts_tricks(hands, queen_breaks_hearts=option)
        play(game, state, "2 of clubs", "K of clubs", "A of clubs", "Q of spades")
        assert game.labels(state) == leads


def test_hearts_no_points_on_the_first_trick_is_an_option():
    hands = {N: "AC 3H QS 2D", E: "AH QH 5D 3D", S: "2C KH 5H 4D", W: "KC 2H 6H 6D"}
    game, state = hearts_tricks(hands)
    play(game, state, "2 of clubs", "K of clubs", "A of clubs")
    assert game.labels(state) == ["A of hearts", "Q of hearts", "5 of diamonds", "3 of diamonds"]   # the rule
    game, state = hearts_tricks(hands, no_points_on_first_trick=True)
    play(game, state, "2 of clubs", "K of clubs", "A of clubs")
    assert game.labels(state) == ["5 of diamonds", "3 of diamonds"]
    hands = {N: "AC 3H 2D", E: "AH QS QH", S: "2C KH 4D", W: "KC 2H 5D"}   # East holds only penalty cards
    game, state = hearts_tricks(hands, no_points_on_first_trick=True)
    play(game, state, "2 of clubs", "K of clubs", "A of clubs")
    assert game.labels(state) == ["A of hearts", "Q of spades", "Q of hearts"]


def test_hearts_the_highest_card_of_the_suit_led_wins():
    game, state = hearts_tricks({N: "AC 3H", E: "AS 3D", S: "2C AH", W: "KC 2H"})
    play(game, state, "2 of clubs", "K of clubs", "A of clubs", "A of spades")
    assert state.counters["tricks"] == [1, 0, 0, 0]


ALL_HEARTS = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"


def hearts_score(won, totals=(0, 0, 0, 0), **options):
    game = game_of("hearts", 4, **options)
    return game, at(game, "shooter", won=won, totals=totals)


def test_hearts_one_point_per_heart_and_13_for_the_queen_of_spades():
    # derived: 4 hearts and the queen of spades: 17; the other 9 hearts to East
    game, state = hearts_score({N: "AH KH QH JH QS 2C", E: "10H 9H 8H 7H 6H 5H 4H 3H 2H", S: "AS", W: "KS"})
    assert state.round_results[-1] == [17, 9, 0, 0]


@pytest.mark.parametrize("choice,totals", [("shooter -26", [14, 50, 60, 70]), ("others +26", [40, 76, 86, 96])])
def test_hearts_shooting_the_moon_the_shooter_chooses(choice, totals):
    # derived: A 40, B 50, C 60, D 70; A takes all 13 hearts and the queen of spades
    game, state = hearts_score({N: ALL_HEARTS + " QS", E: "AC"}, totals=(40, 50, 60, 70))
    assert asked(game, state) == "North" and game.labels(state) == ["shooter -26", "others +26"]
    play(game, state, choice)
    assert state.totals == totals


def test_hearts_the_moon_can_be_fixed_by_an_option():
    game, state = hearts_score({N: ALL_HEARTS + " QS"}, totals=(40, 50, 60, 70), moon="others +26")
    assert state.totals == [40, 76, 86, 96] and state.pending.actor == CHANCE   # nobody was asked
    game, state = hearts_score({N: ALL_HEARTS}, totals=(40, 50, 60, 70))          # no queen: no moon
    assert state.totals == [53, 50, 60, 70]


def test_hearts_game_ends_at_100_and_the_lowest_score_wins():
    # derived: after a hand A 102, B 60, C 45, D 70: the game ends and C wins
    game, state = hearts_score({N: "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H", W: "2H QS"}, totals=(90, 60, 45, 56))
    assert state.totals == [102, 60, 45, 70] and state.finished and game.winners(state) == [S]
    game, state = hearts_score({N: "AH KH QH JH 10H 9H 8H", W: "2H QS"}, totals=(90, 60, 45, 56))
    assert state.totals == [97, 60, 45, 70] and not state.finished


# ================================================================= Euchre


def euchre_deal(up="9H", hands=None, **options):
    """Round 1 (North deals) with ``up`` turned up."""
    game = game_of("euchre", 4, **options)
    state = game.new_state()
    deal(game, state, hands or {}, rest=up)
    return game, state


def test_euchre_24_cards_five_each_and_the_next_card_turned_up():
    game, state = euchre_deal("9H")
    assert [len(h) for h in state.per_seat["hand"]] == [5, 5, 5, 5]
    assert [game.cards.labels[c] for c in state.shared["upcard"]] == ["9 of hearts"]
    assert len(state.shared["kitty"]) == 3


def test_euchre_ordering_up_makes_the_turned_suit_trump_and_the_dealer_takes_the_card_and_discards():
    game, state = euchre_deal("9H")
    assert asked(game, state) == "East" and game.labels(state) == ["pass", "order it up"]
    play(game, state, "pass")
    play(game, state, "order it up")                            # South orders it up
    assert state.vars["trump"] == "hearts" and state.vars["maker"] == S
    assert asked(game, state) == "North" and "9 of hearts" in hand_of(game, state, N)
    assert len(game.labels(state)) == 6                         # the dealer discards one of six cards
    play(game, state, game.labels(state)[0])
    assert len(state.per_seat["hand"][N]) == 5 and len(state.shared["discard"]) == 1
    assert asked(game, state) == "South" and game.labels(state) == ["play with partner", "go alone"]


def test_euchre_the_dealer_takes_it_up():
    game, state = euchre_deal("9S")
    play(game, state, "pass", "pass", "pass")
    assert asked(game, state) == "North" and game.labels(state) == ["pass", "take it up"]
    play(game, state, "take it up")
    assert state.vars["trump"] == "spades" and state.vars["maker"] == N


def test_euchre_second_round_names_another_suit_and_all_passing_throws_the_cards_in():
    game, state = euchre_deal("9H")
    play(game, state, "pass", "pass", "pass", "pass")          # the up-card is turned face down
    assert not state.shared["upcard"] and len(state.shared["kitty"]) == 4
    assert asked(game, state) == "East"
    assert game.labels(state) == ["pass", "call clubs", "call diamonds", "call spades"]
    play(game, state, "pass", "call clubs")
    assert state.vars["trump"] == "clubs" and state.vars["maker"] == S
    game, state = euchre_deal("9H")
    play(game, state, *["pass"] * 8)                            # nobody makes trump: no play, no score
    assert state.round_results == [[0, 0, 0, 0]]
    assert state.pending.actor == CHANCE and state.dealer == E   # the next player deals


def test_euchre_stick_the_dealer_is_an_option():
    game, state = euchre_deal("9H", stick_the_dealer=True)
    play(game, state, *["pass"] * 7)
    assert asked(game, state) == "North"
    assert game.labels(state) == ["call clubs", "call diamonds", "call spades"]    # no pass
    play(game, state, "call clubs")
    assert state.vars["trump"] == "clubs" and state.vars["maker"] == N


def euchre_tricks(hands, trump="hearts", **values):
    game = game_of("euchre", 4)
    return game, at(game, "tricks", hands, dealer=W, teams=[0, 1, 0, 1], trump=trump, maker=N, **values)


def test_euchre_the_left_bower_belongs_to_the_trump_suit():
    # pagat: with hearts trump, the jack of diamonds is a heart, not a diamond
    game, state = euchre_tricks({N: "AD", E: "JD KC", S: "9D", W: "10D"})
    play(game, state, "A of diamonds")
    assert game.labels(state) == ["J of diamonds", "K of clubs"]   # derived: no diamond, so either
    game, state = euchre_tricks({N: "AH", E: "JD AC", S: "9H", W: "10H"})
    play(game, state, "A of hearts")
    assert game.labels(state) == ["J of diamonds"]                 # derived: a heart led, it must be played
    game, state = euchre_tricks({N: "JD", E: "10D KH", S: "9D", W: "9C"})
    play(game, state, "J of diamonds")
    assert game.labels(state) == ["K of hearts"]                   # the left bower led: follow hearts


@pytest.mark.parametrize("cards,winner", [
    ({N: "AH", E: "JD", S: "JH", W: "KH"}, S),     # right bower over the left bower and the ace
    ({N: "9H", E: "JD", S: "AH", W: "10H"}, E),    # left bower over the ace of trumps
    ({N: "AD", E: "JD", S: "KD", W: "9H"}, E),     # left bower trumps a diamond lead
    ({N: "AC", E: "JC", S: "9C", W: "QC"}, N),     # the jack of clubs is a plain club
    ({N: "9D", E: "KD", S: "AS", W: "10D"}, E),    # no trump: the highest of the suit led
])
def test_euchre_trump_ranking_right_bower_left_bower_then_a_k_q_10_9(cards, winner):
    spare = {N: "9S", E: "10S", S: "QS", W: "KS"}               # a second card each: play goes on
    game, state = euchre_tricks({s: cards[s] + " " + spare[s] for s in cards})
    play(game, state, *labs(" ".join(cards[s] for s in (N, E, S, W))))
    assert state.counters["tricks"] == [1 if s == winner else 0 for s in range(4)]


def test_euchre_going_alone_the_partner_sits_out_and_the_lone_players_left_leads():
    game = game_of("euchre", 4)
    hands = {N: "9C 10C QC KC AC", E: "JH JD AH KH QH", S: "9S 10S QS KS AS", W: "9D 10D QD KD AD"}
    state = at(game, "alone", hands, dealer=N, teams=[0, 1, 0, 1], trump="hearts", maker=E)
    play(game, state, "go alone")
    assert asked(game, state) == "South"                       # left of the lone player
    seen = set()
    while not state.round_results:
        seen.add(game.current(state))
        game.apply(state, game.legal_actions(state)[0])
    assert seen == {N, E, S}                                   # West never plays
    assert state.round_results == [[0, 4, 0, 4]]               # the lone maker takes all five: 4


@pytest.mark.parametrize("makers_tricks,alone,points", [
    (3, False, (1, 0)), (4, False, (1, 0)), (5, False, (2, 0)),     # derived from pagat's table
    (5, True, (4, 0)), (4, True, (1, 0)), (3, True, (1, 0)),
    (2, False, (0, 2)), (1, False, (0, 2)), (0, False, (0, 2)),     # euchred: 2 to the defenders
])
def test_euchre_scoring(makers_tricks, alone, points):
    game = game_of("euchre", 4)
    tricks = [makers_tricks, 5 - makers_tricks, 0, 0]
    state = at(game, "score", tricks=tricks, teams=[0, 1, 0, 1], trump="spades", maker=N,
               alone=N if alone else None)
    assert state.round_results[-1] == [points[0], points[1], points[0], points[1]]


def test_euchre_super_euchre_is_an_option_and_game_is_ten():
    game = game_of("euchre", 4, super_euchre=True)
    state = at(game, "score", tricks=[0, 5, 0, 0], teams=[0, 1, 0, 1], trump="spades", maker=N)
    assert state.round_results[-1] == [0, 4, 0, 4]
    game = game_of("euchre", 4)
    state = at(game, "score", tricks=[3, 2, 0, 0], teams=[0, 1, 0, 1], trump="spades", maker=N,
               totals=[9, 8, 9, 8])
    assert state.totals == [10, 8, 10, 8] and state.finished and game.winners(state) == [N, S]
