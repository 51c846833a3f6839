"""The public Python API (interpreter/api/, docs/api.md): every example of the page runs, and each promise
the page makes holds."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import interpreter as tb
from interpreter.match.records import replay

from .conftest import failing_duel

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "api.md"


TOOLKITS = ("pyspiel", "pettingzoo")  # their examples are run by tests/test_openspiel.py and test_pettingzoo.py


def doc_examples(toolkit: str | None = None) -> list[str]:
    """The Python examples of docs/api.md: those of ``toolkit``, or (None) those that need no toolkit."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    if toolkit is not None:
        return [b for b in blocks if f"import {toolkit}" in b or f"toolkits.{toolkit}" in b]
    return [b for b in blocks if not any(t in b for t in TOOLKITS)]


def test_the_examples_of_docs_api_md_run_in_order_as_one_program(capsys):
    blocks = doc_examples()
    assert len(blocks) >= 8
    namespace: dict = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/api.md, example {i + 1}", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "Hearts (4 players) ['North', 'East', 'South', 'West']" in printed


def test_the_printed_results_the_page_shows_are_what_the_examples_print(capsys):
    """Each ``print(...)  # shown`` line of the page shows (the start of) what it prints."""
    namespace: dict = {}
    blocks = doc_examples()
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), namespace)
    outputs = capsys.readouterr().out.splitlines()
    shown = [m.group(1) for m in re.finditer(r"print\(.*\)\s+# (.*)", "".join(blocks))
             if "totals of" not in m.group(1)]
    assert len(shown) >= 4
    for want in shown:
        prefix = want.split("...")[0].rstrip(", ")
        assert any(out.startswith(prefix) for out in outputs), (want, outputs)


def _played(game, seed, moves):
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over():
            break
        if state.is_chance():
            state.apply_chance()
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ["hearts", "njet-riogrande", "meinz", "mue"])
def test_ids_labels_and_the_mask_agree_and_apply_by_id_or_label_is_the_same(name):
    game = tb.load(name, players=4)
    a, b = _played(game, 3, 30), _played(game, 3, 30)
    if a.is_chance():
        a.apply_chance()
        b.apply_chance()
    ids, labels = a.legal_actions(), a.labels()
    assert [game.action(i).step for i in ids] == [a.step] * len(ids)
    assert [i for i, ok in enumerate(a.legal_mask()) if ok] == sorted(ids)
    a.apply(ids[-1])
    b.apply(labels[-1].upper())  # a label, case aside
    assert a.serialize() == b.serialize()


def test_a_refused_action_changes_nothing():
    game = tb.load("hearts", players=4)
    state = _played(game, 1, 10)
    before = state.serialize()
    for bad in (10_000, -1, "no such card", 2.0, True):
        with pytest.raises(tb.IllegalAction):
            state.apply(bad)
    assert state.serialize() == before
    with pytest.raises(tb.IllegalAction, match="chance acts now"):
        game.new_state().apply(0)


def test_a_rule_that_fails_in_play_leaves_the_state_as_it_was_before_the_action(tmp_path):
    """Apply is atomic: an expression that fails while an action (or a deal) is taken raises its positioned error
    and changes nothing, neither the game nor its events; the same action fails the same way again."""
    game, state = failing_duel(tmp_path)
    before = (state.serialize(), state.current_player, state.labels(), state.observation(None), state.notes(),
              state.observation_string(state.current_player), state.status(0))
    for _ in range(2):
        with pytest.raises(tb.TrickbookError, match=r"failing\.yaml:\d+:\d+: error: .*division"):
            state.apply(state.legal_actions()[0])
        assert (state.serialize(), state.current_player, state.labels(), state.observation(None), state.notes(),
                state.observation_string(state.current_player), state.status(0)) == before
    assert game.deserialize(state.serialize()).serialize() == before[0]
    sample = state.sample(state.current_player)  # a sample has no history: kept by a copy
    seen = (sample.observation(None), sample.labels())
    with pytest.raises(tb.TrickbookError, match="division"):
        sample.apply(sample.legal_actions()[0])
    assert (sample.observation(None), sample.labels()) == seen
    odd = 'deal: {do: deal, hand: 2}\n  odd: {do: set, round: {odd: "len(round.dealer.hand) // 0"}}'
    duel = (ROOT / "docs" / "examples" / "tiny-duel.yaml").read_text(encoding="utf-8")
    (tmp_path / "dealing.yaml").write_text(duel.replace("deal: {do: deal, hand: 2}", odd), encoding="utf-8")
    dealing = tb.load(str(tmp_path / "dealing.yaml"), players=2)
    fresh = dealing.new_state(1)
    with pytest.raises(tb.TrickbookError, match="division"):
        fresh.apply_chance()
    assert fresh.is_chance() and fresh.serialize() == dealing.new_state(1).serialize()


