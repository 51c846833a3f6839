"""The search on the compiled backend (compiled/search.py, search_template.py, following.py): the samples it deals
never put a card where the Python backend's ``Unknown`` says it cannot be and reach every place it may be, the deal
around bans keeps every ban where shuffles rarely do, the rewards are the Python search's, a tree's visits add up,
and an ismcts seat searches every decision of a round compiled while the game, followed on the machine, is played
by the Python backend. The machine runs as plain Python here (compiling takes a second or more)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from interpreter.compiled.arrays import HEAP_START, Arrays, heap
from interpreter.compiled.machine import Machine
from interpreter.compiled.search import CompiledSearch, refusal, sample_plan
from interpreter.compiled.search_template import AVAILABLE
from interpreter.engine.samples import Unknown
from interpreter.engine.state import CHANCE
from interpreter.harness import engine_choice, engines
from interpreter.harness.agents import Turn
from interpreter.harness.following import Following
from interpreter.harness.search import IsmctsAgent, _rewards
from interpreter.match.driver import Match
from interpreter.match.listeners import Knowing

from .compiled_steps import compiled_or_skip
from .conftest import counts_of, game_of, known_decisions


@pytest.fixture(scope="module")
def hearts() -> Any:
    game = game_of("hearts", 4)
    return game, Machine(game)


def _followed(game: Any, machine: Machine, seed: int) -> tuple[Match, Any, Following]:
    match = Match(game, seed)
    knowing = Knowing(match)
    following = Following(machine, match)
    match.listen(knowing, following)
    match.begin()
    return match, knowing.knowledge, following


def _banned_decision(game: Any, machine: Machine, seed: int) -> tuple[Match, Any, Following, Unknown]:
    """A decision of a random game of Hearts where the seat to act knows that some seat lacks some cards, with at
    most 24 cards it does not know."""
    rng = random.Random(seed)
    match, knowledge, following = _followed(game, machine, seed)
    while True:
        d = match.state.pending
        assert d is not None, "the game ended before a decision with bans"
        if d.actor == CHANCE:
            match.chance()
            continue
        unknown = Unknown(game, match.state, d.actor, knowledge)
        bans = [b for _, _, bs in unknown.events for b in bs if b]
        if bans and sum(len(true) for true, _, _ in unknown.events) <= 24 and refusal(unknown) is None:
            return match, knowledge, following, unknown
        match.act(d.actions[rng.randrange(len(d.actions))])


def _copy(arrays: Any) -> Arrays:
    return Arrays(*(a.copy() for a in arrays[:5]), heap())


def test_samples_keep_the_bans_and_reach_every_allowed_place(hearts: Any) -> None:
    game, machine = hearts
    _, _, following, unknown = _banned_decision(game, machine, 3)
    arrays, _, _ = following.position()
    plan = sample_plan(machine, arrays, unknown)
    kind, lay = machine.lay.layout.kind, machine.lay.layout
    allowed: set[tuple[int, Any]] = set()  # (a card's kind, a place it may be dealt to)
    hidden: dict[Any, Counter[int]] = {}  # each place's unknown cards, by kind
    for (true, _, bans), spots in zip(unknown.events, unknown.spots, strict=True):
        for (where, _), c in zip(spots, true, strict=True):
            hidden.setdefault(where, Counter())[kind[c]] += 1
        for (where, _), ban in zip(spots, bans, strict=True):
            allowed |= {(kind[c], where) for c in true if not ban or c not in ban}
    assert any(b for _, _, bans in unknown.events for b in bans), "a decision where some seat lacks some cards"
    rows = {where: lay.zone_slot(where[0], None if where[1] < 0 else where[1]) for where in hidden}
    before = {where: Counter(arrays.z[row, :arrays.zn[row]].tolist()) for where, row in rows.items()}
    known = {where: before[where] - hidden[where] for where in rows}
    seen: set[tuple[int, Any]] = set()
    machine.module.seed(7)
    for _ in range(150):
        work = Arrays(*(a.copy() for a in arrays[:5]), heap())
        machine.module.search_draw(*work, np.zeros(machine.size, np.int64), plan, *CompiledSearch(machine).checking)
        assert work.h[0] == HEAP_START, "a draw gives back the scratch space it took"
        for where, row in rows.items():
            now = Counter(work.z[row, :work.zn[row]].tolist())
            dealt = now - known[where]
            assert now == known[where] + dealt and sum(dealt.values()) == sum(hidden[where].values()), \
                f"{where} keeps its known cards and its number of cards"
            for k in dealt:
                assert (k, where) in allowed, f"a card of kind {k} dealt to {where}, which lacks it"
                seen.add((k, where))
        assert sum((Counter(work.z[row, :work.zn[row]].tolist()) for row in rows.values()), Counter()) == \
            sum(before.values(), Counter()), "the cards dealt again are the cards that were there"
    assert allowed == seen, f"never dealt to a place it may go to: {sorted(allowed - seen)[:5]}"


def test_the_deal_around_bans_keeps_every_ban(hearts: Any) -> None:
    """Six cards to three places of two spots, each card allowed in one place only but the last two: one deal in
    45 keeps every ban (a shuffle rarely finds it); the deal spot by spot always does, and varies."""
    _, machine = hearts
    masks = [1, 1, 2, 2, 7, 7]  # (places 0, 1, 2: bits)
    n = len(masks)
    plan = np.asarray([1, n, 3, *[0] * n, *range(n), 0, 0, 1, 1, 2, 2, *range(10, 10 + n), *masks], np.int64)
    h = heap()
    found = Counter()
    machine.module.seed(3)
    for _ in range(40):
        perm = machine.module.grab(h, n)
        machine.module.search_deal_around(h, plan, 1, perm)
        picks = h[perm:perm + n].tolist()
        h[0] = perm
        assert sorted(picks) == list(range(n)), "every card dealt once"
        assert all(masks[c] >> (j // 2) & 1 for j, c in enumerate(picks)), f"a ban broken: {picks}"
        found[tuple(picks)] += 1
    assert h[0] == HEAP_START and len(found) == 8, f"each of the 8 deals that keep the bans: {sorted(found)}"


def test_rewards_are_the_python_search_s(hearts: Any) -> None:
    _, machine = hearts
    before, after = [10, 0, 5, 20], [16, 13, 5, 20]
    v0 = np.zeros(len(machine.box().v), np.int64)
    v = v0.copy()
    total = machine.lay.value("total", "", 0)
    v0[total:total + 4], v[total:total + 4] = before, after
    for sign in (1, -1):
        want = _rewards([[a - b for a, b in zip(after, before, strict=True)]], 0, 4, sign)
        got = [machine.module.search_reward(v, v0, s, sign) for s in range(4)]
        assert got == pytest.approx(want)


def test_a_decision_searched_compiled(hearts: Any) -> None:
    game, machine = hearts
    match, _, following, unknown = _banned_decision(game, machine, 5)
    arrays, p, keys = following.position()
    search = CompiledSearch(machine)
    search.begin((arrays, p), sample_plan(machine, arrays, unknown), 11)
    visits = search.run(12, 0.7, -1)
    assert sum(visits.values()) == 12 and set(visits) <= set(keys), "one root action visited an iteration"
    assert search.work.h[0] == HEAP_START
    assert search.tree[0, AVAILABLE] == 13, "one node added an iteration"
    more = search.run(6, 0.7, -1)  # the same tree, searched further
    assert sum(more.values()) == 18 and all(more[k] >= n for k, n in visits.items())
    assert (arrays.z == following.arrays.z).all() and match.state.pending is not None


def _seat_searching(game: Any, machine: Machine, seed: int, iterations: int, monkeypatch: Any,
                    more: Any) -> tuple[Following, int, list[Any]]:
    """Seat 0 an ismcts agent searching on the compiled backend (``machine``), the other seats random, from ``seed``,
    while ``more(match, asked)``: the game followed on the machine, the decisions with a choice asked of seat 0, and
    the plan of each compiled search."""
    from interpreter.harness.search import following_for

    monkeypatch.setattr(engines, "search_machine", lambda engine, g, say=None: machine)
    match = Match(game, seed)
    knowing = Knowing(match)
    match.listen(knowing)
    match.begin()
    agent = IsmctsAgent(0, iterations=iterations, engine="compiled")
    following = following_for(match, [agent])
    assert following is not None
    match.listen(following)
    rng = random.Random(seed)
    plans: list[Any] = []
    runs = CompiledSearch.run
    monkeypatch.setattr(CompiledSearch, "run", lambda self, *args: plans.append(self.plan) or runs(self, *args))
    asked = 0
    while more(match, asked):
        d = match.state.pending
        if d.actor == CHANCE:
            match.chance()
        elif d.actor == 0:
            asked += len(d.actions) > 1
            match.act(agent.act(Turn(game, match.state, 0, d.actions, d.prompt, knowing.knowledge, d.kind,
                                     following)))
        else:
            match.act(d.actions[rng.randrange(len(d.actions))])
    return following, asked, plans


def test_an_ismcts_seat_searches_a_round_compiled(hearts: Any, monkeypatch: Any) -> None:
    """Seat 0 searches every decision of the first round on the compiled backend (the pass included: the cards
    passed face down are dealt again with the others), the game played by the Python backend, followed on the
    machine to the round's end."""
    game, machine = hearts
    following, asked, plans = _seat_searching(game, machine, 2, 3, monkeypatch,
                                              lambda match, asked: match.state.round_number == 1)
    assert following.broken is None
    assert asked >= 10 and len(plans) == asked, "every decision with a choice searched compiled"


