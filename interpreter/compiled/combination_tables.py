"""The rule file's ``combinations`` section as tables of whole numbers, for the compiled backend's combinations
builtins (combination_calls.py writes the functions that read them).

The Python backend (engine/combinations.py) finds the shapes a hand makes as it plays (combination_shapes.py's
ShapeMaker, kept per hand). The compiled code allocates nothing and makes no list, so the shapes are made once, as
the game is written, by the same ShapeMaker from the whole deck: a shape of any hand is a shape of the whole deck
(it needs no more of each key than the deck holds), and a shape of the whole deck is one of a hand exactly when the
hand holds what it needs of each key and as many wild cards (combination_shapes.py makes every shape a hand's
counts allow). Each is an *entry*: its kind, cards, value, bomb, the wild cards it takes, and what it needs of each
key as bit masks by threshold (``EMASK[e * T1 + t]``: the keys it needs more than ``t`` of), keys numbered within
the kind's *group* (the kinds made of the same cards with the same suitedness count a card alike), at most 63 of
them. A need that any of several keys fills (an Among: a flush's cards below its top card, a rank's cards of a lower
tie) is a mask and a count (``CMASK``, ``CN``), the cards of a hand in it counted from the masks by threshold. A wild
card played alone is one more entry (``NE``), its value worked out from the play it beats. With combinations.tie a
value is the scaled value times the number of ties plus the tie's place: one whole number, compared as one.

A *reading* (what ``combination`` gives: a record of kind, length, value, bomb, ranks and tie) is interned as every
record is (values.py): every reading a play can have is interned as the tables are made, the entries' and those of
a wild card alone (its value from the lowest rank and each play it may beat, half a rank at a time, once per wild
card), so that the number of a play's reading is the one the Python backend's record packs to. ``ROW`` maps an
interned number to its reading's row (kind, length, value, bomb), the play to beat read from it.

Values are held as whole numbers times ``SCALE`` (2 when a wild card alone counts half a rank above: 1.5 is 3), the
smallest power of two at most 64 that makes each whole; a section whose values none makes whole is not written. Not
written either (NotWritten): a group of more than 63 keys, more than ``MOST_ENTRIES`` entries (each is scanned for a
hand), a card kind whose copies read differently (never: a kind is a card's attributes).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from interpreter.compiled.values import INTERNED, NotWritten, Values
from interpreter.engine.combination_shapes import WILD, Among, ShapeMaker, TooMany, fixed_ranks
from interpreter.engine.combinations import record

MOST_KEYS = 63  # keys of one group (bits of a whole number)
MOST_ENTRIES = 4096  # shapes of the whole deck


@dataclass
class Tables:
    """One game's combinations tables (see the module's docstring): ``constants`` by name (each a list of whole
    numbers), and the numbers the functions are written with."""

    constants: dict[str, list[int]]
    numbers: dict[str, int]
    kind_names: list[str]


_MADE: weakref.WeakKeyDictionary[Values, Tables] = weakref.WeakKeyDictionary()


def tables(game: Any, kind_of: tuple[int, ...], values: Values) -> Tables:
    """The tables of ``game``'s combinations section (made once per table of interned values: its readings are
    interned there); ``kind_of``: each card id's kind (the arrays hold kinds)."""
    made = _MADE.get(values)
    if made is None:
        made = _MADE[values] = _make(game.combinations, list(game.deck), kind_of, values)
    return made


