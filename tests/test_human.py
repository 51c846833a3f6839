"""``trickbook play --human SEAT``, driven through its input stream: what a person sees and how answers are
read (harness/agents.py HumanAgent and render_observation, the narration of harness/runner.py)."""

from __future__ import annotations

import io
import re

import pytest

from interpreter.cli import main
from interpreter.harness.agents import HumanAgent, RandomAgent
from interpreter.harness.runner import play_game

from .conftest import ROOT, game_of


def _play(name, players, seat, answers, seed=3):
    """Play with a person at ``seat`` answering from ``answers`` (then always 1); the text they were shown."""
    game = game_of(name, players)
    queue = list(answers)
    out = io.StringIO()

    def read(_prompt):
        if queue:
            return queue.pop(0)
        shown = re.findall(r"^\s+(\d+)\. ", _last_menu(out), re.M)
        return shown[0] if shown else "1"  # the first choice shown (numbers stay as they were within a turn)

    agents = [RandomAgent(f"{seed}:{s}") for s in range(players)]
    agents[seat] = HumanAgent(read=read, out=out)
    lines = []
    play_game(game, agents, seed, narrate=lambda text: out.write(text + "\n"), viewer=seat)
    lines = out.getvalue()
    return game, lines


def _last_menu(out):
    """The text from the last prompt on: the menu now shown."""
    text = out.getvalue()
    start = max(text.rfind(":\n  "), 0)
    return text[start:]


def _menus(text):
    """Each choice list shown: the numbered labels, in order (a list follows its prompt line)."""
    menus, current = [], None
    for line in text.splitlines():
        m = re.match(r"\s+(\d+)\. (.*)", line)
        if m:
            if current is None:
                current = []
                menus.append(current)
            current.append(m.group(2))
        else:
            current = None
    return menus


@pytest.mark.parametrize("name", ["njet-riogrande", "whist"])
def test_cards_are_offered_in_the_order_the_hand_shows_them_grouped_by_suit(name):
    game, text = _play(name, 4, 0, [])
    order = {label: game.hand_order[c] for c, label in reversed(list(enumerate(game.cards.labels)))}
    suit = dict(zip(game.cards.labels, game.hand_group))
    hands = re.findall(r"your hand: (.*)", text)
    assert hands
    for hand in hands:
        groups = [g.split(", ") for g in hand.split(" | ")]
        cards = [c for g in groups for c in g]
        assert [order[c] for c in cards] == sorted(order[c] for c in cards)
        assert all(len({suit[c] for c in g}) == 1 for g in groups)  # one suit per group
        assert len({suit[c] for c in cards}) == len(groups)
    plays = [m for m in _menus(text) if all(c in order for c in m)]
    assert len(plays) > 10
    for menu in plays:
        assert [order[c] for c in menu] == sorted(order[c] for c in menu)


def test_a_game_with_a_table_shows_its_lines_only_in_every_phase_never_raw_values():
    # NJET declares its table: while the board is covered none of its lines has a value yet, and the view shows
    # the board's rows, not the round's values by their names (own_size, partners, monster: none)
    _, text = _play("njet-riogrande", 4, 0, [])
    first = text.split("turquoise, cover a space")[0]
    assert "  tricks: turquoise 0, lilac 0, orange 0, green 0" in first  # before anyone has a trick
    assert re.search(r"\n    start player: +turquoise \| lilac \| orange \| green  \(4 left\)\n", first)  # a row
    assert "own_size" not in text and "monster: none" not in text and "partners: none" not in text


@pytest.mark.parametrize("name, players", [("njet-riogrande", 4), (str(ROOT / "docs" / "examples" /
                                                                      "board-auction.yaml"), 4)],
                         ids=["njet-riogrande", "board-auction"])
