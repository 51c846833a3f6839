"""The ``deck`` section: the cards, as groups of attribute values; how a card is written; the suit a hand is grouped
by; the box every card starts in; how a deal file writes a hand (checked against the deck of each player count:
interpreter/engine/notation.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from interpreter.dsl.words import name_words
from interpreter.errors import RuleError, SchemaError
from interpreter.limits import MAX_CARDS
from interpreter.plan.cards import CardGroup, CardTable, build_cards, label_fields
from interpreter.plan.section import IDENTIFIER, JSON, NAME_RULE, PLACES, Plan, Section, Telling, Told, ref
from interpreter.rules.source import RuleSource


class DeckPlan(NamedTuple):
    groups: tuple[CardGroup, ...]
    label: str | None  # how a card is written (None: its attribute values, separated by spaces)
    group: str | None  # the attribute a hand is grouped by (None: the one with the fewest values)
    start: str | None  # the shared zone that holds every card when the game begins
    notation: Any  # deck.notation as written (None: the game reads no deal files)
    cards: CardTable | None  # every card (None: more than MAX_CARDS, which the checks refuse)

    def attributes(self) -> set[str]:
        return {n for g in self.groups for n, _ in g.attributes}


def read(source: RuleSource) -> DeckPlan:
    spec = source.data["deck"]
    groups = tuple(CardGroup(tuple((k, tuple(v)) for k, v in g.items() if k != "label"), g.get("label"))
                   for g in spec["cards"])
    label = spec.get("label")
    cards = build_cards(groups, label) if sum(g.size() for g in groups) <= MAX_CARDS else None
    return DeckPlan(groups, label, spec.get("group"), spec.get("start"), spec.get("notation"), cards)


def check(deck: DeckPlan, plan: Plan) -> Iterator[RuleError]:
    pos = plan.source.pos
    attrs = deck.attributes()
    known = ", ".join(sorted(attrs))
    fields = list(_unknown_fields(deck, attrs, plan))
    yield from fields
    total = 0
    for i, g in enumerate(deck.groups):
        total += g.size()
        if total > MAX_CARDS:  # counted before any card is made: a group of 8 x 20 values is 25 billion cards
            yield SchemaError(f"the deck has more than {MAX_CARDS:,} cards (by this group it has {total:,}); every "
                              "combination of a group's values is one card", pos(("deck", "cards", i)))
            break
    if deck.group is not None and deck.group not in attrs:
        yield SchemaError(f"deck.group names {deck.group!r}, which is not a card attribute ({known})",
                          pos(("deck", "group")))
    if deck.cards is not None and not fields:  # a label naming no attribute writes many cards alike
        yield from _labelled_alike(deck, deck.cards, plan)
    zones = plan["zones"]
    if deck.start is not None and (deck.start not in zones or zones[deck.start].per_seat):
        shared = ", ".join(z for z in zones if not zones[z].per_seat) or "none"
        yield SchemaError(f"deck.start must name a shared zone (shared zones: {shared})", pos(("deck", "start")))


def _unknown_fields(deck: DeckPlan, attrs: set[str], plan: Plan) -> Iterator[RuleError]:
    """The fields of a label template that name no attribute (of the deck; of its group, for a group's own)."""
    for f in label_fields(deck.label or ""):
        if f not in attrs and f != "copy":
            yield SchemaError(f"the label names {f!r}, which is not a card attribute ({', '.join(sorted(attrs))})",
                              plan.source.pos(("deck", "label")))
    for i, g in enumerate(deck.groups):
        own = [n for n, _ in g.attributes]
        for f in label_fields(g.label or ""):
            if f not in own and f != "copy":
                yield SchemaError(f"the group's label names {f!r}, which is not an attribute of this group "
                                  f"({', '.join(own)})", plan.source.pos(("deck", "cards", i, "label")))


def _labelled_alike(deck: DeckPlan, cards: CardTable, plan: Plan) -> Iterator[RuleError]:
    by_label: dict[str, int] = {}
    for c, label in enumerate(cards.labels):
        first = by_label.setdefault(label, c)
        if cards.kinds[first] != cards.kinds[c]:
            yield SchemaError(f"two different cards are both labelled {label!r}; put the attribute that tells them "
                              "apart into deck.label", plan.source.pos(("deck", "label") if deck.label else ("deck",)))
            return


def tell(deck: Any, tell: Telling) -> list[Told]:
    kinds, total = [], 0
    for entry in deck["cards"]:
        size = 1
        for key, values in entry.items():
            size *= len(values) if isinstance(values, list) and key != "label" else 1
        described = "; ".join(f"{name_words(k)} {', '.join(map(str, v))}" for k, v in entry.items() if k != "label")
        if "label" in entry:
            described += f" (written {entry['label']})"
        kinds.append(f"{size} card{'s' if size != 1 else ''}: {described}")
        total += size
    head = f"The cards, {total} in all (every combination of the values of a line):"
    return [(PLACES["cards"], [("p", head + tell.comment(("deck",))), ("ul", kinds)])]


def _schema() -> JSON:
    return ref("deck", "The cards of the game.")


def _definitions() -> JSON:
    return {"deck": {
        "title": "deck section",
        "description": "The cards. Each entry of cards is a mapping from attribute names to lists of values; its "
                       "cards are every combination of those values. Identical cards get the automatic attribute "
                       "copy (0, 1, 2, ...).",
        "type": "object",
        "additionalProperties": False,
        "required": ["cards"],
        "properties": {
            "start": {
                "description": "A shared zone that holds every card when the game begins (the box), for games whose "
                               "deals each take only some of the cards (deal's cards: condition). Without it, cards "
                               "are in no zone until the first deal.",
                "type": "string",
                "minLength": 1,
            },
            "group": {
                "description": "The card attribute a person's hand is grouped by (the suit), e.g. suit; groups come "
                               "in the order the deck first shows them, cards in deck order within one. Default: the "
                               "attribute with the fewest values.",
                "type": "string",
                "minLength": 1,
            },
            "notation": _notation(),
            "label": {
                "description": "How a card is written, with {attribute} placeholders, e.g. \"{colour} {number}\" "
                               "(default: the attribute values separated by spaces).",
                "type": "string",
                "minLength": 1,
            },
            "cards": _groups(),
        },
    }}


def _notation() -> JSON:
    return {
        "title": "deck notation",
        "description": "How a deal file (PBN's Deal tag, e.g. N:AKQ.JT9.876.5432 ...) writes a hand: groups "
                       "separated by dots, one for each suit in order, and one letter for each card in a group. It "
                       "lets play, simulate and the API start a game from a deal file (docs/rule-files.md, \"Deals "
                       "from a file\").",
        "type": "object",
        "additionalProperties": False,
        "required": ["suits", "ranks"],
        "properties": {
            "suits": {
                "description": "What the dot-separated groups of a hand stand for.",
                "type": "object",
                "additionalProperties": False,
                "required": ["by", "order"],
                "properties": {
                    "by": {"description": "The card attribute, e.g. suit.", "type": "string", "minLength": 1},
                    "order": {"description": "Its values in the order the groups are written.", "type": "array",
                              "minItems": 1, "uniqueItems": True, "items": ref("scalar")},
                },
            },
            "ranks": {
                "description": "What the letters of a group stand for.",
                "type": "object",
                "additionalProperties": False,
                "required": ["by"],
                "properties": {
                    "by": {"description": "The card attribute, e.g. rank.", "type": "string", "minLength": 1},
                    "letters": {
                        "description": "Letter -> value, for values not written as themselves, e.g. {T: '10'}; a "
                                       "value written with one character is its own letter (A, K, 9).",
                        "type": "object",
                        "propertyNames": {"description": "one character, not a dot, a hyphen or a space",
                                          "type": "string", "pattern": "^[^.\\s-]$"},
                        "additionalProperties": ref("scalar"),
                    },
                },
            },
            "seats": {
                "description": "The seats whose hands the directions N, E, S and W are (default: the first four "
                               "seats).",
                "type": "array", "minItems": 4, "maxItems": 4, "uniqueItems": True,
                "items": {"type": "string", "minLength": 1},
            },
        },
    }


def _groups() -> JSON:
    return {
        "description": "Groups of cards; the deck is all of them together.",
        "type": "array",
        "minItems": 1,
        "items": {
            "title": "card group",
            "description": "A group of cards: every combination of the listed attribute values is one card (repeat "
                           "a value for several copies).",
            "type": "object",
            "minProperties": 1,
            "propertyNames": {
                "description": f"a card attribute is a name usable in expressions (card.NAME): {NAME_RULE}; copy is "
                               "set automatically",
                "type": "string",
                "pattern": IDENTIFIER,
                "not": {"enum": ["copy"]},
            },
            "properties": {
                "label": {
                    "description": "How this group's cards are written, with {attribute} placeholders of this group, "
                                   "e.g. \"trump colour {trump}\" (default: deck.label). For decks of several kinds "
                                   "of card.",
                    "type": "string",
                    "minLength": 1,
                },
            },
            "additionalProperties": {
                "description": "The values of this attribute.",
                "type": "array",
                "minItems": 1,
                "items": ref("scalar"),
            },
        },
    }


SECTION = Section("deck", _schema, required=True, read=read, checks=check, words=tell, definitions=_definitions)
