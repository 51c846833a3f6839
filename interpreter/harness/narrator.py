"""The account of a game as ``trickbook play`` tells it: a listener of the match that writes one line for each
thing a person at the table would be told (told to ``viewer``: what that seat may not see is not said)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine.observation import held, received
from interpreter.engine.state import CHANCE
from interpreter.match.driver import Match
from interpreter.match.events import Action, Applied, Begin, Chance, Event, GameEnd, Note, RoundEnd


class Narrator:
    hears = (Begin, Chance, Action, Applied, Note, RoundEnd, GameEnd)

    def __init__(self, say: Callable[[str], None], viewer: int | None = None):
        self.say = say
        self.viewer = viewer
        self.held: Any = None  # what the viewer held before the last change (to tell what came to it)
        self.announced = 0  # the last round announced

    def hear(self, match: Match, event: Event) -> None:
        game, state, say = match.game, match.state, self.say
        if isinstance(event, Action):
            d = event.decision
            text = d.step.describe(game, state, d, event.action, self.viewer)
            if text:
                say(f"  {game.seat_names[d.actor]} {text}")
        elif isinstance(event, Chance):
            say(f"  ({event.decision.step.name}{': the deal file gives it' if event.given else ''})")
        elif isinstance(event, Applied):
            if self.viewer is not None:
                now = held(game, state, self.viewer)
                if event.decision.actor != CHANCE:  # cards the viewer could not see before, now in its hand
                    new = received(self.held, now)
                    if new:
                        say(f"  you receive: {', '.join(game.cards.labels[c] for c in new)}")
                self.held = now
        elif isinstance(event, Note):
            say("  " + event.text)
        elif isinstance(event, RoundEnd):
            self._announce(match)
        elif isinstance(event, GameEnd):
            winners = ", ".join(game.seat_names[s] for s in game.winners(state))
            say(f"Game over after {state.round_number} rounds. Winner(s): {winners}")
        elif isinstance(event, Begin):
            auto = [game.seat_names[s] for s in sorted(game.automatic)]
            extra = f"; {', '.join(auto)} plays by rule" if auto else ""
            say(f"{game.title}: {game.player_count} players ({', '.join(game.seat_names)}{extra}), seed {event.seed}")
            self._announce(match)
            if self.viewer is not None:
                self.held = held(game, state, self.viewer)

    def _announce(self, match: Match) -> None:
        state = match.state
        if not state.finished and state.round_number != self.announced:
            self.announced = state.round_number
            self.say(f"Round {state.round_number}, dealer {match.game.seat_names[state.dealer]}")
