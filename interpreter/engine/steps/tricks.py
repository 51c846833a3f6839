"""``tricks``: play tricks until a trick cannot start, from parts that compose.

What the step does in play: it is started, asked and applied through its written code (trick_code.py), which calls
back here for what is not worth writing out (its errors are engine/faults.py's). Its parts: its reading
(trick_reading.py: the declaration, each option read into the trick's parts, trick_parts.py; the progress), its
words (trick_words.py), what search asks of it (trick_search.py) and the sharing of a trick among its takers
(trick_takers.py).
"""

from __future__ import annotations

from typing import Any, cast

from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.base import Step, register
from interpreter.engine.steps.context import Path_
from interpreter.engine.steps.trick_reading import TrickReading, _Tricks
from interpreter.engine.steps.trick_search import TrickSearch
from interpreter.engine.steps.trick_takers import Sharing
from interpreter.engine.steps.trick_words import TrickWords


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

    def decision(self, game: GameView, state: State, p: _Tricks) -> Decision | None:
        return cast(Decision | None, self.code(game).decision(state, p, None))

    def apply(self, game: GameView, state: State, p: _Tricks, action: Any) -> Decision | None:
        return cast(Decision | None, self.code(game).apply(state, p, action, None))

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