def _history_of(state):
    return state.events, state.notes(), state.serialize()


@pytest.mark.parametrize(("name", "players"), [("meinz", 3), ("hearts", 4), ("njet-riogrande", 4)])
def test_a_history_first_asked_for_late_is_the_one_followed_from_the_start(name, players):
    """The history (events, narration) is written once it is asked for, from the moves played so far, and from then
    on as the game goes: asked for at the end, halfway, or after every change, it is the same; until it is asked
    for, nothing listens to every change (a change costs what the engine's step costs)."""
    game = tb.load(name, players)
    every, late, halfway = (game.new_state(seed=5) for _ in range(3))
    rng = random.Random(5)
    for n in range(400):
        if every.is_over():
            break
        if every.is_chance():
            for state in (every, late, halfway):
                state.apply_chance()
        else:
            action = rng.choice(every.legal_actions())
            for state in (every, late, halfway):
                state.apply(action)
        every.events_since(len(every.events) - 1), every.notes()
        if n == 150:
            assert not late._match.hears_each and late._state.notes is None  # nobody asked: nothing written
            assert _history_of(halfway) == _history_of(every) == _history_of(late.clone())  # a copy has it too
            assert halfway._match.hears_each and not late._match.hears_each  # followed from now on; not asked
    assert every.notes() and any(e["type"] == "trick" for e in every.events)
    assert _history_of(late) == _history_of(halfway) == _history_of(every)


def test_a_state_read_back_or_played_by_agents_keeps_its_moves():
    """What is followed later from a state's moves (information states, knowledge, a failed change put back) is
    there for a state that ``deserialize`` read or ``play`` played as for one stepped by the API: its moves are
    kept as its match is driven for it."""
    game = tb.load("hearts", 4)
    middle = _played(game, 4, 80)
    again = game.deserialize(middle.serialize())
    assert [again.information_state_string(s) for s in range(4)] == \
        [middle.information_state_string(s) for s in range(4)]
    action = middle.legal_actions()[0]
    for state in (middle, again):
        state.apply(action)
    assert again.serialize() == middle.serialize()
    played = game.play(["random"], seed=2)
    assert game.deserialize(played.serialize()).information_state_string(1) == played.information_state_string(1)
    changes = sum(e["type"] in ("chance", "action") for e in played.events)
    assert played.information_state_string(1).count("\n") == changes  # a line at the start and after each


def test_a_failed_change_leaves_a_history_not_asked_for_as_it_was(tmp_path):
    """An action that fails before the history is asked for: the history written afterwards is that of the state
    the action found (the moves kept are the ones applied)."""
    _, state = failing_duel(tmp_path)
    _, twin = failing_duel(tmp_path)
    with pytest.raises(tb.TrickbookError, match="division"):
        state.apply(state.legal_actions()[0])  # the last card of the round: the scoring fails
    assert _history_of(state) == _history_of(twin)
    assert state.legal_actions() == twin.legal_actions()


def test_a_clone_is_independent():
    state = _played(tb.load("meinz", players=4), 2, 20)
    copy = state.clone()
    saved = state.serialize()
    copy.apply(copy.legal_actions()[0])
    assert state.serialize() == saved and copy.serialize() != saved


@pytest.mark.parametrize("name,players", [("hearts", 4), ("njet-riogrande", 3), ("mit-list-und-tuecke", 4)])
def test_a_serialized_state_comes_back_and_a_finished_one_is_a_record_trickbook_replays(name, players, tmp_path):
    game = tb.load(name, players=players)
    middle = _played(game, 4, 40)
    again = game.deserialize(middle.serialize())
    assert again.serialize() == middle.serialize() and again.legal_actions() == middle.legal_actions()
    finished = _played(game, 4, 100_000)
    assert finished.is_over() and finished.events[-1]["type"] == "result"
    path = tmp_path / "game.jsonl"
    path.write_text(finished.serialize(), encoding="utf-8")
    out = replay(path)
    assert out.totals == finished.returns() and out.winners == finished.winners()
    assert tb.load_serialized(finished.serialize()).returns() == finished.returns()


