"""How a ``tricks`` step shares a won trick's cards among its takers (``takers``): each taker after the winner found
by its own ordering, the cards given out, a taker that takes a number of cards choosing them one by one, the cards
nobody takes sent to ``unclaimed``; then the steps after the trick, or the next trick."""

from __future__ import annotations

from typing import Any

from interpreter.dsl.compiler import ExpressionFailed
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.action_types import Take
from interpreter.engine.steps.trick_reading import TrickReading, _Tricks
from interpreter.engine.steps.trick_words import TrickWords


class Sharing:
    """The sharing of a trick's cards by a tricks step (``step``), which tells each trick in its ``words``."""

    def __init__(self, step: TrickReading, words: TrickWords):
        self.step = step
        self.words = words

    def shares(self, game: GameView, state: State, p: _Tricks, plays: list[tuple[int, int]], led: int | None,
               winner: int, claimed: bool) -> None:
        """The winner has more takers after it: each found by its ordering, then the cards shared out."""
        code = self._code(game)
        takers: list[int | None] = [winner]
        for i in range(len(self.step.later_orderings)):
            takers.append(code.later_best(state, plays, led, i))
        p.takers = takers
        if state.notes is not None:
            self.words.tell(game, state, p, plays, winner, claimed)
        p.last = list(plays)
        p.plays = []
        p.taking = 0
        p.left = self._share(code, state, p, 0)
        self.settle(game, state, p)

    def _code(self, game: GameView) -> Any:
        """What the trick's written code gives the sharing (trick_code.SharesCode), for the game's state's shape."""
        return self.step.code(game).shares

    def _share(self, code: Any, state: State, p: _Tricks, index: int) -> int:
        k = code.takes_of(state, index)
        if k is None:
            return -1  # the rest
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            takes = self.step.takers[index].takes
            assert takes is not None  # a number only a takes expression gives
            raise ExpressionFailed(f"{takes.position}: error: takes must be a whole number, got {k!r}")
        return k

    @staticmethod
    def _owner(p: _Tricks, card: int) -> int:
        for s, c in p.last:
            if c == card:
                return s
        assert p.winner is not None  # pragma: no cover - _resolve sets it before cards are taken
        return p.winner  # pragma: no cover - every card of the trick was played by someone

    def settle(self, game: GameView, state: State, p: _Tricks) -> None:
        """Give cards to takers until one must choose; then close the trick."""
        step, code = self.step, self._code(game)
        trick = code.trick_of(state)
        winner = p.winner
        assert winner is not None  # _resolve found it before cards are taken
        while p.taking < len(step.takers):
            taker = p.takers[p.taking]
            if taker is not None and trick and p.left != 0:
                if p.left > 0:
                    return  # a choice: see decision
                cards = [(self._owner(p, c), c) for c in trick]
                trick.clear()
                step.code(game).route(state, cards, taker, winner, code.won_of(state, taker))
            p.taking += 1
            if p.taking < len(step.takers):
                p.left = self._share(code, state, p, p.taking)
        if trick:  # validate made sure unclaimed is given whenever cards can be left
            assert step.unclaimed is not None
            if state.notes is not None:
                state.note(f"Nobody takes {', '.join(game.cards.labels[c] for c in trick)}: to {step.unclaimed}")
            code.unclaimed_of(state).extend(trick)
            trick.clear()
        p.taking = -1
        if step.after:
            p.hook = step.code(game).enter_after(game, state, p, 0)
            if p.hook is not None:
                return
        step.code(game).close(state, p)

    def decision(self, game: GameView, state: State, p: _Tricks) -> Decision:
        """The taker choosing cards picks one of the trick's (identical cards offered once)."""
        step = self.step
        kinds = step.kinds
        cards = list({kinds[c]: c for c in self._code(game).trick_of(state)}.values())
        taker = p.takers[p.taking]
        assert taker is not None  # settle asks only a taker that was found
        return Decision(taker, [step.take_actions[c] for c in cards], step,
                        f"take a card from the trick ({p.left} to go)", "take")

    def apply(self, game: GameView, state: State, p: _Tricks, action: Take) -> None:
        step, code = self.step, self._code(game)
        card = action.card
        code.take_from_trick(state, card)
        taker, winner = p.takers[p.taking], p.winner
        assert taker is not None and winner is not None  # a taker chooses after _resolve found the winner
        step.code(game).route(state, [(self._owner(p, card), card)], taker, winner, code.won_of(state, taker))
        p.left -= 1
        if p.left == 0:
            p.taking += 1
            if p.taking < len(step.takers):
                p.left = self._share(code, state, p, p.taking)
        self.settle(game, state, p)
