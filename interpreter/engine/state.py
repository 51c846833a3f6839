"""The mutable game state: plain lists and dicts, cheap to copy.

Everything a step needs between decisions lives here (its progress is a small
object with ``copy()``, never a generator or a closure), so a state can be
cloned for search and replayed exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.engine.game import Game
    from interpreter.engine.steps.base import Decision

CHANCE = -1

# the parts of State.fingerprint, in order
FINGERPRINT = ("shared zones", "seat zones", "round values", "seat values", "game values", "counters", "teams",
               "teams known to each seat", "team sizes known", "totals", "round results", "round number", "dealer",
               "step running", "progress of the steps", "pending decision", "actions taken", "last round's values",
               "game over")


class Seen:
    """What an action showed that the state after it no longer does, for a Knowledge (engine/knowledge.py)."""

    __slots__ = ("cards", "dealt", "voids", "derived")

    def __init__(self) -> None:
        self.cards: list[tuple[str | None, int]] = []  # (zone, card) put on the table; zone None: shown to all
        self.dealt: list[int] = []  # cards shuffled and dealt: where they were tells nothing of where they went
        self.voids: list[tuple[int, tuple[str, ...], list[bool]]] = []  # (seat, zones, cards it cannot hold there)
        self.derived: list[tuple[Any, State]] = []  # (set step, the state before it) for values hidden from some

    def clear(self) -> None:
        self.cards.clear()
        self.dealt.clear()
        self.voids.clear()
        self.derived.clear()


class State:
    __slots__ = (
        "game", "players", "shared", "per_seat", "vars", "seat_vars", "game_vars", "counters", "teams", "totals",
        "team_known", "team_counted",
        "round_results", "round_number", "dealer", "step_index", "progress", "finished",
        "pending", "actions_taken", "notes", "seen", "ended", "told",
    )

    def __init__(self, game: Game):
        self.game = game
        self.players = game.players
        self.shared: dict[str, list[int]] = {z: [] for z in game.shared_zones}
        self.per_seat: dict[str, list[list[int]]] = {z: [[] for _ in range(game.players)] for z in game.seat_zones}
        self.vars: dict[str, Any] = {}
        self.seat_vars: dict[str, list[Any]] = {}
        self.game_vars: dict[str, Any] = {}
        self.counters: dict[str, list[int]] = {c: [0] * game.players for c in game.counters}
        self.teams: list[int] = list(range(game.players))
        # hidden teams (a teams step with known: own or nobody): for each seat, the seats whose team it has been
        # told (a bit each); None while the teams are public. team_counted: the teams' sizes are public too.
        self.team_known: list[int] | None = None
        self.team_counted = False
        self.totals: list[int] = [0] * game.players
        self.round_results: list[list[int]] = []
        self.round_number = 0
        self.dealer = game.first_dealer
        self.step_index = -1
        self.progress: Any = None
        self.finished = False
        self.pending: Decision | None = None
        self.actions_taken = 0
        self.notes: list[str] | None = None  # narration, collected only when a list is set
        self.ended: dict[str, Any] | None = None  # the round values of the last round played, as it ended
        self.seen: Seen | None = None  # what a Knowledge following this state is told of each action
        self.told: list[dict[str, Any]] | None = None  # tricks won and automatic decisions, as events, when a list

    def clone(self) -> State:
        """An independent copy: every mutable container is copied, cards are ints.

        The pending decision is copied too, so the clone's legal actions never share a list
        with the original (playing on one leaves the other as it was).
        """
        other = State.__new__(State)
        other.game = self.game
        other.players = self.players
        other.shared = {k: list(v) for k, v in self.shared.items()}
        other.per_seat = {k: [list(h) for h in v] for k, v in self.per_seat.items()}
        other.vars = dict(self.vars)
        other.seat_vars = {k: list(v) for k, v in self.seat_vars.items()}
        other.game_vars = dict(self.game_vars)
        other.counters = {k: list(v) for k, v in self.counters.items()}
        other.teams = list(self.teams)
        other.team_known = None if self.team_known is None else list(self.team_known)
        other.team_counted = self.team_counted
        other.totals = list(self.totals)
        other.round_results = [list(r) for r in self.round_results]
        other.round_number = self.round_number
        other.dealer = self.dealer
        other.step_index = self.step_index
        other.progress = None if self.progress is None else self.progress.copy()
        other.finished = self.finished
        other.pending = None if self.pending is None else self.pending.copy()
        other.actions_taken = self.actions_taken
        other.notes = None
        other.seen = None
        other.told = None
        other.ended = self.ended  # never changed once the round is over
        return other

    def fingerprint(self, kinds: bool = False) -> tuple[Any, ...]:
        """Everything that decides how the game goes on from here, as nested tuples of plain values (hashable): two
        states of the same rules with equal fingerprints are the same game at the same point, whichever way each
        was reached (a clone, the same choices played by another path).

        Its parts, in order, are named by FINGERPRINT: every zone, the round, seat and game values, the counters,
        the teams and what each seat was told of them, the totals and the round results, the round's number and
        dealer, the step running, the steps' progress (every field of the progress objects, nested steps' too),
        the pending decision (its seat, step, kind, prompt and actions, each action with its type: ``Play(0, 0)``
        is no ``Cover(0, 0)``), the number of actions taken, the last round's values and whether the game is over.
        Steps are named by their place in the rule file, so states of the same rules compiled twice compare. What
        a driver hangs on a state to follow it (``notes``, ``seen``, ``told``) is not part of it.
        :func:`difference` says where two fingerprints differ.

        ``kinds``: identical cards count as one, each card named by its kind (the id of the first identical card)
        and each pending action by its label, as a record names them: a state read back from its record may hold
        the other copy of an identical card wherever the game dealt or moved one of them."""
        state, pending, ended = self, plain(self.pending), plain(self.ended)
        if kinds:
            from interpreter.engine.card_values import renamed
            from interpreter.engine.knowledge import relabel

            game = self.game
            kind = game.cards.kinds.__getitem__
            state = self.clone()
            relabel(game, state, kind)
            d = self.pending
            if d is not None:
                pending = ("decision", d.actor, plain(d.step), d.kind, d.prompt,
                           tuple(d.step.label(game, a) for a in d.actions) if d.actor != CHANCE else ())
            if self.ended is not None:
                ended = plain({k: renamed(game.value_types.get(k), v, kind) for k, v in self.ended.items()})
        return (
            tuple((name, tuple(cards)) for name, cards in state.shared.items()),
            tuple((name, tuple(tuple(cards) for cards in hands)) for name, hands in state.per_seat.items()),
            plain(state.vars), plain(state.seat_vars), plain(state.game_vars), plain(state.counters),
            tuple(state.teams), None if state.team_known is None else tuple(state.team_known), state.team_counted,
            tuple(state.totals), tuple(tuple(r) for r in state.round_results),
            state.round_number, state.dealer, state.step_index, plain(state.progress), pending,
            state.actions_taken, ended, state.finished,
        )

    def note(self, text: str) -> None:
        if self.notes is not None:
            self.notes.append(text)

    # -- teams, used by DSL builtins
    def team_members(self, seat: int) -> list[int]:
        t = self.teams[seat]
        return [s for s in range(self.players) if self.teams[s] == t]

    def opponents(self, seat: int) -> list[int]:
        t = self.teams[seat]
        return [s for s in range(self.players) if self.teams[s] != t]

    def same_team(self, a: int, b: int) -> bool:
        return self.teams[a] == self.teams[b]

    def known_teams(self, viewer: int | None) -> list[int | None]:
        """The team of each seat as ``viewer`` knows it (None: not known to it; viewer None: a spectator, who
        knows what everyone was told). A seat knows the teams of the seats it was told of (known_teams' bits);
        when the teams' sizes are public it also counts: when only one team still has room, every seat whose
        team it does not know is on that team."""
        known = self.team_known
        teams = self.teams
        if known is None:
            return list(teams)
        n = self.players
        if viewer is None:
            mask = (1 << n) - 1
            for m in known:
                mask &= m
        else:
            mask = known[viewer]
        out: list[int | None] = [teams[s] if mask >> s & 1 else None for s in range(n)]
        if self.team_counted and None in out:
            room = [t for t in set(teams) if out.count(t) < teams.count(t)]
            if len(room) == 1:
                out = [room[0] if t is None else t for t in out]
        return out

    def known_team(self, viewer: int, seat: int) -> list[int]:
        """The seats ``viewer`` knows to be on ``seat``'s team (none when it does not know ``seat``'s team)."""
        view = self.known_teams(viewer)
        t = view[seat]
        return [] if t is None else [s for s in range(self.players) if view[s] == t]

    def known_opponents(self, viewer: int, seat: int) -> list[int]:
        """The seats ``viewer`` knows to be on another team than ``seat`` (none when it does not know ``seat``'s)."""
        view = self.known_teams(viewer)
        t = view[seat]
        return [] if t is None else [s for s in range(self.players) if view[s] is not None and view[s] != t]

    # -- cards
    def all_cards(self) -> list[int]:
        """Every card in every zone, for conservation checks."""
        out: list[int] = []
        for cards in self.shared.values():
            out.extend(cards)
        for hands in self.per_seat.values():
            for cards in hands:
                out.extend(cards)
        return out

    def zone_of(self, card: int, seat: int | None = None) -> list[int] | None:
        """The list holding ``card`` (searched: moves are rare, tricks keep their own bookkeeping).

        ``seat``: look in that seat's zones first (a card chosen from a seat's hand).
        """
        if seat is not None:
            for hands in self.per_seat.values():
                if card in hands[seat]:
                    return hands[seat]
        for cards in self.shared.values():
            if card in cards:
                return cards
        for hands in self.per_seat.values():
            for cards in hands:
                if card in cards:
                    return cards
        return None


_LEAVES = frozenset({int, str, float, type(None)})  # values that are their own fingerprint


def plain(value: Any) -> Any:
    """``value`` (a state's value, progress object, decision or action) as nested tuples of plain values, for
    :meth:`State.fingerprint`: lists and tuples as tuples, a mapping as its items sorted, a named tuple (an action)
    or an object with ``__slots__`` (a step's progress) tagged with its class's name, true and false tagged (so
    that ``True`` is not ``1``), a step by its place in the rule file, a decision by what it asks."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is bool:
        return ("bool", value)
    if kind is list or kind is tuple:
        if _LEAVES.issuperset(map(type, value)):  # cards, seats, numbers: the most common by far
            return tuple(value)
        return tuple(map(plain, value))
    if isinstance(value, tuple):  # a named tuple: an action
        return (kind.__name__, *map(plain, value))
    if isinstance(value, dict):
        try:
            keys = sorted(value)  # names, as a rule file's values have
        except TypeError:  # keys of several kinds
            keys = sorted(value, key=repr)
        return (kind.__name__, tuple([(k, plain(value[k])) for k in keys]))
    from interpreter.engine.steps.base import Decision, Step

    if isinstance(value, Step):
        return ("step", value.path)
    if isinstance(value, Decision):
        return ("decision", value.actor, plain(value.step), value.kind, value.prompt, plain(value.actions))
    slots = [slot for cls in kind.__mro__ for slot in _slots(cls)]
    if not slots:
        raise TypeError(f"a state holds a {kind.__name__}, which its fingerprint cannot read")
    return (kind.__name__, tuple((slot, plain(getattr(value, slot, None))) for slot in slots))


def _slots(cls: type) -> tuple[str, ...]:
    slots = cls.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)


def difference(a: tuple[Any, ...], b: tuple[Any, ...], names: tuple[str, str] = ("in one", "in the other")) -> \
        str | None:
    """Where two fingerprints (:meth:`State.fingerprint`) first differ, in words: the part, the path to the entry
    that differs in it (a zone, a value, a progress object's field, an index), and both values, each followed by its
    state's name in ``names`` ("seat zones.hand[1] is (3, 13) in the state and (13,) in the clone"); None when they
    are equal."""
    for part, x, y in zip(FINGERPRINT, a, b):
        if x != y:
            path, x, y = _apart(x, y, "")
            return f"{part}{path} is {_cut(x)} {names[0]} and {_cut(y)} {names[1]}"
    return None


def _apart(x: Any, y: Any, path: str) -> tuple[str, Any, Any]:
    """The path from ``x`` and ``y`` (made by :func:`plain`, different) down to where they differ, and the values
    there: a named entry or a tagged value (a pair of a name and a value, the same name in both) by its name, any
    other entry of tuples of the same length by its index."""
    while type(x) is tuple and type(y) is tuple:
        if len(x) == len(y) == 2 and type(x[0]) is str and x[0] == y[0] and x[0] != "bool":
            path += "" if x[0] in ("dict", "Record") else f".{x[0]}"
            x, y = x[1], y[1]
            continue
        if _entries(x) and _entries(y):  # named entries (zones, values, fields): by name, one the other has not
            xs, ys = dict(x), dict(y)
            name = next((k for k in [*xs, *ys] if xs.get(k, _NONE) != ys.get(k, _NONE)), None)
            if name is not None:  # (else the same entries in another order, or a name twice)
                path += f".{name}"
                x, y = xs.get(name, _NONE), ys.get(name, _NONE)
                continue
        if len(x) != len(y):
            break
        i = next(i for i in range(len(x)) if x[i] != y[i])
        path += f"[{i}]"
        x, y = x[i], y[i]
    return path, x, y


def _entries(value: tuple[Any, ...]) -> bool:
    """Whether ``value`` is a tuple of named entries, (name, value) each."""
    return bool(value) and all(type(e) is tuple and len(e) == 2 and type(e[0]) is str for e in value)


_NONE = object()  # an entry one of the two has not


def _cut(value: Any) -> str:
    text = "nothing" if value is _NONE else repr(value)
    return text if len(text) <= 300 else text[:300] + "..."