def _make(cb: Any, deck: list[int], kind_of: tuple[int, ...], values: Values) -> Tables:
    if cb is None:
        raise NotWritten("a combinations builtin without the combinations section")
    n_kinds = max(kind_of) + 1 if kind_of else 1
    _check_kinds(cb, deck, kind_of)
    kinds = cb.kinds
    kind_group, keys, gkey = _keys(cb, kind_of, n_kinds)
    # (each once, in the order made, by kind: the same tables, and so the same module text, in every process)
    maker = ShapeMaker(kinds, cb.rank, cb.suit, cb.wild, cb.wild_ranks, cb.tie, MOST_ENTRIES)  # (stops past it)
    try:
        every, many = maker.every(tuple(sorted(deck)), None), False
    except TooMany:
        every, many = [], True
    if many or len(every) > MOST_ENTRIES:
        raise NotWritten(f"a combinations section of more than {MOST_ENTRIES} shapes of the whole deck")
    shapes = sorted(dict.fromkeys(every), key=lambda s: s.kind)
    t1 = max((n for s in shapes for k, n in s.need if k != WILD), default=1) + 1  # thresholds: 1..most, more
    alone = cb.alone_kind if cb.alone is not None and cb.wild else None
    alone_values = _alone_values(cb, shapes, alone)
    scale = _scale([s.value for s in shapes] + alone_values + [cb.lowest] + ([0.5] if cb.alone == "above" else []))
    ties = sorted({t for t in cb.tie or () if isinstance(t, (int, float))}) or [0]  # (a tie's place: its number)
    readings = _Readings(values, [k.name for k in kinds], scale, ties)
    entries = _entries(cb, shapes, kind_group, keys, t1, readings)
    # the entry of a wild card alone (NE): its value worked out from the play it beats
    for name, x in (("CB_EKIND", alone if alone is not None else 0), ("CB_ELEN", 1), ("CB_EVAL", 0), ("CB_EBOMB", 0),
                    ("CB_EW", 1), ("CB_EREAD", 0), ("CB_EUNION", 0), ("CB_CAT", entries["CB_CAT"][-1])):
        entries[name].append(x)
    entries["CB_EMASK"] += [0] * t1
    entries["CB_CMASK"] = entries["CB_CMASK"] or [0]
    entries["CB_CN"] = entries["CB_CN"] or [0]
    nt = len(readings.ties)
    aval = [int(x * scale) * nt for x in alone_values]
    aread = [readings.number(alone, 1, x, False, [], 0) for x in alone_values] if alone is not None else []
    start, end = [0] * len(kinds), [0] * len(kinds)
    for i in range(len(kinds)):
        at = [e for e, k in enumerate(entries["CB_EKIND"][:-1]) if k == i]
        start[i], end[i] = (at[0], at[-1] + 1) if at else (0, 0)
    wildc = [0] * n_kinds
    for c in cb.wild:
        wildc[kind_of[c]] = 1
    constants = {
        "CB_GKEY": gkey, "CB_WILDC": wildc, "CB_KGROUP": kind_group, "CB_LEAD": [int(k.lead_only) for k in kinds],
        "CB_BOMBK": [int(k.bomb) for k in kinds], "CB_NAME": [values.encode(k.name) for k in kinds],
        "CB_BEATS": [int(kinds[j].name in k.beats) for k in kinds for j in range(len(kinds))],
        **entries, "CB_FROM": start, "CB_TO": end, **readings.tables(),
        "CB_AVAL": aval or [0], "CB_AREAD": aread or [0],
        "CB_KOFF": [sum(len(k) for k in keys[:g]) for g in range(len(keys))],  # (each group's counts in a block)
    }
    fixed = cb.alone if cb.alone not in (None, "above") else None
    numbers = {
        "NKEYS": max(sum(len(k) for k in keys), 1), "NK": n_kinds, "NKINDS": len(kinds), "NG": len(keys), "T1": t1,
        "NE": len(shapes), "ALONE": -1 if alone is None else alone, "ABOVE": int(cb.alone == "above"),
        "AFIXED": int(fixed * scale) * nt if fixed is not None else 0, "LOWEST": int(cb.lowest * scale) * nt,
        "HALF": scale // 2 * nt, "NA": len(aval),
    }
    return Tables(constants, numbers, [k.name for k in kinds])


def _check_kinds(cb: Any, deck: list[int], kind_of: tuple[int, ...]) -> None:
    """A kind is a card's attributes: its copies read alike (else NotWritten: the arrays hold kinds)."""
    first: dict[int, int] = {}  # a card kind -> a card of it
    for c in deck:
        f = first.setdefault(kind_of[c], c)
        tie = cb.tie or (None,) * (max(c, f) + 1)
        if (cb.rank[c], cb.suit[c], c in cb.wild, tie[c]) != (cb.rank[f], cb.suit[f], f in cb.wild, tie[f]):
            raise NotWritten("cards of one kind that the combinations section reads differently")


def _keys(cb: Any, kind_of: tuple[int, ...], n_kinds: int) -> tuple[list[int], list[dict[Any, int]], list[int]]:
    """The groups (the kinds made of the same cards, alike suited, number a card's key alike): each kind's group,
    each group's keys by number, and each card kind's key in each group (``GKEY[g * NK + kind]``, -1: none)."""
    groups: dict[tuple[Any, bool], int] = {}
    kind_group = [groups.setdefault((k.cards, k.suited), len(groups)) for k in cb.kinds]
    keys: list[dict[Any, int]] = [{} for _ in groups]
    gkey = [-1] * (len(groups) * n_kinds)
    for (cards, suited), g in groups.items():
        kind = next(k for k in cb.kinds if (k.cards, k.suited) == (cards, suited))
        for c in sorted(cards):
            k = keys[g].setdefault(cb.maker.key(kind, c), len(keys[g]))
            gkey[g * n_kinds + kind_of[c]] = k
        if len(keys[g]) > MOST_KEYS:
            raise NotWritten(f"a kind of combination of more than {MOST_KEYS} ranks (or ranks and suits)")
    return kind_group, keys, gkey


