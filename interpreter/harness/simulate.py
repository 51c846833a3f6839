"""Many games with random bots, summarised per seat."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.engine.game import Game
from interpreter.harness.runner import play_game


@dataclass
class Summary:
    game: str
    players: int
    games: int
    seed: Any
    options: dict[str, Any]
    seats: list[str]
    mean_total: list[float]
    win_share: list[float]  # a shared win counts 1/k for each of k winners
    mean_rounds: float

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
            "options": self.options,
            "mean_total": {s: round(v, 4) for s, v in zip(self.seats, self.mean_total)},
            "win_share": {s: round(v, 4) for s, v in zip(self.seats, self.win_share)},
            "mean_rounds": round(self.mean_rounds, 4),
        }

    def as_text(self) -> str:
        lines = [f"{self.game}, {self.players} players, {self.games} games, seed {self.seed}"
                 + (f", options {self.options}" if self.options else ""),
                 f"{'seat':<12} {'mean score':>11} {'win share':>10}"]
        for s, m, w in zip(self.seats, self.mean_total, self.win_share):
            lines.append(f"{s:<12} {m:>11.2f} {w:>10.1%}")
        lines.append(f"mean rounds per game: {self.mean_rounds:.2f}")
        return "\n".join(lines)


def game_seed(seed: Any, index: int) -> str:
    """The seed of game ``index`` in a simulation: replay one with ``play --seed``."""
    return f"{seed}/{index}"


def simulate(game: Game, games: int, seed: Any = 0,
             progress: Callable[[int, int], None] | None = None) -> Summary:
    n = game.players
    totals = [0.0] * n
    wins = [0.0] * n
    rounds = 0
    for i in range(games):
        out = play_game(game, seed=game_seed(seed, i))
        for s in range(n):
            totals[s] += out.totals[s]
        for s in out.winners:
            wins[s] += 1 / len(out.winners)
        rounds += out.rounds
        if progress is not None:
            progress(i + 1, games)
    k = max(games, 1)
    return Summary(game.name, game.player_count, games, seed, dict(game.options), list(game.seat_names),
                   [t / k for t in totals], [w / k for w in wins], rounds / k)
