"""Who knows where each card is, and states sampled from one seat's knowledge (for search).

A seat knows where a card is when it sees the card there (a zone visible to all, its own zone
visible to its owner), or when it knew where the card was and saw it leave or arrive: a card led
from a hidden hand to the trick is known to all from then on, also after the trick goes face
down to the winner's pile; the cards a seat passes face down to its neighbour it still knows.
Cards that go on the table and off it within one action (a trick's last card) count as seen
there. Anything else is lost to a seat: it knows how many cards each place holds, not which;
which deal put them there (the kind of card a place holds); and which cards a place lacks
because its seat did not play them when the rules would have made it (it did not follow suit).
Steps tell a Knowledge what the state after an action no longer shows through ``State.seen``.

``determinize`` gives a state in which every card the seat does not know is swapped at random
with another such card of the same deal, never into a place that lacks it, everywhere the state
names it (zones, card values, step progress), with hidden values worked out again from the new
cards: one of the states the seat cannot tell from the real one, drawn without reading where
those cards really are.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.dsl.types import Type
from interpreter.engine.state import Seen, State
from interpreter.engine.steps.base import running
from interpreter.errors import GameError

Where = tuple[str, int]  # (zone, seat; -1 for a shared zone)


class Knowledge:
    """Follows one game: call ``update`` after every action and chance event applied to ``state``."""

    def __init__(self, game: Any, state: State):
        self.game = game
        self.everyone = (1 << game.players) - 1
        self._seen = {z: spec.visible for z, spec in game.zones.items()}
        state.seen = Seen()
        self.where = places_of(game, state)
        self.knowers = [self._sees(w) for w in self.where]
        # the chance event that last moved each card: a sample swaps a card only with one moved by the same
        # event (a deal of the number cards says the stock holds number cards)
        self.dealt = [0] * len(self.where)
        self._events = 0
        self.named = self._named(state)
        # cards a seat has shown not to hold in a place, until the place gets a card again: (zone, seat) -> cards
        self.excluded: dict[Where, set[int]] = {}
        # hidden per-seat values set by a set step: name -> (the step, the state before it), to work them out again
        self.derived: dict[str, tuple[Any, State]] = {}
        self._hidden = [name for name, v in game.visibility.items() if v != "all" and name in state.seat_vars]
        self._last = self._hidden_values(state)

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

    def _hidden_values(self, state: State) -> list[list[Any]]:
        return [list(state.seat_vars.get(name, ())) for name in self._hidden]

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

    def update(self, state: State) -> None:
        """After an action or chance event (the cards a deal shuffled: where one came from tells nothing
        about where it went)."""
        where = places_of(self.game, state)
        seen = state.seen
        passed: dict[int, int] = {}  # cards seen on their way in this action: by whom
        for zone, card in seen.cards:
            passed[card] = passed.get(card, 0) | (self.everyone if zone is None else self._sees((zone, -1)))
        named = self._named(state)
        for card in named - self.named:
            passed[card] = self.everyone
        self.named = named
        old = self.where
        knowers = self.knowers
        excluded = self.excluded
        dealt = set(seen.dealt)
        if dealt:
            self._events += 1
            for c in dealt:
                self.dealt[c] = self._events
        for c, w in enumerate(where):
            if w != old[c] or c in passed or c in dealt:
                saw = self._sees(w) | passed.get(c, 0)
                knowers[c] = saw if c in dealt else (knowers[c] & (saw | self._sees(old[c]))) | saw
                if w != old[c] and w in excluded:  # a card came in: what the place lacked may be there now
                    del excluded[w]
        self.where = where
        for seat, zones, void in seen.voids:
            cards = {c for c, v in enumerate(void) if v}
            for zone in zones:
                excluded.setdefault((zone, seat), set()).update(cards)
        self._follow_hidden(state, seen, bool(dealt))
        seen.clear()

    def _follow_hidden(self, state: State, seen: Seen, shuffled: bool) -> None:
        """Remember how hidden per-seat values were worked out; forget it when they change otherwise, or
        when cards are shuffled (the sample's cards would then follow the real cards' hidden way)."""
        if shuffled:
            self.derived.clear()
        for step, before in seen.derived:
            for name in step.hidden:  # kept in the order they were worked out
                self.derived.pop(name, None)
                self.derived[name] = (step, before)
        if self._hidden:
            now = self._hidden_values(state)
            for name, old, new in zip(self._hidden, self._last, now):
                if old != new and not any(name in step.hidden for step, _ in seen.derived):
                    self.derived.pop(name, None)
            self._last = now

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
    for place, cards in places(state):
        for c in cards:
            where[c] = place
    return where


def places(state: State) -> Iterator[tuple[Where, list[int]]]:
    """Every place and the cards in it: shared zones, then each seat's zones."""
    for zone, cards in state.shared.items():
        yield (zone, -1), cards
    for zone, hands in state.per_seat.items():
        for s, cards in enumerate(hands):
            yield (zone, s), cards


