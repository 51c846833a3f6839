"""The commands about rule files: ``validate`` (every problem, as FILE:LINE:COL errors and warnings), ``list``
(the bundled games), ``explain`` (a rule file as a rulebook) and ``schema`` (the JSON Schema of rule files)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from interpreter.commands.common import allowed
from interpreter.engine.compile import rule_file_check, rule_file_problems, supported_players
from interpreter.errors import RuleWarning, TrickbookError
from interpreter.rules.catalog import bundled_games, schema_path
from interpreter.rules.loader import load_rules

MAX_SHOWN_ERRORS = 20  # per file: a file with hundreds of mistakes is reported in a screenful


def validate(args: argparse.Namespace) -> int:
    bad = 0
    for f in args.files:
        errors, warnings = rule_file_check(f, allowed(args))
        for e in (errors or warnings)[:MAX_SHOWN_ERRORS]:
            print(e.render(), file=sys.stderr)
        shown = "errors" if errors else "warnings"
        if len(errors or warnings) > MAX_SHOWN_ERRORS:
            print(f"{f}: and {len(errors or warnings) - MAX_SHOWN_ERRORS} more {shown}", file=sys.stderr)
        if errors or warnings and args.strict:
            bad += 1
            if not errors:
                print(f"{f}: {_count(warnings)} (--strict: a warning fails)", file=sys.stderr)
        else:
            named = load_rules(f, allowed(args)).smap.named
            print(f"{f}: ok" + (f" ({_count(warnings)})" if warnings else "")
                  + ("" if named is None else f" (named {named!r} after its file: it extends another and names no "
                                              "game of its own; name: sets one)"))
    return 1 if bad else 0


def _count(warnings: list[RuleWarning]) -> str:
    return f"{len(warnings)} warning{'' if len(warnings) == 1 else 's'}"


def validate_file(name: str, allow: tuple[Path, ...] = ()) -> list[str]:
    """Every problem found in one rule file, as rendered error blocks."""
    return [e.render() for e in rule_file_problems(name, allow)]


def validate_warnings(name: str, allow: tuple[Path, ...] = ()) -> list[str]:
    """The warnings of one rule file without errors, as rendered blocks (``FILE:LINE:COL: warning: ...``)."""
    return [w.render() for w in rule_file_check(name, allow)[1]]


def explain(args: argparse.Namespace) -> int:
    from interpreter import explain as rulebook
    from interpreter.plan import sections

    source = load_rules(args.game, allowed(args))
    other = None if args.diff is None else load_rules(args.diff, allowed(args))
    for checked in (source, other):  # the sections' own checks (a rule file's options, its deck...), as validate's
        if checked is not None:
            sections.read(checked)
    blocks = rulebook.explain(source) if other is None else rulebook.diff(source, other)
    sys.stdout.write(rulebook.markdown(blocks) if args.format == "md" else rulebook.html(blocks))
    return 0


def schema(args: argparse.Namespace) -> int:
    sys.stdout.write(schema_path().read_text(encoding="utf-8"))
    return 0


def list_games(args: argparse.Namespace) -> int:
    for name, path in bundled_games().items():
        try:
            source = load_rules(path, check=False)  # the bundled games are validated by the test suite
        except TrickbookError as exc:  # pragma: no cover - bundled games are tested
            print(f"{name}: broken ({exc})")
            continue
        counts = ", ".join(map(str, supported_players(source)))
        print(f"{name}  —  {source.data.get('title', name)}")
        print(f"    players: {counts}")
        for opt, spec in (source.data.get("options") or {}).items():
            print(f"    option {opt} (default {json.dumps(spec['default'])}): {spec['description']}")
    return 0
