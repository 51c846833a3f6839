"""A compiled search's samples agree with what was worked out from hidden cards (engine/knowledge.py's checks),
worked out again compiled on each draw (compiled/checks_template.py, compiled/search_checks.py)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from interpreter.compiled import search as search_module
from interpreter.compiled.machine import Machine
from interpreter.compiled.search import CompiledSearch, Drawn, _spots, sample_plan
from interpreter.compiled.search_checks import checks_part, held_as_one, prefixed_steps
from interpreter.engine.card_values import renamed
from interpreter.engine.samples import Draw, Unknown, _teams_agree
from interpreter.engine.state import CHANCE
from interpreter.runtime.layout import TEAM

from .compiled_steps import compiled_or_skip
from .conftest import game_of
from .test_compiled_search import _copy, _followed, _seat_searching


def _agreeing(machine: Machine, arrays: Any, unknown: Unknown, plan: Any, draws: int) -> int:
    """How many of ``draws`` samples the compiled ``search_draw`` deals by ``plan`` agree with every check and hold
    the other seats' hidden values, as the Python sampler works them out (each card of a kind put where the compiled
    draw put that kind)."""
    kinds = machine.lay.layout.kind
    types, kind = unknown.game.value_types, kinds.__getitem__
    spots = [(r, c) for rows, cols in _spots(machine, arrays, unknown) for r, c in zip(rows, cols, strict=True)]
    checking = CompiledSearch(machine).checking
    p = np.zeros(machine.size, np.int64)  # (read by a choice drawn again only: none here)
    machine.module.seed(3)
    agreed = 0
    for _ in range(draws):
        work = _copy(arrays)
        machine.module.search_draw(*work, p, plan, *checking)
        dealt, j = [], 0
        for true, _, _ in unknown.events:
            left, cards = list(true), []
            for _ in true:
                r, c = spots[j]
                j += 1
                card = next(x for x in left if kinds[x] == work.z[r, c])
                left.remove(card)
                cards.append(card)
            dealt.append(cards)
        draw = Draw(unknown, dealt)
        again = draw.again
        hidden = unknown.hidden(draw)
        teams = unknown.teams_drawn(draw)
        agreed += all(again.result(check)[0] == check.told for check in unknown.checks) and all(
            work.v[held_as_one(machine.lay, name, s)] == machine.values.encode(renamed(types.get(name), value, kind))
            for name, values in hidden.items() for s, value in enumerate(values) if s != unknown.seat) and (
            teams is None or _teams_agree(teams, unknown.state, unknown.view)
            and [int(work.v[machine.lay.value(TEAM, "", s)]) for s in range(len(teams))] == teams)
    return agreed


def _constraining(name: str, seed: int, draws: int, decides: bool = True
                  ) -> tuple[Machine, Any, Any, Unknown, Any, Any]:
    """The first decision of a random game of ``name`` whose checks or hidden values some sample dealt without them
    fails (the checks disagree, or the hidden values are the true ones where the cards give others): the machine
    (plain Python), the decision's arrays and progress, what its seat does not know, its plan and the plan without
    them. Where not ``decides``: the first decision with checks or hidden values."""
    game = game_of(name, 4)
    machine = Machine(game)
    match, knowledge, following = _followed(game, machine, seed)
    rng = random.Random(seed)
    while match.state.pending is not None:
        d = match.state.pending
        if d.actor != CHANCE and len(d.actions) > 1:
            unknown = Unknown(game, match.state, d.actor, knowledge)
            if (unknown.checks or knowledge.derived and unknown.events or unknown.teams is not None) \
                    and not unknown.redraws:
                arrays, p, _ = following.position()
                plan = sample_plan(machine, arrays, unknown)
                assert isinstance(plan, np.ndarray), "a plan the compiled search draws by, not samples Python drew"
                part = checks_part(machine, unknown, _spots(machine, arrays, unknown))
                assert part is not None and part[0] >= len(unknown.checks)
                bare = np.asarray([*plan[:len(plan) - len(part) - 2], 0, -1, 0], np.int64)  # (no runs, no redraw)
                if not decides or _agreeing(machine, arrays, unknown, bare, draws) < draws:
                    return machine, arrays, p, unknown, plan, bare
        if d.actor == CHANCE:
            match.chance()
        else:
            match.act(d.actions[rng.randrange(len(d.actions))])
    raise AssertionError("no decision whose checks or hidden values a sample dealt without them fails")


@pytest.mark.parametrize(("name", "seed", "draws"), [("tichu", 0, 12), ("french-tarot", 0, 24), ("belote", 0, 12),
                                                     ("was-sticht", 0, 12), ("schafkopf", 0, 12),
                                                     ("doppelkopf", 4, 12)])
def test_compiled_samples_agree_with_the_checks(name: str, seed: int, draws: int) -> None:
    """Who leads tells who holds the Mah Jong (Tichu); whether a hand holds the Petit alone is told (French Tarot);
    each seat knows whether it holds the belote (Belote), the colour and number it saw, which its hints follow (Was
    sticht?); the caller's partner holds the called ace (Schafkopf), the parties hold the queens of clubs
    (Doppelkopf), hidden teams: every sample the compiled search deals tells the same, holds the other seats'
    hidden values and the teams as its cards give them, agreeing with every team the seat knows, where samples dealt
    without the checks do not."""
    machine, arrays, _, unknown, plan, bare = _constraining(name, seed, draws)
    assert _agreeing(machine, arrays, unknown, plan, draws) == draws
    assert _agreeing(machine, arrays, unknown, bare, draws) < draws  # (found so: the checks decide it)


def test_hidden_values_no_card_decides_are_worked_out_compiled_too() -> None:
    """Doppelkopf's parties (whether a seat is Re) are hidden values its set step works out from what each seat
    was told, not from cards: worked out again compiled on each sample all the same (at a decision whose teams are
    not hidden from the seat: those go to the Python sampler)."""
    machine, arrays, _, unknown, plan, _ = _constraining("doppelkopf", 0, 12, decides=False)
    assert unknown.knowledge.derived and _agreeing(machine, arrays, unknown, plan, 12) == 12


def test_choices_a_seat_has_not_seen_are_drawn_again_compiled() -> None:
    """Was sticht?'s functions are chosen by all at once, in secret: a sample draws again the choice of every seat
    that chose before the seat asked, as the Python sampler does (the same functions, each about as often), the
    seat's own left as it is."""
    from .test_compiled_search import _worked_out_decision

    game, machine, _, following, unknown = _worked_out_decision("was-sticht", 1, "redraws")
    arrays, p, _ = following.position()
    plan = sample_plan(machine, arrays, unknown)
    assert isinstance(plan, np.ndarray) and list(plan[-2:]) == [0, unknown.seat]
    lay, kind, t = machine.lay, machine.lay.layout.kind.__getitem__, game.value_types.get("chosen")
    chosen = [held_as_one(lay, "chosen", s) for s in range(game.players)]
    checking = CompiledSearch(machine).checking
    machine.module.seed(5)
    rng = random.Random(5)
    compiled: dict[int, Counter[int]] = {s: Counter() for s in range(game.players)}
    python: dict[int, Counter[int]] = {s: Counter() for s in range(game.players)}
    for _ in range(200):
        work = _copy(arrays)
        machine.module.search_draw(*work, p, plan, *checking)
        sample = unknown.sample(rng)
        for s in range(game.players):
            compiled[s][int(work.v[chosen[s]])] += 1
            python[s][machine.values.encode(renamed(t, sample.seat_vars["chosen"][s], kind))] += 1
    drawn = [s for s in range(game.players) if len(python[s]) > 1]
    assert drawn and unknown.seat not in drawn, "another seat's choice drawn again"
    assert all(set(compiled[s]) == set(python[s]) for s in range(game.players))
    assert all(min(compiled[s].values()) > 200 / len(compiled[s]) / 2 for s in drawn)  # (each about as often)
    assert compiled[unknown.seat] == Counter({int(arrays.v[chosen[unknown.seat]]): 200})


