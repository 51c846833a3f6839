"""A compiled search's samples made to agree with what the seat was told (search_template.py's ``search_draw``):
the checks of engine/knowledge.py worked out again, compiled, on each draw of the unknown cards.

A check is a set step that told everyone values worked out from cards some seat could not see (who holds the card
that leads, whether a hand holds one trump alone). A sample must tell the same: engine/samples.py draws the unknown
cards again until the step, run again on the state before it with every unknown card renamed to the card the draw
put in its place, tells what it told. Here the same is done on the arrays: the state before the step packed into
the plan once (compiled/search_checks.py), and for each draw it is copied into the check arrays (``cz``...), each
unknown card's place there given the kind the draw dealt to that card's place now, the step's ``start`` run
(``search_check``: the set steps a check can be, by number), and the values it tells compared with those it gave
on the true cards (worked out once per plan, ``search_expect``). A draw that fails a check is dealt again, up to
``AGREE_TRIES`` times, the draw with the fewest failed checks kept when none agrees (as engine/samples.py does).

The checks' part of the plan ``d``, after its deals (search_template.py), from ``o``: ``C`` the checks (0: none),
``N`` the unknown cards, their rows and columns in ``z`` now (``N`` each); then each check: the set step's number,
``M`` the values it tells, whether their values on the true cards are worked out yet (0: not yet), the check's
length in ``d``; each unknown card's row and column in the state before the step (-1: in no zone then); each told
value's kind (0: one number in ``v``, 1: a row of ``l``) and index; the values told on the true cards (a number, or
a row's length and ``WIDTH`` items); the state before it: ``zn``, ``z``, ``v``, ``ln``, ``l``, as many numbers as
the arrays hold.
"""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.compiled.arrays import ArrayLayout
from interpreter.compiled.steps import ARRAYS

AGREE_TRIES = 1000  # draws tried for a sample that agrees with every check (engine/samples.py's _AGREE_TRIES)
CHECKS = ("cz", "czn", "cv", "cl", "cln")  # the check arrays: a state before a check, its cards renamed
CHECK_ARRAYS = ", ".join((*CHECKS, "h", "cp"))


