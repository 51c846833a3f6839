"""The people of a step whose choices are made together (``simultaneous``) at one web table: asked at once, each in
a copy of the game in which it is to act (api/together.py's ``Gathering``), their answers taken in the game in the
engine's order, each when its turn comes, so that the record is the one of choices asked in turn. Answers not taken
yet are not in the record: a table picked up again after a restart asks those people again.

Nothing here knows HTTP or changes the game itself: the table (tables.py) takes what ``take_due`` gives it as it
takes any action, under its lock."""

from __future__ import annotations

from collections.abc import Callable, Container

import interpreter as tb
from interpreter.api.together import Gathering, seats_together


class Together:
    """The answers being gathered at one table (``gathering``: None when no step made together asks a person now),
    and the number of the decision pending when the step began (``since``: an answer names that or a later one)."""

    def __init__(self) -> None:
        self.gathering: Gathering | None = None
        self.since = 0

    def follow(self, state: tb.GameState, people: Container[int], seq: int, live: bool) -> None:
        """After a change of the game (``seq``: the number of the decision now pending; ``live``: the table has not
        stopped): begin gathering the answers of a step made together that now asks people, or stop gathering
        those of a step that is over."""
        if not live:
            self.gathering = None
            return
        if self.gathering is not None and self.gathering.open():
            return
        self.gathering = None
        if any(s in people for s in seats_together(state)):
            self.gathering = Gathering(state)
            self.since = seq

    def asks(self, seat: int) -> bool:
        """Whether ``seat``'s messages are answers in a step made together."""
        return self.gathering is not None and seat in self.gathering.seats

    def refusal(self, seat: int, seq: int, label: str, now: int, to_act: bool) -> str | None:
        """Why the answer ``label`` of ``seat``, sent on the view of decision ``seq`` (``now``: the decision
        pending; ``to_act``: the seat is the one to act in the game), is not taken; None when it is one of the seat's
        choices now, on the view of the decision pending, or of any since the step began for a seat asked ahead of
        its turn (the others' changes meanwhile change nothing it is asked)."""
        gathering = self.gathering
        assert gathering is not None  # (asks(seat) first)
        if seq != now and (to_act or not self.since <= seq <= now):
            return "that decision is past (the table has moved on)"
        asked = gathering.asked(seat)
        if asked is None:
            names = gathering.state.game.seat_names
            return "you have chosen: waiting for " + ", ".join(names[s] for s in gathering.waiting())
        if label not in asked.labels():
            return f"{label} is not one of your choices now"
        return None

    def answer(self, seat: int, label: str, take: Callable[[int], None]) -> None:
        """Keep the answer of ``seat`` (``refusal`` said nothing against it), then ``take`` each answer whose turn
        has come."""
        assert self.gathering is not None
        self.gathering.answer(seat, label)
        self.take_due(take)

    def ready(self) -> bool:
        """Whether an answer given ahead has its turn now."""
        return self.gathering is not None and self.gathering.ready()

    def take_due(self, take: Callable[[int], None]) -> None:
        """``take`` (the table's: narrated, recorded) every answer whose turn has come, in the engine's order."""
        while self.gathering is not None and (action := self.gathering.due()) is not None:
            take(action)
