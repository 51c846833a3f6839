"""Information-set Monte Carlo tree search written into a game's compiled module (machine.py adds it): the search of
harness/search.py's ``IsmctsAgent`` for one decision, all its iterations in one call (``ismcts``), allocating
nothing (module.py's rules: plain loops over the arrays passed in and the scratch space ``h``).

Each iteration: the decision's arrays copied into the work arrays (``search_copy``), the cards the seat does not know
dealt again into them (``search_draw``), then one walk down the tree kept in ``tree`` and ``wins``: at each decision
the children of the legal actions (an action is its whole number on this backend, a card's kind and zone, a
choice's value: the same whichever copy of a card the sample holds) are counted available; an untried one is picked
at random and added (one node an iteration), else the one of the highest UCB value (the same formula and constants
as the Python search); once a node is added, every decision is taken at random and every deal shuffled, to the end
of the round (the round's number changes or the game ends). Each seat is credited with its points of the round (its
total's change) against the mean of the others' (``sign``: negated where the lowest total wins), every node on the
way by its actor's reward, divided by the largest reward seen for UCB.

What to deal again comes from Python, gathered once per decision (compiled/search.py), in ``d``: ``d[0]`` the deals
(events), then for each ``n``, the number of places ``P``, then ``n`` each of the spots' rows and columns in ``z``,
the spots' places (0..P-1), the cards' kinds and each card's mask of the places it may go to; after the deals,
the checks the sample must agree with (checks_template.py: ``0`` where none), then the choose step whose choices
the seat has not seen a sample draws again (its number, -1 for none) and the seat asked. A deal is a shuffle,
tried again (``TRIES``) until no card lands where its mask forbids it (as engine/samples.py's ``_deal``); then a
deal spot by spot in a random order (``search_deal_around``), each spot taking a card at random among those it may
hold that leave the rest a deal: by Hall's theorem, for each set S of places the cards that may go only to S must
fit in S's spots, and a card of mask m put at place q breaks that only where the set is full, holds q and not m.

Or the samples themselves, drawn in Python (where a sample works out values again in a way the compiled draw does not:
compiled/search.py's ``Drawn``): ``d[0]`` ``GIVEN``, then the spots ``n``, the values written ``m``, the next
sample's number, the samples ``K``; the spots' rows and columns in ``z``, the values' indices in ``v``, then each
sample's ``n`` kinds and ``m`` values. Each iteration takes the next, from the first again after the last.

The tree's rows (``tree``, ``TREE_COLUMNS`` wide): the action's key, its actor, the first child, the next sibling,
the parent, visits, and the iterations in which it was legal (``available``); ``wins[node]`` the actor's rewards
summed. Row 0 is the root; its ``available`` holds the rows used (0: a new tree) and ``wins[0]`` the largest reward
seen, so that a later call goes on with the same tree (a search given a time per move searches in several calls).
``tree`` needs a row for each iteration more. ``ismcts`` writes each root child's key and visits into ``keys`` and
``visits`` and returns how many.
"""

from __future__ import annotations

from collections.abc import Sequence

from interpreter.compiled.arrays import ArrayLayout
from interpreter.compiled.checks_template import CHECKS_PASSED, agreeing, checks_source
from interpreter.compiled.steps import ARRAYS
from interpreter.runtime.layout import NUMBER, TOTAL

KEY, ACTOR, CHILD, NEXT, PARENT, VISITS, AVAILABLE = range(7)
TREE_COLUMNS = 7
GIVEN, GIVEN_HEAD = -1, 5  # ``d[0]`` of samples drawn in Python, and the numbers before their spots (see above)
TRIES = 21  # shuffles tried before a deal spot by spot (engine/samples.py: one, then _TRIES more)
MOST_PLACES = 12  # the places a deal's cards may go to, at most (each set of them is a slot of the scratch space)


def search_source(lay: ArrayLayout, capacity: int, kept: int, slots: tuple[int, int, int], zones: int,
                  checks: Sequence[str] = (), redraws: Sequence[str] = ()) -> str:
    """The search's functions for a game laid out as ``lay``: ``capacity`` the most actions a decision offers (the
    machine's), ``kept`` the progress slots a sample copies (the machine's own and the steps', not the round values
    it logs), ``slots`` the machine's progress slots of the step running, the game finished and its status,
    ``zones`` the rows of ``z``; ``checks`` the set steps a check can be (their
    prefixes: checks_template.py), ``redraws`` the choose steps whose unseen choices a sample draws again."""
    number, total, players = lay.value(NUMBER), lay.value(TOTAL, "", 0), lay.layout.players
    lines = _copying(kept) + _dealing() + _drawing(bool(checks), redraws) + _rewarding(total, players)
    lines += checks_source(lay, zones, kept, checks) if checks else []
    lines += _searching(capacity, number, players, slots)
    return "\n".join(lines)


