"""The mutable game state: plain lists and dicts, cheap to copy; and the decision pending in it.

Everything a step needs between decisions lives here (its progress is a small
object with ``copy()``, never a generator or a closure), so a state can be
cloned for search and replayed exactly.

A state holds its game (as :class:`GameView`) and its pending :class:`Decision`, which holds the step whose
decision it is (as :class:`Deciding`: what the game and those who drive or watch it ask of that step). Both are
protocols, so that this module imports neither the game nor the steps, which import it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from interpreter.engine.game_view import GameView
from interpreter.engine.team_queries import TeamQueries

CHANCE = -1


class Says(Protocol):
    """What the words of the step whose decision is pending say (engine/steps/words.py's ``Words``): its actions'
    labels and keys, a phrase for each, why a card is refused."""

    def label(self, game: GameView, action: Any) -> str: ...

    def describe(self, game: GameView, state: State, d: Decision, action: Any,
                 viewer: int | None = None) -> str | None: ...

    def refusal(self, game: GameView, state: State, card: int) -> str | None: ...

    def action_key(self, game: GameView, action: Any) -> Any: ...


class Hides(Protocol):
    """What the step whose decision is pending hides (engine/steps/search.py's ``Search``)."""

    def filling(self) -> frozenset[str]: ...

    def redrawn(self) -> frozenset[str]: ...


class Draws(Protocol):
    """Chance's outcomes at the step whose decision is pending (engine/steps/chance.py's ``Chance``)."""

    def chance_cards(self, game: GameView, state: State) -> list[int]: ...

    def sample(self, game: GameView, state: State, rng: Any) -> Any: ...

    def outcome_to_record(self, game: GameView, state: State, outcome: Any) -> dict[str, Any]: ...

    def outcome_from_record(self, game: GameView, state: State, data: dict[str, Any]) -> Any: ...


class Deciding(Protocol):
    """What is asked of the step whose decision is pending (engine/steps/base.py's ``Step`` gives all of it): its
    name and place, the names it binds, an automatic seat's choice, and its parts: what it says (``words``), what it
    hides (``search``) and chance's outcomes (``chance``)."""

    @property
    def name(self) -> str: ...

    @property
    def where(self) -> str: ...  # FILE:LINE:COL of the step in its rule file

    @property
    def words(self) -> Says:
        """What it says (engine/steps/words.py)."""

    @property
    def search(self) -> Hides:
        """What it hides, for search (engine/steps/search.py)."""

    @property
    def chance(self) -> Draws:
        """Chance's outcomes, for a step whose decisions are chance's (engine/steps/chance.py)."""

    def env(self, state: State) -> dict[str, Any]: ...

    def value_of(self, game: GameView, state: State, p: Any, d: Decision, value: Any) -> Any: ...


class Decision:
    """Who acts now (a seat index, or CHANCE), what kind of decision it is, and the legal actions.

    ``kind`` is ``play``, ``choose``, ``cover``, ``take`` or ``chance``; ``step`` is the step
    whose actions these are (it gives their labels).
    """

    __slots__ = ("actor", "actions", "step", "prompt", "kind")

    def __init__(self, actor: int, actions: list[Any], step: Deciding, prompt: str = "", kind: str = "choose"):
        self.actor = actor
        self.actions = actions
        self.step = step
        self.prompt = prompt
        self.kind = kind

    def copy(self) -> Decision:
        return Decision(self.actor, list(self.actions), self.step, self.prompt, self.kind)

    def __repr__(self) -> str:
        return f"Decision({self.kind}, actor={self.actor}, step={self.step.name!r}, {len(self.actions)} actions)"


class Seen:
    """What an action showed that the state after it no longer does, for a Knowledge (engine/knowledge.py)."""

    __slots__ = ("cards", "dealt", "voids", "derived")

    def __init__(self) -> None:
        self.cards: list[tuple[str | None, int]] = []  # (zone, card) put on the table; zone None: shown to all
        self.dealt: list[int] = []  # cards shuffled and dealt: where they were tells nothing of where they went
        self.voids: list[tuple[int, Sequence[str], list[bool]]] = []  # (seat, zones, cards it cannot hold there)
        self.derived: list[tuple[Any, State]] = []  # (set step, the state before it) for values hidden from some

    def clear(self) -> None:
        self.cards.clear()
        self.dealt.clear()
        self.voids.clear()
        self.derived.clear()


class State(TeamQueries):
    __slots__ = (
        "game", "players", "shared", "per_seat", "vars", "seat_vars", "game_vars", "counters", "teams", "totals",
        "team_known", "team_counted",
        "round_results", "round_number", "dealer", "step_index", "progress", "finished",
        "pending", "actions_taken", "notes", "seen", "ended", "ended_teams", "told",
    )

    def __init__(self, game: GameView):
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
        self.ended_teams: list[int] | None = None  # each seat's team as that round ended
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
        other.ended_teams = self.ended_teams
        return other

    def note(self, text: str) -> None:
        if self.notes is not None:
            self.notes.append(text)

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

    def take(self, card: int, seat: int | None = None) -> list[int] | None:
        """Take ``card`` out of the list holding it (looked for as ``zone_of`` does), and that list; None when it
        lies nowhere. Of identical cards the zone keeps the order of its first copies: ``card`` leaves, and the last
        copy of its kind takes its place (as a play takes the last copy, and as the compact layout, where a card is
        its kind, takes it: runtime/moves.py), so which copy a choice named never changes the game."""
        where = self.zone_of(card, seat)
        if where is None:
            return None
        i = where.index(card)
        kinds = self.game.cards.kinds
        kind = kinds[card]
        for j in range(len(where) - 1, i, -1):
            if kinds[where[j]] == kind:
                where[i] = where[j]
                del where[j]
                return where
        del where[i]
        return where

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
