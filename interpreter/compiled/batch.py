"""Many games in one call of the compiled backend (agents_template.py's ``play_batch``): each from its own seed of
the compiled random stream, so that a game is the same whichever batch, worker or ``Machine.play_seeded`` plays it, its
results written by the compiled code into arrays made here once for the batch."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from interpreter.compiled.agents import agent_codes
from interpreter.compiled.arrays import Arrays
from interpreter.compiled.machine import Finished, Machine

ROOM = 16  # logged rounds' values first given room for per game (a call stops early, and another goes on, when full)


def play_batch(machine: Machine, seeds: Sequence[int], agents: Sequence[Sequence[str]] = (),
               pays: bool = True) -> list[Finished]:
    """The games of ``seeds`` (each the seed of its random stream), played by ``agents`` (per game, one per seat;
    none: every seat random; ``pays`` as ``Machine.play_seeded`` takes it), in as few calls as their logged round
    values allow (usually one); each game as ``Machine.play_seeded`` gives it (no draws kept). An error of one game
    (its end never held, an automatic seat without an action) is raised naming its seed."""
    games, players, logged = len(seeds), machine.game.players, len(machine.logged)
    if not games:
        return []
    box = machine.box()
    work = Arrays(*(a.copy() for a in box))
    p = np.zeros(machine.size, np.int64)
    streams = np.asarray(seeds, np.int64)
    codes = np.asarray([agent_codes(list(a)) for a in agents] if agents else [[]] * games, np.int64)
    if codes.shape[1:] != (players,) and codes.size:
        raise ValueError(f"one agent per seat ({players}) for each game")
    codes = codes.reshape(games, -1)
    totals, eligible = np.zeros((games, players), np.int64), np.zeros((games, players), np.int64)
    rounds, status, ended = np.zeros(games, np.int64), np.zeros(games, np.int64), np.zeros(games, np.int64)
    room = max(1, games * logged * ROOM)
    out: list[Finished] = []
    while len(out) < games:
        at = len(out)
        ends = np.zeros(room, np.int64)
        got = int(machine.module.play_batch(*box[:5], work.h, *work[:5], p, streams[at:], codes[at:], int(pays),
                                            totals[at:], eligible[at:], rounds[at:], status[at:], ends, ended[at:]))
        first = 0
        for g in range(at, at + got):
            n = int(ended[g]) * logged
            out.append(machine.finished(int(streams[g]), int(status[g]), totals[g].tolist(),
                                        [bool(x) for x in eligible[g]], int(rounds[g]), int(ended[g]),
                                        ends[first:first + n].tolist(), []))
            first += n
        if got == 0:
            room *= 4  # (the first game's logged values did not fit)
    return out
