"""A short seeded fuzz run in the default suite (the long run: ``python tests/fuzz.py --cases 5000``).

Each kind runs in child processes with a limit of CPU time per case and a memory limit (see tests/fuzz.py); a
traceback, a hang, a memory blow-up or a play error naming no place in the rule file fails the test with
the command that reproduces the case. No limit here is of wall-clock time, but for a backstop ten times the
CPU limit against a case that blocks: a busy machine makes a case slower, not a finding.
"""

from __future__ import annotations

import pytest

from tests import fuzz

# cases per kind: enough to reach play often (the counts below), a few seconds each
CASES = {"rules": 20, "expressions": 20, "records": 14, "prompt": 10}


@pytest.mark.parametrize("kind", fuzz.KINDS)
def test_a_short_fuzz_run_finds_nothing(kind):
    outcomes: dict[str, int] = {}
    findings = fuzz.run(kind, seed=1, start=0, count=CASES[kind], seconds=60, memory_mb=2048, outcomes=outcomes)
    # seconds: of CPU, counted by the worker's own timer
    assert not findings, "\n\n".join(map(str, findings))
    assert sum(outcomes.values()) == CASES[kind]
    # the run tests something: some cases get past validation into play (or a record into replay)
    reached = outcomes.get("played", 0) + outcomes.get("stopped in play", 0) + outcomes.get("accepted", 0)
    assert reached >= CASES[kind] // 20, outcomes
    assert outcomes.get("refused", 0) >= CASES[kind] // 10, outcomes  # and some are hostile enough to be refused


def test_a_case_is_the_same_for_the_same_seed_and_number():
    a, b = fuzz.make_case("rules", 5, 17), fuzz.make_case("rules", 5, 17)
    assert a.files == b.files and a.files != fuzz.make_case("rules", 5, 18).files


def test_the_fuzzer_reports_a_traceback_as_a_finding(tmp_path, monkeypatch):
    """The harness itself: a case whose command raises is a finding, not a pass."""
    import interpreter.cli

    def broken(argv):
        raise KeyError("planted")

    monkeypatch.setattr(interpreter.cli, "main", broken)
    problem = fuzz.run_case(fuzz.make_case("expressions", 1, 0), tmp_path)
    assert problem is not None and problem.startswith("traceback:") and "KeyError: 'planted'" in problem


def test_a_case_past_its_cpu_time_is_a_finding_of_cpu_not_of_wall_clock_time():
    """The limit counts CPU time: with a limit far below what a case needs, each case is stopped by the worker's
    CPU timer and reported as such, however long (or short) it took on the clock."""
    findings = fuzz.run("rules", seed=1, start=0, count=2, seconds=0.02, memory_mb=2048, wall_seconds=600)
    assert [f.number for f in findings] == [0, 1], findings
    assert all(f.problem == "used more than 0.02 s of CPU (a hang)" for f in findings), findings


# the families (fuzz.NEW_KINDS), seed 1: (first case, cases), each kind with its own limits (fuzz.LIMITS). signals
# and decks are slow (a process pool started and interrupted; ismcts over a deck of thousands of cards): a few
# cases, for signals one that interrupts a long run in its middle (case 82: SIGINT after 2.2 s, past the imports
# even on a busy machine; case 83, after 3.0 s, and more with `python tests/fuzz.py --kind signals`)
FAMILY_CASES = {"names": (0, 16), "huge": (0, 6), "outputs": (0, 16), "signals": (82, 1), "decks": (0, 3),
                "agents": (1, 9), "web": (0, 20)}


@pytest.mark.parametrize("kind", fuzz.NEW_KINDS)
def test_a_short_run_of_each_family_finds_nothing(kind):
    start, count = FAMILY_CASES[kind]
    outcomes: dict[str, int] = {}
    findings = fuzz.run(kind, seed=1, start=start, count=count, outcomes=outcomes)
    assert not findings, "\n\n".join(map(str, findings))
    assert sum(outcomes.values()) == count
    if kind == "names":  # the generated files are valid and the games are played through
        assert outcomes.get("played", 0) >= count // 2 and not outcomes.get("refused"), outcomes
    if kind == "huge":  # some files accepted (the work done in full), some refused at a limit
        assert outcomes.get("accepted", 0) >= 1 and outcomes.get("refused", 0) >= 1, outcomes
    if kind == "outputs":  # write errors reached and reported
        assert outcomes.get("write error reported", 0) >= count // 10, outcomes
    if kind == "decks":
        assert outcomes.get("played", 0) >= 1 and not outcomes.get("invalid (generator)"), outcomes
    if kind == "agents":  # cases 1 to 9: agents that exit, write garbage, fork... (none of a pool, none asleep)
        assert outcomes.get("stopped, agent named", 0) >= 4 and outcomes.get("played", 0) >= 2, outcomes
    if kind == "web":  # some cases got an action taken among their hostile frames, some had every one refused
        assert outcomes.get("accepted", 0) >= 1 and outcomes.get("refused", 0) >= 1, outcomes


def test_the_names_family_finds_locals_that_collide(tmp_path, monkeypatch):
    """The harness itself: with the old mangling (``f.x`` and ``f_x`` both ``_v_f_x``), a define
    ``f(x): "sum([x for f_x in [10, 20]])"``-like case plays otherwise than with numbered locals."""
    import interpreter.dsl.emit

    monkeypatch.setattr(interpreter.dsl.emit, "local_name", lambda name: "_v_" + name.replace(".", "_"))
    problem = fuzz.run_case(fuzz.make_case("names", 1, 8), tmp_path)  # define g_x(_k0, ...), variable g_x__k0
    assert problem is not None and problem.startswith("the names of the locals change the game"), problem


def test_the_web_family_finds_a_message_that_breaks_the_server(tmp_path, monkeypatch):
    """The harness itself: with messages read by Python's own parser (as before the server bounded their
    nesting), a frame of 3,000 brackets raises out of the WebSocket handler, and the case says so."""
    import json

    import interpreter.web.app
    from interpreter.web.guard import Malformed

    def unbounded(text: str, what: str) -> object:
        try:
            return json.loads(text)
        except ValueError:  # not JSON is refused as the server does; deep nesting reaches Python's parser
            raise Malformed(f"the {what} is not JSON") from None

    monkeypatch.setattr(interpreter.web.app, "read_json", unbounded)
    problem = fuzz.run_case(fuzz.make_case("web", 1, 10), tmp_path)  # its first frame is "[" * 3000
    assert problem is not None and problem.startswith("traceback:") and "RecursionError" in problem, problem


def test_a_family_case_is_the_same_for_the_same_seed_and_number():
    for kind in ("names", "huge", "outputs", "decks", "web"):
        a, b = fuzz.make_case(kind, 5, 17), fuzz.make_case(kind, 5, 17)
        assert (a.files, a.argv, a.spec) == (b.files, b.argv, b.spec)