def test_a_game_picked_up_in_the_middle_saves_where_it_started_and_replays_from_there(tmp_path):
    game = tb.load("oh-hell", players=4)
    state = game.new_state(seed=9, hand=12, dealer=1, totals=[5, 40, 22, 0])
    rng = random.Random(9)
    while not state.is_over():
        state.apply_chance() if state.is_chance() else state.apply(rng.choice(state.legal_actions()))
    rounds = [e["round"] for e in state.events if e["type"] == "round"]
    assert rounds[0] == 12 and state.events[-1]["rounds"] == rounds[-1]
    path = tmp_path / "late.jsonl"
    path.write_text(state.serialize(), encoding="utf-8")
    assert replay(path).totals == state.returns()
    tampered = state.serialize().replace('"dealer": "B"', '"dealer": "Z"', 1)
    with pytest.raises(tb.RecordError, match='"start" must give'):
        game.deserialize(tampered)


def test_deserialize_checks_every_event_and_says_which_line_is_wrong():
    game = tb.load("hearts", players=4)
    lines = _played(game, 6, 12).serialize().splitlines()
    action = next(i for i, line in enumerate(lines) if '"type": "action"' in line)
    lines[action] = re.sub(r'"action": "[^"]*"', '"action": "joker"', lines[action])
    with pytest.raises(tb.RecordError, match=rf"serialized state:{action + 1}: 'joker' is not legal now"):
        game.deserialize("\n".join(lines))
    with pytest.raises(tb.RecordError, match="other rules"):
        tb.load("spades", players=4).deserialize("\n".join(lines[:1]))
    # saved text is read as an untrusted record is, with its limits
    deep = lines[0] + "\n" + '{"type": "action", "x": ' + "[" * 40 + "]" * 40 + "}"
    with pytest.raises(tb.RecordError, match="serialized state:2: brackets nested more than"):
        game.deserialize(deep)


def test_new_state_refuses_a_start_that_is_no_game():
    game = tb.load("hearts", players=4)
    for kw in ({"hand": 0}, {"dealer": 4}, {"totals": [1, 2]}, {"totals": [1, 2, 3, "4"]}):
        with pytest.raises(tb.GameError):
            game.new_state(**kw)


def test_a_sample_looks_the_same_to_its_seat_and_deals_the_unseen_cards_again():
    game = tb.load("hearts", players=4)
    state = _played(game, 8, 9)
    seat = state.current_player
    hands = [state.clone().sample(seat, random.Random(k)).observation(None) for k in range(6)]
    mine = state.observation(seat)
    differ = 0
    for k in range(6):
        sample = state.sample(seat, random.Random(k))
        assert sample.observation(seat) == mine
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.events == state.events[:1]  # the real deal is not in a sample
        with pytest.raises(tb.GameError, match="a sample cannot be saved"):
            sample.serialize()
        other = (seat + 2) % 4  # another seat's information state in a sample: what it sees there
        assert sample.information_state_string(other) == sample.observation_string(other)
        other = (seat + 1) % 4
        differ += sample._state.per_seat["hand"][other] != state._state.per_seat["hand"][other]
    assert differ >= 5 and hands


def test_importing_the_package_loads_no_engine():
    code = "import sys, interpreter; assert 'interpreter.engine.game' not in sys.modules; interpreter.load"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_events_tell_each_trick_won_and_each_decision_an_automatic_seat_took():
    game = tb.load("meinz", 3)  # the card monster plays by its rule
    state = _played(game, 1, 100_000)
    kinds = [e["type"] for e in state.events]
    assert kinds[0] == "game" and kinds[-1] == "result"
    tricks = [e for e in state.events if e["type"] == "trick"]
    assert len(tricks) == 8 * state.round  # 8 tricks a round
    automatic = [e for e in state.events if e["type"] == "automatic"]
    assert automatic and {e["seat"] for e in automatic} == {"card monster"}
    assert all(any(c == ["card monster", e["action"]] for t in tricks for c in t["cards"]) for e in automatic)
    first = tricks[0]
    assert first["trick"] == 1 and len(first["cards"]) == 4 and first["winner"] in game.seat_names
    # each trick's event comes after the action that ended it, and before the round it ended is scored
    last_round = max(i for i, k in enumerate(kinds) if k == "round")
    assert kinds[last_round - 1] == "trick"


