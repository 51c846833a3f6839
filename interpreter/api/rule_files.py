"""Rule files as the public API gives them, before any game is loaded: the bundled games, what a rule file offers
(its title, player counts and options) and every problem in one.

What ``trickbook list`` and ``trickbook validate`` tell at the terminal, for a program: the web lobby lists the
bundled games, describes a game for its form and checks a rule file a person sends with these.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.engine.compile import rule_file_check, rule_file_problems, supported_players
from interpreter.errors import RuleError
from interpreter.rules.catalog import bundled_games
from interpreter.rules.loader import load_rules


def games() -> dict[str, Path]:
    """The bundled games: each one's rule file, by the name ``load`` takes."""
    return dict(bundled_games())


def check(rules: str | Path, warnings: bool = False) -> list[RuleError]:
    """Every problem in a rule file (a bundled game's name or a path), each at its line and column, as
    ``trickbook validate`` finds them: YAML, ``extends``, the schema, then the compiler's checks for every player
    count. An empty list: the file is fine. Never raises for a mistake in the file (it may be anyone's).

    ``warnings``: a file without errors gives its warnings instead (each a ``RuleWarning``): the values, status lines
    and narration that show a seat what it cannot see. A file with warnings only is fine to play."""
    if not warnings:
        return rule_file_problems(str(rules))
    errors, warned = rule_file_check(str(rules))
    return errors or list(warned)


@dataclass(frozen=True)
class Option:
    """An option of a rule file: its default, the values it may take (None: any of its default's kind), and what
    it does in words."""

    default: Any
    choices: list[Any] | None
    description: str


@dataclass(frozen=True)
class RuleFile:
    """What a rule file offers before a game is loaded: its name and title, its player counts and its options."""

    name: str
    title: str
    players: list[int]
    options: dict[str, Option]


def about(rules: str | Path) -> RuleFile:
    """What the rule file ``rules`` (a bundled game's name or a path) offers. Raises RuleError (or RuleErrors) when
    it cannot be read or breaks the schema (``check`` lists every problem instead)."""
    source = load_rules(rules)
    data = source.data
    options = {key: Option(spec.get("default"), spec.get("choices"), spec.get("description", ""))
               for key, spec in (data.get("options") or {}).items()}
    return RuleFile(str(data.get("name", rules)), str(data.get("title", data.get("name", rules))),
                    supported_players(source), options)