def test_the_board_is_drawn_row_by_row_with_who_covered_each_space_and_what_each_row_has_left(name, players):
    # each board the person is shown: every row of the declaration with all its spaces, each space covered so far
    # (as the narration told it) in brackets with who covered it, and how many spaces the row has left
    game, text = _play(name, players, 0, [])
    step = next(s for s in game.every_step() if s.kind == "board")
    me = game.seat_names[0]
    boards = marks = before_play = 0
    parts = text.split("\n  the board (a covered space: [space by who covered it]):\n")
    for i, block in enumerate(parts[1:], 1):
        this_round = "\n".join(parts[:i]).split("\nRound ")[-1]  # the covers narrated so far in its round
        covered = {(t, sp): who for who, t, sp in re.findall(r"^  (\S+) covers (.+?): (.+)$", this_round, re.M)}
        for row, line in zip(step.rows, block.splitlines()):
            title, spaces, left = re.fullmatch(r"    (.+?): +(.*)  \((\d+) left\)", line).groups()
            assert title == row.title
            shown = spaces.split(" | ")
            assert len(shown) == len(row.labels)
            for label, space in zip(row.labels, shown):
                who = covered.get((title, label))
                if who is not None:
                    assert space == f"[{label} by {'you' if who == me else who}]", (line, who)
                    marks += 1
                else:
                    assert space in (label, f"[{label}]"), line  # open, or covered before play
                    before_play += space == f"[{label}]"
            assert int(left) == sum(not s.startswith("[") for s in shown)
        boards += 1
    assert boards >= 2 and marks >= 4 and any(" by you]" in block for block in parts[2:])
    assert before_play == (boards if "board-auction" in name else 0)  # "2 a trick" starts covered with 4 players


def test_without_a_table_the_status_names_values_as_the_narration_and_shows_unset_ones(tmp_path):
    plain = tmp_path / "no-table.yaml"
    plain.write_text("extends: njet-riogrande\nname: no-table\ntable: null\n")
    _, text = _play(str(plain), 4, 0, [])
    status = next(line for line in text.splitlines() if line.startswith("  start player: none"))
    assert "supertrump (the 0s of a colour): " in status and "points per trick and captured 0: " in status
    assert "monster: none" in status  # a value without one is shown, not dropped


def test_the_person_sees_the_trick_number_who_leads_and_the_last_trick():
    _, text = _play("oh-hell", 4, 0, [])
    assert re.search(r"  trick 1: (you lead|[A-D] leads)", text)
    assert re.search(r"  trick \d+, led by [A-D]: [A-D] ", text)
    assert re.search(r"  last trick: .* -> [A-D] won it", text)


def test_after_a_pass_the_person_is_told_the_cards_received():
    _, text = _play("njet-riogrande", 4, 0, [])
    received = re.findall(r"you receive: (.*)", text)
    assert received and all(len(r.split(", ")) in (1, 2) for r in received)
    hand_after = text.split("you receive: " + received[0])[1]
    hand = re.search(r"your hand: (.*)", hand_after).group(1).split(", ")
    assert all(card in hand or card in hand_after for card in received[0].split(", "))


def test_each_round_score_is_explained():
    _, text = _play("meinz", 4, 0, [])
    assert re.search(r"    Alex [+-]\d+: \d+ in tricks; the places by [\d, ]+ score 3, 1, 0, 2", text)


def test_an_ambiguous_start_of_a_label_gets_a_hint_and_nonsense_the_rule():
    # oh hell's first decision is a bid: 0, 1, ... ; then cards: "1" is a number, "nonsense" fits nothing
    game, text = _play("oh-hell", 4, 0, ["nonsense", "99", "1"])
    assert text.count("please answer with one of the numbers shown (1 to") == 2
    _, text = _play("njet-riogrande", 4, 0, ["start", "start: lilac"])
    assert "'start' fits 4 choices (start: turquoise, start: lilac, start: orange, start: green): type more" in text
    assert "turquoise covers start player: lilac" in text


def test_every_play_without_a_seed_deals_a_new_game_and_prints_its_seed(capsys):
    seeds = set()
    for _ in range(3):
        assert main(["play", "oh-hell", "-p", "4", "--quiet"]) == 0
        out = capsys.readouterr().out
        seed = re.search(r"seed (\d+): play this game again with:\n  trickbook play oh-hell -p 4 --seed \1\n",
                         out).group(1)
        seeds.add(seed)
        again = main(["play", "oh-hell", "-p", "4", "--quiet", "--seed", seed])
        assert again == 0 and capsys.readouterr().out.split("seed")[0] == out.split("seed")[0]
    assert len(seeds) > 1


def test_the_command_play_prints_plays_that_very_game_again_agents_options_and_all(capsys):
    import shlex

    assert main(["play", "hearts", "-p", "4", "--quiet", "--agents", "greedy,ismcts,random", "--iterations", "3",
                 "-o", "moon=others +26"]) == 0
    out = capsys.readouterr().out
    command = out.splitlines()[-1].strip()
    assert command.endswith("-o 'moon=others +26' --agents greedy,ismcts,random --iterations 3")
    words = shlex.split(command)
    assert words[:2] == ["trickbook", "play"]
    assert main(words[1:] + ["--quiet"]) == 0
    assert capsys.readouterr().out.split("seed")[0] == out.split("seed")[0]


