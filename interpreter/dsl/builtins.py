"""The explicit registry of DSL builtin functions.

A rule file can call only what is listed here (plus its own ``define``s).
Each entry says how many arguments it takes, what type it returns, and the
Python function that does the work. Functions that look at the game state
(teams, neighbours) receive the state as their first argument.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from interpreter.dsl.budget import charge, left, list_size, number
from interpreter.dsl.types import CARDS, NUMBER, SEAT, SEATS, TEXT, TRUTH, VALUE, Type, join, list_of, record
from interpreter.limits import MAX_NUMBER


@dataclass(frozen=True)
class Builtin:
    name: str
    min_args: int
    max_args: int | None
    result: Callable[[list[Type]], Type]
    impl: Callable[..., Any]
    needs_state: bool = False
    # with needs_state: whether it may read the game's zones (engine/zone_counts.py: a step calling one that may
    # reads each zone as a whole); False for those that read only seats, teams and the cards they are given
    zones: bool = True
    doc: str = ""
    example: str = ""
    # what each argument must be, checked at load time: "list", "numbers" (a list of numbers), "number",
    # "number or none", "text" or "" (anything); an argument of a type the compiler cannot tell is let through
    args: tuple[str, ...] = ()
    # what the compiler may take for granted of its value (see ir.Part): never none (a number: a whole number),
    # and a list none of whose items is none
    sure: bool = False
    full: bool = False


def _number(_args: list[Type]) -> Type:
    return NUMBER


def _truth(_args: list[Type]) -> Type:
    return TRUTH


def _text_type(_args: list[Type]) -> Type:
    return TEXT


def _element_or_first(args: list[Type]) -> Type:
    if len(args) == 1 and args[0].kind == "list" and args[0].element is not None:
        return args[0].element
    if not args:
        return VALUE
    out = args[0]
    for t in args[1:]:  # max(0, x): what any of them is
        out = join(out, t)
    return out


def _seq_or_args(args: tuple[Any, ...]) -> Sequence[Any]:
    return args[0] if len(args) == 1 else args


# the builtins that go through a list charge its items (budget.charge, written out as codegen.charged is: they run
# for most lists an expression sums, counts or tests)


def _max(*args: Any, _left: list[int] = left) -> Any:
    items = _seq_or_args(args)
    _left[0] -= len(items)
    if _left[0] < 0:
        charge(0)  # says what ran out
    return max(items)


def _min(*args: Any, _left: list[int] = left) -> Any:
    items = _seq_or_args(args)
    _left[0] -= len(items)
    if _left[0] < 0:
        charge(0)
    return min(items)


def _sum(items: Sequence[Any], _left: list[int] = left) -> int:
    _left[0] -= len(items)
    if _left[0] < 0:
        charge(0)
    value: int = sum(items)
    return value if -MAX_NUMBER <= value <= MAX_NUMBER else number(value)  # number's bound, without a call


def _count(items: Sequence[Any], _left: list[int] = left) -> int:
    _left[0] -= len(items)
    if _left[0] < 0:
        charge(0)
    return len(list(filter(None, items)))  # the items that are true


def _any(items: Sequence[Any], _left: list[int] = left) -> bool:
    _left[0] -= len(items)
    if _left[0] < 0:
        charge(0)
    return any(items)


def _all(items: Sequence[Any], _left: list[int] = left) -> bool:
    _left[0] -= len(items)
    if _left[0] < 0:
        charge(0)
    return all(items)


REGISTRY: dict[str, Builtin] = {}


def _register(b: Builtin) -> None:
    REGISTRY[b.name] = b


_register(Builtin("len", 1, 1, _number, len, doc="Number of items in a list.", example="len(seat.captured)",
                  args=("list",), sure=True))
_register(Builtin("sum", 1, 1, _number, _sum, doc="Sum of a list of numbers.",
                  example="sum(m.tricks for m in team(seat))", args=("numbers",), sure=True))
_register(Builtin("count", 1, 1, _number, _count, doc="How many items of a list are true.",
                  example="count(c.number == 0 for c in seat.hand)", args=("list",), sure=True))
_register(Builtin("max", 1, None, _element_or_first, _max, doc="Largest of a list or of several values.",
                  example="max(0, team_points(seat))"))
_register(Builtin("min", 1, None, _element_or_first, _min, doc="Smallest of a list or of several values.",
                  example="min(s.tricks for s in seats)"))
_register(Builtin("abs", 1, 1, _number, abs, doc="Absolute value.", example="abs(-2)", args=("number",),
                  sure=True))


def _same_list(args: list[Type]) -> Type:
    return args[0] if args and args[0].kind == "list" else list_of(VALUE)


def _distinct(items: Sequence[Any]) -> list[Any]:
    charge(len(items))
    return list(dict.fromkeys(items))


def _sort(items: Sequence[Any]) -> list[Any]:
    charge(len(items))
    return sorted(items)


def _reverse(items: Sequence[Any]) -> list[Any]:
    charge(len(items))
    return list(reversed(items))


def _award(args: list[Type]) -> Type:
    """An item of the awards (or 0)."""
    t = args[2] if len(args) > 2 else VALUE
    return join(t.element, NUMBER) if t.kind == "list" and t.element is not None else VALUE


def _place_award(value: Any, values: Sequence[Any], awards: Sequence[Any]) -> Any:
    """The award for ``value``'s place among ``values`` (highest first); a tie gets 0.

    Tied values still occupy their places: with awards [3, 1, 0, 2], sums 40, 40, 39, 34
    give 0, 0, 0, 2.
    """
    charge(len(values))
    if len([v for v in values if v == value]) > 1:
        return 0
    place = len([v for v in values if v > value])
    return awards[place] if place < len(awards) else 0


_register(Builtin("distinct", 1, 1, _same_list, _distinct, doc="The items of a list without repeats, "
                  "in first-seen order.", example="distinct([c.colour for c in seat.hand])", args=("list",)))
_register(Builtin("sort", 1, 1, _same_list, _sort, doc="The items of a list from lowest to highest.",
                  example="sort([s.total for s in seats])", args=("list",)))
_register(Builtin("reverse", 1, 1, _same_list, _reverse, doc="The items of a list in the opposite order.",
                  example="reverse(sort([c.number for c in seat.hand]))", args=("list",)))
_register(Builtin("place_award", 3, 3, _award, _place_award,
                  doc="The award for a value's place among values, highest first (awards[0] for the highest); "
                      "a value tied with another gets 0, and tied values still occupy their places.",
                  example="place_award(seat.total, [s.total for s in seats], [3, 1, 0, 2])",
                  args=("", "list", "list")))
def _element(args: list[Type]) -> Type:
    return args[0].element if args and args[0].kind == "list" and args[0].element is not None else VALUE


def _first(items: Sequence[Any]) -> Any:
    return items[0] if items else None


def _last(items: Sequence[Any]) -> Any:
    return items[-1] if items else None


def _list_of_same(args: list[Type]) -> Type:
    return list_of(args[0]) if args and args[0].kind == "list" else list_of(list_of(VALUE))


def _combinations(items: Sequence[Any], k: int) -> list[list[Any]]:
    import itertools

    if not isinstance(k, int) or isinstance(k, bool) or k < 0:
        raise ValueError(f"combinations needs a size of 0 or more, got {k!r}")
    list_size(math.comb(len(items), k))
    return [list(c) for c in itertools.combinations(items, k)]


def _pairs_type(args: list[Type]) -> Type:
    a = args[0].element if args[0].kind == "list" and args[0].element else VALUE
    b = args[1].element if len(args) > 1 and args[1].kind == "list" and args[1].element else VALUE
    return list_of(list_of(join(a, b)))


def _pairs(xs: Sequence[Any], ys: Sequence[Any]) -> list[tuple[Any, Any]]:  # tuples: labels key on them
    list_size(len(xs) * len(ys))
    return [(x, y) for x in xs for y in ys]


def _join(items: Sequence[Any], sep: str = ", ") -> str:
    charge(len(items))
    return str(sep).join(_text(x) for x in items)


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


def _range(low: int, high: int) -> list[int]:
    for v in (low, high):
        if not isinstance(v, int) or isinstance(v, bool):
            raise ValueError(f"range needs whole numbers, got {v!r}")
    list_size(max(0, high - low))
    return list(range(low, high))


def _numbers(_args: list[Type]) -> Type:
    return list_of(NUMBER)


_register(Builtin("range", 2, 2, _numbers, _range, doc="The whole numbers from the first up to, not including, "
                  "the second.", example="range(0, len(seat.hand) + 1)", args=("number", "number")))
_register(Builtin("first", 1, 1, _element, _first, doc="The first item of a list, or none when it is empty; "
                  "a zone's first card is its top card.", example="first(seat.hand)", args=("list",)))
_register(Builtin("last", 1, 1, _element, _last, doc="The last item of a list, or none when it is empty.",
                  example="last(trick)", args=("list",)))
_register(Builtin("combinations", 2, 2, _list_of_same, _combinations,
                  doc="Every choice of k items of a list (as lists, in the list's order).",
                  example="combinations(['red', 'blue', 'green'], 2)", args=("list", "number")))
_register(Builtin("pairs", 2, 2, _pairs_type, _pairs, doc="Every pair [x, y] with x from the first list and y "
                  "from the second.", example="pairs(seat.hand, last_trick)", args=("list", "list")))
_register(Builtin("join", 1, 2, _text_type, _join, doc="The items of a list as one text, separated by the second "
                  "argument (default ', ').", example="join(value, ' + ')", args=("list", "text")))
_register(Builtin("text", 1, 1, _text_type, _text, doc="A value as text (for labels).",
                  example="'bid ' + text(value)"))
_register(Builtin("any", 1, 1, _truth, _any, doc="True when some item is true.",
                  example="any(c.colour == round.trump for c in seat.hand)", args=("list",)))
_register(Builtin("all", 1, 1, _truth, _all, doc="True when every item is true.",
                  example="all(s.tricks == 2 for s in seats)", args=("list",)))


def _index(items: Sequence[Any], item: Any) -> int | None:
    """The first position of an item equal to ``item`` and, like it, true/false or not (1 is not true). In a list,
    Python's own search finds the first equal one (a value is equal to itself: the DSL's values are no floats), the
    answer unless that one is true/false and ``item`` is not, or the other way round (then every item is looked at)."""
    charge(len(items))
    truth = item is True or item is False
    if items.__class__ is list or items.__class__ is tuple:
        try:
            i = items.index(item)
        except ValueError:
            return None
        x = items[i]
        if (x is True or x is False) == truth:
            return i
    for i, x in enumerate(items):
        if x == item and (x is True or x is False) == truth:
            return i
    return None


def _concat(lists: Sequence[Any]) -> list[Any]:
    for xs in lists:
        if not isinstance(xs, (list, tuple)):
            raise ValueError(f"concat needs a list of lists, found {_text(xs)!r} among them")
    list_size(sum(len(xs) for xs in lists))
    return [x for xs in lists for x in xs]


def _concat_type(args: list[Type]) -> Type:
    outer = args[0].element if args and args[0].kind == "list" else None
    return outer if outer is not None and outer.kind == "list" else list_of(VALUE)


def _slice(items: Sequence[Any], start: int | None, end: int | None) -> list[Any]:
    for v in (start, end):
        if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
            raise ValueError(f"a slice takes whole numbers (or none), got {_text(v)!r}")
    out = list(items[start:end])
    list_size(len(out))
    return out


def _same(args: list[Type]) -> Type:
    return args[0] if args and args[0].kind == "list" else list_of(VALUE)


_register(Builtin("index", 2, 2, _number, _index, doc="The position of the first item of a list equal to a value "
                  "(0 for the first), or none when there is none.", example="index(last_trick, card)",
                  args=("list", "")))
_register(Builtin("concat", 1, 1, _concat_type, _concat, doc="The items of a list of lists, one list after the "
                  "other (what a comprehension with several 'for's does).",
                  example="concat([s.hand for s in team(seat)])", args=("list",)))
_register(Builtin("slice", 3, 3, _same, _slice, doc="The items of a list from a position up to, not including, "
                  "another (none: from the start, or to the end; below 0: counted from the end); what xs[a:b] "
                  "writes.", example="slice(seat.hand, 0, 2)", args=("list", "number or none", "number or none")))


def _seat_of(seat: Any, function: str) -> int:
    """``seat`` when it is one; none (a round value not set yet, first() of no seats) is an error naming the call."""
    if seat.__class__ is not int:
        raise ValueError(f"{function}() needs a seat, got {'none' if seat is None else repr(seat)}")
    return seat


def _team(state: Any, seat: int) -> list[int]:
    return state.team_members(_seat_of(seat, "team"))


def _opponents(state: Any, seat: int) -> list[int]:
    return state.opponents(_seat_of(seat, "opponents"))


def _same_team(state: Any, a: int, b: int) -> bool:
    return state.same_team(_seat_of(a, "same_team"), _seat_of(b, "same_team"))


def _known_team(state: Any, viewer: int, seat: int) -> list[int]:
    return state.known_team(_seat_of(viewer, "known_team"), _seat_of(seat, "known_team"))


def _known_opponents(state: Any, viewer: int, seat: int) -> list[int]:
    return state.known_opponents(_seat_of(viewer, "known_opponents"), _seat_of(seat, "known_opponents"))


def _knows_team(state: Any, viewer: int, seat: int) -> bool:
    return state.known_teams(_seat_of(viewer, "knows_team"))[_seat_of(seat, "knows_team")] is not None


def _left(state: Any, seat: int) -> int:
    return (_seat_of(seat, "left") + 1) % state.players


def _right(state: Any, seat: int) -> int:
    return (_seat_of(seat, "right") - 1) % state.players


def _seats(_args: list[Type]) -> Type:
    return SEATS


def _seat(_args: list[Type]) -> Type:
    return SEAT


_ORDERS: dict[tuple[int, int], tuple[int, ...]] = {}  # (players, seat) -> the seats in playing order from it


def _seats_from(state: Any, seat: int) -> list[int]:
    seat = _seat_of(seat, "seats_from")
    n = state.players
    order = _ORDERS.get((n, seat))
    if order is None:
        order = tuple((seat + i) % n for i in range(n))
        if 0 <= seat < n:  # (a seat is one: kept)
            _ORDERS[(n, seat)] = order
    return list(order)


_register(Builtin("seats_from", 1, 1, _seats, _seats_from, needs_state=True, zones=False,
                  doc="Every seat in playing order, starting with a seat.", example="seats_from(left(round.dealer))",
                  sure=True, full=True))
_register(Builtin("team", 1, 1, _seats, _team, needs_state=True, zones=False,
                  doc="The seats on the same team as a seat (itself included).", example="team(seat)",
                  sure=True, full=True))
_register(Builtin("opponents", 1, 1, _seats, _opponents, needs_state=True, zones=False,
                  doc="The seats on other teams than a seat.", example="opponents(winner)", sure=True, full=True))
_register(Builtin("same_team", 2, 2, _truth, _same_team, needs_state=True, zones=False,
                  doc="True when two seats play on one team.", example="same_team(player, winner)"))
_register(Builtin("known_team", 2, 2, _seats, _known_team, needs_state=True, zones=False,
                  doc="The seats a seat (the first) knows to be on the team of another (with hidden teams; "
                  "none when it does not know that seat's team).", example="known_team(seat, winner)"))
_register(Builtin("known_opponents", 2, 2, _seats, _known_opponents, needs_state=True, zones=False,
                  doc="The seats a seat (the first) knows to be on other teams than another (with hidden teams).",
                  example="known_opponents(seat, seat)"))
_register(Builtin("knows_team", 2, 2, _truth, _knows_team, needs_state=True, zones=False,
                  doc="True when a seat (the first) knows the team of another (always, with public teams).",
                  example="knows_team(seat, winner)"))
_register(Builtin("left", 1, 1, _seat, _left, needs_state=True, zones=False,
                  doc="The next seat clockwise (the left neighbour).", example="left(round.dealer)", sure=True))
_register(Builtin("right", 1, 1, _seat, _right, needs_state=True, zones=False,
                  doc="The previous seat clockwise (the right neighbour).", example="right(seat)", sure=True))


# ---- plays of several cards (climbing games): the rule file's combinations section (engine/combinations.py)

# what combination gives: the reading of a play
READING = record({"kind": TEXT, "length": NUMBER, "value": NUMBER, "bomb": TRUTH, "ranks": list_of(NUMBER),
                  "tie": NUMBER})


def _combos(state: Any, name: str) -> Any:
    found = state.game.combinations
    if found is None:
        raise ValueError(f"{name} needs the rule file's combinations section (what a play of several cards is)")
    return found


def _reading(_args: list[Type]) -> Type:
    return READING


def _cards_type(_args: list[Type]) -> Type:
    return CARDS


def _combination(state: Any, cards: Sequence[int], top: Any = None) -> Any:
    return _combos(state, "combination").combination(cards, top)


def _next_picks(state: Any, picked: Sequence[int], cards: Sequence[int], top: Any, must: Sequence[int] = (),
                kinds: Sequence[str] | None = None) -> list[int]:
    return list(_combos(state, "next_picks").next_picks(picked, cards, top, must, kinds))


def _is_play(state: Any, picked: Sequence[int], cards: Sequence[int], top: Any, must: Sequence[int] = (),
             kinds: Sequence[str] | None = None) -> bool:
    return bool(_combos(state, "is_play").is_play(picked, cards, top, must, kinds))


def _must_play(state: Any, cards: Sequence[int], top: Any, must: Sequence[int],
               kinds: Sequence[str] | None = None) -> bool:
    return bool(_combos(state, "must_play").must_play(cards, top, must, kinds))


_register(Builtin("combination", 1, 2, _reading, _combination, needs_state=True, zones=False,
                  doc="The cards read as one play of the combinations section that beats a play (none: any play "
                  "leads): a record with kind, length (cards), value, bomb, ranks and tie; none when they are no "
                  "such play. Of several readings the best: a bomb, then a kind that beats the other, then the "
                  "highest value.",
                  example="combination(round.play, round.top)", args=("list", "")))
_register(Builtin("next_picks", 3, 5, _cards_type, _next_picks, needs_state=True, zones=False,
                  doc="The cards of a hand that may be picked next towards a play beating a play (none: a lead), "
                  "given the cards picked so far; optionally the cards a play must include while one can (an "
                  "obligation) and the kinds allowed.",
                  example="next_picks(picked, seat.hand, round.top)", args=("list", "list", "", "list", "list")))
_register(Builtin("is_play", 3, 5, _truth, _is_play, needs_state=True, zones=False,
                  doc="True when the cards picked are a whole play of the hand beating a play (same optional "
                  "obligation and kinds as next_picks).",
                  example="is_play(picked, seat.hand, round.top)", args=("list", "list", "", "list", "list")))
_register(Builtin("must_play", 3, 4, _truth, _must_play, needs_state=True, zones=False,
                  doc="True when the hand holds a play beating a play that includes one of the given cards (an "
                  "obligation that binds).",
                  example="must_play(seat.hand, round.top, [c for c in seat.hand if c.rank == round.wish])",
                  args=("list", "", "list", "list")))