def _copying(kept: int) -> list[str]:
    """``search_shuffle`` (a shuffle of ``n`` numbers of the scratch space) and ``search_copy`` (the decision's arrays
    into the work arrays)."""
    return [
        "def search_shuffle(h, at, n):",
        "    for i in range(n - 1, 0, -1):",
        "        j = int(np.random.random() * (i + 1))",
        "        t = h[at + i]",
        "        h[at + i] = h[at + j]",
        "        h[at + j] = t",
        "",
        f"def search_copy({ARRAYS}, p, z0, zn0, v0, l0, ln0, p0):",
        "    for a in range(len(zn0)):",
        "        for b in range(zn0[a]):",
        "            z[a, b] = z0[a, b]",
        "        zn[a] = zn0[a]",
        "    for a in range(len(v0)):",
        "        v[a] = v0[a]",
        "    for a in range(len(ln0)):",
        "        for b in range(ln0[a]):",
        "            l[a, b] = l0[a, b]",
        "        ln[a] = ln0[a]",
        f"    for a in range({kept}):",
        "        p[a] = p0[a]",
        "",
    ]


def _dealing() -> list[str]:
    """``search_fits`` and ``search_deal_around``: a deal spot by spot that keeps a deal of the rest possible."""
    return [
        # whether a card of mask m at place q leaves the other cards a deal (cnt: the cards left that may go only to
        # the set s, room: the spots left in s; both by set, from the scratch space)
        "def search_fits(h, cnt, room, sets, m, q):",
        "    if (m >> q) & 1 == 0:",
        "        return 0",
        "    for s in range(sets):",
        "        if (s >> q) & 1 == 1 and h[cnt + s] == h[room + s] and m & ~s != 0:",
        "            return 0",
        "    return 1",
        "",
        # the event at d[o:]: each spot's card (its index among the event's cards) into h[perm:]
        "def search_deal_around(h, d, o, perm):",
        "    n = d[o]",
        "    sets = 1 << d[o + 1]",
        "    places = o + 2 + 2 * n",
        "    masks = places + 2 * n",
        "    mark = h[0]",
        "    cnt = grab(h, sets)",
        "    room = grab(h, sets)",
        "    used = grab(h, n)",
        "    order = grab(h, n)",
        "    for s in range(sets):",
        "        h[cnt + s] = 0",
        "        h[room + s] = 0",
        "    for c in range(n):",
        "        h[used + c] = 0",
        "        h[order + c] = c",
        "        m = d[masks + c]",
        "        q = d[places + c]",
        "        for s in range(sets):",
        "            if m & ~s == 0:",
        "                h[cnt + s] += 1",
        "            if (s >> q) & 1 == 1:",
        "                h[room + s] += 1",
        "    search_shuffle(h, order, n)",
        "    for k in range(n):",
        "        j = h[order + k]",
        "        q = d[places + j]",
        "        total = 0",
        "        for c in range(n):",
        "            if h[used + c] == 0 and search_fits(h, cnt, room, sets, d[masks + c], q) == 1:",
        "                total += 1",
        "        pick = -1",
        "        r = int(np.random.random() * total)",
        "        for c in range(n):",
        "            if h[used + c] == 0 and (total == 0 or search_fits(h, cnt, room, sets, d[masks + c], q) == 1):",
        "                if r == 0:",  # (total 0 cannot happen while the bans leave a deal: then any card left)
        "                    pick = c",
        "                    break",
        "                r -= 1",
        "        h[used + pick] = 1",
        "        h[perm + j] = pick",
        "        m = d[masks + pick]",
        "        for s in range(sets):",
        "            if m & ~s == 0:",
        "                h[cnt + s] -= 1",
        "            if (s >> q) & 1 == 1:",
        "                h[room + s] -= 1",
        "    h[0] = mark",
        "",
    ]


