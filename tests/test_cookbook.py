"""The cookbook (docs/cookbook.md) is real: each recipe's example file validates, does the one thing its recipe is
about, and is quoted in the cookbook verbatim; that random bots play it through every check of the conformance
battery (cards conserved, records replayed, clones, saves, playout), tests/test_conformance.py checks. Also:
rule-files.md carries the generated step tables."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from interpreter import schema_gen
from interpreter.cli import validate_file
from interpreter.engine.compile import compile_game
from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE, State
from interpreter.harness.runner import play_game
from interpreter.match.records import replay, write_record
from interpreter.rules.loader import load_rules

from .conftest import at_step

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
RECIPES = ("bidding", "auction", "turned-trump", "partners", "hidden-partners", "passing", "pass-back", "captures",
           "claims", "split-tricks", "exchange", "two-zones", "dummy", "deal-file", "climbing", "partner-winning",
           "deal-all", "board-auction", "big-two", "excuse")
SEEDS = range(4)


def _game(name: str, players: int = 4) -> Game:
    return compile_game(load_rules(EXAMPLES / f"{name}.yaml"), players)


def _play(game: Game, state: State, label: str) -> None:
    game.apply(state, game.action_for_label(state, label))


def _names(game: Game, cards: list[int]) -> list[str]:
    return sorted(game.cards.labels[c] for c in cards)


def _walk(game: Game, seed: int, watch) -> State:
    """A random game, calling ``watch(state, decision, action)`` before each seat's action is applied."""
    rng = random.Random(seed)
    state = game.new_state()
    while not state.finished:
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, d.step.chance.sample(game, state, rng))
            continue
        action = rng.choice(d.actions)
        watch(state, d, action)
        game.apply(state, action)
    return state


# ---------------------------------------------------------------- every recipe


def test_every_recipe_has_its_example_file_and_nothing_else_is_left_out() -> None:
    # the variants of bundled games are not recipes: tiny-njet (records.md), njet-nines, mue-300 and
    # was-sticht-red (rule-files.md); tests/test_records_doc.py, tests/test_mue_variant.py and
    # tests/test_was_sticht_variant.py test them; nor is tiny-duel, the game docs/api.md solves with OpenSpiel
    # (tests/test_openspiel.py), nor hearts-jack, the house rule docs/agents.md compares with Hearts
    # (tests/test_compare.py, tests/test_docs_outputs.py)
    files = {p.stem for p in EXAMPLES.glob("*.yaml")} - {"tiny-njet", "njet-nines", "mue-300", "was-sticht-red",
                                                         "tiny-duel", "hearts-jack"}
    assert files == set(RECIPES)


@pytest.mark.parametrize("name", RECIPES)
def test_the_example_validates(name: str) -> None:
    assert validate_file(str(EXAMPLES / f"{name}.yaml")) == []


