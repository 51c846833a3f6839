"""Agents on the compiled backend (interpreter/compiled/agents_template.py, trick_template_judge.py, batch.py): a
greedy seat's pick equals harness/greedy.py's GreedyAgent's on the same state, a game of greedy and random seats
played by the compiled machine is followed to the same end by the Python backend, and many games a call are the
games played one by one. The machine runs as plain Python here (compiling takes a second or more)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from interpreter.compiled.agents import greedy_refusal
from interpreter.compiled.batch import play_batch
from interpreter.compiled.machine import Machine
from interpreter.engine.state import CHANCE
from interpreter.harness.agents import Turn
from interpreter.harness.greedy import GreedyAgent, takes_pay
from interpreter.match.driver import Match
from interpreter.match.listeners import Knowing

from .compiled_steps import compiled_or_skip
from .conftest import game_of
from .test_compiled_runs import followed

JUDGED = [("hearts", 4), ("bridge", 4), ("meinz", 4), ("oh-hell", 3), ("euchre", 4), ("njet-riogrande", 4)]


def judged_decisions(machine: Machine, seed: int, most: int) -> tuple[int, int]:
    """A game played at random on both backends in lockstep (the same deals, the same actions), in which every
    decision of the first ``most`` is also put to the compiled greedy pick and to a GreedyAgent (each with its own
    random source): in a trick's play both pick the same action; elsewhere both pick at random (the compiled pick
    says -1). The plays judged, and the decisions put to both."""
    game, module, kind = machine.game, machine.module, machine.lay.layout.kind
    pays = takes_pay(game)
    rng = random.Random(seed)
    match = Match(game, seed)
    match.begin()
    knowing = Knowing(match)
    match.listen(knowing)
    arrays, p = machine.new_game()
    out = np.zeros(machine.actions, np.int64)
    judged = asked = 0
    while not match.state.finished and asked < most:
        state = match.state
        d = state.pending
        if d.actor == CHANCE:
            order = game.sample_chance(state, rng)
            match.chance(order)
            module.deal(*arrays, p, np.asarray([kind[c] for c in order], np.int64))
            continue
        n = module.legal(*arrays, p, out)
        step = state.step_index
        theirs = {machine.action_of(step, a, d.step): a for a in d.actions}
        assert sorted(out[:n].tolist()) == sorted(theirs)
        mine = module.greedy_pick(*arrays, p, out, n, int(pays))
        turn = Turn(game, state, d.actor, d.actions, d.prompt, knowing.knowledge, d.kind)
        picked = GreedyAgent(f"{seed}/{asked}").act(turn)
        asked += 1
        if d.kind == "play" and n > 1:
            assert mine >= 0, f"a trick's play not judged (step {step}, decision {asked})"
            assert int(out[mine]) == machine.action_of(step, picked, d.step), \
                f"step {step}, decision {asked}: the compiled greedy pick differs from GreedyAgent's"
            judged += 1
        elif n > 1:
            assert mine == -1, f"a decision of kind {d.kind!r} picked by the compiled greedy pick"
        action = sorted(theirs)[rng.randrange(len(theirs))]
        match.act(theirs[action])
        module.apply(*arrays, p, action)
    return judged, asked


@pytest.mark.parametrize(("name", "players"), JUDGED)
def test_a_greedy_seats_pick_is_greedy_agents_on_the_same_state(name, players):
    machine = Machine(game_of(name, players))
    assert greedy_refusal(machine.game) is None
    judged, asked = judged_decisions(machine, 3, 90)
    assert judged >= 20, (judged, asked)


def test_both_sides_of_taking_cards_are_judged_alike():
    """Oh Hell (taking tricks pays) and Hearts (it does not) were judged above; the pick turned around: Hearts'
    plays judged as if taking paid agree too (the compiled pick given the other answer, GreedyAgent told it)."""
    from interpreter.harness import greedy

    game = game_of("hearts", 4)
    assert not takes_pay(game) and takes_pay(game_of("oh-hell", 3))
    key = (game.identity, game.players, tuple(sorted(game.options.items(), key=str)))
    greedy._pays[key] = True
    try:
        judged, _ = judged_decisions(Machine(game), 5, 60)
    finally:
        del greedy._pays[key]
    assert judged >= 20


@pytest.mark.parametrize(("name", "players", "says"), [("doppelkopf", 4, "teams are hidden"),
                                                      ("was-sticht", 4, "'sees_colour'")])
def test_greedy_agents_are_not_written_where_they_read_what_a_seat_cannot_see(name, players, says):
    assert says in greedy_refusal(game_of(name, players))


@pytest.mark.parametrize(("name", "players", "lineup"), [("hearts", 4, ["greedy", "random", "greedy", "random"]),
                                                          ("oh-hell", 4, ["greedy"] * 4),
                                                          ("bridge", 4, ["random", "greedy", "random", "greedy"])])
def test_a_game_of_greedy_seats_is_followed_by_the_python_backend(name, players, lineup):
    machine = Machine(game_of(name, players))
    pays = takes_pay(machine.game)
    done = machine.play_seeded(7, traced=True, agents=lineup, pays=pays)
    out, _ = followed(machine, done.trace)
    assert (out.totals, out.winners, out.rounds) == (done.totals, done.winners, done.rounds)
    assert machine.play_seeded(7).totals != done.totals  # (the greedy seats played otherwise than random ones)


def test_many_games_a_call_are_the_games_played_one_by_one():
    machine = Machine(game_of("njet-riogrande", 4))
    lineups = [["greedy", "random", "random", "random"], ["random"] * 4, ["greedy"] * 4]
    seeds = [11, 12, 13]
    alone = [machine.play_seeded(s, agents=a) for s, a in zip(seeds, lineups)]
    assert play_batch(machine, seeds, lineups) == alone
    assert play_batch(machine, seeds[1:2]) == alone[1:2]  # (no agents: every seat random)
    assert all(g.ended for g in alone) and alone[0].totals != alone[2].totals


def test_a_batch_whose_logged_values_do_not_fit_goes_on_in_another_call(monkeypatch):
    from interpreter.compiled import batch

    machine = Machine(game_of("hearts", 4))
    calls = []
    play = machine.module.play_batch

    def counted(*args):
        calls.append(len(args[12]))
        return play(*args)

    monkeypatch.setattr(batch, "ROOM", 1)  # (room for one round of each game: a game of Hearts has more)
    monkeypatch.setattr(machine.module, "play_batch", counted)
    seeds = [1, 2, 3, 4]
    assert play_batch(machine, seeds) == [machine.play_seeded(s) for s in seeds]
    assert len(calls) > 1


def test_compiled_plays_a_batch_of_greedy_and_random_seats_as_the_plain_module():
    compiled_or_skip(everywhere=True)
    game = game_of("hearts", 4)
    lineups = [["greedy", "random", "greedy", "random"]] * 3
    plain = Machine(game)
    compiled = play_batch(Machine(game, compiled=True), [1, 2, 3], lineups, False)
    assert compiled == play_batch(plain, [1, 2, 3], lineups, False)
    assert compiled != play_batch(plain, [1, 2, 3])  # (the greedy seats played: not the random games)
