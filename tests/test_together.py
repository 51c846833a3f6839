"""Choices made together (``simultaneous: true`` on a ``choose``): validate refuses the declaration where a seat's
choices or the step's end could depend on another seat's pick of the step; the bundled games that pass together
declare it; a front end asks the seats at once (api/together.py, match/together.py) and the game and its record are
those of the seats asked in turn; the terminal asks its person when the step begins; OpenSpiel and PettingZoo see at
a seat's turn nothing of the picks made before it in the step."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import interpreter as tb
from interpreter.api.together import Gathering, seats_together
from interpreter.engine.steps.choose import Choose
from interpreter.harness.agents import HumanAgent, RandomAgent
from interpreter.harness.runner import play_game

from .conftest import ROOT

PASSING = (ROOT / "docs" / "examples" / "passing.yaml").read_text(encoding="utf-8")
PASS_STEP = """    count: 3
    options: seat.hand
    move_to: passing
    verb: pass
    simultaneous: true                        # everyone chooses at once
"""


def _problems(tmp_path: Path, extra: str, zones: str = "", to: str = "passing") -> list[str]:
    """validate's errors for the cookbook's passing game, its pass step given ``extra`` lines (and more zones, and
    the zone its cards go ``to``)."""
    assert PASS_STEP in PASSING
    text = PASSING.replace(PASS_STEP, PASS_STEP.replace("move_to: passing", f"move_to: {to}") + extra)
    if zones:
        text = text.replace("  trick:   {visible: all}\n", "  trick:   {visible: all}\n" + zones)
    path = tmp_path / "together.yaml"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    out = []
    for problem in tb.check(path):
        rendered = problem.render()
        place = rendered.split(": error:")[0]
        _, line, col = place.rsplit(":", 2)
        assert lines[int(line) - 1][int(col) - 1:].strip(), rendered  # the place is in the file, on the option
        out.append(f"{lines[int(line) - 1].split(':')[0].strip()}: {problem.message}")
    return out


def test_the_cookbook_s_pass_made_together_validates(tmp_path):
    assert _problems(tmp_path, "") == []
    # the chooser's own zones and its own history are its own business
    assert _problems(tmp_path, '    allowed: "len(seat.passing) < 3 and len(history) < 3"\n') == []


@pytest.mark.parametrize("extra,zones,key,says", [
    ('    allowed: "len(left(seat).passing) == 0 or true"\n', "", "allowed", "another seat's passing"),
    ('    must: "len(right(seat).hand) > 3"\n', "", "must", "another seat's hand"),
    ('    label: "text(len(left(seat).passing))"\n', "", "label", "another seat's passing"),
    ('    pass: keep\n    may_pass: "passes == 0"\n', "", "may_pass", "reads passes"),
    ('    until: "len(seat.passing) == 3"\n', "", "until", "seat's passing"),
    ('    until: "len(picked) == 3"\n', "", "until", "reads picked"),
    ('    repeat: true\n    until: "true"\n', "", "repeat", "goes round again"),
    ('    set: last\n    allowed: "round.last == none or value not in round.last"\n', "", "allowed", "round.last"),
    ('    allowed: "len(pile) < 3"\n', "  pile:    {visible: owner}\n", None, None),
])
def test_validate_refuses_choices_together_where_one_seat_s_pick_could_change_another_s(tmp_path, extra, zones,
                                                                                         key, says):
    if key is None:  # a shared zone the step does not change may be read; one its picks go to may not
        assert _problems(tmp_path, extra, zones) == []
        problems = _problems(tmp_path, extra, zones, to="pile")
        assert any("reads the zone pile" in p for p in problems), problems
        return
    problems = _problems(tmp_path, extra, zones)
    assert len(problems) >= 1 and problems[0].startswith(f"{key}: "), problems
    assert says in problems[0] and "simultaneous" in problems[0], problems


def test_the_bundled_games_that_choose_together_declare_it():
    together = set()
    for name in tb.games():
        game = tb.load(name).engine
        together |= {(name, s.name) for s in game.every_step() if isinstance(s, Choose) and s.simultaneous}
    assert together == {("hearts", "pass"), ("njet-riogrande", "pass"), ("tichu", "pass_next"),
                        ("tichu", "pass_partner"), ("tichu", "pass_previous"), ("was-sticht", "pick_function")}


def _at_together(name: str, players: int, seed: int) -> tb.GameState:
    """A game of ``name`` played by random choices up to a step whose choices are made together."""
    game = tb.load(name, players)
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not seats_together(state):
        assert not state.is_over(), f"{name}: no step made together was reached"
        if state.is_chance():
            state.apply_chance()
        else:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    return state


@pytest.mark.parametrize("name,players", [("hearts", 4), ("was-sticht", 4), ("tichu", 4)])
def test_answers_gathered_in_any_order_make_the_game_and_record_of_the_seats_asked_in_turn(name, players):
    state = _at_together(name, players, 3)
    in_turn = state.clone()
    gathering = Gathering(state)
    seats = gathering.seats
    assert len(seats) >= 2 and gathering.waiting() == seats
    rng = random.Random(1)
    chosen: dict[int, list[str]] = {s: [] for s in seats}
    for seat in reversed(seats):  # the last seat of the engine's order first
        while (asked := gathering.asked(seat)) is not None:
            assert asked.current_player == seat and asked.prompt
            label = asked.labels()[rng.randrange(len(asked.labels()))]
            gathering.answer(seat, label)
            chosen[seat].append(label)
        assert seat not in gathering.waiting() and gathering.answered(seat) == chosen[seat]
    assert gathering.waiting() == []
    while (action := gathering.due()) is not None:
        state.apply(action)
    assert not gathering.open()
    for seat in seats:  # the same choices, asked in the engine's order
        for label in chosen[seat]:
            assert in_turn.current_player == seat
            in_turn.apply(label)
    assert state.events == in_turn.events and state.serialize() == in_turn.serialize()


def test_an_answer_not_among_the_seat_s_choices_is_refused_and_changes_nothing():
    state = _at_together("hearts", 4, 3)
    gathering = Gathering(state)
    seat, other = gathering.seats[-1], gathering.seats[0]
    theirs = state.observation(other)["zones"]["hand"][state.game.seat_names[other]]
    with pytest.raises(tb.IllegalAction):
        gathering.answer(seat, theirs[0])  # another seat's card
    with pytest.raises(tb.GameError, match="is not asked now"):
        gathering.answer(-1, "x")
    assert gathering.answered(seat) == [] and gathering.due() is None and gathering.waiting() == gathering.seats


@pytest.mark.parametrize("name", ["hearts", "was-sticht"])
def test_toolkits_see_at_a_seat_s_turn_nothing_of_the_picks_before_it_in_the_step(name):
    """The last seat of a step made together, reached after the others chose their first choices or their last:
    its OpenSpiel observation and information state and its PettingZoo observation are the same."""
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    from interpreter.toolkits.openspiel import SpielGame, SpielState
    from interpreter.toolkits.pettingzoo import TrickbookEnv

    state = _at_together(name, 4, 5)
    seats = seats_together(state)
    last = seats[-1]
    seen = []
    for pick in (0, -1):
        copy = state.clone()
        while copy.current_player != last:
            copy.apply(copy.legal_actions()[pick])
        spiel_game = pyspiel.load_game(_spiel_name(name))
        assert isinstance(spiel_game, SpielGame)
        spiel = SpielState(spiel_game, copy)
        env = TrickbookEnv(name, 4)
        env.reset(seed=0)
        env.state = copy
        env._select()  # (the environment's seat to act, as after a step)
        agent = env.agent_selection
        assert env._seat_of[agent] == last
        seen.append((spiel.observation_string(last), spiel.information_state_string(last),
                     list(spiel.observation_tensor(last)), list(env.observe(agent)["observation"]),
                     list(env.observe(agent)["action_mask"]), copy.observation(last)))
    assert seen[0] == seen[1]


def _spiel_name(name: str) -> str:
    from interpreter.toolkits.openspiel import register

    return register(name, 4)


def test_the_terminal_asks_its_person_when_the_step_begins_and_tells_the_picks_in_the_engine_s_order():
    game = tb.load("hearts", 4).engine
    seed = 1
    out = io.StringIO()
    answers = ["1", "1", "1"]

    def read(prompt: str) -> str:
        out.write("> \n")
        if not answers:
            raise EOFError  # (the person stops: Ctrl-D)
        return answers.pop(0)

    agents = [RandomAgent(f"{seed}:{s}") for s in range(4)]
    agents[0] = HumanAgent(read=read, out=out)
    # the pass begins left of the dealer, North: North chooses last; it stops answering at the first trick
    with pytest.raises(KeyboardInterrupt):
        play_game(game, agents, seed, narrate=lambda text: out.write(text + "\n"), viewer=0, record=True)
    text = out.getvalue()
    asked = text.index("North, pass (3 to go):")
    assert "passes a card" not in text[:asked]  # nobody's pass was told before North was asked
    assert text.index("East passes a card") > text.index("North, pass:")  # ... all three of North's picks
    passes = [line.strip() for line in text.splitlines() if " passes " in line]
    assert [p.split()[0] for p in passes] == ["East"] * 3 + ["South"] * 3 + ["West"] * 3 + ["North"] * 3
