"""Runs on the compiled backend (interpreter/harness/engines.py): a game played at random by the compiled machine,
played again by the Python backend from its draws (compiled/replay.py) to the same end; simulate and play choosing
the engine. The machine runs as plain Python here (compiling takes a second or more); TRICKBOOK_COMPILED=all
compiles."""

from __future__ import annotations

import json

import pytest

from interpreter.cli import main
from interpreter.compiled import machine as machine_module
from interpreter.compiled.machine import Machine
from interpreter.compiled.replay import follow
from interpreter.errors import GameError, TrickbookError
from interpreter.harness import engine_choice, engines
from interpreter.harness.simulate import Setup, play_one, simulate
from interpreter.match.driver import Match
from interpreter.match.listeners import RoundValues
from interpreter.match.writer import outcome_of

from .compiled_games import NOT_WRITTEN_STEPS
from .compiled_steps import compiled_or_skip
from .conftest import game_of

GAMES = [("hearts", 4), ("njet-riogrande", 3), ("whist", 4), ("euchre", 4)]


class PlainMachine(Machine):
    """The machine run as plain Python wherever a run asks for it compiled."""

    def __init__(self, game, compiled=False):
        super().__init__(game, False)


@pytest.fixture
def plain(monkeypatch):
    monkeypatch.setattr(machine_module, "Machine", PlainMachine)
    engines.machine_for.cache_clear()
    yield
    engines.machine_for.cache_clear()


def followed(machine: Machine, trace: list[int]):
    match = Match(machine.game, 0)
    ended: list = []
    match.listen(RoundValues(ended))
    match.begin()
    follow(machine, match, trace)
    return outcome_of(machine.game, match.state), ended


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_compiled_game_played_again_by_the_python_backend_ends_the_same(name, players):
    machine = Machine(game_of(name, players))
    for seed in (1, 2):
        done = machine.play_seeded(seed, traced=True)
        out, ended = followed(machine, done.trace)
        assert (out.totals, out.winners, out.rounds) == (done.totals, done.winners, done.rounds)
        assert [{k: e[k] for k in done.ended[0]} for e in ended] == done.ended  # the public round values kept
        assert machine.play_seeded(seed).totals == done.totals  # the same seed, the same game


def test_a_trace_the_python_backend_cannot_follow_is_refused_naming_the_decision():
    machine = Machine(game_of("hearts", 4))
    trace = machine.play_seeded(3, traced=True).trace
    at = trace.index(0, trace.index(1, 1) + 2 + 52)  # the first decision after the first deal (52 cards)
    trace[at + 1] = 10_000  # no card has that kind
    with pytest.raises(GameError, match="offers in step"):
        followed(machine, trace)
    with pytest.raises(GameError, match="ran out"):
        followed(machine, trace[:at])


def test_a_game_whose_end_never_holds_is_an_error_as_on_the_python_backend(monkeypatch):
    monkeypatch.setattr(machine_module, "MAX_ROUNDS", 2)  # (Hearts to 100 points: not over after 2 rounds)
    with pytest.raises(GameError, match="did not end within 2 rounds"):
        Machine(game_of("hearts", 4)).play_seeded(1)


def test_an_automatic_seat_with_no_action_is_an_error_as_on_the_python_backend():
    machine = Machine(game_of("meinz", 3))
    assert "a = auto(" in machine.source
    machine.source = machine.source.replace("a = auto(", "a = -1 + 0 * auto(")  # (its policy gives nothing)
    with pytest.raises(GameError, match="automatic seat's policy gave no action"):
        machine.play_seeded(1)


def test_the_draws_grow_when_they_do_not_fit(monkeypatch):
    monkeypatch.setattr(machine_module, "TRACE", 16)
    machine = Machine(game_of("whist", 4))
    done = machine.play_seeded(4, traced=True)
    assert len(done.trace) > 16 and followed(machine, done.trace)[0].totals == done.totals


