"""The ``combinations`` section: what a play of several cards is, for climbing games (its plays, worked out card by
card before play: interpreter/engine/combinations.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from interpreter.dsl.words import name_words
from interpreter.errors import RuleError, SchemaError
from interpreter.plan.section import JSON, NAME_RULE, PLACES, Path_, Plan, Section, Telling, Told, names, ref
from interpreter.rules.source import RuleSource

BASE = ("combinations",)


class KindPlan(NamedTuple):
    """One kind of play as written (``cards``: where its condition is, None: the section's cards)."""

    name: str
    same: int
    run: int  # the fewest consecutive ranks (0: not a run)
    longest: int  # the most consecutive ranks of a run (0: no most)
    flush: int  # cards of one suit of any ranks (0: not a flush)
    sets: tuple[int, ...]
    suited: bool
    bomb: bool
    wild: bool
    beats: tuple[str, ...]
    lead_only: bool
    cards: Path_ | None


class WildPlan(NamedTuple):
    cards: Path_  # the condition that makes a card wild
    ranks: Path_ | None  # the ranks a wild card may stand for (None: those of the cards that make plays)
    alone: Any  # a wild card played alone: "above", its value, or None (never alone)


class CombinationsPlan(NamedTuple):
    """Where each expression of the section is written (None: not written), and the kinds of play in order."""

    rank: Path_
    suit: Path_ | None
    tie: Path_ | None  # what decides between plays of equal value (None: nothing, they are equal)
    cards: Path_ | None
    wild: WildPlan | None
    kinds: tuple[KindPlan, ...]


def read(source: RuleSource) -> CombinationsPlan | None:
    spec = source.data.get("combinations")
    if spec is None:
        return None

    def at(*path: Any) -> Path_ | None:
        return BASE + path if source.get(BASE + path) is not None else None

    wild = spec.get("wild")
    kinds = []
    for name, kind in spec["kinds"].items():
        kind = kind or {}
        kinds.append(KindPlan(name, int(kind.get("same", 1)), int(kind.get("run", 0)), int(kind.get("longest", 0)),
                              int(kind.get("flush", 0)), tuple(kind.get("sets") or ()),
                              bool(kind.get("suited", False)), bool(kind.get("bomb", False)),
                              bool(kind.get("wild", True)), tuple(kind.get("beats") or ()),
                              bool(kind.get("lead_only", False)), at("kinds", name, "cards")))
    wild_plan = WildPlan(BASE + ("wild", "cards"), at("wild", "ranks"), wild.get("alone")) if wild else None
    return CombinationsPlan(BASE + ("rank",), at("suit"), at("tie"), at("cards"), wild_plan, tuple(kinds))


def check(spec: CombinationsPlan | None, plan: Plan) -> Iterator[RuleError]:
    if spec is None:
        return
    pos = plan.source.pos
    known = [k.name for k in spec.kinds]
    yield from _check_tie(spec, pos)
    for kind in spec.kinds:
        path = BASE + ("kinds", kind.name)
        shapes = [key for key, on in (("run", kind.run), ("sets", kind.sets), ("flush", kind.flush)) if on]
        if len(shapes) > 1:
            yield SchemaError(f"a kind is one shape (run, sets or flush), not {' and '.join(shapes)}", pos(path))
        if kind.flush and kind.same > 1:
            yield SchemaError("a flush is of any ranks: it takes no same", pos(path + ("same",)))
        if kind.longest and not kind.run:
            yield SchemaError("longest is the most ranks of a run: the kind needs run", pos(path + ("longest",)))
        elif kind.longest and kind.longest < kind.run:
            yield SchemaError(f"longest {kind.longest} is fewer than run {kind.run}: no run is both",
                              pos(path + ("longest",)))
        if kind.flush and spec.wild is not None and kind.wild:
            yield SchemaError("a flush takes no wild card (a wild card has no suit): say wild: false",
                              pos(path + ("flush",)))
        for other in kind.beats:
            if other not in known:
                yield SchemaError(f"beats names {other!r}, which is not a kind (kinds: {', '.join(known)})",
                                  pos(path + ("beats",)))
        if (kind.suited or kind.flush) and spec.suit is None and plan["deck"].group is None:
            yield SchemaError(f"a {'flush' if kind.flush else 'suited kind'} needs combinations.suit or deck.group "
                              "(what a suit is)", pos(path + ("flush" if kind.flush else "suited",)))


def _check_tie(spec: CombinationsPlan, pos: Any) -> Iterator[RuleError]:
    wild = [k.name for k in spec.kinds if k.wild and not k.flush]  # (a flush with wild cards is refused on its own)
    if spec.tie is not None and spec.wild is not None and wild:
        yield SchemaError(f"a wild card has no tie: with combinations.tie, every kind says wild: false (not "
                          f"{', '.join(wild)})", pos(spec.tie))


def tell(spec: Any, tell: Telling) -> list[Told]:
    if not spec:
        return []
    head = f"A card's rank in a play is {tell.say(str(spec['rank']))}"
    if "tie" in spec:
        head += ("; of two plays of one kind and value, the one whose deciding card (its top card, the highest of "
                 f"its deciding set) has the higher tie wins, a card's tie being {tell.say(str(spec['tie']))}")
    if "cards" in spec:
        head += f"; the cards that make plays: every {tell.picks(spec['cards'])[2:]}"
    wild = spec.get("wild")
    if wild:
        head += f"; wild: every {tell.picks(wild['cards'])[2:]}"
        if "ranks" in wild:
            head += f", standing for a rank of {tell.say(str(wild['ranks']))}"
        alone = wild.get("alone")
        if alone is not None:
            head += ", alone half a rank above the play it beats" if alone == "above" else f", alone worth {alone}"
    kinds = [f"**{name_words(name)}**: " + "; ".join(_kind_words(kind or {}, bool(wild), tell))
             + tell.comment(BASE + ("kinds", name)) for name, kind in spec["kinds"].items()]
    return [(PLACES["combinations"], [
        ("h3", "Combinations"),
        ("p", head + ". A play beats one of its own kind with as many cards and a lower value, or of a kind it "
              "beats; a bomb beats every play that is not a bomb, and a bomb with fewer cards or, as many, a lower "
              "value." + tell.comment(BASE)),
        ("ul", kinds)])]


def _kind_words(kind: dict[str, Any], wild: bool, tell: Telling) -> list[str]:
    same = kind.get("same", 1)
    if "run" in kind:
        most = kind.get("longest")
        count = (f"{kind['run']}" if most == kind["run"] else f"{kind['run']} to {most}" if most
                 else f"{kind['run']} or more")
        shape = f"{count} consecutive ranks" + (f", {same} cards of each" if same > 1 else "")
    elif "flush" in kind:
        shape = f"{kind['flush']} cards of one suit, of any ranks, decided by the top card"
    elif "sets" in kind:
        shape = " and ".join(f"{n} of a rank" for n in kind["sets"]) + ", each of another rank"
    else:
        shape = f"{same} card{'s' if same > 1 else ''} of one rank"
    if "cards" in kind:
        shape += f", each {tell.picks(kind['cards'])[2:]}"
    said = [shape]
    said += ["of one suit"] if kind.get("suited") else []
    said += ["a bomb"] if kind.get("bomb") else []
    said += ["no wild card"] if kind.get("wild") is False and wild else []
    said += [f"beats {', '.join(map(name_words, kind['beats']))} whatever their value"] if kind.get("beats") else []
    said += ["led only"] if kind.get("lead_only") else []
    return said


def _schema() -> JSON:
    return {
        "title": "combinations section",
        "description": "What a play of several cards is, for climbing games (a climb step): each card's rank, the "
                       "cards that make plays, wild cards, and the kinds of play, each by its shape. A play beats a "
                       "play of its own kind with as many cards and a lower value, or a kind it beats; a bomb beats "
                       "every play that is not a bomb, and a bomb with fewer cards or, as many, a lower value.",
        "type": "object",
        "additionalProperties": False,
        "required": ["rank", "kinds"],
        "properties": {
            "rank": ref("expression", "A card's rank in plays (card is bound), a number; none for a card that makes "
                                      "no play but the kinds naming it in cards, e.g. card.rank."),
            "suit": ref("expression", "What a suited kind compares (card is bound); default: the attribute "
                                      "deck.group names."),
            "tie": ref("expression", "What decides between two plays of one kind and value (card is bound), a "
                                     "number: the higher tie of the deciding card wins (the top card of a run or a "
                                     "flush, the highest card of the set deciding), e.g. a suit's order; default: "
                                     "such plays are equal. Kinds with it take no wild card."),
            "cards": ref("condition", "The cards that make plays (card is bound); default: every card."),
            "wild": {
                "description": "Wild cards: they stand in for a card of a rank in a set or a run.",
                "type": "object",
                "additionalProperties": False,
                "required": ["cards"],
                "properties": {
                    "cards": ref("condition", "Which cards are wild (card is bound)."),
                    "ranks": ref("expression", "The ranks a wild card may stand for, known before play, e.g. "
                                               "\"range(2, 15)\"; default: the ranks of the cards that make plays."),
                    "alone": {"description": "A wild card played alone, as a play of the first kind of one card: "
                                             "above (half a rank above the play it beats, the lowest rank and a half "
                                             "when led) or its value; without it, a wild card is never played alone.",
                              "anyOf": [{"const": "above"}, {"type": "number"}]},
                },
            },
            "kinds": _kinds(),
        },
    }


def _kinds() -> JSON:
    return {
        "description": "The kinds of play by name, in the order they are tried: each a shape (same: cards of one "
                       "rank; run: that many consecutive ranks or more, same cards of each; flush: cards of one suit; "
                       "sets: sets of different ranks, the first deciding) and how it compares.",
        "type": "object",
        "minProperties": 1,
        "propertyNames": names(f"a kind name is a name: {NAME_RULE}"),
        "additionalProperties": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "same": {"description": "Cards of each rank (default 1).", "type": "integer", "minimum": 1,
                         "maximum": 8},
                "run": {"description": "A run: at least this many consecutive ranks.", "type": "integer",
                        "minimum": 2, "maximum": 20},
                "longest": {"description": "A run of at most this many consecutive ranks (with run: M, longest: M "
                                           "is exactly M).", "type": "integer", "minimum": 2, "maximum": 20},
                "flush": {"description": "A flush: this many cards of one suit, of any ranks; its top card is the "
                                         "value.", "type": "integer", "minimum": 2, "maximum": 20},
                "sets": {"description": "Sets of different ranks, as many as listed, e.g. [3, 2] (a full house), "
                                        "[4, 1] (four of a kind and one card); the first set's rank is the value.",
                         "type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 8}, "minItems": 2,
                         "maxItems": 13},
                "suited": {"description": "Every card of one suit (default false).", "type": "boolean"},
                "bomb": {"description": "A bomb: beats every play that is not a bomb (default false).",
                         "type": "boolean"},
                "wild": {"description": "Wild cards may stand in (default true).", "type": "boolean"},
                "beats": {"description": "Kinds this kind beats whatever their value, e.g. [single].", "type": "array",
                          "items": {"type": "string"}},
                "lead_only": {"description": "May only be led (default false).", "type": "boolean"},
                "cards": ref("condition", "The cards this kind is made of (card is bound), instead of the section's "
                                          "cards."),
            },
        },
    }


SECTION = Section("combinations", _schema, read=read, checks=check, words=tell)
