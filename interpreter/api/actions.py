"""The actions of the seat to act: their ids and labels, taking one, how it is told before it is taken, why a card
is refused, and the action a built-in agent would take."""

from __future__ import annotations

from typing import Any

from interpreter.api.core import StateCore
from interpreter.engine.game import not_legal
from interpreter.engine.state import CHANCE
from interpreter.errors import GameError, IllegalAction


class Actions(StateCore):
    """The legal actions and taking them (a part of GameState)."""

    def legal_actions(self) -> list[int]:
        """The ids of the actions the seat to act may take now, in the order the engine lists them (a hand as
        the seat holds it); [] at a chance event or when the game is over."""
        d = self._state.pending
        if d is None or d.actor == CHANCE:
            return []
        actions = d.actions
        if self._ids_of is not actions:
            step = d.step
            if self._table_of is not step:  # the ids of the step's actions seen so far, looked up here directly
                self._table, self._table_of = self._space.table(step), step
            table = self._table
            try:
                self._ids = [table[a] for a in actions]
            except (KeyError, TypeError):  # an action not seen before, or a choice of a list
                self._ids = self._space.ids(step, actions)
            self._ids_of = actions
        return self._ids[:]

    def legal_mask(self) -> list[bool]:
        """One entry per action id of the game: True for the legal ones."""
        mask = [False] * self.game.num_actions
        for i in self.legal_actions():
            mask[i] = True
        return mask

    def labels(self) -> list[str]:
        """The labels of the legal actions, as people read them (and records write them), in the same order."""
        d = self._state.pending
        if d is None or d.actor == CHANCE:
            return []
        return self._space.labels(d.step, d.actions)

    def apply(self, action: int | str) -> None:
        """Take a legal action, by its id or its label (as ``labels`` gives it; case does not matter). Anything
        else is refused with the legal labels, and the state is left as it was."""
        d = self._state.pending
        if d is None or self._ids_of is not d.actions or type(action) is not int:
            self._change(False, self._chosen(action))
            return
        try:  # an id, and the ids of this decision's actions are known (legal_actions)
            chosen = d.actions[self._ids.index(action)]
        except ValueError:
            chosen = self._chosen(action)  # refused
        if self._writer is not None or self._sample:  # a history or a copy to put back as well on a failure
            self._change(False, chosen)
            return
        try:  # _change with nothing to keep but the moves
            self._match.take(chosen)
        except BaseException:
            self._undo(None, None)
            raise
        self._moves.append(chosen)

    def _chosen(self, action: int | str) -> Any:
        """The engine's action that ``action`` (an id or a label) names, when it is legal now, else an
        IllegalAction with the legal labels."""
        state, engine = self._state, self.game.engine
        d = state.pending
        if d is None:
            raise IllegalAction("the game is over; no action is legal")
        if d.actor == CHANCE:
            raise IllegalAction("chance acts now (a deal): call apply_chance()")
        if isinstance(action, str):
            return engine.action_for_label(state, action)
        ids = self.legal_actions()
        if type(action) is int and action in ids:
            return d.actions[ids.index(action)]
        what = f"id {action!r}" + (f" ({self.game.action(action).label})"
                                   if type(action) is int and 0 <= action < self.game.num_actions else "")
        raise IllegalAction(not_legal(engine, state, what, self.labels()))

    def describe(self, action: int | str, seat: int | None) -> str | None:
        """How ``seat`` is told the legal action ``action`` (by id or label) of the seat to act, before it is
        taken: "North plays Q of clubs", or "East passes a card" to a seat that may not see it (None: a spectator,
        told everything; the result None: nothing worth telling). What ``trickbook play`` tells a person."""
        d, chosen = self._legal(action)
        viewer = None if seat is None else self._seat(seat)
        text = d.step.words.describe(self.game.engine, self._state, d, chosen, viewer)
        return None if not text else f"{self.game.seat_names[d.actor]} {text}"

    def describe_public(self, action: int | str) -> str | None:
        """How everyone but the seat to act is told the legal action ``action`` (by id or label), before it is
        taken: what a spectator, who sees only what is public, may read ("East passes a card"; None: nothing worth
        telling)."""
        d, chosen = self._legal(action)
        text = d.step.words.describe_public(self.game.engine, self._state, d, chosen)
        return None if not text else f"{self.game.seat_names[d.actor]} {text}"

    def _legal(self, action: int | str) -> tuple[Any, Any]:
        """The pending decision and the engine's action ``action`` names (legal now), else an IllegalAction."""
        d = self._state.pending
        if d is None or d.actor == CHANCE:
            raise IllegalAction("no seat acts now")
        if isinstance(action, str):
            return d, self.game.engine.action_for_label(self._state, action)
        ids = self.legal_actions()
        if type(action) is not int or action not in ids:
            raise IllegalAction(f"id {action!r} is not legal now")
        return d, d.actions[ids.index(action)]

    def refusal(self, card: str) -> str | None:
        """Why the seat to act may not play (or choose) the card labelled ``card`` now, in the rule file's words
        (an obligation's ``says:``, or its expression in words); None when nothing refuses it."""
        cards = self.game.engine.cards_by_label().get(card) if isinstance(card, str) else None
        if not cards:
            raise GameError(f"no card {card!r} in this game's deck")
        return next((why for c in cards if (why := self.game.engine.refusal(self._state, c))), None)

    def agent_choice(self, agent: Any) -> int:
        """The id of the action a built-in agent (harness/agents.py, harness/players.agent_factory) takes now,
        given the seat to act's turn as ``trickbook play`` gives it: the legal actions, the seat's observation,
        and samples of what it cannot see when the agent asks for them (``samples = True``)."""
        from interpreter.harness.agents import Turn

        d = self._state.pending
        if d is None or d.actor == CHANCE:
            raise IllegalAction("no seat acts now")
        if not callable(getattr(agent, "act", None)):
            raise GameError(f"an agent has a method act(turn); {type(agent).__name__} has none")
        knowledge = self.knowledge() if getattr(agent, "samples", False) else None
        chosen = agent.act(Turn(self.game.engine, self._state, d.actor, d.actions, d.prompt, knowledge, d.kind))
        ids = self.legal_actions()
        for i, a in enumerate(d.actions):
            if a is chosen or a == chosen:
                return ids[i]
        raise IllegalAction(f"the agent chose {chosen!r}, which is not legal now")
