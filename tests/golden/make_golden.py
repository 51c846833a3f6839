"""Write golden records: a few seeded games per bundled game and player count.

The records in this folder were written once, by the engine of the day, and are
kept as regression tests (tests/test_golden.py replays every one). Do not
regenerate the existing files to make a failing replay pass: a difference is a
change in how a game plays. Add records for a new game with

    python tests/golden/make_golden.py GAME [GAME ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from interpreter.engine.compile import compile_game, supported_players
from interpreter.harness.records import write_record
from interpreter.harness.runner import play_game
from interpreter.rules.loader import load_rules

SEEDS = ("golden/1", "golden/2", "golden/3")
HERE = Path(__file__).resolve().parent


def main(names: list[str]) -> None:
    for name in names:
        source = load_rules(name)
        for players in supported_players(source):
            game = compile_game(source, players)
            for i, seed in enumerate(SEEDS, 1):
                out = play_game(game, seed=seed, record=True)
                path = HERE / f"{game.name}-{players}p-{i}.jsonl"
                if path.exists():
                    print(f"{path.name}: exists, left as it is")
                    continue
                write_record(path, out.record)
                print(f"{path.name}: {out.rounds} rounds, totals {out.totals}")


if __name__ == "__main__":
    main(sys.argv[1:])
