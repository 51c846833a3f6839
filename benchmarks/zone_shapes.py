"""Two shapes of a hand for the trick loop, measured on one loop written both ways (a sketch, not the engine).

docs/architecture.md ("The compact state"): a zone held as a list of card kinds in today's order, or as its kinds
once each in the order of their first copies with a count per kind. The loop is the shape of the trick loop the
engine writes for the slots (a 60-card deck of 40 kinds dealt 15 to each of 4 seats, follow the led colour if you
can, a strength table per led colour, the winner leads), random plays drawn as the engine draws them
(``int(random() * len(actions))``). The script first checks that both shapes play the same cards in 500 games from
the same seeds (a play takes the last copy of its kind; identical cards are offered once, by their first copy),
then times 900 rounds of trick play on each, interleaved, in CPU time:

    python benchmarks/zone_shapes.py [--runs 7]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

CARDS = 60
NUMBERS = (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 8, 9)
COLOUR = [i // 15 for i in range(CARDS)]
NUMBER = [NUMBERS[i % 15] for i in range(CARDS)]
KIND = [next(j for j in range(CARDS) if (COLOUR[j], NUMBER[j]) == (COLOUR[i], NUMBER[i])) for i in range(CARDS)]
FOLLOWS = [[COLOUR[c] == led for c in range(CARDS)] for led in range(4)]
STRENGTH = [[(COLOUR[c] == 1) * 100 + (COLOUR[c] == led) * 10 + NUMBER[c] for c in range(CARDS)] for led in range(4)]
NEXT = [1, 2, 3, 0]


def deal(rng: random.Random) -> list[list[int]]:
    deck = list(range(CARDS))
    rng.shuffle(deck)
    return [[KIND[c] for c in deck[s * 15:(s + 1) * 15]] for s in range(4)]


def winner_of(plays: list[tuple[int, int]]) -> int:
    values = STRENGTH[COLOUR[plays[0][1]]]
    best, winner = -1, 0
    for s, c in plays:
        if values[c] >= best:
            best, winner = values[c], s
    return winner


def as_lists(hands: list[list[int]], random: Callable[[], float], log: list[int] | None = None) -> int:
    """Hands as lists of kinds in today's order (the engine's slots today)."""
    seat, plays, tricks, follows = 0, [], 0, FOLLOWS[0]
    hand = hands[0]
    actions = list(dict.fromkeys(hand))
    while True:
        card = actions[int(random() * len(actions))]
        hand.reverse()  # the last copy of the kind leaves
        hand.remove(card)
        hand.reverse()
        plays.append((seat, card))
        if log is not None:
            log.append(card)
        if len(plays) == 1:
            follows = FOLLOWS[COLOUR[card]]
        if len(plays) < 4:
            seat = NEXT[seat]
        else:
            seat, plays, tricks = winner_of(plays), [], tricks + 1
            if not all(hands):
                return tricks
        hand = hands[seat]
        if plays:
            actions = list({c: None for c in hand if follows[c]}) or list(dict.fromkeys(hand))
        else:
            actions = list(dict.fromkeys(hand))


def as_counts(hands: list[list[int]], random: Callable[[], float], log: list[int] | None = None) -> int:
    """Hands as their kinds once each in the order of their first copies, with a count per kind."""
    kinds_of = [list(dict.fromkeys(h)) for h in hands]
    counts_of = [[0] * CARDS for _ in hands]
    for s, h in enumerate(hands):
        for c in h:
            counts_of[s][c] += 1
    seat, plays, tricks, follows = 0, [], 0, FOLLOWS[0]
    kinds, counts = kinds_of[0], counts_of[0]
    actions = kinds
    while True:
        card = actions[int(random() * len(actions))]
        left = counts[card] - 1
        counts[card] = left
        if not left:
            kinds.remove(card)
        plays.append((seat, card))
        if log is not None:
            log.append(card)
        if len(plays) == 1:
            follows = FOLLOWS[COLOUR[card]]
        if len(plays) < 4:
            seat = NEXT[seat]
        else:
            seat, plays, tricks = winner_of(plays), [], tricks + 1
            if not kinds_of[0]:
                return tricks
        kinds, counts = kinds_of[seat], counts_of[seat]
        actions = ([c for c in kinds if follows[c]] or kinds) if plays else kinds


def same_games(games: int = 500) -> None:
    for seed in range(games):
        logs: list[list[int]] = [[], []]
        for shape, log in zip((as_lists, as_counts), logs):
            shape(deal(random.Random(seed)), random.Random(seed + 1).random, log)
        if logs[0] != logs[1]:
            raise SystemExit(f"the two shapes played different cards in game {seed}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    same_games()
    print("both shapes play the same cards in 500 games")
    deals = [deal(random.Random(seed)) for seed in range(300)]
    times: dict[str, list[float]] = {"lists": [], "counts": []}
    shapes = {"lists": as_lists, "counts": as_counts}
    for run in range(args.runs):
        for name in (("lists", "counts") if run % 2 else ("counts", "lists")):
            rnd = random.Random(run).random
            start = time.process_time()
            for _ in range(3):
                for d in deals:
                    shapes[name]([list(h) for h in d], rnd)
            times[name].append((time.process_time() - start) / (3 * len(deals)) * 1e6)
    ratios = sorted(a / b for a, b in zip(times["lists"], times["counts"]))
    for name, got in times.items():
        got.sort()
        print(f"{name}: {got[len(got) // 2]:.1f} us for a round's 15 tricks ({got[0]:.1f}-{got[-1]:.1f})")
    print(f"counts as fast as lists x{ratios[len(ratios) // 2]:.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})")


if __name__ == "__main__":
    main()
