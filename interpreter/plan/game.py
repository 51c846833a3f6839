"""The ``game`` section: how the whole game runs from round to round: who deals first, the values kept from round to
round, when it ends, who can win and who wins."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from interpreter.dsl.words import name_words
from interpreter.errors import RuleError, SchemaError
from interpreter.limits import MAX_ROUNDS
from interpreter.plan.section import JSON, PLACES, Path_, Plan, Section, Telling, Told, ref
from interpreter.rules.source import RuleSource

BASE = ("game",)
WINNERS = {"highest_total": "the highest total", "lowest_total": "the lowest total"}


class GamePlan(NamedTuple):
    """Where each expression of the section is written (None: not written), who wins, and the names of the game
    values and of the seats' game values (each one's starting value is written under ``game.values`` or
    ``game.seat_values``)."""

    first_dealer: Path_ | None
    next_dealer: Path_ | None
    rounds: Path_ | None
    until: Path_ | None
    can_win: Path_ | None
    winners: str
    values: tuple[str, ...]
    seat_values: tuple[str, ...]


def read(source: RuleSource) -> GamePlan:
    spec = source.data["game"]

    def at(key: str) -> Path_ | None:
        return BASE + (key,) if key in spec else None

    return GamePlan(at("first_dealer"), at("next_dealer"), at("rounds"), at("until"), at("can_win"),
                    spec.get("winners", "highest_total"), tuple(spec.get("values") or ()),
                    tuple(spec.get("seat_values") or ()))


def check(game: GamePlan, plan: Plan) -> Iterator[RuleError]:
    if game.rounds is None and game.until is None:
        yield SchemaError("the game needs an end: game.rounds or game.until", plan.source.pos(BASE))


def rounds_problem(rounds: Any, source: RuleSource) -> RuleError | None:
    """``rounds`` as worked out before play, when it is not a number of rounds the engine plays."""
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        return SchemaError(f"rounds must be a whole number from 1 to {MAX_ROUNDS}, got {rounds!r}",
                           source.pos(BASE + ("rounds",)))
    return None


def first_dealer_problem(dealer: Any, source: RuleSource) -> RuleError | None:
    """``first_dealer`` as worked out before play, when it is not a seat index."""
    if type(dealer) is not int:  # '' or a list passes the schema as an expression; it is still no seat index
        return SchemaError(f"first_dealer must be a whole number (the seat index), not "
                           f"{source.get(BASE + ('first_dealer',))!r}", source.pos(BASE + ("first_dealer",)))
    return None


def tell(spec: Any, tell: Telling) -> list[Told]:
    items = []
    for key, what in (("first_dealer", "the first dealer"), ("rounds", "rounds played"),
                      ("until", "the game ends after a round when"), ("winners", "who wins"),
                      ("can_win", "who may win the game")):
        if key in spec:
            value = spec[key]
            text = WINNERS.get(value) if key == "winners" and isinstance(value, str) else None
            items.append(f"**{what}**: {text or tell.say(value)}" + tell.comment(BASE + (key,)))
    for group, what in (("values", "values kept from round to round"), ("seat_values", "each player's values")):
        for name, value in (spec.get(group) or {}).items():
            items.append(f"**{what}**: {name_words(name)}, starting at {tell.say(value)}")
    return [(PLACES["end"], [("h2", "The end of the game"), ("ul", items)])]


def _schema() -> JSON:
    return ref("game", "How the whole game runs: first dealer, game values, end and winners.")


def _definitions() -> JSON:
    return {"game": {
        "title": "game section",
        "description": "How the whole game runs: who deals first, the values kept from round to round, when it ends, "
                       "who can win and who wins. It needs an end: rounds or until.",
        "type": "object",
        "additionalProperties": False,
        "anyOf": [{"required": ["rounds"]}, {"required": ["until"]}],
        "properties": {
            "first_dealer": ref("number", "The seat that deals the first round (0 is the first seat, default 0): a "
                                          "whole number or an expression over players, options and setup; the deal "
                                          "then passes to the left (or as next_dealer says)."),
            "next_dealer": ref("seat", "Who deals the next round, worked out when a round ends (default "
                                       "left(round.dealer), the deal passes to the left), e.g. \"round.dealer if "
                                       "round.redeal else left(round.dealer)\": the same dealer deals again."),
            "values": ref("values", "Game values, kept from round to round and read as game.NAME: value name -> "
                                    "expression giving its value at the start of the game. A set step's game: "
                                    "changes them."),
            "seat_values": ref("values", "Values of each seat kept from round to round (e.g. overtricks counted over "
                                         "the game), read as seat.NAME: value name -> expression giving a seat's "
                                         "value at the start of the game (seat is bound). A set step's game: changes "
                                         "them."),
            "rounds": {**ref("number", "How many rounds are played: a whole number or an expression over players, "
                                       "options and setup, e.g. setup.rounds."), "minimum": 1},
            "until": ref("condition", "A condition checked after each round; the game ends when it is true."),
            "winners": {
                "description": "Who wins at the end: the seats with the highest_total (default) or the lowest_total "
                               "score.",
                "enum": list(WINNERS),
            },
            "can_win": ref("condition", "A condition on seat: only seats for which it holds can win the game "
                                        "(default: every seat). Names bound here: seat."),
        },
    }}


SECTION = Section("game", _schema, required=True, read=read, checks=check, words=tell, definitions=_definitions)