def test_a_decision_it_does_not_write_is_searched_by_python_said_once(hearts: Any, monkeypatch: Any,
                                                                      capsys: Any) -> None:
    """A decision the compiled search does not write (none of the bundled games has one: here every decision of
    Hearts is said to be one) is searched on the Python backend, said once on standard error."""
    from interpreter.compiled import search as compiled_search
    from interpreter.harness import search as search_module

    monkeypatch.setattr(search_module, "_SAID", set())
    monkeypatch.setattr(compiled_search, "refusal", lambda unknown: "a part it does not write")
    game, machine = hearts
    match, knowledge, following = _followed(game, machine, 1)
    agent = IsmctsAgent(0, iterations=2, engine="compiled")
    runs = CompiledSearch.run
    monkeypatch.setattr(CompiledSearch, "run", lambda self, *a: pytest.fail("searched compiled") or runs(self, *a))
    asked = 0
    while asked < 2:
        d = match.state.pending
        if d.actor == CHANCE:
            match.chance()
            continue
        if len(d.actions) > 1:
            asked += 1
            action = agent.act(Turn(game, match.state, d.actor, d.actions, d.prompt, knowledge, d.kind, following))
            assert any(a is action for a in d.actions)
        else:
            action = d.actions[0]
        match.act(action)
    said = capsys.readouterr().err.splitlines()
    assert said == ["search: python for some decisions (the compiled search does not write a part it does not write "
                    "yet)"]


