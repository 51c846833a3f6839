"""What a ``tricks`` step says: its plays' and takes' labels, each play in the narration, each trick told when it is
won, why a card may not be played (the rule that refuses it, in the rule file's words), the trick on the table and
the last one, and every action it may offer."""

from __future__ import annotations

from typing import Any

from interpreter.engine.card_values import card_kinds
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.action_types import Take
from interpreter.engine.steps.trick_parts import refusal_text, refusing_rule
from interpreter.engine.steps.trick_reading import TrickReading, _Tricks
from interpreter.engine.steps.words import Words


class TrickWords(Words[TrickReading]):
    """The words of a tricks step, read from its resolved options."""

    def label(self, game: GameView, action: Any) -> str:
        labels = game.cards.labels
        if isinstance(action, Take):
            return f"take {labels[action.card]}"
        if action.zone:
            return f"{labels[action.card]} from {self.step.zones[action.zone]}"
        return labels[action.card]

    def action_entries(self, game: GameView) -> list[tuple[str, Any, Any, str]]:
        """A card played from each zone the trick is played from; a card taken, when a taker chooses cards."""
        step, kinds = self.step, card_kinds(game)
        out: list[tuple[str, Any, Any, str]] = [("card", ("play", z, k), k, self.label(game, step.play_actions[z][k]))
                                                for z in range(len(step.zones)) for k in kinds]
        if any(t.takes is not None for t in step.takers):
            out += [("card", ("take", k), k, self.label(game, step.take_actions[k])) for k in kinds]
        return out

    def action_key(self, game: GameView, action: Any) -> Any:
        kind = game.cards.kinds[action.card]
        return ("take", kind) if isinstance(action, Take) else ("play", action.zone, kind)

    def describe(self, game: GameView, state: State, d: Decision, action: Any, viewer: int | None = None) -> str | None:
        if isinstance(action, Take):
            return f"takes {game.cards.labels[action.card]}"
        turn = getattr(state.progress, "turn", d.actor)
        whose = f" for {game.seat_names[turn]}" if d.actor != turn else ""  # decided by another seat
        return f"plays {self.label(game, action)}{whose}"

    def public(self, game: GameView, state: State, p: _Tricks, viewer: int | None = None) -> dict[str, Any]:
        names, labels = game.seat_names, game.cards.labels
        out: dict[str, Any] = {"trick": [[names[s], labels[c]] for s, c in p.plays], "tricks_played": p.number}
        if p.last:
            out["last_trick"] = {"cards": [[names[s], labels[c]] for s, c in p.last],
                                 "winner": names[p.winner] if p.winner is not None else None}
        return out

    def refusal(self, game: GameView, state: State, card: int) -> str | None:
        """Why the seat to play may not play ``card`` now, in the rule file's words (None: it may, or this is not
        a play of a card)."""
        p = state.progress
        if p is None or p.hook is not None or p.taking >= 0 or p.over:
            return None
        seat = p.turn
        cards = self.step.cards_of(state, seat)
        if card not in cards:  # an identical card the seat holds is the same card to the rules (one label)
            kinds = game.cards.kinds
            card = next((c for c in cards if kinds[c] == kinds[card]), card)
            if card not in cards:
                return f"{game.cards.labels[card]} is not in {game.seat_names[seat]}'s {' or '.join(self.step.zones)}"
        plays = p.plays
        rule = refusing_rule(self.step.follow_rules if plays else self.step.lead_rules, state, seat, cards,
                             self.step.led_card(state, plays) if plays else None, plays, card)
        return None if rule is None else refusal_text(rule)

    def tell(self, game: GameView, state: State, p: _Tricks, plays: list[tuple[int, int]], winner: int,
              claimed: bool) -> None:
        names, labels = game.seat_names, game.cards.labels
        if state.told is not None:
            state.told.append({"type": "trick", "round": state.round_number, "trick": p.number + 1,
                               "cards": [[names[s], labels[c]] for s, c in plays], "winner": names[winner],
                               "claimed": claimed, "takers": [names[t] for t in p.takers if t is not None]})
        shown = ", ".join(f"{names[s]} {labels[c]}" for s, c in plays)
        state.note(f"Trick {p.number + 1}: {shown} -> {names[winner]} wins" + (" (claimed)" if claimed else ""))
        if len(p.takers) > 1:
            state.note("Takers: " + ", ".join(names[t] for t in p.takers if t is not None))
