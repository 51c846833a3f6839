"""The account of a game as ``trickbook play`` tells it: a listener of the match that writes one line for each
thing a person at the table would be told (told to ``viewer``: what that seat may not see is not said)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine.observation import held, received
from interpreter.engine.state import CHANCE
from interpreter.match.driver import Handler, Match
from interpreter.match.events import Action, Applied, Begin, Chance, GameEnd, Note, RoundEnd


class Narrator:
    def __init__(self, say: Callable[[str], None], viewer: int | None = None):
        self.say = say
        self.viewer = viewer
        self.held: Any = None  # what the viewer held before the last change (to tell what came to it)
        self.announced = 0  # the last round announced
        self.hears: dict[type, Handler] = {Begin: self.begin, Chance: self.chance, Action: self.action,
                                           Note: self.note, RoundEnd: self.round_end, GameEnd: self.game_end}
        if viewer is not None:
            self.hears[Applied] = self.applied

    def begin(self, match: Match, event: Begin) -> None:
        game = match.game
        auto = [game.seat_names[s] for s in sorted(game.automatic)]
        extra = f"; {', '.join(auto)} plays by rule" if auto else ""
        self.say(f"{game.title}: {game.player_count} players ({', '.join(game.seat_names)}{extra}), seed {event.seed}")
        self._announce(match)
        if self.viewer is not None:
            self.held = held(game, match.state, self.viewer)

    def chance(self, match: Match, event: Chance) -> None:
        self.say(f"  ({event.decision.step.name}{': the deal file gives it' if event.given else ''})")

    def action(self, match: Match, event: Action) -> None:
        d, game = event.decision, match.game
        text = d.step.words.describe(game, match.state, d, event.action, self.viewer)
        if text:
            self.say(f"  {game.seat_names[d.actor]} {text}")

    def applied(self, match: Match, event: Applied) -> None:
        assert self.viewer is not None, "heard only when telling a viewer"
        game = match.game
        now = held(game, match.state, self.viewer)
        if event.decision.actor != CHANCE:  # cards the viewer could not see before, now in its hand (a pass)
            new = received(self.held, now)
            if new:
                self.say(f"  you receive: {', '.join(game.cards.labels[c] for c in new)}")
        self.held = now

    def note(self, match: Match, event: Note) -> None:
        self.say("  " + event.text)

    def round_end(self, match: Match, event: RoundEnd) -> None:
        self._announce(match)

    def game_end(self, match: Match, event: GameEnd) -> None:
        game, state = match.game, match.state
        winners = ", ".join(game.seat_names[s] for s in game.winners(state))
        self.say(f"Game over after {state.round_number} rounds. Winner(s): {winners}")

    def _announce(self, match: Match) -> None:
        state = match.state
        if not state.finished and state.round_number != self.announced:
            self.announced = state.round_number
            self.say(f"Round {state.round_number}, dealer {match.game.seat_names[state.dealer]}")