def test_a_simulation_on_the_compiled_engine_plays_the_seeded_games(plain):
    game = game_of("hearts", 4)
    setup = Setup("hearts", 4, tuple(game.options.items()), engine="compiled")
    played = [play_one(setup, "s", i, game) for i in range(3)]
    machine = Machine(game)
    assert [p.totals for p in played] == [machine.play_seeded(engines.stream_seed(f"s/{i}")).totals for i in range(3)]
    summary = simulate(game, 3, "s", setup=setup)
    assert summary.totals == [[p.totals[s] for p in played] for s in range(4)]
    assert summary.replays and all(c.endswith("--engine compiled") for c in summary.replays.values())
    assert sum(summary.outcomes["moon"].values()) == sum(p.rounds for p in played)  # every round's end kept


def test_the_engine_is_chosen_as_asked_and_said(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # (auto takes a game kept in the cache: none here)
    game = game_of("hearts", 4)
    lines: list[str] = []
    assert engine_choice.chosen_engine("python", game, ["random"], say=lines.append) == "python" and not lines
    with pytest.raises(TrickbookError, match="random and greedy agents only"):
        engine_choice.chosen_engine("compiled", game, ["greedy", "ismcts"])
    assert engine_choice.chosen_engine("auto", game, ["ismcts"], say=lines.append) == "python"
    assert "random and greedy agents only (not ismcts)" in lines[-1]
    with pytest.raises(TrickbookError, match="no engine"):
        engine_choice.chosen_engine("fast", game, ["random"])
    if engines.why_not(game, ["random"]) is None:  # (llvmlite installed)
        monkeypatch.setattr(engine_choice, "python_seconds", lambda game, games, agents=(): 1.0)
        assert engine_choice.chosen_engine("auto", game, ["random"], say=lines.append, games=10) == "python"
        assert "less than compiling" in lines[-1]
        monkeypatch.setattr(engine_choice, "python_seconds", lambda game, games, agents=(): 500.0)
        assert engine_choice.chosen_engine("auto", game, ["random"], say=lines.append, games=10) == "compiled"
        assert lines[-1].startswith("engine: compiled")


def test_a_simulation_of_greedy_and_random_seats_plays_the_seeded_games_in_batches(plain, monkeypatch):
    """Greedy agents on the compiled engine: the run's games are the games the machine plays one by one (each from
    its game seed, whatever batch played it), the lineup turned by --rotate game by game."""
    from interpreter.harness import simulate as simulation
    from interpreter.harness.greedy import takes_pay

    monkeypatch.setattr(simulation, "FIRST_BATCH", 2)  # (batches of 2, then 4: games 0-1, 2-5, 6)
    game = game_of("oh-hell", 4)
    setup = Setup("oh-hell", 4, tuple(game.options.items()), ("greedy", "random"), rotate=True, engine="compiled")
    summary = simulate(game, 7, "g", setup=setup)
    machine = Machine(game)
    alone = [machine.play_seeded(engines.stream_seed(f"g/{i}"), agents=setup.lineup(i), pays=takes_pay(game))
             for i in range(7)]
    assert summary.totals == [[g.totals[s] for g in alone] for s in range(4)]
    assert summary.by_agent.keys() == {"greedy", "random"}
    assert all("greedy" in c and c.endswith("--engine compiled") for c in summary.replays.values())


def test_play_with_the_compiled_engine_tells_a_game_of_greedy_seats_a_run_played(plain, capsys):
    pytest.importorskip("llvmlite")
    from interpreter.harness.greedy import takes_pay

    game = game_of("hearts", 4)
    assert main(["play", "hearts", "-p", "4", "--seed", "y/1", "--quiet", "--engine", "compiled",
                 "--agents", "greedy,random"]) == 0
    out = capsys.readouterr().out
    done = Machine(game).play_seeded(engines.stream_seed("y/1"), agents=["greedy"] + ["random"] * 3,
                                     pays=takes_pay(game))
    assert ", ".join(f"{n} {t}" for n, t in zip(game.seat_names, done.totals)) in out


def test_whether_compiling_pays_is_judged_by_games_of_the_run_s_own_agents(monkeypatch):
    """A run of greedy seats is timed by games of greedy seats on the Python backend (they sample at every play, far
    slower than random ones), not by random playouts."""
    from interpreter.harness import runner

    played: list[list[str]] = []
    monkeypatch.setattr(runner, "play_game", lambda game, agents, seed: played.append([type(a).__name__
                                                                                        for a in agents]))
    game = game_of("whist", 4)
    engine_choice.python_seconds(game, 10, ["greedy", "random"])
    assert played == [["GreedyAgent", "RandomAgent", "RandomAgent", "RandomAgent"]] * 2
    engine_choice.python_seconds(game, 10, ["random"])
    assert len(played) == 2  # (random seats: the game's own random playouts)


def test_greedy_agents_where_the_compiled_engine_cannot_judge_play_on_the_python_engine():
    game = game_of("doppelkopf", 4)
    if engines.why_not(game, ["random"]) is not None:
        pytest.skip("the compiled backend does not write this game")
    assert "teams are hidden" in engines.why_not(game, ["greedy", "random"])
    lines: list[str] = []
    assert engine_choice.chosen_engine("auto", game, ["greedy"], say=lines.append) == "python"
    assert "engine: python" in lines[-1] and "greedy agents where the teams are hidden" in lines[-1]


def test_a_game_not_written_plays_on_the_python_engine_and_says_why(capsys, monkeypatch, tmp_path):
    from .test_steps import DEAL_3, TRICKS, rules, write

    monkeypatch.setenv("TRICKBOOK_ENGINE", "auto")
    path = write(tmp_path, rules(DEAL_3, NOT_WRITTEN_STEPS, TRICKS))
    assert main(["simulate", str(path), "-p", "4", "-n", "2", "--json"]) == 0
    err = capsys.readouterr().err
    assert "engine: python" in err and "a text made in play" in err


def test_play_with_the_compiled_engine_tells_the_game_a_compiled_run_played(plain, capsys):
    pytest.importorskip("llvmlite")
    assert main(["play", "whist", "-p", "4", "--seed", "x/2", "--quiet", "--engine", "compiled", "-a", "random"]) == 0
    out = capsys.readouterr().out
    done = Machine(game_of("whist", 4)).play_seeded(engines.stream_seed("x/2"))
    assert f"North {done.totals[0]}" in out and f"East {done.totals[1]}" in out
    assert main(["play", "whist", "-p", "4", "--seed", "1", "--engine", "compiled", "--human", "1"]) != 0
    assert "bots only" in capsys.readouterr().err


def test_the_record_of_a_compiled_game_says_so_and_replays(plain, capsys, tmp_path):
    pytest.importorskip("llvmlite")
    record = tmp_path / "g.jsonl"
    assert main(["play", "euchre", "-p", "4", "--seed", "5", "--quiet", "--engine", "compiled", "-a", "random",
                 "--record", str(record)]) == 0
    head = json.loads(record.read_text().splitlines()[0])
    assert head["engine"] == "compiled" and "SHA-256" in head["stream"]
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0


def test_compiled_and_plain_python_draw_the_same_game():
    """the compiled random stream seeded alike gives the plain machine's game: a compiled run's game is the one
    ``play --engine compiled`` tells."""
    compiled_or_skip(everywhere=True)
    game = game_of("njet-riogrande", 4)
    fast, slow = Machine(game, compiled=True).play_seeded(9, traced=True), Machine(game).play_seeded(9, traced=True)
    assert fast.trace == slow.trace and fast.totals == slow.totals


def test_the_round_outcomes_of_a_batch_are_counted_as_those_of_each_game_alone():
    """A value's text found once per batch (simulate._outcomes' memo) gives every game's outcomes as before; true and
    1 stay apart, a list is left out."""
    from interpreter.compiled.batch import play_batch
    from interpreter.harness.simulate import _outcomes

    game = game_of("njet-riogrande", 4)
    memo: dict = {}
    games = play_batch(Machine(game), [1, 2, 3])
    assert all(_outcomes(game, g.ended, memo) == _outcomes(game, g.ended) for g in games) and memo
    assert _outcomes(game, [{"x": True}, {"x": 1}, {"x": [1]}], memo) == {"x": {"true": 1, "1": 1}}