class _Readings:
    """The readings interned so far (values.py), each with its row: kind, length, value (scaled, then times the
    number of ties and plus its tie's place among them: compared as one number), bomb."""

    def __init__(self, values: Values, names: list[str], scale: int, ties: list[Any]):
        self.values, self.names, self.scale, self.ties = values, names, scale, ties
        self.rows: dict[int, int] = {}  # an interned reading -> its row
        self.kind: list[int] = []
        self.length: list[int] = []
        self.value: list[int] = []
        self.bomb: list[int] = []

    def value_of(self, value: float, tie: Any) -> int:
        return int(value * self.scale) * len(self.ties) + self.ties.index(tie)

    def number(self, kind: int, length: int, value: float, bomb: bool, ranks: list[Any], tie: Any) -> int:
        """The interned number of a reading (as Combinations.reading makes it), given a row when new."""
        number = self.values.encode(record(self.names[kind], length, value, bomb, sorted(ranks), tie))
        if number not in self.rows:
            self.rows[number] = len(self.kind)
            self.kind.append(kind)
            self.length.append(length)
            self.value.append(self.value_of(value, tie))
            self.bomb.append(int(bomb))
        return number

    def tables(self) -> dict[str, list[int]]:
        row = [-1] * (max(self.rows, default=INTERNED) - INTERNED + 1)
        for number, r in self.rows.items():
            row[number - INTERNED] = r
        return {"CB_ROW": row, "CB_RKIND": self.kind, "CB_RLEN": self.length, "CB_RVAL": self.value,
                "CB_RBOMB": self.bomb}


def _entries(cb: Any, shapes: list[Any], kind_group: list[int], keys: list[dict[Any, int]], t1: int,
             readings: _Readings) -> dict[str, list[int]]:
    """The entries' tables, one shape each: kind, cards, value (scaled, with its tie), bomb, wild cards, need masks
    by threshold (``EMASK[e * T1 + t]``: the keys it needs more than ``t`` of), its reading's interned number; and
    its needs that any of several keys fill (an Among): ``CMASK[j]`` and how many ``CN[j]`` for ``j`` from
    ``CAT[e]`` to ``CAT[e + 1]``, ``EUNION[e]`` the keys of them all."""
    out: dict[str, list[int]] = {name: [] for name in ("CB_EKIND", "CB_ELEN", "CB_EVAL", "CB_EBOMB", "CB_EW",
                                                         "CB_EMASK", "CB_EREAD", "CB_EUNION", "CB_CAT", "CB_CMASK",
                                                         "CB_CN")}
    for s in shapes:
        g = kind_group[s.kind]
        masks = [0] * t1
        wild = union = 0
        out["CB_CAT"].append(len(out["CB_CN"]))
        for key, n in s.need:
            if key == WILD:
                wild += n
            elif isinstance(key, Among):
                mask = sum(1 << keys[g][k] for k in key)
                out["CB_CMASK"].append(mask)
                out["CB_CN"].append(n)
                union |= mask
            else:
                for t in range(n):
                    masks[t] |= 1 << keys[g][key]
        for name, x in (("CB_EKIND", s.kind), ("CB_ELEN", s.length), ("CB_EVAL", readings.value_of(s.value, s.tie)),
                        ("CB_EBOMB", int(s.bomb)), ("CB_EW", wild), ("CB_EUNION", union),
                        ("CB_EREAD", readings.number(s.kind, s.length, s.value, s.bomb, fixed_ranks(s), s.tie))):
            out[name].append(x)
        out["CB_EMASK"] += masks
    out["CB_CAT"].append(len(out["CB_CN"]))
    return out


def _alone_values(cb: Any, shapes: list[Any], alone: int | None) -> list[float]:
    """Every value a wild card played alone can have: fixed, or half a rank above the lowest rank (a lead) or above
    a play it beats (a single of its kind, or of a kind it beats), and so again once per further wild card."""
    if alone is None:
        return []
    if cb.alone != "above":
        return [float(cb.alone)]
    kinds = cb.kinds
    beaten = [s.value for s in shapes if not s.bomb and (
        (s.kind == alone and s.length == 1) or kinds[s.kind].name in kinds[alone].beats)]
    found = {cb.lowest + 0.5}
    for _ in range(len(cb.wild)):
        found |= {x + 0.5 for x in [*beaten, *found]}
    return sorted(found)


def _scale(numbers: list[float]) -> int:
    for scale in (1, 2, 4, 8, 16, 32, 64):
        if all(float(x * scale).is_integer() for x in numbers):
            return scale
    raise NotWritten("a combination's value that is no whole number of 64ths")
