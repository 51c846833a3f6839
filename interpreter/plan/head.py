"""The head of a rule file: ``trickbook`` (the format), ``extends``, ``name``, ``title`` and ``seats``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.errors import RuleError, SchemaError
from interpreter.plan.section import JSON, PLACES, Plan, Section, Telling, Told
from interpreter.rules.source import RuleSource


def _trickbook() -> JSON:
    return {"description": "Version of the rule file format. Always 1.", "const": 1}


def _extends() -> JSON:
    return {
        "description": "A rule file (path relative to this file) or bundled game this file is written as the "
                       "differences from. Resolved and removed while loading: mappings are merged key by key, other "
                       "values replace the base's, and a key set to null removes the base's key.",
        "type": "string",
        "minLength": 1,
    }


def _name() -> JSON:
    return {
        "description": "Identifier of the game: lower-case letters, digits and hyphens, e.g. my-game. Used on the "
                       "command line and in game records.",
        "type": "string",
        "pattern": "^[a-z0-9][a-z0-9-]*$",
    }


def _title() -> JSON:
    return {"description": "Human-readable title of the game (defaults to name).", "type": "string", "minLength": 1}


def _seats() -> JSON:
    return {
        "description": "Names of the seats, in play order (the next seat is the left neighbour). There must be at "
                       "least as many as the largest player count; defaults to P1, P2, ...",
        "type": "array",
        "minItems": 1,
        "uniqueItems": True,
        "items": {"description": "The name of one seat.", "type": "string", "minLength": 1},
    }


def read_name(source: RuleSource) -> str:
    return str(source.data["name"])


def read_title(source: RuleSource) -> str:
    """The title people see: ``title``, or the name."""
    return str(source.data.get("title", source.data["name"]))


def read_seats(source: RuleSource) -> tuple[str, ...] | None:
    """The seat names as written (None: the default, P1, P2, ... for as many as the most players)."""
    seats = source.data.get("seats")
    return tuple(seats) if seats else None


def seat_names(seats: tuple[str, ...] | None, most: int) -> tuple[str, ...]:
    """The names of the seats of a game for up to ``most`` players."""
    return seats if seats is not None else tuple(f"P{i + 1}" for i in range(most))


def check_seats(seats: tuple[str, ...] | None, plan: Plan) -> Iterator[RuleError]:
    most = max(plan["players"].counts)
    if seats is not None and len(seats) < most:
        yield SchemaError(f"seats names {len(seats)} seats but the game is for up to {most} players",
                          plan.source.pos(("seats",)))


def tell_title(title: Any, tell: Telling) -> list[Told]:
    return [(PLACES["title"], [("h1", read_title(tell.source))])]


SECTIONS = (
    Section("trickbook", _trickbook, required=True),
    Section("extends", _extends),
    Section("name", _name, required=True, read=read_name),
    Section("title", _title, read=read_title, words=tell_title),
    Section("seats", _seats, read=read_seats, checks=check_seats),
)
