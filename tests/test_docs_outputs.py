"""The sample sessions in the docs are what the program prints today.

Every fenced block of a docs page (docs/*.md, README.md) whose first line is a ``$ trickbook ...`` command is a
sample session: each ``$ trickbook`` line is run (in a scratch folder holding a copy of docs/, so records and
reports land there) and what follows it, up to the next ``$`` line, must be its output exactly. A page is brought
up to date by the program itself::

    python tests/test_docs_outputs.py --write
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
FENCE = re.compile(r"^```[a-z]*\n(\$ trickbook .*?)^```\n", re.M | re.S)


def sessions(text: str) -> list[tuple[int, int, list[tuple[str, str]]]]:
    """Each sample session of a page: where its body starts and ends, and its (command, output) pairs."""
    out = []
    for m in FENCE.finditer(text):
        pairs: list[tuple[str, str]] = []
        for line in m.group(1).splitlines(keepends=True):
            if line.startswith("$ "):
                pairs.append((line[2:].rstrip("\n"), ""))
            else:
                pairs[-1] = (pairs[-1][0], pairs[-1][1] + line)
        out.append((m.start(1), m.end(1), pairs))
    return out


def run(command: str, folder: Path) -> str:
    """What ``command`` (a trickbook command line) prints, run in ``folder``, standard error after standard
    output as a terminal shows them when neither is redirected."""
    from interpreter.cli import main

    args = shlex.split(command)
    assert args[0] == "trickbook", command
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(args[1:])
    finally:
        os.chdir(here)
    return out.getvalue() + err.getvalue()


def scratch() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="trickbook-docs-"))
    shutil.copytree(ROOT / "docs", folder / "docs")
    return folder


def rewrite(page: Path) -> bool:
    """Bring ``page``'s sample sessions up to date; whether it changed."""
    text = page.read_text()
    folder = scratch()
    try:
        new, last = [], 0
        for start, end, pairs in sessions(text):
            body = "".join(f"$ {cmd}\n{run(cmd, folder)}" for cmd, _ in pairs)
            new += [text[last:start], body]
            last = end
        new.append(text[last:])
    finally:
        shutil.rmtree(folder)
    changed = "".join(new) != text
    if changed:
        page.write_text("".join(new))
    return changed


# one case a session: its commands run in order in one folder (a later command may read what an earlier one wrote,
# such as a record), so a session is never split between two test processes
CASES = [(page, i, pairs) for page in PAGES for i, (_, _, pairs) in enumerate(sessions(page.read_text()))]


def test_the_docs_have_sample_sessions():
    assert sum(len(pairs) for _, _, pairs in CASES) >= 8
    assert any("simulate" in cmd for _, _, pairs in CASES for cmd, _ in pairs)


@pytest.mark.parametrize(("page", "session", "pairs"), CASES,
                         ids=[f"{p.name}-{i}-{pairs[0][0].split()[1]}" for p, i, pairs in CASES])
def test_a_sample_session_shows_what_the_program_prints(page, session, pairs):
    folder = scratch()
    try:
        for command, shown in pairs:
            assert run(command, folder) == shown, (
                f"{page.relative_to(ROOT)}: `{command}` prints something else now; "
                "run `python tests/test_docs_outputs.py --write` and read the difference")
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_docs_outputs.py --write")
    sys.path.insert(0, str(ROOT))
    for p in PAGES:
        if rewrite(p):
            print(f"{p.relative_to(ROOT)}: updated")
