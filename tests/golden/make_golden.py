"""Write golden records: seeded games per bundled game, player count and kind of agent.

The records in this folder were written once, by the engine of the day, and are
kept as regression tests (tests/test_golden.py replays every one, and plays the
newer ones again from their seed and agents). Do not regenerate the existing files
to make a failing test pass: a difference is a change in how a game plays. Add
records for a new game (or a player count it newly supports) with

    python tests/golden/make_golden.py GAME [GAME ...]

Two sets:

* ``GAME-Np-K.jsonl`` (K = 1..3), the first set: random agents, seeds ``golden/K``,
  written before the rule files were rewritten on the general steps (replayed with
  the allowances tests/test_golden.py lists);
* ``GAME-Np-AGENT-K.jsonl.gz`` (K = 1..10, AGENT random or greedy), written before
  the engine became one generated state machine (issue 20): seeds ``golden2/K``,
  every seat played by AGENT seeded from the game's seed. Gzipped: 580 records of
  whole games are 30 MB of JSON.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

from interpreter.engine.compile import compile_game, supported_players
from interpreter.harness.players import agent_factory
from interpreter.harness.runner import play_game
from interpreter.match.records import write_record
from interpreter.rules.loader import load_rules

HERE = Path(__file__).resolve().parent
FIRST_SEEDS = ("golden/1", "golden/2", "golden/3")
AGENT_KINDS = ("random", "greedy")
# games recorded with shorter settings than their defaults, so that the suite replays them quickly: a series of
# Skat (36 or 48 deals) or a game of Tichu to 1,000 (its decisions cost a hundred times more than most games')
# is as long as thirty games of another; Schafkopf one deal by each player, not two; a deal of President asks some
# seventy decisions; French Tarot 1 deal, 72 cards; the records name their options, and are played again with them
OPTIONS: dict[str, dict[str, object]] = {"skat": {"deals": 12}, "tichu": {"target": 500}, "schafkopf": {"deals": 4},
                                         "president": {"deals": 2}, "french-tarot": {"deals": 1}}
SEEDS = tuple(f"golden2/{k}" for k in range(1, 11))


def golden_name(game: str, players: int, agent: str, k: int) -> str:
    return f"{game}-{players}p-{agent}-{k}.jsonl.gz"


def play(game, seed: str, agent: str):
    """The game played from ``seed`` with ``agent`` at every seat, recorded: the way both writing and the test
    that plays it again make it."""
    agents = agent_factory([agent] * game.player_count)(seed)
    return play_game(game, agents, seed=seed, record=True)


def main(names: list[str]) -> None:
    for name in names:
        source = load_rules(name)
        for players in supported_players(source):
            game = compile_game(source, players, dict(OPTIONS.get(name, {})))
            for k, seed in enumerate(FIRST_SEEDS, 1):
                path = HERE / f"{game.name}-{players}p-{k}.jsonl"
                if not path.exists():
                    out = play_game(game, seed=seed, record=True)
                    write_record(path, out.record)
                    print(f"{path.name}: {out.rounds} rounds, totals {out.totals}")
            for agent in AGENT_KINDS:
                for k, seed in enumerate(SEEDS, 1):
                    path = HERE / golden_name(game.name, players, agent, k)
                    if path.exists():
                        continue
                    out = play(game, seed, agent)
                    plain = path.with_suffix("")  # write_record writes JSON Lines; kept gzipped (mtime 0: the same
                    write_record(plain, out.record)  # bytes for the same record)
                    with open(path, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as z:
                        z.write(plain.read_bytes())
                    plain.unlink()
                    print(f"{path.name}: {out.rounds} rounds, totals {out.totals}")


if __name__ == "__main__":
    main(sys.argv[1:])
