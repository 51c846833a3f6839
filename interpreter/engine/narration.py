"""What the written code tells the narration as it goes, each a function over the values it needs (so that the code
calls no step for it). Narration is told only over today's state (``state.note``; a state held another way writes
none of it, see StateShape.edges), and only while someone listens (``state.notes``)."""

from __future__ import annotations

from typing import Any


def tell_seat(state: Any, seat: int, text: str) -> None:
    """What ``seat`` did, told after its name ("N passes")."""
    if text:
        state.note(f"{state.game.seat_names[seat]} {text}")


def tell_scores(state: Any, scores: list[int], why: list[str]) -> None:
    """The round's scores and totals, with where each seat's points came from (``why``: empty when not said)."""
    names = state.game.seat_names
    state.note(f"Round {state.round_number} scores: "
               + ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(scores))
               + " | totals: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(state.totals)))
    for s, text in enumerate(why):
        state.note(f"  {names[s]} {scores[s]:+d}: {text}")


def tell_teams(state: Any, teams: Any) -> None:
    """The teams just set (public ones)."""
    names = state.game.seat_names
    state.note("Teams: " + " against ".join(", ".join(names[s] for s in t) for t in teams if t))


def tell_revealed(state: Any, shown: list[int]) -> None:
    """The teams of ``shown`` now known to every seat, each with the mates every seat knows of."""
    names, known = state.game.seat_names, state.team_known
    for s in shown:
        mates = [names[m] for m in range(state.players) if state.teams[m] == state.teams[s]
                 and all(k >> m & 1 for k in known)]
        state.note(f"{names[s]}'s team is known: team {state.teams[s] + 1} ({', '.join(mates)})")


def tell_board(state: Any, rows: list[tuple[str, list[str]]], open_spaces: list[list[bool]]) -> None:
    """A board's result: each row's one open space (``rows``: each row's title and its spaces' labels)."""
    parts = [f"{title}: {labels[spaces.index(True)]}" for (title, labels), spaces in zip(rows, open_spaces)
             if sum(spaces) == 1]
    state.note("The board: " + "; ".join(parts))
