"""Agents of one's own (harness/remote*.py): each seat's in a process of its own, told plain data only."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.errors import AgentError, GameError
from interpreter.harness.players import agent_factory, parse_agents
from interpreter.harness.runner import play_game

from .conftest import game_of
from .processes import marked

HERE = Path(__file__).resolve().parent
OWN = "tests.agents_for_tests"


def _record(game, names, seed, limits=None, told=False):
    return play_game(game, agent_factory(parse_agents(",".join(names), game.players), limits=limits)(seed), seed,
                     record=True, told=told).record


def test_an_agent_of_ones_own_plays_by_id_or_by_label_and_the_same_seed_gives_the_same_game():
    game = game_of("hearts", 4)
    by_id = _record(game, [f"{OWN}:FirstLegal", "random", "random", "random"], 5)
    by_label = _record(game, [f"{OWN}:FirstLabel", "random", "random", "random"], 5)
    assert by_id == by_label and by_id[-1]["type"] == "result"
    assert by_id == _record(game, [f"{OWN}:FirstLegal", "random", "random", "random"], 5)


def test_what_a_hostile_agent_tries_finds_nothing_its_seat_may_not_see_and_changes_nothing(tmp_path, monkeypatch):
    out = tmp_path / "found.jsonl"
    monkeypatch.setenv("TRICKBOOK_HOSTILE_OUT", str(out))
    game = game_of("hearts", 4)
    hostile = _record(game, [f"{OWN}:Hostile", "random", "random", "random"], 8)
    fair = _record(game, [f"{OWN}:FirstLegal", "random", "random", "random"], 8)
    assert hostile == fair  # emptying the lists it was given changed nothing
    reports = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(reports) >= 13 and all(r["engine objects"] == [] for r in reports)
    deal = next(e for e in hostile if e["type"] == "chance")
    own = set(deal["outcome"]["hand"][game.seat_names[0]])
    first = reports[0]  # the pass, right after the deal: the seat has seen its own 13 cards and nothing else
    assert first["decision"] == 1 and set(first["cards"]) <= own and len(first["cards"]) == 13


def test_each_seat_gets_a_process_of_its_own():
    from interpreter.harness import remote

    game = game_of("hearts", 4)
    _record(game, [f"{OWN}:FirstLegal", f"{OWN}:FirstLegal", "random", "random"], 1)
    pids = {loader.process.pid for (spec, seat, _), kept in remote._idle.items() for loader in kept
            if spec == f"{OWN}:FirstLegal" and seat in (0, 1)}
    assert len(pids) == 2


@pytest.mark.parametrize("name,says", [
    ("Broken", "failed: .*ValueError: the agent's own mistake"),
    ("Nonsense", "act returned 3.5: an action id of view.legal or a label of view.labels"),
    ("NoSuchClass", "has no class NoSuchClass with an act\\(view\\) method"),
])
def test_an_agent_that_fails_stops_the_game_naming_it(name, says):
    with pytest.raises(GameError, match=f"(?s)agent '{OWN}:{name}'.*{says}"):
        _record(game_of("oh-hell", 4), [f"{OWN}:{name}"], 1)


def test_an_illegal_choice_is_refused_with_the_legal_labels():
    with pytest.raises(AgentError, match=f"agent '{OWN}:Illegal' \\(B\\) chose 'joker', which is not legal now"):
        _record(game_of("oh-hell", 4), [f"{OWN}:Illegal"], 1)


def test_agents_are_named_as_module_class_or_file_class():
    assert parse_agents(f"random,{OWN}:FirstLegal", 3) == ["random", f"{OWN}:FirstLegal", f"{OWN}:FirstLegal"]
    with pytest.raises(GameError, match="module:Class"):
        parse_agents("clever", 4)


def test_the_example_agent_of_the_docs_plays_from_the_command_line(capsys):
    example = str(HERE.parent / "docs" / "examples" / "my_agent.py")
    assert main(["play", "hearts", "-p", "4", "--quiet", "--seed", "2", "--agents", f"{example}:FirstCard"]) == 0
    assert "winner(s):" in capsys.readouterr().out
    assert main(["simulate", "oh-hell", "-p", "4", "-n", "3", "--agents", f"{example}:FirstCard,random"]) == 0
    out = capsys.readouterr().out
    assert f"{example}:FirstCard" in out


def test_the_python_api_plays_with_agents_by_name_or_by_class_in_processes_of_their_own():
    import interpreter as tb
    from tests.agents_for_tests import FirstLegal

    game = tb.load("hearts", 4)
    by_class = game.play([FirstLegal, "random"], seed=4)
    by_name = game.play([f"{OWN}:FirstLegal", "random"], seed=4)
    assert by_class.is_over() and by_class.events == by_name.events
    # the API's history has the lines of what the rules made happen (tricks won) too
    assert by_class.events == _record(game.engine, [f"{OWN}:FirstLegal", "random"], 4, told=True)


# ---------------------------------------------------------------- agents that misbehave: contained, and named

MARK = "TRICKBOOK_AGENT_TEST_MARK"  # in the environment of every process an agent of a test starts
LINUX = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="counts processes in /proc")
BACKSTOP = 30.0  # seconds, against a test that would hang; no assertion is about time


@pytest.fixture
def mark(monkeypatch):
    """A mark of this test in the environment, so that every process its agents start can be counted."""
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK, value)
    yield value
    from interpreter.harness import remote

    remote.close_all()


def _marked(value: str) -> list[int]:
    """The live processes (zombies not counted) with the mark in their environment."""
    return [pid for pid, _ in marked(MARK, value)]


def _gone(value: str) -> list[int]:
    """The marked processes still there once every one of them is gone, or BACKSTOP seconds have passed (a
    killed process may take a moment to go on a busy machine)."""
    deadline = time.monotonic() + BACKSTOP
    while (left := _marked(value)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def _play(capsys, agent: str, *extra: str) -> tuple[int, str]:
    code = main(["play", "oh-hell", "-p", "4", "--seed", "1", "--quiet", "--agents", f"{OWN}:{agent},random",
                 *extra])
    return code, capsys.readouterr().err


@LINUX
@pytest.mark.parametrize("agent,limits,says", [
    ("Sleeper", ["--agent-timeout", "1"], r"did not answer within 1 s \(--agent-timeout\)$"),
    ("Spinner", ["--agent-timeout", "1"], r"did not answer within 1 s \(--agent-timeout\)$"),
    ("SlowMaker", ["--agent-timeout", "1"], r"was not made within 1 s \(its constructor; --agent-timeout\)$"),
    ("HandsOver", [], r"ended \(exit code 0\) without answering$"),
    ("Exits", [], r"ended \(exit code 3\) without answering; its last lines on standard error:\n  giving up$"),
    ("ClosesPipe", [], r"ended \(exit code 1\) without answering; its last lines on standard error:\n  the agent's "
                       r"process lost its pipe to the game: Bad file descriptor$"),
    ("Garbage", [], r"wrote what is not the protocol: 'this is not JSON'$"),
    ("WrongShape", [], r"wrote what is not the protocol: '{\"answer\": 1}'$"),
    ("HugeLine", [], r"wrote more than 1 MB without a newline \(a message of the protocol is one line, at most "
                     r"1 MB\)$"),
    ("Hog", ["--agent-memory", "300"], r"failed: Traceback .*\nMemoryError\n\(its processes may use 300 MB of "
                                        r"address space: --agent-memory\)$"),
])
def test_an_agent_that_misbehaves_stops_the_game_naming_it_and_leaves_no_process(capsys, mark, agent, limits, says):
    import re

    code, err = _play(capsys, agent, *limits)
    assert code == 1
    said = err[err.index("trickbook: error: "):].rstrip("\n")
    assert re.fullmatch(f"(?s)trickbook: error: agent '{OWN}:{agent}' \\(A\\) {says}", said), err
    assert "Traceback" not in err or agent == "Hog"  # the agent's own, told as its failure
    assert _gone(mark) == []


@LINUX
def test_an_agent_that_reads_standard_input_reads_nothing_and_the_game_goes_on(capsys, mark):
    code, err = _play(capsys, "ReadsStdin")
    assert code == 0 and err == ""


@LINUX
def test_the_processes_an_agent_starts_end_with_the_game(mark):
    """An agent that leaves a process behind at each of its decisions (about 40 in this game): when the game is
    over only its watcher and the loader of its module are left, kept for the next game, and they end when the
    program does."""
    from interpreter.harness import remote

    _record(game_of("oh-hell", 4), [f"{OWN}:Forker", "random"], 1)
    watchers = [loader.process.pid for (spec, _, _), kept in remote._idle.items() for loader in kept
                if spec == f"{OWN}:Forker"]
    assert len(watchers) == 1
    with open(f"/proc/{watchers[0]}/task/{watchers[0]}/children", encoding="ascii") as f:
        kept = sorted(watchers + [int(pid) for pid in f.read().split()])
    assert len(kept) == 2 and sorted(_gone_but(mark, kept)) == kept
    remote.close_all()
    assert _gone(mark) == []


def _gone_but(value: str, kept: list[int]) -> list[int]:
    deadline = time.monotonic() + BACKSTOP
    while set(left := _marked(value)) - set(kept) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def test_each_game_starts_from_the_module_as_loaded():
    """A game's process is a fresh copy of the loaded module: what one game changed (a count of the games made)
    is not there in the next, so the same seed plays the same game whatever was played before it."""
    game = game_of("oh-hell", 4)
    first = _record(game, [f"{OWN}:Counting", "random"], 3)
    assert _record(game, [f"{OWN}:Counting", "random"], 3) == first


def test_a_module_that_does_not_load_in_time_is_named(monkeypatch):
    from interpreter.harness import remote_link

    monkeypatch.setattr(remote_link, "AGENT_LOAD_SECONDS", 0.5)
    with pytest.raises(AgentError, match=r"^agent 'tests.agent_sleeps_at_import:Agent' \(A\) did not load within "
                                         r"0.5 s$"):
        _record(game_of("oh-hell", 4), ["tests.agent_sleeps_at_import:Agent", "random"], 1, limits=(0.5, 4096))


def test_a_game_that_an_agent_stops_keeps_its_record_so_far(tmp_path, capsys):
    path = tmp_path / "stopped.jsonl"
    code, err = _play(capsys, "Exits", "--record", str(path))
    assert code == 1 and f"the record of the game so far is written to {path}" in err
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert events[0]["type"] == "game" and events[-1]["type"] != "result" and len(events) >= 2
    assert main(["replay", str(path)]) == 1
    assert "the record ends before the game does" in capsys.readouterr().err


def test_a_run_that_an_agent_stops_names_the_game_and_how_to_play_it_again(capsys):
    code = main(["simulate", "oh-hell", "-p", "4", "-n", "3", "--agents", f"{OWN}:Garbage", "--agent-timeout", "5"])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith(f"trickbook: error: agent '{OWN}:Garbage' (B) wrote what is not the protocol")
    assert "\n(game 0 of the run, seed 0/0; play it again: trickbook play oh-hell -p 4 --seed 0/0 -o " in err
    assert err.endswith(f" --agents {OWN}:Garbage --agent-timeout 5)\n")


@pytest.mark.parametrize("flag", [["--agent-timeout", "0"], ["--agent-timeout", "nan"], ["--agent-timeout", "inf"],
                                  ["--agent-timeout", "90000"], ["--agent-memory", "-1"],
                                  ["--agent-memory", str(1 << 30)]])
def test_limits_out_of_range_are_usage_errors(capsys, flag):
    with pytest.raises(SystemExit) as stopped:
        main(["play", "oh-hell", "-p", "4", "--agents", f"{OWN}:FirstLegal", *flag])
    assert stopped.value.code == 2 and f"trickbook: error: {flag[0]} must be" in capsys.readouterr().err


def _started(mark_value: str, acting: Path, argv: list[str]) -> subprocess.Popen:
    """``trickbook`` started as a terminal starts it, its agent's processes marked; back once the agent acts."""
    from .conftest import terminal_sigint

    env = dict(os.environ, **{MARK: mark_value, "TRICKBOOK_AGENT_ACTING": str(acting)})
    proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", *argv], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=HERE.parent, start_new_session=True, preexec_fn=terminal_sigint)
    deadline = time.monotonic() + BACKSTOP
    while not acting.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert acting.exists(), proc.communicate()
    return proc


