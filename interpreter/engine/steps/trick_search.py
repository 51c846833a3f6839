"""What search and the heuristic players ask of a ``tricks`` step: the cards of its progress renamed in a sampled
state, who would win the trick after a card and its strength there, the zones of won tricks, and what a play tells
a Knowledge following the state (the card on the table; the cards a seat has shown not to hold)."""

from __future__ import annotations

from typing import Any

from interpreter.engine.game_view import GameView
from interpreter.engine.state import State
from interpreter.engine.steps.action_types import Play
from interpreter.engine.steps.search import Search
from interpreter.engine.steps.trick_reading import TrickReading, _Tricks


class TrickSearch(Search[TrickReading]):
    """The search part of a tricks step, read from its resolved options."""

    def won_zones(self) -> tuple[str, ...]:
        return (self.step.won,)

    def relabel(self, p: _Tricks, card: Any) -> None:
        p.plays = [(s, card(c)) for s, c in p.plays]
        p.last = [(s, card(c)) for s, c in p.last]

    def judge(self, game: GameView, state: State, p: _Tricks, action: Any) -> tuple[int | None, Any] | None:
        if not isinstance(action, Play) or p.hook is not None or p.taking >= 0:
            return None
        plays = [*p.plays, (p.turn, action.card)]
        led = self.step.led_card(state, plays)
        winner = self.step.ordering.best(state, plays, led, self.step.can_win)
        return winner, self.step.ordering.keys(state, plays[-1:], action.card if led is None else led)[0]

    def saw(self, game: GameView, state: State, p: _Tricks, seat: int, card: int) -> None:
        """For a Knowledge following the state: ``card`` (about to be played by ``seat``) is on the table; and
        what its play tells of the seat's other cards."""
        seen = state.seen
        assert seen is not None  # the written play calls it only then
        seen.cards.append((self.step.trick_zone, card))
        void = self._void(game, state, p, card) if self._bound(game, seat) else None
        if void is not None:
            seen.voids.append((seat, self.step.zones, void))

    def _bound(self, game: GameView, seat: int) -> bool:
        """Whether the play rules bound the card ``seat`` plays now: it chose among the legal actions (those
        the rules allow from its one zone). An automatic seat plays by its policy whatever the rules say (it
        may turn the top card of its stack): its play proves nothing of what it holds. Plays from several zones
        are not read either: only a choice from the seat's one zone is."""
        return seat not in game.automatic and self.step.single_zone

    def _void(self, game: GameView, state: State, p: _Tricks, card: int) -> list[bool] | None:
        """What playing ``card`` shows everyone of the seat's other cards: when it breaks the first obligation
        (a rule whose table reads only public round values), the seat held no card that the rule would have
        made it play (one its ``must`` and ``holding`` both mark). By card id, True for a card it cannot hold."""
        rule_list = self.step.follow_rules if p.plays else self.step.lead_rules
        if not rule_list:
            return None
        rule = rule_list[0]
        fields = rule.must_table.fields
        if not rule.static or any(game.visibility.get(f, "all") != "all" for f in fields or ()):
            return None
        led = self.step.led_card(state, p.plays)
        must = rule.must_table.table(state, led)
        if must[card]:
            return None
        if rule.hold_table is None:
            return list(must)
        hold = rule.hold_table.table(state, led)
        return [m and h for m, h in zip(must, hold)]
