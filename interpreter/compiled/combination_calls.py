"""The climb's combinations builtins written for the compiled backend: ``next_picks``, ``is_play``, ``must_play`` and
``combination`` (dsl/builtins.py; the Python backend's answers are engine/combinations.py's), over the tables of
combination_tables.py, as calls.py writes the other builtins.

A call is written as one call of a function of the module's support (``cb_...``, written once per game, its tables
its constants) that reads the lists as arrays and counts, and a reading (``round.top``) as its interned number. Each
works out what engine/combinations.py does, in the same steps: the entries the hand makes (its keys' counts as masks
by threshold, against each entry's needs) that beat the play on top, of the kinds allowed (``_shapes``); those an
obligation binds to, when some are (``_legal``); then the cards that may be picked next (the keys an entry holding
the picks still needs, or, bound, each card that leaves room for one of the obligation's cards), whether the picks
are a whole play, whether the obligation binds, or the best reading of cards (a bomb first, then the highest value,
the first kind of equal ones). A card is its kind (the arrays hold kinds): a pick is told from the hand's other
copies of its kind by count. The work budget is not charged (lower.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.compiled.combination_tables import Tables, tables
from interpreter.compiled.values import NotWritten
from interpreter.compiled.writer import Listed, Writer
from interpreter.dsl import builtins as B
from interpreter.dsl.ir import Part

SUPPORT = "cb_support"  # the name the support's functions are listed by (lower.with_defines)
PREFIX = "cb_"  # the support's functions' names begin so


def _support(w: Writer) -> Tables:
    """The game's tables, and the support's functions listed among those the function being written calls."""
    lay = w.lay
    if lay.game is None:
        raise NotWritten("a combinations builtin with no game to read the combinations section of")
    made = tables(lay.game, tuple(lay.layout.kind), w.values)
    if SUPPORT not in w.called:
        w.called[SUPPORT] = Support(SUPPORT, _source(made), dict(made.constants))
    return made


@dataclass(frozen=True)
class Support:
    """The support's functions as a function an expression calls (lower.Lowered's parts that ``with_defines``,
    ``link`` and the module read: its source and its constants; it reads no record's field and calls nothing)."""

    name: str
    source: str
    constants: dict[str, Any]
    fields: tuple[str, ...] = ()
    lists_read: bool = False
    ranks_read: bool = False
    calls: tuple[Any, ...] = ()


def _kinds(w: Writer, made: Tables, part: Part | None) -> str:
    """The kinds allowed, as a mask of bits by kind (every kind: none given, or an empty list)."""
    every = (1 << made.numbers["NKINDS"]) - 1
    if part is None:
        return str(every)
    if part.const:
        names = [x for x in part.value or ()]
        mask = sum(1 << i for i, k in enumerate(made.kind_names) if k in names)
        return str(mask if names else every)
    buf, count = w.listed(part)
    return w.temp(f"cb_kinds({buf}, {count})", "km")


def _lists(w: Writer, parts: tuple[Part, ...]) -> list[str]:
    out: list[str] = []
    for p in parts:
        buf, count = w.listed(p)
        out += [buf, w.temp(f"max({count}, 0)", "n")]
    return out


def _must(w: Writer, kids: tuple[Part, ...], at: int) -> list[str]:
    if len(kids) > at:
        return _lists(w, kids[at:at + 1])
    return [w.constant([0], "K"), "0"]


def _next_picks(w: Writer, part: Part) -> Listed:
    made = _support(w)
    kids = part.kids
    picked, hand = _lists(w, kids[:1]), _lists(w, kids[1:2])
    top = w.temp(w.scalar(kids[2]))
    must = _must(w, kids, 3)
    mask = _kinds(w, made, kids[4] if len(kids) > 4 else None)
    buf, count = w.new_list(hand[1])
    w.emit(f"{count} = cb_next_picks(h, {', '.join([*picked, *hand, top, *must, mask])}, {buf})")
    return buf, count


def _is_play(w: Writer, part: Part) -> str:
    made = _support(w)
    kids = part.kids
    args = [*_lists(w, kids[:2]), w.temp(w.scalar(kids[2])), *_must(w, kids, 3),
            _kinds(w, made, kids[4] if len(kids) > 4 else None)]
    return w.temp(f"cb_is_play(h, {', '.join(args)})", "b")


def _must_play(w: Writer, part: Part) -> str:
    made = _support(w)
    kids = part.kids
    args = [*_lists(w, kids[:1]), w.temp(w.scalar(kids[1])), *_lists(w, kids[2:3]),
            _kinds(w, made, kids[3] if len(kids) > 3 else None)]
    return w.temp(f"cb_must_play(h, {', '.join(args)})", "b")


