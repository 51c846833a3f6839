"""Values by their static type: the cards a value names, what a Knowledge follows of values (a card chosen in
the open is known to all) and renames in a sample, and how people read a value; the kinds of a game's cards and
of plain values, as its actions name them (engine/actions.py). Plain functions of a type and a value, imported by
the steps, knowledge.py, observation.py and encoding.py alike (so none imports another for them)."""

from __future__ import annotations

from typing import Any

from interpreter.dsl.types import VALUE, Type
from interpreter.engine.game_view import GameView


def only_cards(t: Type) -> bool:
    """Whether values of type ``t`` name cards (a card, or a list of cards)."""
    return t.kind == "card" or (t.kind == "list" and t.element is not None and t.element.kind == "card")


def cards_named(t: Type, value: Any) -> list[int]:
    """The cards a value of static type ``t`` names (a card, or a list of cards)."""
    if t.kind == "card" and type(value) is int:
        return [value]
    if only_cards(t) and isinstance(value, (list, tuple)):
        return [c for c in value if type(c) is int]
    return []


def renamed(t: Type | None, value: Any, card: Any) -> Any:
    """``value`` of static type ``t`` with every card in it renamed by ``card``."""
    if value is None or t is None:
        return value
    if t.kind == "card" and type(value) is int:
        return card(value)
    if t.kind == "list" and isinstance(value, (list, tuple)):
        items = [renamed(t.element, v, card) for v in value]
        return items if isinstance(value, list) else tuple(items)
    if t.kind == "record" and isinstance(value, dict):
        return {k: renamed(t.field_type(k), v, card) for k, v in value.items()}
    return value


def readable(game: GameView, t: Type, value: Any) -> Any:
    """A value of static type ``t`` as JSON people read: seats by name, cards by label, records by label."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, dict):
        if "label" in value:
            return value["label"]
        return {k: readable(game, t.field_type(k) or VALUE, v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        element = t.element if t.kind == "list" and t.element is not None else VALUE
        return [readable(game, element, v) for v in value]
    if isinstance(value, int) and t.kind in ("seat", "card"):
        return game.seat_names[value] if t.kind == "seat" else game.cards.labels[value]
    return value


def card_kinds(game: GameView) -> list[int]:
    """The kinds of the game's cards (the first of each set of identical cards), in deck order."""
    kinds = game.cards.kinds
    return list(dict.fromkeys(kinds[c] for c in sorted(game.deck)))


def card_texts(game: GameView) -> list[str]:
    """The texts of the cards' attributes (suits, colours, ranks written as words), each once, in deck order."""
    out: dict[str, None] = {}
    for values in game.cards.attributes.values():
        out.update((v, None) for v in values if isinstance(v, str))
    return list(out)


def value_kind(v: Any) -> str:
    """The kind of a plain value (not a card or a seat, which only their type tells from a number)."""
    if isinstance(v, bool):
        return "truth"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "text"
    if isinstance(v, (list, tuple)):
        return "list"
    if isinstance(v, dict):
        return "record"
    return "none" if v is None else "value"