def cards_named(t: Type, value: Any) -> list[int]:
    """The cards a value of static type ``t`` names (a card, or a list of cards)."""
    if t.kind == "card" and type(value) is int:
        return [value]
    if _only_cards(t) and isinstance(value, (list, tuple)):
        return [c for c in value if type(c) is int]
    return []


def determinize(game: Any, state: State, seat: int, knowledge: Knowledge, rng: Any) -> State:
    """A copy of ``state`` with the cards ``seat`` does not know dealt again at random among their places
    (never where a seat has shown it holds no such card), and hidden values worked out again from them."""
    _refuse_hidden_values(game, state, seat, knowledge)
    bit = 1 << seat
    knowers, dealt = knowledge.knowers, knowledge.dealt
    slots: dict[int, list[int]] = {}  # by the chance event that dealt them: the true cards, place by place
    slot_places: dict[int, list[Where]] = {}
    for where, cards in places(state):
        for c in cards:
            if not knowers[c] & bit:
                slots.setdefault(dealt[c], []).append(c)
                slot_places.setdefault(dealt[c], []).append(where)
    rename_to: dict[int, int] = {}
    excluded = knowledge.excluded
    for event in sorted(slots):
        drawn = _deal(sorted(slots[event]), [excluded.get(w) for w in slot_places[event]], rng)
        rename_to.update(zip(slots[event], drawn))
    rename = rename_to.get
    other = state.clone()
    relabel(game, other, rename)
    _derive(game, other, seat, knowledge, rename)
    for step, p in running(game.steps, other.step_index, other.progress):  # choices the seat has not seen
        step.redraw(game, other, p, seat, rng)
    return other


_TRIES = 20  # plain shuffles tried before a matching deals around the cards seats have shown not to hold


def _deal(cards: list[int], bans: list[set[int] | None], rng: Any) -> list[int]:
    """``cards`` in a random order such that no card lands on a slot whose ban holds it (what the seat knows:
    which cards, how many in each place, and which cards each place lacks)."""
    rng.shuffle(cards)
    if not any(bans):
        return cards
    for _ in range(_TRIES):
        if not any(b is not None and c in b for c, b in zip(cards, bans)):
            return cards
        rng.shuffle(cards)
    slot_of: list[int | None] = [None] * len(bans)  # slot -> index into cards
    order = list(range(len(bans)))

    def place(i: int, tried: set[int]) -> bool:  # Kuhn's augmenting paths, slots in a random order
        rng.shuffle(order)
        for slot in list(order):
            ban = bans[slot]
            if slot in tried or (ban is not None and cards[i] in ban):
                continue
            tried.add(slot)
            if slot_of[slot] is None or place(slot_of[slot], tried):
                slot_of[slot] = i
                return True
        return False

    for i in range(len(cards)):
        if not place(i, set()):
            raise GameError("cannot sample the state: the cards seats have shown not to hold leave no deal")
    return [cards[i] for i in slot_of]  # type: ignore[index]


def _derive(game: Any, other: State, seat: int, knowledge: Knowledge, rename: Any) -> None:
    """Hidden per-seat values set by a set step, worked out again by that step on the state before it with the
    sample's cards (a start player's view of a face-down trump card follows the card the sample put there)."""
    again: dict[str, list[Any]] = {}
    for name, (step, before) in knowledge.derived.items():
        if name in again:
            continue
        snap = before.clone()
        relabel(game, snap, rename)
        for earlier, values in again.items():  # worked out before this step ran: as the sample has them
            snap.seat_vars[earlier] = list(values)
        step.start(game, snap)
        for hidden in step.hidden:
            again[hidden] = snap.seat_vars[hidden]
    for name, values in again.items():
        if name not in knowledge.derived:
            continue
        mine = game.visibility.get(name) != "nobody"
        other.seat_vars[name] = [other.seat_vars[name][s] if s == seat and mine else v for s, v in enumerate(values)]


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
    for step, p in running(game.steps, state.step_index, state.progress):
        step.relabel(p, card)


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
    filling, redrawn = frozenset(), frozenset()
    if state.pending is not None:
        filling, redrawn = state.pending.step.filling(), state.pending.step.redrawn()
    for name, values in state.seat_vars.items():
        visible = game.visibility.get(name, "all")
        if visible == "all" and name not in filling or name in knowledge.derived or name in redrawn:
            continue
        t = game.value_types.get(name)
        for s, value in enumerate(values):
            if (s != seat or visible == "nobody") and not _drawable(t, value, seat, knowledge):
                _refuse(game, seat, name)
    for name, value in state.vars.items():
        if name in redrawn:
            continue
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
