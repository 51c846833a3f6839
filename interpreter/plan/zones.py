"""The ``zones`` section: the places cards can be, each one per seat (a hand) or shared (the trick), and who sees
them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from interpreter.dsl.words import name_words
from interpreter.errors import RuleError, SchemaError
from interpreter.plan.section import JSON, NAME_RULE, PLACES, Path_, Plan, Section, Telling, Told, names
from interpreter.rules.source import RuleSource

# seat attributes the engine provides; per-seat zones and values may not take these names
SEAT_ATTRIBUTES = ("total", "name", "index", "role")
# the words of the expression language and the names of its constants, which a shared zone may not take (an
# expression reads a shared zone by its name)
KEYWORDS = frozenset({"true", "false", "none", "and", "or", "not", "in", "if", "else", "for", "let"})
CONSTANTS = ("players", "options", "setup", "seats")

VISIBLE = {"owner": "seen by its owner only", "all": "face up, seen by everyone", "nobody": "face down, seen by nobody"}


@dataclass(frozen=True)
class ZoneSpec:
    name: str
    per_seat: bool
    visible: str  # "all", "owner", "nobody"


def read(source: RuleSource) -> dict[str, ZoneSpec]:
    return {name: ZoneSpec(name, bool(spec.get("per_seat", False)), spec.get("visible", "all"))
            for name, spec in source.data["zones"].items()}


def check(zones: dict[str, ZoneSpec], plan: Plan) -> Iterator[RuleError]:
    taken = set(CONSTANTS) | {"round", "game"} | KEYWORDS
    for name, spec in zones.items():
        if not spec.per_seat and name in taken:
            yield SchemaError(f"zone name {name!r} is taken by a name of the expression language",
                              plan.source.key_pos(("zones", name)))
    yield from _taken_by_seat_attributes(zones, (), plan.source)


def _taken_by_seat_attributes(zones: dict[str, ZoneSpec], counters: Iterable[str], source: RuleSource
                              ) -> Iterator[RuleError]:
    taken = SEAT_ATTRIBUTES + tuple(counters)
    for name, spec in zones.items():
        if spec.per_seat and name in taken:
            yield SchemaError(f"zone name {name!r} is taken by a seat attribute", source.key_pos(("zones", name)))


def clashes(zones: dict[str, ZoneSpec], counters: list[str], seat_values: Iterable[str], where: dict[str, Path_],
            source: RuleSource) -> Iterator[RuleError]:
    """Once the steps have said what they count and set: a per-seat zone named as a counter, a seat value named as
    a seat attribute, a counter or a zone (``where``: each value's step)."""
    yield from _taken_by_seat_attributes(zones, [c for c in counters if c not in SEAT_ATTRIBUTES], source)
    for name in seat_values:
        if name in SEAT_ATTRIBUTES + tuple(counters) or name in zones:
            yield SchemaError(f"the seat value {name!r} has the name of a seat attribute or a zone; choose another "
                              "name", source.pos(where.get(name, ("round",))))


def tell(zones: Any, tell: Telling) -> list[Told]:
    said = []
    for name, zone in zones.items():
        whose = "each player's own" if zone.get("per_seat") else "shared"
        seen = VISIBLE.get(zone.get("visible", "all"), f"seen by {zone.get('visible')}")
        said.append(f"**{name_words(name)}**: {whose}, {seen}" + tell.comment(("zones", name)))
    return [(PLACES["zones"], [("h3", "Where cards lie"), ("ul", said)])]


def _schema() -> JSON:
    return {
        "title": "zones section",
        "description": "Places cards can be: one per seat (per_seat: true), e.g. hands and won tricks, or shared, "
                       "e.g. the trick. Per-seat zones are read in expressions as seat attributes (s.NAME).",
        "type": "object",
        "minProperties": 1,
        "propertyNames": names(f"a zone name is a name usable in expressions (s.NAME): {NAME_RULE}"),
        "additionalProperties": {"$ref": "#/definitions/zone"},
    }


def _definitions() -> JSON:
    return {"zone": {
        "title": "zone",
        "description": "A place cards can be.",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "per_seat": {
                "description": "true: every seat has its own zone of this name (a hand, won tricks); false "
                               "(default): one shared zone (the trick).",
                "type": "boolean",
            },
            "visible": {
                "description": "Who sees the cards: all (default), owner (only the seat it belongs to) or nobody.",
                "enum": ["all", "owner", "nobody"],
            },
        },
    }}


SECTION = Section("zones", _schema, required=True, read=read, checks=check, words=tell, definitions=_definitions)
