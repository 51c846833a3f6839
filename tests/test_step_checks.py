"""A step kind's checks report every mistake they find, not only the first: a step with several independent
mistakes is refused with all of them, in file order, each at its line and column, as the schema reports its own
(engine/steps/options.py collects them, ``finish_steps`` raises them together). A check that would only repeat the
consequence of an earlier mistake (the zone does not exist, so whether it is per-seat cannot be told) is skipped.

The cases are the round steps of tests/data/step_checks/ (each file says what it holds): a comment line under a
line with a mistake marks its column with ``^`` followed by the message ``trickbook validate`` gives there. A file
named skip-* shows a skipped check: its one mistake is all that is reported."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli import main, validate_file

from .conftest import ROOT
from .test_steps import rules, write

CASES = sorted((ROOT / "tests" / "data" / "step_checks").glob("*.yaml"))


def refusals(tmp_path: Path, text: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of each error ``trickbook validate`` reports for the rule file ``text``."""
    path = write(tmp_path, text, "bad.yaml")
    found = []
    for error in validate_file(str(path)):
        m = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): error: (.*)", error)
        assert m, error
        found.append((int(m.group(1)), int(m.group(2)), m.group(3)))
    assert main(["validate", str(path)]) == 1
    return found


def marked(text: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of each mistake marked in ``text``: a comment line ``# ... ^ MESSAGE`` marks the
    column of its ``^`` in the last line above it that is not a comment."""
    found = []
    target = 0
    for n, line in enumerate(text.splitlines(), 1):
        if not line.lstrip().startswith("#"):
            target = n
        elif "^ " in line:
            found.append((target, line.index("^") + 1, line.split("^ ", 1)[1]))
    return found


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_a_step_reports_each_of_its_mistakes_in_file_order_at_its_place(tmp_path, path):
    text = rules(path.read_text(encoding="utf-8"))
    expected = marked(text)
    assert len(expected) == 1 if path.stem.startswith("skip-") else len(expected) >= 2
    assert refusals(tmp_path, text) == expected


def test_the_cases_cover_the_step_kinds_with_checks_of_their_own():
    assert {p.stem for p in CASES} >= {"move", "choose", "tricks", "deal", "board"}


def test_a_mark_names_the_line_above_it_and_the_column_of_its_caret():
    text = "a: 1\n  b: xyz\n#    ^ one\n#     ^ two\nc: 2\n"
    assert marked(text) == [(2, 6, "one"), (2, 7, "two")]
