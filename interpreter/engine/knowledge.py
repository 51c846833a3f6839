"""Who knows where each card is, and states sampled from one seat's knowledge (for search).

A seat knows where a card is when it sees the card there (a zone visible to all, its own zone
visible to its owner), or when it knew where the card was and saw it leave or arrive: a card led
from a hidden hand to the trick is known to all from then on, also after the trick goes face
down to the winner's pile; the cards a seat passes face down to its neighbour it still knows.
Cards that go on the table and off it within one action (a trick's last card) count as seen
there. Anything else is lost to a seat: it knows how many cards each place holds, not which;
which deal put them there (the kind of card a place holds); which cards a place lacks because
its seat did not play them when the rules bound its play (it chose a card that did not follow
suit); the public values a set step worked out from what a seat could not see (a hint); and the
teams of seats it was not told of, when a teams step hides them (State.known_teams).
Steps tell a Knowledge what the state after an action no longer shows through ``State.seen``.

``determinize`` gives a state in which every card the seat does not know is swapped at random
with another such card of the same deal, never into a place that lacks it, everywhere the state
names it (zones, card values, step progress), with hidden values worked out again from the new
cards, hidden teams worked out again from them (agreeing with every team the seat knows), and in
which the public values worked out from hidden things come out as they did: one of
the states the seat cannot tell from the real one, drawn without reading where those cards
really are.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.engine.card_values import cards_named, only_cards
from interpreter.engine.game import Game
from interpreter.engine.state import Seen, State
from interpreter.engine.zone_counts import counted_only

Where = tuple[str, int]  # (zone, seat; -1 for a shared zone)


class Knowledge:
    """Follows one game: call ``update`` after every action and chance event applied to ``state``."""

    def __init__(self, game: Game, state: State):
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
        # hidden per-seat values set by a set step: name -> how it ran (the step, the state before it), to work
        # them out again on a sample
        self.derived: dict[str, Run] = {}
        # public values a set step worked out from something hidden (a hint that depends on hidden trump cards): a
        # sample must work them out the same. Until cards are shuffled again.
        self.checks: list[Run] = []
        # the run of the teams step that set hidden teams (a sample works them out again on its cards), until teams
        # are set again or cards are shuffled
        self.teams: Run | None = None
        self.disagreed = 0  # samples that no draw within _AGREE_TRIES made agree with every check (see determinize)
        self._tells: dict[int, tuple[tuple[str, str], ...]] = {}  # by id(step): see _public_outputs
        self._hidden = [name for name, v in game.visibility.items() if v != "all" and name in state.seat_vars]
        self._last = self._hidden_values(state)

    def _named(self, state: State) -> set[int]:
        """The cards public values name (a shown exchange, a turned card): everyone knows them."""
        game = self.game
        filling = state.pending.step.search.filling() if state.pending is not None else frozenset()
        out: set[int] = set()
        for values, per_seat in ((state.vars, False), (state.game_vars, False), (state.seat_vars, True)):
            for name, value in values.items():
                t = game.value_types.get(name)
                if t is None or not only_cards(t) or game.visibility.get(name, "all") != "all" or name in filling:
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
        assert seen is not None, "a Knowledge follows the state it was made with (it set state.seen)"
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
        """Remember how hidden per-seat values and public values read from hidden things were worked out;
        forget hidden values when they change otherwise; forget both when cards are shuffled (the sample's
        cards would then follow the real cards' hidden way)."""
        if shuffled:
            self.derived.clear()
            self.checks.clear()
            self.teams = None
        game = self.game
        for step, before in seen.derived:
            if step.kind == "teams":
                self.teams = None
                if step.hides:
                    self.teams = Run(step, before, dict(self.derived))
                    self.teams.read(probe(game, self.teams, before.clone())[1])
                continue
            hidden = getattr(step, "hidden", ())
            outputs = self._public_outputs(step)
            if not hidden and not outputs:
                continue
            run = Run(step, before, dict(self.derived))  # with the hidden values it could read as they were then
            after, reads = probe(game, run, before.clone())
            run.read(reads)
            # the values it told everyone, and each seat its own, worked out from something hidden
            run.mine = {name: after.seat_vars[name] for name in hidden if game.visibility.get(name) == "owner"}
            if reads and (outputs or run.mine):
                run.outputs, run.told = outputs, told_values(after, outputs)
                self.checks.append(run)
            for name in hidden:  # kept in the order they were worked out
                self.derived.pop(name, None)
                self.derived[name] = run
        if self._hidden:
            now = self._hidden_values(state)
            for name, old, new in zip(self._hidden, self._last, now):
                if old != new and not any(name in getattr(step, "hidden", ()) for step, _ in seen.derived):
                    self.derived.pop(name, None)
            self._last = now

    def _public_outputs(self, step: Any) -> tuple[tuple[str, str], ...]:
        """The public values (group, name) ``step`` sets when its expressions may read something hidden: any part
        of the state but round values everyone sees, the seat it works a value out for, and seats its trick binds
        (the winner). Empty for a step that reads only public values (its values need no check)."""
        key = id(step)
        if key not in self._tells:
            game = self.game
            out: tuple[tuple[str, str], ...] = ()
            assign = getattr(step, "assign", None)
            if assign:
                hidden = set(getattr(step, "hidden", ()))
                bound = getattr(step, "bound", {}) or {}

                def public(dep: str) -> bool:
                    if dep == "ctx:seat":
                        return True
                    if dep.startswith("ctx:"):
                        t = bound.get(dep[4:])
                        return t is not None and (t.kind == "seat" or t.kind == "list" and t.element is not None
                                                  and t.element.kind == "seat")
                    return dep.startswith("round:") and game.visibility.get(dep[6:], "all") == "all"

                if not all(public(d) for _, _, expr in assign for d in expr.deps):
                    out = tuple((group, name) for group, name, _ in assign
                                if name not in hidden and game.visibility.get(name, "all") == "all")
            self._tells[key] = out
        return self._tells[key]

    def knows(self, seat: int, card: int) -> bool:
        """Whether ``seat`` knows where ``card`` is."""
        return bool(self.knowers[card] >> seat & 1)

    def unknown(self, seat: int) -> list[int]:
        """The cards in play whose place ``seat`` does not know, by card id."""
        bit = 1 << seat
        return [c for c, w in enumerate(self.where) if w is not None and not self.knowers[c] & bit]


def places_of(game: Game, state: State) -> list[Where | None]:
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


class Run:
    """One run of a set step that worked values out from something hidden, as a Knowledge keeps it: the step, the
    state before it, the runs that had worked out the hidden values it could read (``derived``), what hidden
    parts of the state it read (``reads``: (zone, name), (seat, name), (round, name), (game, name)), and for a
    step that told everyone values (a check) which values (``outputs``) and what it told (``told``); a check too,
    for the seat itself, is a value each seat sees its own of (``mine``: the values as they were).

    Working it out again on a sample's cards gives the same result whenever what it read is the same: ``memo``
    keeps results by those inputs, so drawing the cards again costs a look-up, not a run of the step."""

    __slots__ = ("step", "before", "derived", "reads", "order", "memo", "outputs", "told", "mine")

    def __init__(self, step: Any, before: State, derived: dict[str, Run]):
        self.step, self.before, self.derived = step, before, derived
        self.reads: frozenset[tuple[str, str]] = frozenset()
        self.order: tuple[tuple[str, str], ...] = ()  # the reads in a fixed order (a key's)
        self.memo: dict[Any, Any] = {}
        self.outputs: tuple[tuple[str, str], ...] = ()
        self.told: tuple[Any, ...] = ()
        self.mine: dict[str, list[Any]] = {}  # hidden values each seat sees its own of: as they were worked out

    def read(self, reads: frozenset[tuple[str, str]]) -> None:
        self.reads, self.order = reads, tuple(sorted(reads))


class _Reading(dict[Any, Any]):
    """A dict of a state (zones, values) that notes which names are read from it."""

    __slots__ = ("part", "read")
    part: str
    read: set[tuple[str, Any]]

    def __getitem__(self, key: Any) -> Any:
        self.read.add((self.part, key))
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        self.read.add((self.part, key))
        return dict.get(self, key, default)

    def _all(self) -> None:
        self.read.update((self.part, k) for k in dict.keys(self))

    def __iter__(self) -> Any:
        self._all()
        return dict.__iter__(self)

    def keys(self) -> Any:
        self._all()
        return dict.keys(self)

    def values(self) -> Any:
        self._all()
        return dict.values(self)

    def items(self) -> Any:
        self._all()
        return dict.items(self)


def probe(game: Game, run: Run, snap: State) -> tuple[State, frozenset[tuple[str, str]]]:
    """Run ``run``'s step on ``snap`` (a copy of the state before it); give the state after it and the hidden
    parts of the state it read (zones not every seat sees, values hidden from some seat), but the zones it reads
    only by their number of cards, which every sample keeps (engine/zone_counts.py)."""
    read: set[tuple[str, Any]] = set()
    for attr, part in (("shared", "zone"), ("per_seat", "zone"), ("vars", "round"), ("seat_vars", "seat"),
                       ("game_vars", "game")):
        d = _Reading(getattr(snap, attr))
        d.part, d.read = part, read
        setattr(snap, attr, d)
    run.step.start(game, snap)
    for attr in ("shared", "per_seat", "vars", "seat_vars", "game_vars"):
        setattr(snap, attr, dict(dict.items(getattr(snap, attr))))
    zones, visibility = game.zones, game.visibility
    counted = counted_only(zones, run.step)
    return snap, frozenset((part, name) for part, name in read if (
        zones[name].visible != "all" and name not in counted if part == "zone"
        else visibility.get(name, "all") != "all"))


def told_values(state: State, outputs: tuple[tuple[str, str], ...]) -> tuple[Any, ...]:
    """The values ``outputs`` (group, name) of a set step, as ``state`` has them."""
    return tuple(state.vars.get(name) if group == "round" else state.game_vars.get(name) if group == "game"
                 else list(state.seat_vars[name]) for group, name in outputs)