def test_the_extreme_games_of_simulate_come_with_the_command_that_plays_each_again(capsys):
    import json
    import shlex

    assert main(["simulate", "oh-hell", "-p", "4", "-n", "6", "--agents", "greedy,random", "--rotate",
                 "--seed", "5", "--json"]) == 0
    extremes = json.loads(capsys.readouterr().out)["extremes"]
    best = extremes["best total"]
    words = shlex.split(best["replay"])
    assert words[:3] == ["trickbook", "play", "oh-hell"] and f"--seed {best['seed']}" in best["replay"]
    assert "--agents" in words  # the lineup of that game, turned as --rotate turned it
    assert main(words[1:] + ["--quiet"]) == 0
    totals = capsys.readouterr().out.splitlines()[0]
    assert f" {best['value']}" in totals or f" {best['value']}," in totals


def test_version_and_help_for_every_argument(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["--version"])
    assert re.match(r"trickbook \d+\.\d+\.\d+", capsys.readouterr().out)
    for command in ("validate", "list", "play", "simulate", "replay", "conformance"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        blocks = re.split(r"\n(?=  \S)", out.split("options:")[-1])
        for block in blocks[1:]:  # every option has a description after its name
            assert len(block.split("  ")) > 2 or "\n" in block, (command, block)


def test_a_hand_is_grouped_by_deck_group_or_by_the_attribute_with_fewest_values(tmp_path):
    from .test_steps import DEAL_3, DECK, make, refusal, rules

    game = make(tmp_path, DEAL_3)  # suits x, y, z of ranks 1-4: grouped by suit (3 values against 4)
    assert [game.cards.labels[c] for c in sorted(range(12), key=game.hand_order.__getitem__)][:5] == \
        ["x1", "x2", "x3", "x4", "y1"]
    by_rank = make(tmp_path, DEAL_3, deck=DECK.replace("deck:\n", "deck:\n  group: rank\n"))
    assert [by_rank.cards.labels[c] for c in sorted(range(12), key=by_rank.hand_order.__getitem__)][:4] == \
        ["x1", "y1", "z1", "x2"]
    line, message = refusal(tmp_path, rules(DEAL_3, deck=DECK.replace("deck:\n", "deck:\n  group: colour\n")))
    assert message == "deck.group names 'colour', which is not a card attribute (rank, suit)"


def test_a_card_may_be_named_by_its_short_form_when_no_other_card_has_it():
    from interpreter.harness.agents import short_forms

    game = game_of("whist", 4)
    forms = short_forms(game.cards.labels)
    assert forms["Q of spades"] == {"qs", "sq"} and forms["10 of hearts"] == {"10h", "h10"}
    njet = short_forms(game_of("njet-riogrande", 4).cards.labels)
    assert njet["red 7"] == {"r7", "7r"}
    assert short_forms(["red 1", "rose 1"]) == {"red 1": set(), "rose 1": set()}  # "r1" is ambiguous: neither


def _first_play(text):
    """The first card menu of the game and what follows it."""
    i = text.index("play a card:")
    return text[i:]


def test_a_short_form_plays_the_card_and_a_refused_card_is_refused_by_the_rule_in_its_words():
    # Hearts: the first deal (by seed) in which North's first play may not be any card of the hand
    for seed in range(1, 40):
        game, text = _play("hearts", 4, 0, [], seed=seed)
        menu = _menus(_first_play(text))[0]
        hand = re.findall(r"your hand: (.*)", text[:text.index("play a card:")])[-1]  # after the pass
        refused = [c for c in re.split(r", | \| ", hand) if c not in menu]
        if refused:
            break
    refused_card = refused[0]
    name = refused_card.split()[0].lower() + refused_card.split()[-1][0]
    chosen = menu[0]
    short = chosen.split()[0].lower() + chosen.split()[-1][0]
    _, text = _play("hearts", 4, 0, _answers_until_first_play(text) + [name, short], seed=seed)
    after = _first_play(text)
    assert f"you may not play {refused_card} now: " in after
    said = after.split(f"you may not play {refused_card} now: ")[1].splitlines()[0]
    assert said in ("you must follow suit", "the 2 of clubs leads the first trick",
                    "hearts may not be led until a heart has been played, unless you have nothing but hearts")
    assert f"North plays {chosen}" in after


def _answers_until_first_play(text):
    """The answers that lead the person to their first play as before: the first number of each earlier menu."""
    before = text[:text.index("play a card:")]
    return [str(n) for n in (re.findall(r"^\s+(\d+)\. ", block, re.M)[0]
                             for block in before.split(":\n")[1:] if re.match(r"\s+\d+\. ", block))]


def test_every_menu_is_numbered_from_1_while_a_seat_picks_several_cards_too():
    # Hearts' pass: three picks in one turn; a picked card leaves the list, and the list is numbered again
    _, text = _play("hearts", 4, 0, ["5", "5"], seed=3)
    menus = re.findall(r"North, pass[^:\n]*:\n((?:\s+\d+\. .*\n)+)", text)[:3]
    numbered = [dict((int(n), lab) for n, lab in re.findall(r"\s+(\d+)\. (.*)", m)) for m in menus]
    assert [sorted(m) for m in numbered] == [list(range(1, 14)), list(range(1, 13)), list(range(1, 12))]
    first, second = numbered[0][5], numbered[1][5]
    assert first not in numbered[1].values() and second == numbered[0][6]  # "5" twice: two cards passed
    assert "please answer with one of the numbers shown" not in text


def test_a_question_mark_shows_the_choices_again_and_why_each_other_card_is_not_allowed():
    _, text = _play("hearts", 4, 0, ["1", "1", "1", "1", "?"], seed=3)
    at = text.index("  not now: ")
    before = text[:at].splitlines()
    shown = []
    while re.match(r"\s+\d+\. ", before[-1]):  # the menu shown again, just before the reasons
        shown.insert(0, re.sub(r"^\s+\d+\. ", "", before.pop()))
    refused = re.findall(r"^  not now: (.*) \((.*)\)$", text[at:].split("\n> ")[0], re.M)
    assert shown and refused and not {lab for lab, _ in refused} & set(shown)
    says = {"you must follow suit", "the 2 of clubs leads the first trick",
            "hearts may not be led until a heart has been played, unless you have nothing but hearts",
            "no points on the first trick - no heart and not the queen of spades, unless you have nothing else"}
    assert all(why in says for _, why in refused), refused


def test_the_table_shows_the_status_lines_of_the_rule_file_with_their_titles_and_nothing_else():
    _, text = _play("hearts", 4, 0, [], seed=5)
    view = next(b for b in text.split("--- round") if "trick 6" in b)
    assert "  passing this hand: to the left" in view and "  hearts broken: " in view
    assert re.search(r"  penalty points taken this hand: North \d+, East \d+, South \d+, West \d+", view)
    assert "shooter:" not in view and "moon:" not in view and "dealer:" not in view  # the engine's values


def test_a_status_line_never_shows_a_card_the_seat_has_not_seen(tmp_path):
    # a rule file whose table tries to show the next seat's hand: the line is worked out on a sample of what the
    # seat knows, so it shows cards dealt at random among the unseen ones, not the real hand
    import random as _random

    from interpreter.engine.compile import compile_game
    from interpreter.engine.knowledge import Knowledge
    from interpreter.harness.agents import Turn
    from interpreter.rules.loader import load_rules

    from .conftest import ROOT

    text = (ROOT / "games" / "whist.yaml").read_text(encoding="utf-8")
    spy = text.replace("\ntable:", '\ntable:\n  - {title: spy, show: "left(seat).hand"}', 1)
    path = tmp_path / "spy.yaml"
    path.write_text(spy)
    game = compile_game(load_rules(str(path)), 4)
    differs = 0
    for seed in range(5):
        state = game.new_state()
        rng = _random.Random(seed)
        while state.pending.actor < 0:
            game.apply_chance(state, state.pending.step.chance.sample(game, state, rng))
        seat = state.pending.actor
        turn = Turn(game, state, seat, list(state.pending.actions), state.pending.prompt, Knowledge(game, state))
        shown = dict(turn.status())["spy"]
        real = ", ".join(game.cards.labels[c] for c in state.per_seat["hand"][(seat + 1) % 4])
        assert shown.count(",") == real.count(",")  # thirteen cards, like the real hand
        own = {game.cards.labels[c] for c in state.per_seat["hand"][seat]}
        assert not own & set(shown.split(", "))  # never one of the seat's own
        differs += shown != real
    assert differs == 5


def test_a_card_a_choice_refuses_is_refused_with_the_steps_condition_in_words():
    import random as _random

    game = game_of("njet-riogrande", 4)
    state = game.new_state()
    rng = _random.Random(2)
    while state.pending.step.name != "discard":
        d = state.pending
        if d.actor < 0:
            game.apply_chance(state, d.step.chance.sample(game, state, rng))
        else:
            game.apply(state, rng.choice(d.actions))
    card = state.per_seat["hand"][state.pending.actor][0]
    assert game.refusal(state, card) == ("you may discard a card for which not (the round's cache's keep zeros) or "
                                         "the value's number is not 0, while you have one")