def _worked_out_decision(name: str, seed: int, what: str) -> tuple[Any, Machine, Any, Following, Unknown]:
    """A decision of a random game of ``name`` whose samples must agree with a public value worked out from hidden
    cards (``what``: "checks" only, "derived" with hidden values worked out again, "teams" with hidden teams too), the
    machine as plain Python."""
    game = game_of(name, 4)
    machine = Machine(game)
    rng = random.Random(seed)
    match, knowledge, following = _followed(game, machine, seed)
    while True:
        d = match.state.pending
        assert d is not None, "the game ended before such a decision"
        if d.actor != CHANCE and len(d.actions) > 1:
            unknown = Unknown(game, match.state, d.actor, knowledge)
            found = {"checks": not knowledge.derived, "derived": bool(knowledge.derived),
                     "teams": unknown.teams is not None,
                     # (Was sticht?'s choice of functions, once a seat has chosen one)
                     "redraws": what == "redraws" and unknown.redraws
                     and any(v is not None for v in match.state.seat_vars["chosen"])}[what]
            if (unknown.checks or what in ("teams", "redraws")) and found and refusal(unknown) is None:
                return game, machine, match, following, unknown
        if d.actor == CHANCE:
            match.chance()
        else:
            match.act(d.actions[rng.randrange(len(d.actions))])


@pytest.mark.parametrize("name, seed, what, hidden", [("was-sticht", 1, "redraws", True)])
def test_samples_worked_out_are_drawn_by_python_and_taken_as_drawn(name: str, seed: int, what: str,
                                                                    hidden: bool) -> None:
    """Where a sample draws again the choices the seat has not seen (Was sticht?'s functions, chosen by all at once)
    and the choose step draws none compiled, the compiled
    search takes the samples engine/samples.py draws, one an iteration in turn: after each, every zone holds the
    Python sample's cards and every value (the hidden ones, the hidden teams and the choices drawn again on the
    sample included) is the Python sample's."""
    from interpreter.compiled.arrays import pack_arrays
    from interpreter.compiled.search import Drawn, worked_out
    from interpreter.runtime.compact_game import compact_game
    from interpreter.runtime.layout import pack
    from interpreter.runtime.slots import Slots

    game, machine, match, following, unknown = _worked_out_decision(name, seed, what)
    assert worked_out(unknown)
    machine.redrawing = {}  # (as if its choose step drew no unseen choice again compiled: drawn in Python)
    arrays, p, _ = following.position()
    plan = sample_plan(machine, arrays, unknown, random.Random(7))
    assert isinstance(plan, Drawn) and plan.teams == (what == "teams") and bool(plan.redrawn) == (what == "redraws")
    assert bool(plan.hidden) == hidden
    d = plan.batch(3)
    module, work = machine.module, _copy(arrays)
    compact = compact_game(game)
    python = random.Random(7)
    dealt = set()
    for _ in range(2):  # (the third sample follows, then the first again)
        for _ in range(3):
            sample = unknown.sample(python)
            module.search_copy(*work, np.zeros_like(p), *arrays[:5], p)
            module.search_draw(*work, p, d, *CompiledSearch(machine).checking)
            want = pack_arrays(machine.lay, Slots.of(compact, pack(game, sample)), machine.values)
            assert [sorted(row[:n]) for row, n in zip(work.z, work.zn)] == \
                [sorted(row[:n]) for row, n in zip(want.z, want.zn)]
            assert work.v.tolist() == want.v.tolist()
            dealt.add(work.z.tobytes())
        python = random.Random(7)
    assert len(dealt) == 3, "each sample deals the cards anew"