@pytest.mark.parametrize("name", RECIPES)
def test_the_cookbook_quotes_the_example_verbatim(name: str) -> None:
    doc = (DOCS / "cookbook.md").read_text(encoding="utf-8")
    assert f"docs/examples/{name}.yaml" in doc
    blocks = re.findall(r"```yaml\n(.*?)```", doc, re.S)
    text = (EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8")
    assert text in blocks, f"docs/cookbook.md does not show docs/examples/{name}.yaml whole, in one yaml block"


# ---------------------------------------------------------------- what each recipe is about


def test_bidding_the_dealer_may_not_make_the_bids_add_up_to_the_tricks() -> None:
    game = _game("bidding")
    suits = ["clubs", "diamonds", "hearts", "spades"]
    hands = {s: [f"{suit} {r}" for r in range(2, 7)] for s, suit in enumerate(suits)}
    state = at_step(game, "bid", hands, dealer=3)                 # West deals and bids last
    for label in ("bid 1", "bid 2", "bid 0"):                     # North, East, South
        _play(game, state, label)
    assert game.current(state) == 3
    assert game.labels(state) == ["bid 0", "bid 1", "bid 3", "bid 4", "bid 5"]   # not bid 2: 1 + 2 + 0 + 2 = 5
    _play(game, state, "bid 4")
    assert state.seat_vars["bid"] == [1, 2, 0, 4]


def test_auction_a_seat_that_passes_is_out_and_the_last_bidder_left_plays() -> None:
    game = _game("auction")
    suits = ["clubs", "diamonds", "hearts", "spades"]
    hands = {s: [f"{suit} {r}" for r in range(2, 7)] for s, suit in enumerate(suits)}
    state = at_step(game, "auction", hands, dealer=3)             # North bids first
    asked = []
    for label in ("pass", "pass", "bid 1", "bid 2", "bid 3", "pass"):
        asked.append(game.current(state))
        _play(game, state, label)
    assert asked == [0, 1, 2, 3, 2, 3]                            # North and East are never asked again
    assert (state.vars["contract"], state.vars["declarer"]) == (3, 2)
    assert [(h["seat"], h["passed"]) for h in state.vars["calls"]] == [
        (0, True), (1, True), (2, False), (3, False), (2, False), (3, True)]
    assert state.pending.step.name == "tricks" and game.current(state) == 2   # the declarer leads


def test_auction_a_deal_all_passed_is_thrown_in() -> None:
    game = _game("auction")
    state = at_step(game, "auction", {}, dealer=3)
    for _ in range(4):
        _play(game, state, "pass")
    assert state.vars["declarer"] is None
    assert state.round_number == 2 and state.totals == [0, 0, 0, 0]


def test_bidding_in_random_games_the_bids_never_add_up_to_the_tricks() -> None:
    game = _game("bidding", 3)
    for seed in range(10):
        bids: dict[int, int] = Counter()

        def watch(state: State, d, action, bids=bids) -> None:
            if d.step.name == "bid":
                bids[state.round_number] += action.value

        _walk(game, seed, watch)
        assert len(bids) == 4 and 5 not in bids.values()


def test_turned_trump_the_trump_is_the_suit_of_the_turned_card() -> None:
    game = _game("turned-trump", 3)
    suits = game.cards.attributes["suit"]
    for seed in range(5):
        seen = []

        def watch(state: State, d, action, seen=seen) -> None:
            if d.step.name == "tricks":
                turned = state.shared["turnup"]
                assert len(turned) == 1 and len(state.shared["stock"]) == 32 - 3 * 6 - 1
                assert state.vars["trump"] == suits[turned[0]]
                seen.append(state.round_number)

        _walk(game, seed, watch)
        assert set(seen) == {1, 2, 3, 4}


def test_turned_trump_a_trump_beats_the_led_suit() -> None:
    game = _game("turned-trump")
    state = at_step(game, "tricks", {0: ["hearts 14"], 1: ["clubs 7"], 2: ["hearts 8"], 3: ["spades 14"]},
                    dealer=3, trump="clubs")
    for label in ("hearts 14", "clubs 7", "hearts 8", "spades 14"):
        _play(game, state, label)
    assert _names(game, state.per_seat["won"][1]) == ["clubs 7", "hearts 14", "hearts 8", "spades 14"]


def test_partners_score_together() -> None:
    game = _game("partners")
    for seed in range(5):
        out = play_game(game, seed=seed)
        north, east, south, west = out.totals
        assert north == south and east == west and north + east == 4 * 6
        for scores in out.round_results:
            assert scores[0] + scores[1] == 6


def _passed(game: Game, seed: int, step: str, receiver) -> dict[int, dict[int, list[int]]]:
    """A random game's cards chosen in ``step``, by round and seat; at each round's first play, every one of them
    is in the hand of ``receiver(seat, round)`` and every hand holds 6 cards."""
    passed: dict[int, dict[int, list[int]]] = {}
    checked = set()

    def watch(state: State, d, action) -> None:
        n = state.round_number
        if d.step.name == step:
            passed.setdefault(n, {}).setdefault(d.actor, []).append(action.value)
        elif d.step.name == "tricks" and n not in checked:         # the first play of the round
            checked.add(n)
            for seat, cards in passed.get(n, {}).items():
                assert all(c in state.per_seat["hand"][receiver(seat, n)] for c in cards)
            assert all(len(hand) == 6 for hand in state.per_seat["hand"])

    _walk(game, seed, watch)
    assert checked == {1, 2, 3, 4}
    return passed


def test_passing_goes_left_right_across_and_then_not_at_all() -> None:
    game = _game("passing")
    directions = {1: 1, 2: 3, 3: 2}                               # seats to the left: left, right, across
    for seed in range(5):
        passed = _passed(game, seed, "pass", lambda seat, n: (seat + directions[n]) % 4)
        assert sorted(passed) == [1, 2, 3]
        assert all(len(cards) == 3 for by_seat in passed.values() for cards in by_seat.values())


def test_pass_back_gives_one_card_back_to_whoever_passed_in_round_1_only() -> None:
    game = _game("pass-back")
    for seed in range(3):                                          # back to the right: who passed to the left
        given = _passed(game, seed, "pass_back", lambda seat, n: (seat + 3) % 4)
        assert sorted(given) == [1] and len(given[1]) == 4
        assert all(len(cards) == 1 for cards in given[1].values())



@pytest.mark.parametrize("east, south_may", [("hearts 9", ["hearts 10", "hearts 14"]),   # North is winning
                                             ("hearts 13", ["hearts 14"])])                # East is winning
def test_partner_winning_a_seat_heads_the_trick_unless_its_partner_is_winning_it(east, south_may) -> None:
    game = _game("partner-winning")
    hands = {0: ["hearts 12", "clubs 9"], 1: [east, "clubs 10"], 2: ["hearts 10", "hearts 14"],
             3: ["spades 9", "spades 10"]}
    state = at_step(game, "tricks", hands, dealer=3, teams=[0, 1, 0, 1])
    for label in ("hearts 12", east):
        _play(game, state, label)
    assert game.current(state) == 2 and sorted(game.labels(state)) == south_may
    ten = next(c for c in state.per_seat["hand"][2] if game.cards.labels[c] == "hearts 10")
    assert game.refusal(state, ten) == (None if len(south_may) == 2 else
                                        "you must head the trick, unless your partner is winning it")



def test_excuse_the_fool_goes_back_to_its_player_and_the_low_card_owed_is_given_once_its_side_wins_one() -> None:
    game = _game("excuse")
    hands = {1: ["clubs 5", "hearts 1", "spades 1", "spades 2"], 2: ["fool 0", "hearts 2", "clubs 1", "spades 3"],
             3: ["clubs 4", "hearts 3", "clubs 2", "spades 4"], 0: ["clubs 3", "hearts 5", "hearts 4", "spades 5"]}
    state = at_step(game, "tricks", hands, dealer=0, teams=[0, 1, 0, 1])
    won = state.per_seat["won"]
    for label in ("clubs 5", "fool 0", "clubs 4", "clubs 3"):  # East wins; South's side has no trick yet
        _play(game, state, label)
    assert _names(game, won[2]) == ["fool 0"] and _names(game, won[1]) == ["clubs 3", "clubs 4", "clubs 5"]
    assert (state.vars["debtor"], state.vars["creditor"]) == (2, 1)  # South owes East a low card
    for label in ("hearts 1", "hearts 2", "hearts 3", "hearts 5"):  # North wins: the debt is paid from it
        _play(game, state, label)
    assert _names(game, won[0]) == ["hearts 2", "hearts 3", "hearts 5"] and "hearts 1" in _names(game, won[1])
    assert state.vars["debtor"] is None and game.current(state) == 0


def test_a_route_whose_owner_gives_no_seat_stops_the_game_at_the_owner(tmp_path) -> None:
    text = (EXAMPLES / "excuse.yaml").read_text(encoding="utf-8").replace("owner: player", "owner: round.creditor")
    (tmp_path / "nobody.yaml").write_text(text, encoding="utf-8")
    game = compile_game(load_rules(tmp_path / "nobody.yaml"), 4)
    with pytest.raises(Exception, match=r"nobody.yaml:\d+:\d+: error: a route to 'won' needs a seat, got None"):
        for seed in SEEDS:
            _walk(game, seed, lambda *a: None)


@pytest.mark.parametrize("players, dealt", [(3, [8, 8, 8]), (4, [6, 6, 6, 6]), (5, [5, 5, 5, 5, 4])])
def test_deal_all_deals_every_card_one_more_to_the_first_seats_then_lays_the_extra_aside(players, dealt) -> None:
    game = _game("deal-all", players)
    for seed in range(3):
        seen: dict[str, list[int]] = {}

        def watch(state: State, d, action, seen=seen) -> None:
            sizes = [len(h) for h in state.per_seat["hand"]]
            seen.setdefault(d.step.name, sizes)

        state = _walk(game, seed, watch)
        assert seen["lay_aside" if players == 5 else "tricks"] == dealt  # what the deal gave, before anyone chose
        assert seen["tricks"] == [min(dealt)] * players and state.round_number == 3


def test_an_unequal_deal_that_needs_more_cards_than_the_pack_is_refused_naming_each_seat_s_number(tmp_path) -> None:
    text = (EXAMPLES / "deal-all.yaml").read_text(encoding="utf-8").replace(
        '"24 // players + (1 if seat.index < 24 % players else 0)"', '"6 + (1 if seat.index < 2 else 0)"')
    (tmp_path / "more.yaml").write_text(text, encoding="utf-8")
    game = compile_game(load_rules(tmp_path / "more.yaml"), 4)
    with pytest.raises(Exception, match=r"more.yaml:\d+:\d+: error: dealing 7, 7, 6, 6 cards to 4 seats needs 26 "
                                         r"cards, the deck has 24 \(round 1\)"):
        _walk(game, 0, lambda *a: None)

def test_captures_an_opponent_s_1_is_captured_and_the_taker_s_own_1_is_not() -> None:
    game = _game("captures")
    hands = {0: ["red 9", "green 1", "yellow 9"], 1: ["red 1", "blue 5", "blue 9"],
             2: ["red 2", "blue 6", "blue 8"], 3: ["blue 1", "yellow 5", "yellow 6"]}
    state = at_step(game, "tricks", hands, dealer=3)
    for label in ("red 9", "red 1", "red 2", "blue 1"):           # North wins; East's and West's 1s
        _play(game, state, label)
    assert _names(game, state.per_seat["captured"][0]) == ["blue 1", "red 1"]
    assert _names(game, state.per_seat["won"][0]) == ["red 2", "red 9"]
    for label in ("green 1", "blue 5", "blue 6", "yellow 5"):     # North wins with his own 1
        _play(game, state, label)
    assert _names(game, state.per_seat["captured"][0]) == ["blue 1", "red 1"]
    assert "green 1" in _names(game, state.per_seat["won"][0])


def test_claims_a_claim_wins_the_trick_and_each_seat_claims_once_a_round() -> None:
    game = _game("claims")
    hands = {0: ["red 2", "blue 1"], 1: ["red 8", "blue 2"], 2: ["red 5", "blue 3"], 3: ["red 3", "blue 4"]}
    state = at_step(game, "tricks", hands, dealer=3)
    _play(game, state, "red 2")
    assert game.current(state) == 0 and game.labels(state) == ["no claim", "claim"]
    _play(game, state, "claim")
    for label in ("red 8", "red 5", "red 3"):                     # nobody else is asked this trick
        assert game.labels(state) == [label]
        _play(game, state, label)
    assert _names(game, state.per_seat["won"][0]) == ["red 2", "red 3", "red 5", "red 8"]   # not East's 8
    assert game.current(state) == 0
    _play(game, state, "blue 1")
    assert game.current(state) == 1                               # North has claimed: not asked again
    assert game.labels(state) == ["blue 2"]


def test_split_tricks_the_winner_chooses_one_card_and_the_lowest_card_takes_the_rest_and_leads() -> None:
    game = _game("split-tricks")
    hands = {0: ["red 9", "green 2"], 1: ["red 2", "green 3"], 2: ["red 5", "green 4"], 3: ["blue 1", "green 5"]}
    state = at_step(game, "tricks", hands, dealer=3)
    for label in ("red 9", "red 2", "red 5", "blue 1"):
        _play(game, state, label)
    assert game.current(state) == 0                               # the winner chooses
    assert game.labels(state) == ["take red 9", "take red 2", "take red 5", "take blue 1"]
    _play(game, state, "take red 5")
    assert _names(game, state.per_seat["won"][0]) == ["red 5"]
    assert _names(game, state.per_seat["won"][3]) == ["blue 1", "red 2", "red 9"]   # the lowest card: West
    assert state.counters["tricks"] == [1, 0, 0, 0]
    assert game.current(state) == 3                               # ... and leads


def test_exchange_the_winner_swaps_a_hand_card_for_a_card_of_the_trick_of_its_suit() -> None:
    game = _game("exchange")
    hands = {0: ["red 9", "red 1", "blue 1"], 1: ["red 8", "blue 2", "blue 3"], 2: ["green 5", "blue 4", "blue 5"],
             3: ["red 3", "blue 6", "blue 7"]}
    state = at_step(game, "tricks", hands, dealer=3)
    for label in ("red 9", "red 8", "green 5", "red 3"):
        _play(game, state, label)
    assert game.current(state) == 0
    assert game.labels(state) == ["no exchange", "swap red 1 for red 9", "swap red 1 for red 8",
                                  "swap red 1 for red 3"]
    _play(game, state, "swap red 1 for red 8")
    assert _names(game, state.per_seat["hand"][0]) == ["blue 1", "red 8"]
    assert _names(game, state.per_seat["won"][0]) == ["green 5", "red 1", "red 3", "red 9"]
    assert game.current(state) == 0 and game.labels(state) == ["blue 1", "red 8"]   # North leads on


def test_two_zones_cards_are_played_from_both_and_following_looks_at_both() -> None:
    game = _game("two-zones")
    hands = {0: ["red 5", "red 6", "blue 8"], 1: ["red 1", "blue 2", "blue 3"], 2: ["green 1", "green 2", "red 7"],
             3: ["yellow 1", "yellow 2", "yellow 3"]}
    state = at_step(game, "lay_open", hands, dealer=3)
    for label in ("red 5", "red 6", "red 1", "blue 2", "green 1", "green 2", "yellow 1", "yellow 2"):
        _play(game, state, label)
    assert _names(game, state.per_seat["open"][1]) == ["blue 2", "red 1"]
    assert game.labels(state) == ["blue 8", "red 5 from open", "red 6 from open"]
    _play(game, state, "red 6 from open")
    assert game.labels(state) == ["red 1 from open"]              # East's only red card is open
    _play(game, state, "red 1 from open")
    assert game.labels(state) == ["red 7"]                        # South's only red card is in the hand
    _play(game, state, "red 7")
    assert _names(game, state.per_seat["open"][3]) == ["yellow 1", "yellow 2"]
    assert game.labels(state) == ["yellow 3", "yellow 1 from open", "yellow 2 from open"]


# ---------------------------------------------------------------- the generated step tables

GENERATED = re.compile(r"<!-- generated: step options -->\n(.*?)<!-- end generated -->", re.S)


def test_rule_files_md_carries_the_step_tables_the_generator_prints() -> None:
    doc = (DOCS / "rule-files.md").read_text(encoding="utf-8")
    found = GENERATED.findall(doc)
    assert len(found) == 1, "docs/rule-files.md needs one block between the generated-table markers"
    assert found[0].strip("\n") == schema_gen.docs().strip("\n"), (
        "the step tables in docs/rule-files.md are out of date: run `python -m interpreter.schema_gen`")


def test_the_generator_s_command_line_prints_the_same_tables() -> None:
    out = subprocess.run([sys.executable, "-m", "interpreter.schema_gen", "--docs"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert out == schema_gen.docs()


def test_dummy_the_declarer_plays_the_dummys_cards_which_everyone_sees() -> None:
    game = _game("dummy")
    asked = []

    def watch(state: State, d, action) -> None:
        p, values = state.progress, state.vars
        if d.step.name != "tricks" or not hasattr(p, "turn"):
            return
        declarer, dummy = values["declarer"], values["dummy"]
        if p.turn == dummy:
            assert d.actor == declarer
            assert action.card in state.per_seat["table"][dummy] + state.per_seat["hand"][dummy]
            asked.append(d.actor)
        else:
            assert d.actor == p.turn
        if p.plays:  # after the opening lead the dummy's cards lie on the table, for everyone to see
            assert state.per_seat["hand"][dummy] == [] and game.zones["table"].visible == "all"

    for seed in SEEDS:
        _walk(game, seed, watch)
    assert len(asked) == 8 * 4 * len(SEEDS)  # every one of the dummy's cards, every round


def test_deal_file_the_first_deal_gives_each_seat_the_hand_the_file_writes(tmp_path: Path) -> None:
    from interpreter.harness.deal_files import fixed_deal

    game = _game("deal-file")
    out = play_game(game, seed=1, record=True, deal=fixed_deal(game, EXAMPLES / "deal-file.pbn"))
    hands = out.record[1]["outcome"]["hand"]
    # N:.63.AKQ987.A9732 -- no spades, the 6 and 3 of hearts, ...; West (the fourth hand): KQT2.AT.J6542.85
    assert hands["North"][:3] == ["hearts 6", "hearts 3", "diamonds 14"]
    assert sorted(hands["West"]) == sorted(["spades 13", "spades 12", "spades 10", "spades 2", "hearts 14",
                                            "hearts 10", "diamonds 11", "diamonds 6", "diamonds 5", "diamonds 4",
                                            "diamonds 2", "clubs 8", "clubs 5"])
    record = tmp_path / "r.jsonl"
    write_record(record, out.record)
    assert replay(record, rules=str(EXAMPLES / "deal-file.yaml")).totals == out.totals



@pytest.mark.parametrize("players", [3, 4])
def test_board_auction_each_row_s_last_space_sets_the_round_and_a_space_covered_before_play_is_never_offered(
        players: int) -> None:
    game = _game("board-auction", players)
    (step,) = [s for s in game.every_step() if s.kind == "board"]
    worth = next(r for r, row in enumerate(step.rows) if row.key == "worth")
    covered: set[tuple[int, int]] = set()
    played: list[int] = []

    def watch(state: State, d, action) -> None:
        if d.step is step:
            offered = {step.rows[worth].labels[a.space] for a in d.actions if a.row == worth}
            if players == 4 or not covered:  # covered before play with 4 players; open at first with 3
                assert ("2 a trick" in offered) == (players == 3)
            covered.add(tuple(action))
        elif d.step.name == "tricks" and state.round_number not in played:
            # the first play of the round: each row set to its one space left, the first trick led by it
            for r, row in enumerate(step.rows):
                left = [i for i in range(len(row.values)) if (r, i) not in covered and not row.covered[i]]
                assert len(left) == 1 and state.vars[row.key] == row.values[left[0]], (row.key, left)
            assert d.actor == state.vars["lead"]
            played.append(state.round_number)
            covered.clear()

    for seed in SEEDS:
        played.clear()
        _walk(game, seed, watch)
        assert played == [1, 2]