def _combination(w: Writer, part: Part) -> str:
    _support(w)
    kids = part.kids
    top = w.temp(w.scalar(kids[1])) if len(kids) > 1 else "NONE"
    return w.temp(f"cb_combination(h, {', '.join(_lists(w, kids[:1]))}, {top})", "r")


SCALARS: dict[Any, Any] = {B._is_play: _is_play, B._must_play: _must_play, B._combination: _combination}
LISTS: dict[Any, Any] = {B._next_picks: _next_picks}


# ------------------------------------------------------------------------------------------------ the support

def _source(made: Tables) -> str:
    """The support's functions (see the module's docstring), its numbers written in."""
    n = made.numbers
    g, t1 = n["NG"], n["T1"]
    cnt = n["NKEYS"]  # a card set's block: its keys' counts (each group's from CB_KOFF), its masks by group and
    wat = cnt + g * t1  # threshold, its wild cards, and whether it holds a card foreign to each group
    size = wat + 1 + g
    text = _SOURCE.replace("@OPEN@\n", _OPEN)
    for key, value in {**n, "CNT": cnt, "WAT": wat, "SIZE": size}.items():
        text = text.replace(f"@{key}@", str(value))
    return text



# the opening of the functions that judge picks from a hand against a play to beat: the hand's and the picks' blocks,
# an empty block, and the rule that binds (the scratch taken back with ``h[0] = mark`` before each returns)
_OPEN = '''    mark = h[0]
    t = cb_row(top)
    rivals = cb_rivals(t, kinds)
    hb_at = cb_block(h, hand, hn)
    hb = h[hb_at:hb_at + @SIZE@]
    pb_at = cb_block(h, picked, pn)
    pb = h[pb_at:pb_at + @SIZE@]
    empty_at = cb_block(h, must, 0)
    empty = h[empty_at:empty_at + @SIZE@]
    bind = cb_binds(hb, empty, t, kinds, rivals, must, mn)
'''