def test_set_steps_name_the_steps_a_check_can_be_as_the_module_does() -> None:
    game = game_of("tichu", 4)
    found = dict((step.name, prefix) for step, prefix in prefixed_steps(game))
    assert found["play_begin"] == "s11i0" and found["wished"] == "s11i7"
    machine = Machine(game)
    assert all(f"def {prefix}_start(" in machine.source for prefix in found.values())
    assert len(machine.checked) == len(found)


def test_a_check_that_reads_a_value_naming_an_unknown_card_is_drawn_by_python(monkeypatch: Any) -> None:
    """A check whose step read a value naming an unknown card by its id (which the arrays would not rename): its
    samples drawn by the Python sampler, as before; a value it read that names none is no matter."""
    machine, arrays, _, unknown, _, _ = _constraining("tichu", 0, 12)
    check = unknown.checks[0]
    monkeypatch.setattr(check, "reads", check.reads | {("round", "play")})
    assert isinstance(sample_plan(machine, arrays, unknown), np.ndarray)
    monkeypatch.setitem(check.before.vars, "play", [unknown.events[0][0][0]])
    assert isinstance(sample_plan(machine, arrays, unknown), Drawn)


def test_an_ismcts_seat_searches_tichu_with_its_checks_compiled(monkeypatch: Any) -> None:
    """Seat 0 plays Tichu with ismcts: every decision with a choice is searched by samples the compiled search deals,
    those that must agree with a check among them (none drawn by Python)."""
    game = game_of("tichu", 4)
    found: list[Any] = []
    part = search_module.checks_part
    monkeypatch.setattr(search_module, "checks_part", lambda *a: found.append(part(*a)) or found[-1])
    following, asked, plans = _seat_searching(game, Machine(game), 3, 1, monkeypatch, lambda match, asked: asked < 6)
    assert following.broken is None and len(plans) == asked
    assert not any(isinstance(plan, Drawn) for plan in plans) and found and all(p is not None for p in found)


