"""A compiled search's samples made to agree with what was worked out from hidden cards (search_template.py's
``search_draw``): the set steps that worked values out from cards some seat could not see (engine/knowledge.py's
runs) worked out again, compiled, on each draw of the unknown cards.

Such a step is a check where it told everyone values (who holds the card that leads, whether a hand holds one trump
alone) or told each seat a value of its own: a sample must tell the same. It works out hidden values (whether a seat
holds the king and queen of trumps) that later steps read and that a sample must hold as its own cards give them.
A teams step that hid the teams (who holds the called ace is the caller's partner) is one too: its teams must agree
with every team the seat knows, and their sizes where those are public.
engine/samples.py draws the unknown cards again until every check, run again on the state before it with every
unknown card renamed to the card the draw put in its place (and the hidden values it read as worked out again on
the draw), tells what it told. Here the same is done on the arrays: the state before each run packed into the plan
once a decision (compiled/search_checks.py), and for each draw it is copied into the check arrays (``cz``...), each
unknown card's place there given the kind the draw dealt to that card's place now, the hidden values it read written
as the runs before it worked them out on this draw, the step's ``start`` run (``search_check``: the set steps a run
can be, by number), the hidden values it works out kept, and for a check the values it tells compared with those it
gave on the true cards (worked out once per plan, ``search_expect``). A draw that fails a check is dealt again, up
to ``AGREE_TRIES`` times, the draw with the fewest failed checks kept when none agrees (as engine/samples.py does);
then each hidden value of the other seats is written as the runs worked it out on the draw.

The runs' part of the plan ``d``, after its deals (search_template.py), from ``o``: ``R`` the runs (0: none), ``N``
the unknown cards, their rows and columns in ``z`` now (``N`` each), then each run in the order they are worked out
(a run after those whose hidden values it reads), then ``F`` and that many hidden values to write into the sample
(an index in ``v``, the run, which of its hidden values). Each run: the set step's number, ``M`` the values compared
(0 for a run that is no check), whether their values on the true cards are worked out yet (0: not yet), the run's
length in ``d``, ``I`` the hidden values it reads and ``H`` those it works out; each unknown card's row and column
in the state before the step (-1: in no zone then); each compared value's kind (0: one number in ``v``, 1: a row of
``l``) and index; each value read (its index in ``v``, the run that worked it out, which of that run's values); each
value worked out (its index in ``v``); then the compared values on the true cards (a number, or a row's length and
``WIDTH`` items), the values worked out on this draw, and the state before it: ``zn``, ``z``, ``v``, ``ln``, ``l``,
as many numbers as the arrays hold. A compared value of kind 2 is one of a group compared as a whole: the teams of
the seats, where their sizes are public, must hold each team as many times as on the true cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.compiled.arrays import ArrayLayout
from interpreter.compiled.steps import ARRAYS

AGREE_TRIES = 1000  # draws tried for a sample that agrees with every check (engine/samples.py's _AGREE_TRIES)
CHECKS = ("cz", "czn", "cv", "cl", "cln")  # the check arrays: a state before a run, its cards renamed
CHECK_ARRAYS = ", ".join((*CHECKS, "h", "cp"))
CHECKS_PASSED = ", ".join((*CHECKS, "cp"))  # (the check arrays, as the search passes them on)
HEAD = 6  # a run's numbers before its unknown cards' places (see the module's docstring)


def checks_source(lay: ArrayLayout, zones: int, kept: int, steps: Sequence[str]) -> list[str]:
    """The runs' functions, for a game laid out as ``lay`` (``zones`` rows of ``z``, ``kept`` progress slots a step
    uses: the machine's own and the steps', not the round values it logs), whose
    set steps ``steps`` (their prefixes, by number) a run can be: ``search_check`` (step ``which`` started on the
    check arrays), ``search_parts`` and ``search_runs`` (where a run's parts are), ``search_snapshot`` (a run's state
    into the check arrays, renamed by the draw), ``search_told`` and ``search_sizes`` (its values kept and
    compared), ``search_expect``, ``search_misses`` (how many checks a draw fails) and ``search_hidden``."""
    dispatch = [f"    if which == {k}:\n        {prefix}_start({ARRAYS}, p)\n        return" for k, prefix in
                enumerate(steps)]
    return [
        f"def search_check({ARRAYS}, p, which):",
        *dispatch,
        "    return",
        "",
        *_parts(lay.width),
        *_snapshot(lay, zones, kept),
        *_told(lay.width),
        *_drawing(),
    ]


def _parts(width: int) -> list[str]:
    """``search_parts`` and ``search_runs``: where each run and each of its parts begin in ``d``."""
    return [
        # where run q's parts begin in d: its unknown cards' places, values compared, read, worked out, the
        # compared values' true ones, the values worked out, its state
        "def search_parts(d, o, q):",
        "    n = d[o + 1]",
        f"    srows = q + {HEAD}",
        "    told = srows + 2 * n",
        "    reads = told + 2 * d[q + 1]",
        "    outs = reads + 3 * d[q + 4]",
        "    true = outs + d[q + 5]",
        "    at = true",
        "    for j in range(d[q + 1]):",
        f"        at += 1 + {width} if d[told + 2 * j] == 1 else 1",
        "    return srows, told, reads, outs, true, at, at + d[q + 5]",
        "",
        # the runs' offsets in d, in order, into h[at:]
        "def search_runs(h, d, o, at):",
        "    q = o + 2 + 2 * d[o + 1]",
        "    for c in range(d[o]):",
        "        h[at + c] = q",
        "        q += d[q + 3]",
        "    return q",
        "",
    ]


def _snapshot(lay: ArrayLayout, zones: int, kept: int) -> list[str]:
    """``search_snapshot``: a run's state into the check arrays."""
    cap, width = lay.capacity, lay.width
    values, lists = max(lay.values, 1), max(lay.lists, 1)
    return [
        # the state before run q into the check arrays; with the draw's kinds at the unknown cards' places and the
        # hidden values it reads as worked out on this draw (``runs``: h[runs:], each run's offset) when ``renamed``
        f"def search_snapshot(z, {CHECK_ARRAYS}, d, o, q, runs, renamed):",
        "    n = d[o + 1]",
        "    srows, told, reads, outs, true, mine, at = search_parts(d, o, q)",
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
        f"    for i in range({kept}):",  # (the steps' slots cleared: the logged round values no step reads)
        "        cp[i] = 0",
        "    if renamed == 1:",
        "        for j in range(n):",
        "            if d[srows + j] >= 0:",
        "                cz[d[srows + j], d[srows + n + j]] = z[d[o + 2 + j], d[o + 2 + n + j]]",
        "        for j in range(d[q + 4]):",
        "            src = h[runs + d[reads + 3 * j + 1]]",
        "            cv[d[reads + 3 * j]] = d[search_parts(d, o, src)[5] + d[reads + 3 * j + 2]]",
        "",
    ]


