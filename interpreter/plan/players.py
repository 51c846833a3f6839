"""The ``players`` section: the player counts a game is for, and for each its setup values (read as setup.NAME), the
cards it takes out of the deck (``remove``) and its automatic seats (extra seats that play by a policy)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from interpreter.dsl.words import name_words
from interpreter.errors import RuleError, SchemaError
from interpreter.plan.head import seat_names
from interpreter.plan.section import (
    JSON,
    NAME_RULE,
    PLACES,
    STEP_NAME,
    STEP_NAME_RULE,
    Path_,
    Section,
    Telling,
    Told,
    names,
    ref,
)
from interpreter.rules.source import RuleSource

FIXED = ("remove", "automatic")  # the keys of a player count's entry that are not setup values


class AutomaticSeat(NamedTuple):
    """An extra seat: its name and role, and the steps its policy names (each one's expression is written at
    ``path + ("policy", step)``)."""

    name: str
    role: str
    policy: tuple[str, ...]
    path: Path_


class Setup(NamedTuple):
    """One player count's entry (``path``: where it is written)."""

    players: int
    path: Path_
    values: dict[str, Any]  # the setup values as written
    remove: Path_ | None  # where the condition of the cards taken out is written
    automatic: tuple[AutomaticSeat, ...]


class PlayersPlan(NamedTuple):
    counts: tuple[int, ...]  # in order
    setups: dict[int, Setup]


def read(source: RuleSource) -> PlayersPlan:
    setups = {}
    for key, spec in source.data["players"].items():
        path = ("players", key)
        spec = spec or {}
        automatic = tuple(AutomaticSeat(a["name"], a.get("role", "automatic"), tuple(a.get("policy") or ()),
                                        path + ("automatic", i)) for i, a in enumerate(spec.get("automatic") or []))
        setups[int(key)] = Setup(int(key), path, {k: v for k, v in spec.items() if k not in FIXED},
                                 path + ("remove",) if spec.get("remove") else None, automatic)
    return PlayersPlan(tuple(sorted(setups)), setups)


def seats_problems(players: PlayersPlan, seats: tuple[str, ...] | None, count: int, source: RuleSource
                   ) -> Iterator[RuleError]:
    """The seats of a game for ``count`` players, when two have the same name (an automatic seat's is written
    under its player count)."""
    setup = players.setups[count]
    every = list(seat_names(seats, max(players.counts))[:count]) + [a.name for a in setup.automatic]
    if len(set(every)) != len(every):
        where = setup.path + ("automatic",) if setup.automatic else ("seats",)
        yield SchemaError("two seats have the same name", source.pos(where))


def tell(players: Any, tell: Telling) -> list[Told]:
    counts = sorted(int(n) for n in players)
    seats = tell.source.data.get("seats")
    who = f"{_counts(counts)} players"
    if seats:
        who += f"; the seats, in the order of play: {', '.join(seats)}"
    said: list[Told] = [(PLACES["players"], [("h2", "Players and cards"), ("p", who + ".")])]
    setups = []
    for n, spec in players.items():
        parts = [f"{name_words(k)} {tell.say(v) if isinstance(v, str) else v}" for k, v in (spec or {}).items()
                 if k not in FIXED]
        if (spec or {}).get("remove"):
            parts.append(f"every {tell.picks(spec['remove'])[2:]} is taken out of the game")
        for auto in (spec or {}).get("automatic") or []:
            parts.append(f"an automatic seat, {auto['name']} ({auto.get('role', 'automatic')}), plays by its own "
                         "rule: " + "; ".join(f"{name_words(step)}: {tell.say(rule)}"
                                              for step, rule in (auto.get("policy") or {}).items()))
        if parts:
            setups.append(f"With {n} players: " + "; ".join(parts) + tell.comment(("players", n)))
    if setups:
        said.append((PLACES["setup"], [("h3", "Setup by the number of players"), ("ul", setups)]))
    return said


def _counts(counts: list[int]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


def _schema() -> JSON:
    return {
        "title": "players section",
        "description": "The supported player counts. Each key is a player count; its value holds the setup values "
                       "for that count (read in expressions as setup.NAME).",
        "type": "object",
        "minProperties": 1,
        "patternProperties": {"^[1-9][0-9]?$": ref("setup", "Setup for this player count.")},
        "additionalProperties": False,
    }


def _definitions() -> JSON:
    return {
        "setup_value": {
            "description": "A setup value: text, a whole number, true/false, a list of setup values or a mapping of "
                           "named setup values.",
            "type": ["string", "integer", "boolean", "array", "object"],
            "items": ref("setup_value"),
            "propertyNames": names(f"a setup field is a name usable in expressions: {NAME_RULE}"),
            "additionalProperties": ref("setup_value"),
        },
        "setup": {
            "title": "player-count setup",
            "description": "Setup values for one player count, read in expressions as setup.NAME (e.g. hand size, "
                           "number of rounds), plus remove and automatic.",
            "type": "object",
            "propertyNames": names(f"a setup value name is a name usable in expressions (setup.NAME): {NAME_RULE}"),
            "properties": {
                "remove": ref("condition", "Which cards are taken out of the deck for this player count: a condition "
                                           "on card, e.g. \"card.number == 7 and card.copy < 3\"."),
                "automatic": {
                    "description": "Extra seats for this player count that nobody plays: they come after the "
                                   "players' seats, and each of their decisions is made by their policy (e.g. a "
                                   "dummy that always plays the top card of its stack).",
                    "type": "array",
                    "items": ref("automatic_seat"),
                },
            },
            "additionalProperties": ref("setup_value"),
        },
        "automatic_seat": {
            "title": "automatic seat",
            "description": "An extra seat that plays by rule: its name, its role and what it chooses in each step "
                           "that asks it.",
            "type": "object",
            "additionalProperties": False,
            "required": ["name"],
            "properties": {
                "name": {"description": "The seat's name; it must differ from every other seat's.", "type": "string",
                         "minLength": 1},
                "role": {
                    "description": "The seat's role, tested in rules as seat.role (players' seats have the role "
                                   "player).",
                    "type": "string",
                    "minLength": 1,
                    "default": "automatic",
                },
                "policy": {
                    "title": "policy of an automatic seat",
                    "description": "Step name -> expression: what the seat chooses in that step. The expression may "
                                   "use seat, legal (the legal choices) and the names the step binds.",
                    "type": "object",
                    "propertyNames": names(STEP_NAME_RULE, STEP_NAME),
                    "additionalProperties": ref("expression"),
                },
            },
        },
    }


SECTION = Section("players", _schema, required=True, read=read, words=tell, definitions=_definitions)
