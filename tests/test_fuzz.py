"""A short seeded fuzz run in the default suite (the long run: ``python tests/fuzz.py --cases 5000``).

Each kind runs in child processes with a time limit per case and a memory limit (see tests/fuzz.py); a
traceback, a hang, a memory blow-up or a play error naming no place in the rule file fails the test with
the command that reproduces the case.
"""

from __future__ import annotations

import pytest

from tests import fuzz

# cases per kind: enough to reach play often (the counts below), a few seconds each
CASES = {"rules": 60, "expressions": 60, "records": 40, "prompt": 20}


@pytest.mark.parametrize("kind", fuzz.KINDS)
def test_a_short_fuzz_run_finds_nothing(kind):
    outcomes: dict[str, int] = {}
    findings = fuzz.run(kind, seed=1, start=0, count=CASES[kind], seconds=60, memory_mb=2048, outcomes=outcomes)
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