def _told(width: int) -> list[str]:
    """``search_told`` and ``search_sizes``: a run's values kept, and compared with those on the true cards."""
    return [
        # run q's values after its step: its values worked out kept; whether the compared ones are those on the true
        # cards (``expect`` 1: made those)
        f"def search_told({CHECK_ARRAYS}, d, o, q, expect):",
        "    srows, told, reads, outs, at, mine, state = search_parts(d, o, q)",
        "    for j in range(d[q + 5]):",
        "        d[mine + j] = cv[d[outs + j]]",
        "    true = at",
        "    sizes = 0",
        "    for j in range(d[q + 1]):",
        "        kind = d[told + 2 * j]",
        "        i = d[told + 2 * j + 1]",
        "        if kind != 1:",
        "            if expect == 1:",
        "                d[at] = cv[i]",
        "            elif kind == 2:",
        "                sizes = 1",
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
        "    if sizes == 1:",
        "        return search_sizes(cv, d, told, true, d[q + 1])",
        "    return 1",
        "",
        # whether the values compared as one group (kind 2: the seats' teams where their sizes are public) hold each
        # value as many times as on the true cards (their true values at h[true:], one each, in order)
        "def search_sizes(cv, d, told, true, m):",
        "    for j in range(m):",
        "        if d[told + 2 * j] == 2:",
        "            x = cv[d[told + 2 * j + 1]]",
        "            drawn = 0",
        "            was = 0",
        "            b = true",
        "            for k in range(m):",
        "                if d[told + 2 * k] == 2:",
        "                    drawn += 1 if cv[d[told + 2 * k + 1]] == x else 0",
        "                    was += 1 if d[b] == x else 0",
        f"                b += 1 + ({width} if d[told + 2 * k] == 1 else 0)",
        "            if drawn != was:",
        "                return 0",
        "    return 1",
        "",
    ]


