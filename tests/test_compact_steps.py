"""The code written for the compact layout (the module runtime/compact_game.py writes for the slots), step by step:
each step of every bundled game, run at every decision of a random game on today's state and on its slots (each by
itself, then the steps one after the other as a round runs them; each decision at the deciding step and at the
round's step that runs it), leaves the same slots, progress and next decision (or fails on both). The same writer
writes both codes (the step kind's, over engine/state_shape.py's parts)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from interpreter.dsl.compiler import RUNTIME_ERRORS
from interpreter.engine.state import CHANCE, Decision
from interpreter.engine.steps.action_types import Choice, Play, Take
from interpreter.engine.steps.running import running
from interpreter.engine.steps.steps_code import InPlace
from interpreter.errors import GameError
from interpreter.runtime.compact_game import compact_game
from interpreter.runtime.counted import Counted
from interpreter.runtime.layout import Layout, layout, pack
from interpreter.runtime.slots import Slots

from .conftest import GAMES, SHORTER, counts_of, game_of, take_random
from .test_compact_reads import as_kinds

# every bundled game at its fewest players (tests/test_compact_game.py plays every player count on the slots)
CASES = [(path.stem, min(counts_of(path))) for path in GAMES]
DECISIONS = 200  # a round and more of most games


def run(start: Any, *args: Any) -> str | None:
    """None when ``start`` did its work, else the kind of error it met."""
    return outcome(start, *args)[0]


def outcome(start: Any, *args: Any) -> tuple[str | None, Any]:
    """(None, what ``start`` gave), or (the kind of error it met, None)."""
    try:
        return None, start(*args)
    except (*RUNTIME_ERRORS, GameError) as exc:
        return type(exc).__name__, None


def bound(step: Any, state: Any, kind: tuple[int, ...]) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The names the step holding ``step`` binds now (None: none, or it binds none now), as they are and their cards
    as kinds."""
    if not step.bound:
        return None, None
    try:
        names = step.env(state)
    except (*RUNTIME_ERRORS, GameError, AttributeError):
        return None, None
    return names, {k: as_kinds(v, step.bound[k], kind) if k in step.bound else v for k, v in names.items()}


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_step_written_for_the_slots_does_what_it_does_on_the_state(name, players):
    game = game_of(name, players, **SHORTER.get(name, {}))
    code = compacted(game)
    steps = [s for s in game.every_step() if code.written(s) and isinstance(s, InPlace)]
    if not steps:
        pytest.skip("no step of the kinds written for the slots")
    lay = layout(game)
    rng = random.Random(players)
    state = game.new_state()
    ran, tried = 0, set()
    for _ in range(DECISIONS):
        if state.finished:
            break
        for chained in (False, True):  # each step by itself; then one after the other (a score reads what a set set)
            today = state.clone()
            slots = Slots.of(code.game, pack(game, today))
            for step in steps:
                names, kinds = bound(step, today, lay.kind)
                if step.bound and names is None:
                    continue
                failed = run(step.start, game, today)
                assert run(code.code(step), game, slots, kinds) == failed, f"{step.where}: {step.kind}"
                after = pack(game, today)
                if failed is None:
                    assert held(slots) == as_held(lay, after.zones), f"{step.where}: {step.kind}: the zones"
                    assert slots.v == after.values, f"{step.where}: {step.kind}: the values"
                    ran += 1
                    tried.add(step)
                if not chained:
                    today = state.clone()
                    after = pack(game, today)
                slots = Slots.of(code.game, after)  # the same again, whatever a failure left
        take_random(game, state, rng)
    assert ran > 0
    # every kind ran; all but two steps at most (tichu's climb holds a step for a trick no one can beat)
    assert {s.kind for s in tried} == {s.kind for s in steps}
    assert len(tried) >= len(steps) - 2, [f"{s.where}: {s.kind}" for s in steps if s not in tried]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_decision_of_a_kind_written_for_the_slots_is_taken_there_as_on_the_state(name, players):
    """At each decision of such a step: its start (from the state as it is), then the action taken, give the same
    slots, progress and next decision on both."""
    game = game_of(name, players, **SHORTER.get(name, {}))
    lay, code = layout(game), compacted(game)
    if not any(code.written(s) and not isinstance(s, InPlace) for s in game.every_step()):
        pytest.skip("no step with decisions written for the slots")
    rng = random.Random(players)
    state = game.new_state()
    taken = started = 0
    while not state.finished and taken < DECISIONS:
        d = state.pending
        chance = d.actor == CHANCE
        action = game.sample_chance(state, rng) if chance else d.actions[rng.randrange(len(d.actions))]
        levels = running(game.steps, state.step_index, state.progress)
        # the step whose decision it is, and the round's step that runs it (a trick, a repeat): each takes it
        for level in {0, len(levels) - 1}:
            step = levels[level][0]
            if not code.written(step) or any(not code.written(s) for s in step.inner_steps()):
                continue
            today, packed = state.clone(), pack(game, state)
            slots = Slots.of(code.game, packed)
            o = bound(step, today, lay.kind)[1]
            for begin in (False, True):  # the action taken where the step stands, then the step started afresh
                if begin:  # (from where the game is, the step may fail to start: on both, then)
                    failed, mine = outcome(step.start, game, today)
                    there, theirs = outcome(code.code(step).start, slots, o)
                    assert there == failed, (step.where, "start")
                    if failed:
                        continue
                    started += 1
                else:
                    mine = running(game.steps, today.step_index, today.progress)[level][1]
                    theirs = running(game.steps, packed.rest[0], packed.rest[1])[level][1]
                    step.apply(game, today, mine, action)
                    code.code(step).apply(slots, theirs, action if chance else kinds_of(action, levels[-1][0],
                                                                                        lay.kind, chance), o)
                    taken += 1
                assert progress_of(theirs, step, lay.kind) == progress_of(mine, step, lay.kind), step.where
                after = pack(game, today)
                assert (held(slots), plain(slots.v)) == (as_held(lay, after.zones), plain(after.values)), (
                    step.where, begin, action)
                if mine is None:  # started with nothing to decide
                    continue
                made, there = step.decision(game, today, mine), code.code(step).decision(slots, theirs, o)
                asker = step if made is None else made.step  # (a trick's decision may be a step's it runs)
                assert decided(there, asker, lay.kind, chance) == decided(made, asker, lay.kind, chance), step.where
        if chance:
            game.apply_chance(state, action)
        else:
            game.apply(state, action)
    assert taken and started