SLEEPER = ["play", "oh-hell", "-p", "4", "--seed", "1", "--quiet", "--agents", f"{OWN}:Sleeper,random",
           "--agent-timeout", "600"]


@LINUX
def test_ctrl_c_stops_a_game_whose_agent_sleeps_and_leaves_no_process(tmp_path):
    value = uuid.uuid4().hex
    proc = _started(value, tmp_path / "acting", SLEEPER)
    try:
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C at a terminal: its process group (the agent's is its own)
        out, err = proc.communicate(timeout=BACKSTOP)
        assert proc.returncode == 130 and err == "interrupted\n"
        assert _gone(value) == []
    finally:
        proc.kill()
        proc.wait()


@LINUX
def test_an_agent_outlives_no_game_process_killed_outright(tmp_path):
    """``trickbook`` killed with SIGKILL in the middle of a decision: the agent's loader sees its lifeline close
    and ends the game's process group and its own."""
    value = uuid.uuid4().hex
    proc = _started(value, tmp_path / "acting", SLEEPER)
    try:
        assert _marked(value)
        proc.kill()
        proc.wait(timeout=BACKSTOP)
        assert _gone(value) == []
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_an_agent_that_floods_standard_error_does_not_hold_up_the_game():
    """trickbook's standard error a pipe nobody reads: what the agent writes there is passed on as far as the pipe
    takes it, and the rest left out, rather than the game waiting for ever."""
    proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "play", "oh-hell", "-p", "4", "--seed", "1",
                             "--quiet", "--agents", f"{OWN}:Floods,random"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=HERE.parent, start_new_session=True)
    try:
        assert proc.wait(timeout=BACKSTOP) == 0  # standard error not read until the game is over
        assert b"winner(s): " in proc.stdout.read()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def test_the_python_api_plays_within_the_limits_it_is_given():
    import interpreter as tb

    with pytest.raises(AgentError, match=f"^agent '{OWN}:Sleeper' \\(B\\) did not answer within 0.5 s"):
        tb.load("oh-hell", 4).play(["random", f"{OWN}:Sleeper"], seed=1, agent_limits=(0.5, 512))