def _drawing() -> list[str]:
    """``search_expect``, ``search_misses`` and ``search_hidden``: the runs worked out on the true cards, on a draw,
    and their hidden values written into the sample."""
    return [
        # each check's values told on the true cards, worked out where not yet
        f"def search_expect(z, {CHECK_ARRAYS}, d, o, runs):",
        "    for c in range(d[o]):",
        "        q = h[runs + c]",
        "        if d[q + 2] == 0:",
        f"            search_snapshot(z, {CHECK_ARRAYS}, d, o, q, runs, 0)",
        f"            search_check({CHECK_ARRAYS}, d[q])",
        f"            search_told({CHECK_ARRAYS}, d, o, q, 1)",
        "            d[q + 2] = 1",
        "",
        # how many checks the draw now in z fails (stopping once it fails ``enough``)
        f"def search_misses(z, {CHECK_ARRAYS}, d, o, runs, enough):",
        "    misses = 0",
        "    for c in range(d[o]):",
        "        q = h[runs + c]",
        f"        search_snapshot(z, {CHECK_ARRAYS}, d, o, q, runs, 1)",
        f"        search_check({CHECK_ARRAYS}, d[q])",
        f"        if search_told({CHECK_ARRAYS}, d, o, q, 0) == 0:",
        "            misses += 1",
        "            if misses >= enough:",
        "                return misses",
        "    return misses",
        "",
        # the hidden values the runs worked out on the draw into the sample (from e: F, then its writes)
        "def search_hidden(v, h, d, o, runs, e):",
        "    for j in range(d[e]):",
        "        w = e + 1 + 3 * j",
        "        src = h[runs + d[w + 1]]",
        "        v[d[w]] = d[search_parts(d, o, src)[5] + d[w + 2]]",
        "",
    ]


def agreeing() -> list[str]:
    """``search_agree``: the draw in ``z`` dealt again (every deal of ``d``) until it agrees with the runs' checks
    from ``o``, or the draw that fails the fewest kept; then the hidden values worked out on it; the offset after the
    runs' part."""
    return [
        f"def search_agree({ARRAYS}, d, o, {CHECKS_PASSED}):",
        "    n = d[o + 1]",
        "    mark = h[0]",
        "    runs = grab(h, d[o])",
        "    e = search_runs(h, d, o, runs)",
        f"    search_expect(z, {CHECK_ARRAYS}, d, o, runs)",
        "    best = grab(h, n)",
        "    fewest = d[o] + 1",
        f"    for t in range({AGREE_TRIES}):",
        f"        misses = search_misses(z, {CHECK_ARRAYS}, d, o, runs, fewest)",
        "        if misses < fewest:",
        "            fewest = misses",
        "            for j in range(n):",
        "                h[best + j] = z[d[o + 2 + j], d[o + 2 + n + j]]",
        "        if misses == 0:",
        "            break",
        "        search_deal(z, h, d)",
        "    if fewest > 0:",  # (no draw agreed: the one that failed the fewest checks, its hidden values again)
        "        for j in range(n):",
        "            z[d[o + 2 + j], d[o + 2 + n + j]] = h[best + j]",
        f"        search_misses(z, {CHECK_ARRAYS}, d, o, runs, d[o] + 1)",
        "    search_hidden(v, h, d, o, runs, e)",
        "    h[0] = mark",
        "    return e + 1 + 3 * d[e]",
        "",
    ]