def progress_of(p: Any, step: Any, kind: tuple[int, ...]) -> dict[str, Any] | None:
    """A step's progress as plain fields, its cards as kinds (what a choice picked)."""
    if p is None:
        return None
    out = {a: getattr(p, a) for a in type(p).__slots__}
    running_ = out.get("running")
    if running_ is not None:  # a repeat's: the nested step running, as a trick's hook
        out["hook"], out["running"] = running_, None
    if "picked" in out:
        t = step.option_type
        out["picked"] = [as_kinds(v, t, kind) for v in out["picked"]]
        out["history"] = [{**h, "value": as_kinds(h["value"], t, kind)} for h in out["history"]]
    for name in ("plays", "last"):  # a trick's (seat, card) pairs
        if name in out:
            out[name] = [(s, kind[c]) for s, c in out[name]]
    hook = out.get("hook")
    if hook is not None:  # the steps a trick runs: the one running, its progress and decision
        inner = hook.steps[hook.index]
        d = hook.d
        d = (d.actor, d.actions) if isinstance(d, Decision) else d
        out["hook"] = (hook.index, progress_of(hook.p, inner, kind), decided(d, inner, kind, False))
    return out


def decided(d: Any, step: Any, kind: tuple[int, ...], chance: bool) -> Any:
    """A decision as (the seat to act, its actions), their cards as kinds (lists, not tuples)."""
    if isinstance(d, Decision):
        d = (d.actor, d.actions)
    return None if d is None else (d[0], [kinds_of(a, step, kind, chance) for a in d[1]])


def kinds_of(action: Any, step: Any, kind: tuple[int, ...], chance: bool) -> Any:
    """An action (chance's: the cards dealt) with its cards as their kinds."""
    if chance:
        return [kind[c] for c in action]
    if isinstance(action, Choice):
        return action._replace(value=as_kinds(action.value, step.option_type, kind))
    if isinstance(action, (Play, Take)):
        return action._replace(card=kind[action.card])
    return action


def held(slots: Any) -> list[list[int]]:
    """The zones of ``slots`` as lists of kinds (a zone held by count: its copies, runtime/counted.py)."""
    return [list(cards.copies()) if isinstance(cards, Counted) else list(cards) for cards in slots.z]


def as_held(lay: Layout, zones: list[list[int]]) -> list[list[int]]:
    """The packed zones of today's state as the slots hold them: a zone the layout holds by count has its copies
    grouped at their kind's first copy (the same cards and the same order of first copies, the only order such a
    zone keeps: docs/architecture.md, "Zones keep their order"); every other zone as it is."""
    return [[k for k in dict.fromkeys(cards) for _ in range(cards.count(k))] if slot in lay.counts else list(cards)
            for slot, cards in enumerate(zones)]


def plain(value: Any) -> Any:
    """``value`` with its tuples as lists (a list an expression makes is a tuple; packed, a list; a zone held by count:
    its copies)."""
    if isinstance(value, Counted):
        return list(value.copies())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


class compacted:  # noqa: N801 - read as a function
    """A game's code written for the slots (runtime/compact_game.py's module), step by step: ``written(step)``,
    ``code(step)``, and ``game``, the game a Slots of it names."""

    def __init__(self, game: Any):
        made = compact_game(game)
        assert made is not None, "every bundled game plays on the slots"
        self.game = made
        module = made.module()
        self.written, self.code = module.has, module.code
