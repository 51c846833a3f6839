"""The ``table`` section: what the players see on the table besides the cards, as status lines."""

from __future__ import annotations

from typing import Any, NamedTuple

from interpreter.dsl.words import in_words
from interpreter.plan.section import JSON, PLACES, Path_, Section, Telling, Told, ref
from interpreter.rules.source import RuleSource


class StatusLinePlan(NamedTuple):
    """One status line: its title, and where its expressions are written (``when``: None when it has none)."""

    title: str
    show: Path_
    when: Path_ | None
    each: bool
    discloses: bool = False


def read(source: RuleSource) -> tuple[StatusLinePlan, ...]:
    return tuple(StatusLinePlan(spec["title"], ("table", i, "show"), ("table", i, "when") if "when" in spec else None,
                                bool(spec.get("each", False)), bool(spec.get("discloses", False)))
                 for i, spec in enumerate(source.data.get("table") or []))


def tell(lines: Any, tell: Telling) -> list[Told]:
    if not lines:
        return []
    return [(PLACES["table"], [
        ("h2", "On the table"), ("p", "Besides the cards, the trick and the totals, each player sees:"),
        ("ul", [f"**{line['title']}**: {in_words(line['show'])}" + (" (each player's)" if line.get("each") else "")
                + (f", when {in_words(line['when'])}" if "when" in line else "") + tell.comment(("table", i))
                for i, line in enumerate(lines)])])]


def _schema() -> JSON:
    return {
        "title": "table section",
        "description": "What the players see on the table besides the cards, the trick and the totals: status lines, "
                       "each a title and an expression, shown in this order to every seat (worked out on what that "
                       "seat knows, so a line never shows what it may not see). With a table section, round and seat "
                       "values are shown only through it.",
        "type": "array",
        "items": {
            "title": "status line",
            "description": "One line of the table: its title, then what show gives.",
            "type": "object",
            "additionalProperties": False,
            "required": ["title", "show"],
            "properties": {
                "title": {"description": "What the line is called, in the rulebook's words, e.g. trump.",
                          "type": "string", "minLength": 1},
                "show": ref("expression", "What the line shows: an expression; seat is the seat looking (with each: "
                                          "every seat in turn). A value of none hides the line; true and false show "
                                          "as yes and no; lists joined."),
                "when": ref("condition", "Show the line only when this holds (seat is the seat looking)."),
                "each": {"description": "Show the value of every seat on the line, e.g. the bids: North 3, East 2, ... "
                                        "(default false).", "type": "boolean"},
                "discloses": {"description": "The line shows what the rules have told every seat by then, though it "
                                             "reads what some seat does not see (a party once announced): validate "
                                             "does not warn of it (default false).", "type": "boolean"},
            },
        },
    }


SECTION = Section("table", _schema, read=read, words=tell)