def _drawing(checks: bool, redraws: Sequence[str]) -> list[str]:
    """``search_given`` (the next of the samples drawn in Python into the work arrays) and ``search_draw``: the unknown
    cards of every deal of ``d`` dealt again into the work arrays (until they agree with the checks, where ``checks``:
    checks_template.py; then the choices the seat has not seen drawn again, by the choose steps ``redraws``), or the
    next sample given."""
    return [
        "def search_given(z, v, d):",
        "    n = d[1]",
        "    m = d[2]",
        "    k = d[3]",
        "    d[3] = k + 1 if k + 1 < d[4] else 0",
        f"    rows = {GIVEN_HEAD}",
        "    cols = rows + n",
        "    slots = cols + n",
        "    at = slots + m + k * (n + m)",
        "    for j in range(n):",
        "        z[d[rows + j], d[cols + j]] = d[at + j]",
        "    for j in range(m):",
        "        v[d[slots + j]] = d[at + n + j]",
        "",
        "def search_deal(z, h, d):",  # every deal of d dealt again into z; the offset of the checks' part
        "    o = 1",
        "    for e in range(d[0]):",
        "        mark = h[0]",
        "        n = d[o]",
        "        rows = o + 2",
        "        cols = rows + n",
        "        places = cols + n",
        "        kinds = places + n",
        "        masks = kinds + n",
        "        perm = grab(h, n)",
        "        fits = 0",
        f"        for t in range({TRIES}):",
        "            for i in range(n):",
        "                h[perm + i] = i",
        "            search_shuffle(h, perm, n)",
        "            fits = 1",
        "            for j in range(n):",
        "                if (d[masks + h[perm + j]] >> d[places + j]) & 1 == 0:",
        "                    fits = 0",
        "                    break",
        "            if fits == 1:",
        "                break",
        "        if fits == 0:",
        "            search_deal_around(h, d, o, perm)",
        "        for j in range(n):",
        "            z[d[rows + j], d[cols + j]] = d[kinds + h[perm + j]]",
        "        h[0] = mark",
        "        o = masks + n",
        "    return o",
        "",
        *(agreeing() if checks else []),
        f"def search_draw({ARRAYS}, p, d, {CHECKS_PASSED}):",
        f"    if d[0] == {GIVEN}:",
        "        search_given(z, v, d)",
        "        return",
        "    o = search_deal(z, h, d)",
        (f"    r = o + 1 if d[o] == 0 else search_agree({ARRAYS}, d, o, {CHECKS_PASSED})" if checks
         else "    r = o + 1"),
        *(["    if d[r] >= 0:", f"        search_redraw({ARRAYS}, p, d[r], d[r + 1])"] if redraws else []),
        "",
        *_redrawing(redraws),
    ]


def _redrawing(steps: Sequence[str]) -> list[str]:
    """``search_redraw``: the choices a seat has not seen drawn again on a sample, by the choose step's
    ``PREFIX_redraw`` (choose_template.py), the step by its number in ``steps`` (their prefixes)."""
    if not steps:
        return []
    return [f"def search_redraw({ARRAYS}, p, which, me):",
            *(f"    if which == {k}:\n        {prefix}_redraw({ARRAYS}, p, me)\n        return"
              for k, prefix in enumerate(steps)),
            "    return",
            ""]


def _rewarding(total: int, players: int) -> list[str]:
    """``search_reward``: a seat's points of the round against the mean of the others' (harness/search.py's
    ``_rewards``)."""
    return [
        # the reward of seat s: its points of the round against the mean of the others'
        "def search_reward(v, v0, s, sign):",
        f"    mine = v[{total} + s] - v0[{total} + s]",
        "    others = 0",
        f"    for k in range({players}):",
        "        if k != s:",
        f"            others += v[{total} + k] - v0[{total} + k]",
        f"    if {players} == 1:",
        "        return sign * mine * 1.0",
        f"    return sign * (mine - others / {max(players - 1, 1)})",
        "",
    ]