def checks_source(lay: ArrayLayout, zones: int, size: int, steps: Sequence[str]) -> list[str]:
    """The checks' functions, for a game laid out as ``lay`` (``zones`` rows of ``z``, ``size`` progress slots),
    whose set steps ``steps`` (their prefixes, by number) a check can be: ``search_check`` (step ``which`` started on
    the check arrays), ``search_snapshot`` (a check's state into them, renamed by the draw), ``search_expect``,
    ``search_misses`` (how many checks a draw fails)."""
    cap, width = lay.capacity, lay.width
    values, lists = max(lay.values, 1), max(lay.lists, 1)
    dispatch = [f"    if which == {k}:\n        {prefix}_start({ARRAYS}, p)\n        return" for k, prefix in
                enumerate(steps)]
    return [
        f"def search_check({ARRAYS}, p, which):",
        *dispatch,
        "    return",
        "",
        # the state before check q (of d) into the check arrays; with the draw's kinds at the unknown cards' places
        # when ``renamed``
        f"def search_snapshot(z, {CHECK_ARRAYS}, d, o, q, renamed):",
        "    n = d[o + 1]",
        "    m = d[q + 1]",
        "    srows = q + 4",
        "    scols = srows + n",
        "    told = scols + n",
        "    at = told + 2 * m",
        "    for j in range(m):",
        f"        at += 1 if d[told + 2 * j] == 0 else 1 + {width}",
        f"    zs = at + {zones}",
        f"    for r in range({zones}):",
        "        czn[r] = d[at + r]",
        "        for k in range(czn[r]):",
        f"            cz[r, k] = d[zs + r * {cap} + k]",
        f"    vs = zs + {zones * cap}",
        f"    for i in range({values}):",
        "        cv[i] = d[vs + i]",
        f"    lns = vs + {values}",
        f"    ls = lns + {lists}",
        f"    for r in range({lists}):",
        "        cln[r] = d[lns + r]",
        "        for k in range(cln[r]):",
        f"            cl[r, k] = d[ls + r * {width} + k]",
        f"    for i in range({size}):",
        "        cp[i] = 0",
        "    if renamed == 1:",
        "        for j in range(n):",
        "            if d[srows + j] >= 0:",
        "                cz[d[srows + j], d[scols + j]] = z[d[o + 2 + j], d[o + 2 + n + j]]",
        "",
        # whether check q's told values are those on the true cards (``expect`` 1: made those)
        f"def search_told({CHECK_ARRAYS}, d, o, q, expect):",
        "    n = d[o + 1]",
        "    m = d[q + 1]",
        "    told = q + 4 + 2 * n",
        "    at = told + 2 * m",
        "    for j in range(m):",
        "        kind = d[told + 2 * j]",
        "        i = d[told + 2 * j + 1]",
        "        if kind == 0:",
        "            if expect == 1:",
        "                d[at] = cv[i]",
        "            elif d[at] != cv[i]:",
        "                return 0",
        "            at += 1",
        "            continue",
        "        if expect == 1:",
        "            d[at] = cln[i]",
        "            for k in range(max(cln[i], 0)):",
        "                d[at + 1 + k] = cl[i, k]",
        "        else:",
        "            if d[at] != cln[i]:",
        "                return 0",
        "            for k in range(max(cln[i], 0)):",
        "                if d[at + 1 + k] != cl[i, k]:",
        "                    return 0",
        f"        at += 1 + {width}",
        "    return 1",
        "",
        # each check's values told on the true cards, worked out where not yet
        f"def search_expect(z, {CHECK_ARRAYS}, d, o):",
        "    q = o + 2 + 2 * d[o + 1]",
        "    for c in range(d[o]):",
        "        if d[q + 2] == 0:",
        f"            search_snapshot(z, {CHECK_ARRAYS}, d, o, q, 0)",
        f"            search_check({CHECK_ARRAYS}, d[q])",
        f"            search_told({CHECK_ARRAYS}, d, o, q, 1)",
        "            d[q + 2] = 1",
        "        q += d[q + 3]",
        "",
        # how many checks the draw now in z fails (stopping once it fails ``enough``)
        f"def search_misses(z, {CHECK_ARRAYS}, d, o, enough):",
        "    misses = 0",
        "    q = o + 2 + 2 * d[o + 1]",
        "    for c in range(d[o]):",
        f"        search_snapshot(z, {CHECK_ARRAYS}, d, o, q, 1)",
        f"        search_check({CHECK_ARRAYS}, d[q])",
        f"        if search_told({CHECK_ARRAYS}, d, o, q, 0) == 0:",
        "            misses += 1",
        "            if misses >= enough:",
        "                return misses",
        "        q += d[q + 3]",
        "    return misses",
        "",
    ]


def agreeing(deal: str) -> list[str]:
    """The lines of ``search_draw`` that deal again (``deal``: the call that deals every event, giving the checks'
    offset) until the draw agrees with the checks, or keep the draw that fails the fewest."""
    return [
        f"    o = {deal}",
        "    if d[o] == 0:",
        "        return",
        f"    search_expect(z, {CHECK_ARRAYS}, d, o)",
        "    n = d[o + 1]",
        "    mark = h[0]",
        "    best = grab(h, n)",
        "    fewest = d[o] + 1",
        f"    for t in range({AGREE_TRIES}):",
        f"        misses = search_misses(z, {CHECK_ARRAYS}, d, o, fewest)",
        "        if misses < fewest:",
        "            fewest = misses",
        "            for j in range(n):",
        "                h[best + j] = z[d[o + 2 + j], d[o + 2 + n + j]]",
        "        if misses == 0:",
        "            break",
        f"        {deal}",
        "    if fewest > 0:",  # (no draw agreed: the one that failed the fewest checks)
        "        for j in range(n):",
        "            z[d[o + 2 + j], d[o + 2 + n + j]] = h[best + j]",
        "    h[0] = mark",
    ]