_SOURCE = '''def cb_kinds(names, count):
    mask = 0
    for j in range(count):
        for i in range(@NKINDS@):
            if CB_NAME[i] == names[j]:
                mask |= 1 << i
    return mask if mask != 0 or count > 0 else (1 << @NKINDS@) - 1


def cb_block(h, cards, n):
    at = grab(h, @SIZE@)
    b = h[at:at + @SIZE@]
    for i in range(@SIZE@):
        b[i] = 0
    for i in range(n):
        c = cards[i]
        if CB_WILDC[c] == 1:
            b[@WAT@] += 1
            continue
        for g in range(@NG@):
            k = CB_GKEY[g * @NK@ + c]
            if k < 0:
                b[@WAT@ + 1 + g] = 1
                continue
            x = b[CB_KOFF[g] + k] + 1
            b[CB_KOFF[g] + k] = x
            if x <= @T1@:
                b[@CNT@ + g * @T1@ + x - 1] |= 1 << k
    return at


def cb_row(top):
    k = top - INTERNED
    if top == NONE or k < 0 or k >= len(CB_ROW):
        return -1
    return CB_ROW[k]


def cb_beats(i, n, x, b, t):
    if t < 0:
        return 1
    tk = CB_RKIND[t]
    if b == 1:
        return 1 if CB_RBOMB[t] == 0 or n > CB_RLEN[t] or (n == CB_RLEN[t] and x > CB_RVAL[t]) else 0
    if CB_RBOMB[t] == 1:
        return 0
    if CB_BEATS[i * @NKINDS@ + tk] == 1:
        return 1
    return 1 if i == tk and n == CB_RLEN[t] and x > CB_RVAL[t] else 0


def cb_rivals(t, kinds):
    if t < 0:
        return kinds
    out = 0
    tk = CB_RKIND[t]
    for i in range(@NKINDS@):
        if (kinds >> i) & 1 == 1 and CB_LEAD[i] == 0 and (CB_BOMBK[i] == 1 or (
                CB_RBOMB[t] == 0 and (i == tk or CB_BEATS[i * @NKINDS@ + tk] == 1))):
            out |= 1 << i
    return out


def cb_alone(t):
    if @ABOVE@ == 0:
        return @AFIXED@
    return (@LOWEST@ if t < 0 else CB_RVAL[t]) + @HALF@


def cb_value(e, t):
    return cb_alone(t) if e == @NE@ else CB_EVAL[e]


def cb_pop(x):
    n = 0
    while x != 0:
        x &= x - 1
        n += 1
    return n


def cb_count(b, g, mask):
    n = 0
    for s in range(@T1@):
        n += cb_pop(b[@CNT@ + g * @T1@ + s] & mask)
    return n


def cb_class(e, k):
    for j in range(CB_CAT[e], CB_CAT[e + 1]):
        if (CB_CMASK[j] >> k) & 1 == 1:
            return j
    return -1


def cb_next(hb, t, kinds, rivals, e):
    e += 1
    wild = hb[@WAT@]
    while e < @NE@:
        i = CB_EKIND[e]
        if (rivals >> i) & 1 == 0:
            e = CB_TO[i]
            continue
        if CB_EW[e] <= wild:
            g = CB_KGROUP[i]
            ok = 1
            for s in range(@T1@ - 1):
                if CB_EMASK[e * @T1@ + s] & ~hb[@CNT@ + g * @T1@ + s] != 0:
                    ok = 0
                    break
            for j in range(CB_CAT[e], CB_CAT[e + 1]):
                if ok == 1 and cb_count(hb, g, CB_CMASK[j]) < CB_CN[j]:
                    ok = 0
            if ok == 1 and cb_beats(i, CB_ELEN[e], CB_EVAL[e], CB_EBOMB[e], t) == 1:
                return e
        e += 1
    if e == @NE@ and @ALONE@ >= 0 and wild > 0 and (kinds >> @ALONE@) & 1 == 1:
        if cb_beats(@ALONE@, 1, cb_alone(t), 0, t) == 1:
            return @NE@
    return -1


def cb_fits(e, b):
    g = CB_KGROUP[CB_EKIND[e]]
    if b[@WAT@ + 1 + g] != 0 or b[@WAT@] > CB_EW[e]:
        return 0
    for s in range(@T1@):
        if b[@CNT@ + g * @T1@ + s] & ~CB_EMASK[e * @T1@ + s] & ~CB_EUNION[e] != 0:
            return 0
    for j in range(CB_CAT[e], CB_CAT[e + 1]):
        if cb_count(b, g, CB_CMASK[j]) > CB_CN[j]:
            return 0
    return 1


def cb_fits_with(e, b, c, d):
    if cb_fits(e, b) == 0:
        return 0
    g = CB_KGROUP[CB_EKIND[e]]
    wild = b[@WAT@]
    kc = -1
    jc = -1
    if c >= 0:
        if CB_WILDC[c] == 1:
            wild += 1
        else:
            kc = CB_GKEY[g * @NK@ + c]
            if kc < 0:
                return 0
            if (CB_EUNION[e] >> kc) & 1 == 1:
                jc = cb_class(e, kc)
                if cb_count(b, g, CB_CMASK[jc]) + 1 > CB_CN[jc]:
                    return 0
            else:
                x = b[CB_KOFF[g] + kc]
                if x >= @T1@ or (CB_EMASK[e * @T1@ + x] >> kc) & 1 == 0:
                    return 0
    if d >= 0:
        if CB_WILDC[d] == 1:
            wild += 1
        else:
            kd = CB_GKEY[g * @NK@ + d]
            if kd < 0:
                return 0
            if (CB_EUNION[e] >> kd) & 1 == 1:
                jd = cb_class(e, kd)
                if cb_count(b, g, CB_CMASK[jd]) + 1 + (1 if jd == jc else 0) > CB_CN[jd]:
                    return 0
            else:
                x = b[CB_KOFF[g] + kd] + (1 if kd == kc else 0)
                if x >= @T1@ or (CB_EMASK[e * @T1@ + x] >> kd) & 1 == 0:
                    return 0
    return 1 if wild <= CB_EW[e] else 0


def cb_among(x, items, n):
    for i in range(n):
        if items[i] == x:
            return 1
    return 0


def cb_room(e, b, cards, n, c, must, mn):
    for i in range(n):
        if cb_among(cards[i], must, mn) == 1:
            return 1
    if c >= 0 and cb_among(c, must, mn) == 1:
        return 1
    for j in range(mn):
        d = must[j]
        if d != c and cb_among(d, cards, n) == 0 and cb_fits_with(e, b, c, d) == 1:
            return 1
    return 0


def cb_binds(hb, empty, t, kinds, rivals, must, mn):
    if mn <= 0:
        return 0
    e = cb_next(hb, t, kinds, rivals, -1)
    while e >= 0:
        if cb_room(e, empty, must, 0, -1, must, mn) == 1:
            return 1
        e = cb_next(hb, t, kinds, rivals, e)
    return 0


def cb_next_picks(h, picked, pn, hand, hn, top, must, mn, kinds, out):
@OPEN@
    opened_at = grab(h, @NG@ + 1)
    opened = h[opened_at:opened_at + @NG@ + 1]
    for g in range(@NG@ + 1):
        opened[g] = 0
    if bind == 0:
        e = cb_next(hb, t, kinds, rivals, -1)
        while e >= 0:
            if cb_fits(e, pb) == 1:
                g = CB_KGROUP[CB_EKIND[e]]
                for s in range(@T1@):
                    opened[g] |= CB_EMASK[e * @T1@ + s] & ~pb[@CNT@ + g * @T1@ + s]
                for j in range(CB_CAT[e], CB_CAT[e + 1]):
                    if cb_count(pb, g, CB_CMASK[j]) < CB_CN[j]:
                        opened[g] |= CB_CMASK[j]
                if CB_EW[e] > pb[@WAT@]:
                    opened[@NG@] = 1
            e = cb_next(hb, t, kinds, rivals, e)
    n = 0
    for i in range(hn):
        c = hand[i]
        before = 0
        for j in range(i):
            if hand[j] == c:
                before += 1
        chosen = 0
        for j in range(pn):
            if picked[j] == c:
                chosen += 1
        if before < chosen:
            continue
        ok = 0
        if bind == 0:
            if CB_WILDC[c] == 1:
                ok = opened[@NG@]
            else:
                for g in range(@NG@):
                    k = CB_GKEY[g * @NK@ + c]
                    if k >= 0 and (opened[g] >> k) & 1 == 1:
                        ok = 1
                        break
        else:
            e = cb_next(hb, t, kinds, rivals, -1)
            while e >= 0:
                if (cb_room(e, empty, must, 0, -1, must, mn) == 1 and cb_fits_with(e, pb, c, -1) == 1
                        and cb_room(e, pb, picked, pn, c, must, mn) == 1):
                    ok = 1
                    break
                e = cb_next(hb, t, kinds, rivals, e)
        if ok == 1:
            out[n] = c
            n += 1
    h[0] = mark
    return n


def cb_is_play(h, picked, pn, hand, hn, top, must, mn, kinds):
@OPEN@
    found = 0
    e = cb_next(hb, t, kinds, rivals, -1)
    while e >= 0:
        if CB_ELEN[e] == pn and cb_fits(e, pb) == 1 and (bind == 0 or (
                cb_room(e, empty, must, 0, -1, must, mn) == 1 and cb_room(e, pb, picked, pn, -1, must, mn) == 1)):
            found = 1
            break
        e = cb_next(hb, t, kinds, rivals, e)
    h[0] = mark
    return found


def cb_must_play(h, hand, hn, top, must, mn, kinds):
    mark = h[0]
    t = cb_row(top)
    hb_at = cb_block(h, hand, hn)
    hb = h[hb_at:hb_at + @SIZE@]
    empty_at = cb_block(h, must, 0)
    empty = h[empty_at:empty_at + @SIZE@]
    bind = cb_binds(hb, empty, t, kinds, cb_rivals(t, kinds), must, mn)
    h[0] = mark
    return bind


def cb_better(e, x, best, value):
    if CB_EBOMB[e] != CB_EBOMB[best]:
        return 1 if CB_EBOMB[e] > CB_EBOMB[best] else 0
    over = CB_BEATS[CB_EKIND[e] * @NKINDS@ + CB_EKIND[best]]
    under = CB_BEATS[CB_EKIND[best] * @NKINDS@ + CB_EKIND[e]]
    if over != under:
        return over
    return 1 if x > value else 0


def cb_combination(h, cards, n, top):
    mark = h[0]
    t = cb_row(top)
    every = (1 << @NKINDS@) - 1
    rivals = cb_rivals(t, every)
    b_at = cb_block(h, cards, n)
    b = h[b_at:b_at + @SIZE@]
    best = -1
    value = 0
    e = cb_next(b, t, every, rivals, -1)
    while e >= 0:
        if CB_ELEN[e] == n and cb_fits(e, b) == 1:
            x = cb_value(e, t)
            if best < 0 or cb_better(e, x, best, value) == 1:
                best = e
                value = x
        e = cb_next(b, t, every, rivals, e)
    h[0] = mark
    if best < 0:
        return NONE
    if best < @NE@:
        return CB_EREAD[best]
    for j in range(@NA@):
        if CB_AVAL[j] == value:
            return CB_AREAD[j]
    return NONE
'''
