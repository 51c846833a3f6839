"""``tricks``: play tricks until a trick cannot start, from parts that compose.

What the step does in play: it is started, asked and applied through its written code (trick_code.py), which calls
back here for what is not worth writing out and for its errors. Its parts: its reading (trick_reading.py: the
declaration, each option read into the trick's parts, trick_parts.py; the progress), its words (trick_words.py),
what search asks of it (trick_search.py) and the sharing of a trick among its takers (trick_takers.py).
"""

from __future__ import annotations

from typing import Any, cast

from interpreter.dsl.compiler import Compiled, ExpressionFailed
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.base import Step, register
from interpreter.engine.steps.context import Path_
from interpreter.engine.steps.trick_reading import TrickReading, _Tricks
from interpreter.engine.steps.trick_search import TrickSearch
from interpreter.engine.steps.trick_takers import Sharing
from interpreter.engine.steps.trick_words import TrickWords
from interpreter.errors import GameError


@register
class Tricks(TrickReading):
    """A tricks step in play."""

    words_part = TrickWords
    search_part = TrickSearch
    words: TrickWords

    def __init__(self, name: str, path: Path_):
        super().__init__(name, path)
        self.sharing = Sharing(self, self.words)  # a won trick's cards shared among its takers

    def start(self, game: GameView, state: State) -> _Tricks:
        return cast(_Tricks, self.code(game).start(state, None))

    def _bad_seats(self, active: Any) -> ExpressionFailed:
        assert self.active is not None  # only a trick with seats checks them
        return ExpressionFailed(f"{self.active.position}: error: seats must give seats that include the leader, "
                                f"got {active!r}")

    def decision(self, game: GameView, state: State, p: _Tricks) -> Decision | None:
        return cast(Decision | None, self.code(game).decision(state, p, None))

    def _decider(self, state: State, seat: int, decided_by: Compiled) -> int:
        """The seat that decides which card ``seat`` plays (``decided_by``, written for the state's shape)."""
        actor = decided_by({"$s": state, "seat": seat})
        if type(actor) is not int or not 0 <= actor < state.players:
            raise ExpressionFailed(f"{decided_by.position}: error: decided_by must give a seat, got "
                                   f"{'none' if actor is None else repr(actor)}")
        return actor

    def _no_card(self, game: GameView, state: State, seat: int) -> None:
        """A seat to play in the middle of a trick holds no card (a trick starts only when every seat has one):
        the rules took its cards away between plays."""
        zones = " and ".join(self.zones)
        raise GameError(f"{self.where}: error: {game.seat_names[seat]} has to play a card to the trick but its "
                        f"{zones} {'is' if len(self.zones) == 1 else 'are'} empty (did a step between plays move "
                        "its cards away?)")

    def apply(self, game: GameView, state: State, p: _Tricks, action: Any) -> Decision | None:
        return cast(Decision | None, self.code(game).apply(state, p, action, None))

    def _bad_leader(self, leader: Any) -> ExpressionFailed:
        assert self.next_leader is not None  # only a written next_leader can give something else than a seat
        return ExpressionFailed(f"{self.next_leader.position}: error: next_leader must give a seat that plays (or "
                                f"none for the winner), got {leader!r}")

    def _hook_apply(self, game: GameView, state: State, p: _Tricks, action: Any) -> None:
        assert p.hook is not None  # called only while nested steps run
        self.code(game).hook(game, state, p, action)

    def inside(self, p: _Tricks) -> tuple[Step, Any] | None:
        return (p.hook.steps[p.hook.index], p.hook.p) if p.hook is not None and p.hook.p is not None else None

    def value_of(self, game: GameView, state: State, p: Any, d: Decision, value: Any) -> Any:
        code = self.code(game)
        if d.kind == "take":
            return self.take_actions[value] if value in code.shares.trick_of(state) else None
        z = code.zone_index(state, d.actor, value)
        return None if z < 0 else self.play_actions[z][value]