def test_engine_compiled_plays_the_game_on_python_with_its_searches_compiled(monkeypatch, capsys) -> None:
    """``--engine compiled`` with ismcts and random seats: the game on the Python backend, the searches compiled, said
    once; its replay command asks for the same; another agent is refused as before. (The machine as plain Python.)"""
    pytest.importorskip("llvmlite")
    from interpreter.cli import main
    from interpreter.errors import TrickbookError
    from interpreter.harness.simulate import Setup, _replayed

    monkeypatch.setattr(engines, "compiled_machine", lambda game: Machine(game))
    game = game_of("whist", 4)
    said: list[str] = []
    assert engine_choice.chosen_engine("compiled", game, ["ismcts", "random"], say=said.append) == "python"
    assert said[0].startswith("engine: python, the searches compiled")
    with pytest.raises(TrickbookError, match="random and greedy agents only"):
        engine_choice.chosen_engine("compiled", game, ["ismcts", "greedy"])
    setup = Setup("whist", 4, agents=("ismcts", "random"), search="compiled")
    assert _replayed(setup, ["ismcts", "random"] * 2) == "compiled" and _replayed(setup, ["random"] * 4) == "python"
    searched = []
    runs = CompiledSearch.run
    monkeypatch.setattr(CompiledSearch, "run", lambda self, *a: searched.append(1) or runs(self, *a))
    assert main(["play", "whist", "-p", "4", "--quiet", "--agents", "ismcts,random", "--iterations", "1",
                 "--engine", "compiled"]) == 0  # (a new seed: the command that plays it again is printed)
    assert searched, "the ismcts seat searched compiled"
    again = capsys.readouterr().out.splitlines()[-1]
    assert again.endswith("--agents ismcts,random --iterations 1 --engine compiled")


def test_compiled_searches_as_plain_python_does(hearts: Any, tmp_path: Any, monkeypatch: Any) -> None:
    """The search compiled gives the visits the module run as plain Python gives, from the same seed (the compiled
    random stream is numpy's)."""
    compiled_or_skip(everywhere=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    game, plain = hearts
    fast = Machine(game, compiled=True)
    match, _, following, unknown = _banned_decision(game, plain, 4)
    arrays, p, _ = following.position()
    found = []
    for machine in (plain, fast):
        search = CompiledSearch(machine)
        search.begin((arrays, p), sample_plan(machine, arrays, unknown), 9)
        found.append(search.run(40, 0.7, -1))
    assert found[0] == found[1] and sum(found[0].values()) == 40


@pytest.mark.parametrize("name", sorted(p.stem for p in (Path(__file__).parent.parent / "games").glob("*.yaml")))
def test_the_compiled_search_writes_every_decision_of_a_bundled_game(name: str) -> None:
    """Along a random game of each bundled game (4 players where it takes them, else its fewest; at most 120
    decisions), the compiled search writes every decision with a choice: nothing is left to the Python search."""
    counts = counts_of(name)
    game = game_of(name, 4 if 4 in counts else counts[0])
    asked = 0
    for d, unknown in known_decisions(game, random.Random(1), 120):
        if len(d.actions) > 1:
            asked += 1
            assert refusal(unknown) is None, f"decision {asked}"
    assert asked >= 10


def test_a_value_drawn_that_the_module_has_no_number_for_is_not_written(monkeypatch: Any) -> None:
    """Was sticht?'s hidden colour a seat saw is a text: drawn again on a sample by the Python sampler (where the
    choices the seat has not seen are drawn again too), it is written as its number only when the compiled module's
    tables hold it (interned before the module was made); else NotWritten, and the decision goes to the Python
    search. (Worked out again compiled, a value comes from those tables.)"""
    from interpreter.compiled.search import Drawn
    from interpreter.compiled.values import NotWritten

    game, machine, match, following, unknown = _worked_out_decision("was-sticht", 0, "redraws")
    monkeypatch.setattr(machine, "redrawing", {})  # (as if its choice were not drawn again compiled)
    arrays, _, _ = following.position()
    plan = sample_plan(machine, arrays, unknown, random.Random(7))  # (choices drawn again: drawn in Python)
    assert isinstance(plan, Drawn) and ("sees_colour", 0) in plan.hidden and plan.batch(4) is not None
    monkeypatch.setattr(machine, "held", 0)  # (as if every text had been interned after the module was made)
    with pytest.raises(NotWritten, match="has no number for"):
        plan.batch(4)
