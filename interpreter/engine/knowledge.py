"""Who knows where each card is, and states sampled from one seat's knowledge (for search).

A seat knows where a card is when it sees the card there (a zone visible to all, its own zone
visible to its owner), or when it knew where the card was and saw it leave or arrive: a card led
from a hidden hand to the trick is known to all from then on, also after the trick goes face
down to the winner's pile; the cards a seat passes face down to its neighbour it still knows.
Cards that go on the table and off it within one action (a trick's last card) count as seen
there. Anything else is lost to a seat: it knows how many cards each place holds, not which.

``determinize`` gives a state in which every card the seat does not know is swapped at random
with another such card, everywhere the state names it (zones, card values, step progress): one
of the states the seat cannot tell from the real one, drawn without reading where those cards
really are.
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.types import Type
from interpreter.engine.state import State
from interpreter.errors import GameError

Where = tuple[str, int]  # (zone, seat; -1 for a shared zone)
# State.shown holds (zone, card) for every card put on the table during an action (zone None: a card shown
# to everyone, e.g. chosen in the open), so a card that comes and goes within one action still counts as seen.


class Knowledge:
    """Follows one game: call ``update`` after every action and chance event applied to ``state``."""

    def __init__(self, game: Any, state: State):
        self.game = game
        self.everyone = (1 << game.players) - 1
        self._seen = {z: spec.visible for z, spec in game.zones.items()}
        state.shown = []
        self.where = places_of(game, state)
        self.knowers = [self._sees(w) for w in self.where]
        self.named = self._named(state)

    def _named(self, state: State) -> set[int]:
        """The cards public values name (a shown exchange, a turned card): everyone knows them."""
        game = self.game
        filling = state.pending.step.filling() if state.pending is not None else frozenset()
        out: set[int] = set()
        for values, per_seat in ((state.vars, False), (state.game_vars, False), (state.seat_vars, True)):
            for name, value in values.items():
                t = game.value_types.get(name)
                if t is None or not _only_cards(t) or game.visibility.get(name, "all") != "all" or name in filling:
                    continue
                for v in value if per_seat else (value,):
                    out.update(cards_named(t, v))
        return out

    def _sees(self, where: Where | None) -> int:
        """The seats (a bit each) that see a card at ``where``."""
        if where is None:
            return 0
        visible = self._seen[where[0]]
        if visible == "all":
            return self.everyone
        if visible == "owner" and where[1] >= 0:
            return 1 << where[1]
        return 0

    def update(self, state: State, chance: bool = False) -> None:
        """After an action (``chance``: a chance event, such as a shuffle and deal: where a card came from
        tells nothing about where it went)."""
        where = places_of(self.game, state)
        passed: dict[int, int] = {}  # cards seen on their way in this action: by whom
        for zone, card in state.shown or ():
            passed[card] = passed.get(card, 0) | (self.everyone if zone is None else self._sees((zone, -1)))
        if state.shown is not None:
            state.shown.clear()
        named = self._named(state)
        for card in named - self.named:
            passed[card] = self.everyone
        self.named = named
        old = self.where
        knowers = self.knowers
        for c, w in enumerate(where):
            if w != old[c] or c in passed:
                saw = self._sees(w) | passed.get(c, 0)
                knowers[c] = saw if chance else (knowers[c] & (saw | self._sees(old[c]))) | saw
        self.where = where

    def knows(self, seat: int, card: int) -> bool:
        """Whether ``seat`` knows where ``card`` is."""
        return bool(self.knowers[card] >> seat & 1)

    def unknown(self, seat: int) -> list[int]:
        """The cards in play whose place ``seat`` does not know, by card id."""
        bit = 1 << seat
        return [c for c, w in enumerate(self.where) if w is not None and not self.knowers[c] & bit]


def places_of(game: Any, state: State) -> list[Where | None]:
    """Where each card lies now, by card id (None: in no zone, e.g. removed for this player count)."""
    where: list[Where | None] = [None] * len(game.cards.labels)
    for zone, cards in state.shared.items():
        for c in cards:
            where[c] = (zone, -1)
    for zone, hands in state.per_seat.items():
        for s, cards in enumerate(hands):
            for c in cards:
                where[c] = (zone, s)
    return where


def cards_named(t: Type, value: Any) -> list[int]:
    """The cards a value of static type ``t`` names (a card, or a list of cards)."""
    if t.kind == "card" and type(value) is int:
        return [value]
    if _only_cards(t) and isinstance(value, (list, tuple)):
        return [c for c in value if type(c) is int]
    return []


def determinize(game: Any, state: State, seat: int, knowledge: Knowledge, rng: Any) -> State:
    """A copy of ``state`` with the cards ``seat`` does not know dealt again at random among their places."""
    _refuse_hidden_values(game, state, seat, knowledge)
    bit = 1 << seat
    knowers = knowledge.knowers
    places = [*state.shared.values(), *(cards for hands in state.per_seat.values() for cards in hands)]
    slots = [c for cards in places for c in cards if not knowers[c] & bit]  # the true cards, place by place
    drawn = sorted(slots)  # what the seat knows: which cards, and how many in each place
    rng.shuffle(drawn)
    rename = dict(zip(slots, drawn))
    other = state.clone()
    relabel(game, other, rename.get)
    return other


def relabel(game: Any, state: State, rename: Any) -> None:
    """Rename cards everywhere in ``state``: ``rename(card)`` gives the new id, or None to keep it."""

    def card(c: int) -> int:
        new = rename(c)
        return c if new is None else new

    for cards in state.shared.values():
        cards[:] = map(card, cards)
    for hands in state.per_seat.values():
        for cards in hands:
            cards[:] = map(card, cards)
    types = game.value_types
    for values in (state.vars, state.game_vars):
        for k, v in values.items():
            values[k] = renamed(types.get(k), v, card)
    for k, per_seat in state.seat_vars.items():
        per_seat[:] = [renamed(types.get(k), v, card) for v in per_seat]
    if state.progress is not None and state.step_index >= 0:
        game.steps[state.step_index].relabel(state.progress, card)


def renamed(t: Type | None, value: Any, card: Any) -> Any:
    """``value`` of static type ``t`` with every card in it renamed by ``card``."""
    if value is None or t is None:
        return value
    if t.kind == "card" and type(value) is int:
        return card(value)
    if t.kind == "list" and isinstance(value, (list, tuple)):
        items = [renamed(t.element, v, card) for v in value]
        return items if isinstance(value, list) else tuple(items)
    if t.kind == "record" and isinstance(value, dict):
        return {k: renamed(t.field_type(k), v, card) for k, v in value.items()}
    return value


def _refuse_hidden_values(game: Any, state: State, seat: int, knowledge: Knowledge) -> None:
    """A value hidden from ``seat`` can be drawn again only when it names cards the seat does not know
    (they are renamed with the rest); anything else hidden (a secret bid, a hidden choice of a card the seat
    knows) cannot: refuse rather than hand the search the real value."""
    filling = state.pending.step.filling() if state.pending is not None else frozenset()
    for name, values in state.seat_vars.items():
        visible = game.visibility.get(name, "all")
        if visible == "all" and name not in filling:
            continue
        t = game.value_types.get(name)
        for s, value in enumerate(values):
            if (s != seat or visible == "nobody") and not _drawable(t, value, seat, knowledge):
                _refuse(game, seat, name)
    for name, value in state.vars.items():
        if (game.visibility.get(name, "all") != "all" or name in filling) \
                and not _drawable(game.value_types.get(name), value, seat, knowledge):
            _refuse(game, seat, name)


def _drawable(t: Type | None, value: Any, seat: int, knowledge: Knowledge) -> bool:
    """Whether a hidden value can be drawn again: empty, or naming only cards ``seat`` does not know."""
    if value is None or value == []:
        return True
    return t is not None and _only_cards(t) and not any(knowledge.knows(seat, c) for c in cards_named(t, value))


def _refuse(game: Any, seat: int, name: str) -> None:
    raise GameError(f"cannot sample the state as {game.seat_names[seat]} sees it: the value {name!r} is hidden "
                    "from that seat and names no unknown cards")


def _only_cards(t: Type) -> bool:
    return t.kind == "card" or (t.kind == "list" and t.element is not None and t.element.kind == "card")