def _searching(capacity: int, number: int, players: int, slots: tuple[int, int, int]) -> list[str]:
    """``search_child``, ``search_pick``, ``search_back`` and ``ismcts`` (see the module's docstring)."""
    step, finished, status = slots
    return _picking() + [
        # what a walk down the tree credits: each node on the way its actor's reward, the root's rows used
        "def search_back(v, v0, tree, wins, node, sign, scale, ended):",
        "    c = node",
        "    while c > 0:",
        f"        tree[c, {VISITS}] += 1",
        "        if ended:",
        f"            wins[c] += search_reward(v, v0, tree[c, {ACTOR}], sign)",
        f"        c = tree[c, {PARENT}]",
        "    if ended:",
        f"        for s in range({players}):",
        "            x = abs(search_reward(v, v0, s, sign))",
        "            if x > scale:",
        "                scale = x",
        "    return scale",
        "",
        f"def ismcts({ARRAYS}, p, z0, zn0, v0, l0, ln0, p0, d, tree, wins, iterations, explore, sign, keys,"
        f" visits, {CHECKS_PASSED}):",
        "    mark = h[0]",
        f"    acts = grab(h, {capacity})",
        f"    order = grab(h, {capacity})",
        f"    if tree[0, {AVAILABLE}] == 0:",  # a new tree (else the iterations go on with the tree of an earlier call)
        *(f"        tree[0, {column}] = -1" for column in (KEY, ACTOR, CHILD, NEXT, PARENT)),
        f"        tree[0, {AVAILABLE}] = 1",
        "        wins[0] = 1.0",
        "    scale = wins[0]",
        f"    number = v0[{number}]",
        "    for it in range(iterations):",
        f"        search_copy({ARRAYS}, p, z0, zn0, v0, l0, ln0, p0)",
        f"        search_draw({ARRAYS}, p, d, {CHECKS_PASSED})",
        "        node = 0",
        "        expanded = 0",
        f"        while p[{finished}] == 0 and v[{number}] == number:",
        f"            if p[{status}] == CHANCE:",
        f"                n = pack({ARRAYS}, p, h[order:order + {capacity}])",
        "                search_shuffle(h, order, n)",
        f"                deal({ARRAYS}, p, h[order:order + n])",
        "                continue",
        f"            n = legal({ARRAYS}, p, h[acts:acts + {capacity}])",
        "            if n <= 0:",
        f"                advance({ARRAYS}, p, p[{step}] + 1)",
        "                continue",
        "            if expanded == 1:",  # the playout: at random to the round's end
        f"                apply({ARRAYS}, p, h[acts + int(np.random.random() * n)])",
        "                continue",
        f"            node = search_pick({ARRAYS}, p, acts, n, tree, wins, node, scale, explore)",
        f"            expanded = 1 if tree[node, {VISITS}] == 0 else 0",  # (a node is visited once it was walked)
        f"            apply({ARRAYS}, p, tree[node, {KEY}])",
        f"        ended = p[{finished}] != 0 or v[{number}] != number",
        "        scale = search_back(v, v0, tree, wins, node, sign, scale, ended)",
        "    wins[0] = scale",
        "    k = 0",
        f"    c = tree[0, {CHILD}]",
        "    while c >= 0:",
        f"        keys[k] = tree[c, {KEY}]",
        f"        visits[k] = tree[c, {VISITS}]",
        "        k += 1",
        f"        c = tree[c, {NEXT}]",
        "    h[0] = mark",
        "    return k",
        "",
    ]


def _picking() -> list[str]:
    """``search_child`` (the child of a node by its action's key, or -1) and ``search_pick``: the child to walk to
    among the ``n`` actions at ``h[acts:]``, a new one (at random among the untried) or the best by UCB."""
    return [
        "def search_child(tree, node, key):",
        f"    c = tree[node, {CHILD}]",
        f"    while c >= 0 and tree[c, {KEY}] != key:",
        f"        c = tree[c, {NEXT}]",
        "    return c",
        "",
        f"def search_pick({ARRAYS}, p, acts, n, tree, wins, node, scale, explore):",
        "    untried = 0",
        "    for i in range(n):",
        "        c = search_child(tree, node, h[acts + i])",
        "        if c >= 0:",
        f"            tree[c, {AVAILABLE}] += 1",
        "        else:",
        "            untried += 1",
        "    if untried > 0:",
        "        r = int(np.random.random() * untried)",
        "        a = -1",
        "        for i in range(n):",
        "            if search_child(tree, node, h[acts + i]) < 0:",
        "                if r == 0:",
        "                    a = h[acts + i]",
        "                    break",
        "                r -= 1",
        f"        c = tree[0, {AVAILABLE}]",
        f"        tree[0, {AVAILABLE}] = c + 1",
        f"        tree[c, {KEY}] = a",
        f"        tree[c, {ACTOR}] = actor({ARRAYS}, p)",
        f"        tree[c, {CHILD}] = -1",
        f"        tree[c, {NEXT}] = tree[node, {CHILD}]",
        f"        tree[c, {PARENT}] = node",
        f"        tree[c, {VISITS}] = 0",
        f"        tree[c, {AVAILABLE}] = 1",
        "        wins[c] = 0.0",
        f"        tree[node, {CHILD}] = c",
        "        return c",
        "    best = -1",
        "    value = 0.0",
        "    for i in range(n):",
        "        c = search_child(tree, node, h[acts + i])",
        f"        x = wins[c] / (tree[c, {VISITS}] * scale) + explore * np.sqrt(np.log(tree[c, {AVAILABLE}]) /"
        f" tree[c, {VISITS}])",
        "        if best < 0 or x > value:",
        "            best = c",
        "            value = x",
        "    return best",
        "",
    ]