def test_status_lines_and_refusals_through_the_api():
    state = tb.load("hearts", players=4).new_state(seed=3)
    state.apply_chance()
    assert state.status(0)[0] == ("passing this hand", "to the left")
    rng = random.Random(3)
    while not state.is_over():  # the first play where the seat to act holds a card it may not play
        if state.is_chance():
            state.apply_chance()
            continue
        labels = state.labels()
        seat = state.current_player
        hand = state.observation(seat)["zones"]["hand"][state.game.seat_names[seat]]
        refused = [c for c in hand if c not in labels]
        if "of" in labels[0] and refused and "tricks" == state.observation(seat).get("step"):
            why = state.refusal(refused[0])
            assert why in ("you must follow suit", "the 2 of clubs leads the first trick",
                           "hearts may not be led until a heart has been played, unless you have nothing but hearts")
            assert state.refusal(labels[0]) is None
            break
        state.apply(rng.choice(state.legal_actions()))
    else:
        raise AssertionError("no play refused a card")
    with pytest.raises(tb.GameError):
        state.refusal("Z of nothing")


def test_a_refusal_names_the_rule_whichever_copy_of_a_card_the_seat_holds():
    """Identical cards share a label (NJET's three red 0s): a label the seat to play may play is refused by
    nothing, and one it holds but may not play is refused by the rule, never by 'not in the hand' for a copy
    that another seat holds."""
    game = tb.load("njet-riogrande", players=3)
    state = game.new_state(seed=1)
    rng = random.Random(1)
    legal_seen = refused_seen = 0
    while not state.is_over() and state.round == 1:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.current_player
        if state.observation(seat).get("decision") == "play":
            legal = set(state.labels())
            for label in set(state.observation(seat)["zones"]["hand"][game.seat_names[seat]]):
                why = state.refusal(label)
                if label in legal:
                    assert why is None, (label, why)
                    legal_seen += 1
                else:
                    assert why and " is not in " not in why, (label, why)
                    refused_seen += 1
        state.apply(rng.choice(state.legal_actions()))
    assert legal_seen > 20 and refused_seen > 20


# what a caller may give by mistake: none of it may end in anything but the API's own errors, with a message
WRONG = [None, -1, 99, 10**30, "x", "\ud800", 1.5, [1], {"a": 1}, True, b"x", object()]
CALLS = {
    "new_state(seed=)": lambda g, s, v: g.new_state(seed=v),
    "observation": lambda g, s, v: s.observation(v),
    "observation_tensor": lambda g, s, v: s.observation_tensor(v),
    "information_state_string": lambda g, s, v: s.information_state_string(v),
    "status": lambda g, s, v: s.status(v),
    "held": lambda g, s, v: s.held(v),
    "describe": lambda g, s, v: s.describe(s.legal_actions()[0], v),
    "apply": lambda g, s, v: s.clone().apply(v),
    "refusal": lambda g, s, v: s.refusal(v),
    "notes": lambda g, s, v: s.notes(v),
    "events_since": lambda g, s, v: s.events_since(v),
    "agent_choice": lambda g, s, v: s.agent_choice(v),
    "sample": lambda g, s, v: s.sample(v),
    "deserialize": lambda g, s, v: g.deserialize(v),
    "load(options=)": lambda g, s, v: tb.load("hearts", players=4, options=v),
    "play(agents)": lambda g, s, v: g.play(v),
}


@pytest.mark.parametrize("call", list(CALLS))
def test_a_wrong_argument_is_refused_with_the_apis_own_error(call):
    from interpreter.errors import TrickbookError

    game = tb.load("hearts", players=4)
    state = game.new_state(seed=1)
    while state.is_chance():
        state.apply_chance(random.Random(1))
    for value in WRONG:
        try:
            CALLS[call](game, state, value)  # a value that means something (seat 1, 99 lines read) is taken
        except TrickbookError as exc:
            assert str(exc) and "Traceback" not in str(exc)


def test_the_rule_files_before_a_game_is_loaded(tmp_path):
    from interpreter.errors import GameError, RuleError, RuleErrors
    from interpreter.rules.catalog import bundled_games

    assert set(tb.games()) == set(bundled_games()) and all(p.is_file() for p in tb.games().values())
    bad = tmp_path / "bad.yaml"  # two mistakes: check lists both at their lines, about raises
    bad.write_text("trickbook: 1\nextends: whist\nname: bad\nplayers: lots\ngame: {winners: nobody}\n")
    assert sorted(p.position.line for p in tb.check(bad)) == [4, 5]
    with pytest.raises((RuleError, RuleErrors)):
        tb.about(bad)
    expr = tmp_path / "expr.yaml"  # a mistake the compiler finds (no schema's): listed too
    expr.write_text("trickbook: 1\nextends: whist\nname: expr\ngame: {until: 'round.nothing > 1'}\n")
    assert [(p.position.line, "nothing" in p.message) for p in tb.check(expr)] == [(4, True)]
    with pytest.raises(GameError, match="unknown agent 'nobody'; known agents: random"):
        tb.agents(["random", "nobody"])