@pytest.mark.parametrize(("name", "draws"), [("french-tarot", 24), ("tichu", 12), ("belote", 12), ("was-sticht", 12),
                                            ("schafkopf", 12)])
def test_compiled_agrees_with_plain_python_on_the_checks(name: str, draws: int, tmp_path: Any,
                                                         monkeypatch: Any) -> None:
    """The search compiled gives the visits the module run as plain Python gives, at a decision whose
    samples must agree with a check or work hidden values out again."""
    compiled_or_skip(everywhere=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    plain, arrays, p, unknown, plan, _ = _constraining(name, 0, draws)
    fast = Machine(plain.game, compiled=True)
    found = []
    for machine in (plain, fast):
        search = CompiledSearch(machine)
        search.begin((arrays, p), plan.copy(), 9)
        found.append(search.run(30, 0.7, -1))
    assert found[0] == found[1] and sum(found[0].values()) == 30


def test_compiled_draws_the_unseen_choices_again_as_plain_python_does(tmp_path: Any, monkeypatch: Any) -> None:
    """At a decision of Was sticht? whose samples draw the other seats' secret choices again, the compiled search gives
    the plain Python module's visits."""
    from .test_compiled_search import _worked_out_decision

    compiled_or_skip(everywhere=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    game, plain, _, following, unknown = _worked_out_decision("was-sticht", 1, "redraws")
    arrays, p, _ = following.position()
    plan = sample_plan(plain, arrays, unknown)
    found = []
    for machine in (plain, Machine(game, compiled=True)):
        search = CompiledSearch(machine)
        search.begin((arrays, p), plan.copy(), 9)
        found.append(search.run(30, 0.7, -1))
    assert found[0] == found[1] and sum(found[0].values()) == 30
