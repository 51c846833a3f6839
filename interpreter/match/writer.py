"""The record of a game as it is played: a listener of the match that writes its JSON Lines events.

Every driver (``trickbook play``, ``simulate``, the API, the web table) writes records through
:class:`RecordWriter`, so the same game gives the same record whoever drives it. docs/records.md describes the
format.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.match.events import Action, Automatic, Begin, Chance, GameEnd, RoundEnd, Trick

if TYPE_CHECKING:
    from interpreter.match.driver import Handler, Match

RECORD_FORMAT = "trickbook-record"
RECORD_VERSION = 1


@dataclass
class Outcome:
    """How a game ended: each seat's total, the winners, the rounds played and each round's scores (and, when
    it was recorded, its record's events)."""

    totals: list[int]
    winners: list[int]
    rounds: int
    round_results: list[list[int]]
    record: list[dict[str, Any]] = field(default_factory=list)


def outcome_of(game: Game, state: State, record: list[dict[str, Any]] | None = None) -> Outcome:
    return Outcome(list(state.totals), game.winners(state), state.round_number,
                   [list(r) for r in state.round_results], [] if record is None else record)


def header(game: Game, seed: Any, rules_file: str | None = None) -> dict[str, Any]:
    h: dict[str, Any] = {
        "type": "game", "format": RECORD_FORMAT, "version": RECORD_VERSION,
        "rules": game.name, "rules_id": game.identity, "players": game.player_count,
        "seats": list(game.seat_names), "options": dict(game.options),
    }
    if rules_file:
        h["rules_file"] = rules_file
    if seed is not None:
        h["seed"] = seed
    return h


def round_event(game: Game, state: State, n: int, first: int = 1) -> dict[str, Any]:
    """The ``n``-th round played has just been scored (the state may already be in the next round); ``first``:
    the number of the round the game was picked up at (see ``Game.new_state``)."""
    names = game.seat_names
    return {"type": "round", "round": n + first - 1,
            "scores": dict(zip(names, state.round_results[n - 1])), "totals": dict(zip(names, state.totals))}


def result_event(game: Game, state: State) -> dict[str, Any]:
    names = game.seat_names
    return {"type": "result", "rounds": state.round_number, "totals": dict(zip(names, state.totals)),
            "winners": [names[s] for s in game.winners(state)]}


class RecordWriter:
    """Writes the record's lines to ``lines`` as the match goes (so a game stopped by an error leaves its record
    so far). ``told``: with the lines of what the rules made happen (tricks won, automatic decisions), as a
    saved state of the API keeps them; a record of ``trickbook play`` leaves them out (they follow from the
    rest). ``head``: the header line to write (default: made from the game, the seed and ``rules_file``, with
    ``made_by``: the engine and random stream that drew the game, when not the Python backend's)."""

    def __init__(self, lines: list[dict[str, Any]] | None = None, *, rules_file: str | None = None,
                 told: bool = False, head: dict[str, Any] | None = None, made_by: dict[str, Any] | None = None):
        self.lines: list[dict[str, Any]] = [] if lines is None else lines
        self.rules_file, self.told, self.head = rules_file, told, head
        self.made_by = made_by or {}  # (in the header: the engine and random stream that drew the game's draws)
        self.hears: dict[type, Handler] = {Begin: self.begin, Chance: self.chance, Action: self.action,
                                           RoundEnd: self.round_end, GameEnd: self.game_end}
        if told:
            self.hears |= {Trick: self.rules_told, Automatic: self.rules_told}

    def copy(self) -> RecordWriter:
        """A writer that goes on from a copy of the list of lines written so far (the lines themselves are shared:
        a line is never changed once written)."""
        return RecordWriter(list(self.lines), rules_file=self.rules_file, told=self.told, head=self.head)

    def action(self, match: Match, event: Action) -> None:
        d, game = event.decision, match.game
        self.lines.append({"type": "action", "round": match.state.round_number, "step": d.step.name,
                           "seat": game.seat_names[d.actor], "action": d.step.words.label(game, event.action)})

    def chance(self, match: Match, event: Chance) -> None:
        d, state = event.decision, match.state
        self.lines.append({"type": "chance", "round": state.round_number, "step": d.step.name,
                           "outcome": d.step.chance.outcome_to_record(match.game, state, event.outcome)})

    def rules_told(self, match: Match, event: Trick | Automatic) -> None:
        self.lines.append(event.line)

    def round_end(self, match: Match, event: RoundEnd) -> None:
        self.lines.append(round_event(match.game, match.state, event.played, match.first))

    def game_end(self, match: Match, event: GameEnd) -> None:
        self.lines.append(result_event(match.game, match.state))

    def begin(self, match: Match, event: Begin) -> None:
        if self.head is not None:
            self.lines.append(self.head)
            return
        head = header(match.game, event.seed, self.rules_file) | self.made_by
        self.lines.append(head if event.start is None else head | {"start": event.start})
