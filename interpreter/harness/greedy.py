"""A heuristic player for any rule file: win a trick cheaply when taking cards pays, duck otherwise.

Whether taking cards pays is measured once per game (rules, player count and options) from random rounds:
the cards a seat took against its score for the round. In a trick the player judges each card it may play by
the game's own winner ordering (``Step.judge``) on a state sampled from what it knows: of the cards that
would put its side ahead, it plays the weakest; with none, or when it ducks, it throws its weakest card (when
ducking, the strongest card that still loses). Every other decision is random.
"""

from __future__ import annotations

import random
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.steps.running import running

ROUNDS = 40  # random rounds that decide whether taking cards pays in a game
_pays: dict[tuple[str, int, tuple], bool] = {}


class GreedyAgent:
    samples = True

    def __init__(self, seed: Any = None):
        self.rng = random.Random(seed)

    def act(self, turn: Any) -> Any:
        legal = turn.legal
        if len(legal) == 1:
            return legal[0]
        game, seat = turn.game, turn.seat
        if turn.kind != "play":
            return legal[self.rng.randrange(len(legal))]
        sample = turn.sample(self.rng)
        step, p = running(game.steps, sample.step_index, sample.progress)[-1]  # the step deciding now
        maybe = [step.search.judge(game, sample, p, a) for a in legal]
        judged = [j for j in maybe if j is not None]
        if len(judged) < len(legal):
            return legal[self.rng.randrange(len(legal))]
        ahead = [sample.same_team(winner, seat) if winner is not None else False for winner, _ in judged]
        order = sorted(range(len(legal)), key=lambda i: judged[i][1])  # weakest first
        if takes_pay(game):
            winning = [i for i in order if ahead[i]]
            return legal[winning[0] if winning else order[0]]
        losing = [i for i in order if not ahead[i]]
        return legal[losing[-1] if losing else order[-1]]


def takes_pay(game: Game) -> bool:
    """Whether, in random play of this game, the seats that took more cards in a round scored better."""
    key = (game.identity, game.players, tuple(sorted(game.options.items(), key=str)))
    if key not in _pays:
        _pays[key] = _measure(game)
    return _pays[key]


def _measure(game: Game) -> bool:
    zones = sorted({z for step in game.every_step() for z in step.search.won_zones()})
    # seeded by the game and its setting, not its identity: a change that is not a rule (a comment, a status line,
    # the words of a score line) must not change how the agent plays
    rng = random.Random(f"greedy/{game.name}/{game.players}/{sorted(game.options.items(), key=str)}")
    sign = 1 if game.flow.higher_wins else -1
    pairs: list[tuple[int, float]] = []
    state = game.new_state()
    for _ in range(ROUNDS):
        if state.finished:
            state = game.new_state()
        rounds = len(state.round_results)
        game.playout(state, rng, round_end=True)
        if len(state.round_results) <= rounds:
            continue
        scores = state.round_results[rounds]
        mean = sum(scores) / len(scores)
        for s, score in enumerate(scores):
            taken = sum(len(state.per_seat[z][s]) for z in zones)
            pairs.append((taken, sign * (score - mean)))
    if not pairs:
        return True
    mx = sum(t for t, _ in pairs) / len(pairs)
    return sum((t - mx) * r for t, r in pairs) >= 0
