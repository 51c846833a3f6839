"""The conformance battery: the game of one seed of a rule file, played by every path there is and checked at every
step, the way OpenSpiel's random_sim_test checks every game.

The game of seed ``conformance/I`` draws chance from ``random.Random(seed)`` and seat ``s`` chooses as
``RandomAgent(f"{seed}:{s}")`` (harness/runner.random_agents), whichever path plays it. :func:`check_game` checks,
as its :class:`Checks` ask:

1. the game ends within the limits and its round scores add up to its totals; every card of the deck is in exactly
   one place after every action and chance event (``conserve``);
2. at every ``every``-th action or chance event, a clone taken there is equal to the state
   (``State.fingerprint``), playing the action on the clone leaves the state as it was, and playing it on the
   state too leaves the two equal;
3. at ``saves`` points of the API's game, the state serialized and read back (``GameState.serialize``,
   ``TrickGame.deserialize``), or pickled and loaded, is equal to it (up to which of two identical cards is where,
   as a record names cards by their labels) and goes on identically: a state read back alongside the state until
   the next chance event, a pickled one in its place to the end of the game (its record is then compared);
4. (``lockstep``) ``Game.playout`` under the agents' policy takes the decisions the checked path (``state.pending``
   and ``Game.apply``) takes with the same choices, decision by decision, the states equal at every ``every``-th,
   and ends in the same state; under its default policy it ends as under a policy drawing the same numbers; and
   the quiet run of ``play_game`` (nothing recorded: played out round by round) ends alike, with the same round
   values;
5. (``records``) the same seed gives the same record, and the record replays to the same totals, winners and rounds;
6. (``drivers``) every driver of ``drivers.DRIVERS`` writes the same record, line for line, byte for byte.

A failure is a ConformanceError naming the game, its players, the seed, the action and what broke.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from interpreter.api import GameState
from interpreter.conformance.drivers import DRIVERS
from interpreter.engine.fingerprint import FINGERPRINT, difference, fingerprint
from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE, Decision, State
from interpreter.errors import TrickbookError
from interpreter.harness.agents import RandomAgent
from interpreter.harness.runner import play_game, random_agents
from interpreter.match.records import replay, write_record


class ConformanceError(TrickbookError):
    """A game broke an invariant: the message names the game, its players, the seed, the action and what broke."""


def seed_of(index: int) -> str:
    """The seed of conformance game ``index`` (the same in the test suite and the command)."""
    return f"conformance/{index}"


@dataclass(frozen=True)
class Checks:
    """Which checks of the battery a game gets (see the module's docstring). Termination and the round scores are
    always checked; the rest costs work at each action (``conserve``, ``every``) or games played again."""

    conserve: bool = True  # every card in one place after every action and chance event
    records: bool = True  # the same seed, the same record; the record replays to the same end
    drivers: bool = True  # every driver writes the same record
    lockstep: bool = True  # playout against the checked path; the quiet run of play_game
    every: int = 1  # a clone compared at every k-th action or chance event, and playout's states at every k-th
    # decision (0: none)
    saves: int = 6  # points of the API's game where its state is serialized or pickled and read back (0: none)


ENDS = Checks(conserve=False, records=False, drivers=False, lockstep=False, every=0, saves=0)  # it ends, it adds up
RECORDS = Checks(drivers=False, lockstep=False, every=0, saves=0)  # `trickbook conformance`'s default
ALL = Checks()  # everything, at every action


@dataclass
class Played:
    """What a checked game was: its rounds and its actions (the figures of ``trickbook conformance``)."""

    rounds: int
    actions: int  # actions and chance events, automatic seats' decisions not counted


# the parts of a fingerprint a playout's policy sees as the checked path does: a step's own loop keeps the steps'
# progress and the pending decision in its locals, and counts its actions when the loop ends
SETTLED = tuple(i for i, part in enumerate(FINGERPRINT)
                if part not in ("progress of the steps", "pending decision", "actions taken"))


def settled(state: State) -> tuple[Any, ...]:
    """The state's fingerprint without the steps' progress, the pending decision and the count of actions taken."""
    whole = fingerprint(state)
    return tuple(whole[i] for i in SETTLED)


class _Case:
    """The game being checked: what a failure names."""

    def __init__(self, game: Game, seed: Any, rules_file: str | None = None):
        self.game, self.seed, self.rules_file = game, seed, rules_file

    def error(self, what: str, n: int | None = None, round_number: int | None = None,
              d: Decision | None = None) -> ConformanceError:
        """A failure at action or chance event ``n`` (from 0; None: of the game as a whole), taken in round
        ``round_number`` at decision ``d``."""
        game = self.game
        where = f"{game.name}, {game.player_count} players, seed {self.seed}"
        if n is not None:
            where += f", action {n + 1}"
            if round_number is not None:
                who = "chance" if d is None or d.actor == CHANCE else f"{game.seat_names[d.actor]} to act"
                where += f" (round {round_number}" + ("" if d is None else f", step {d.step.name!r}, {who}") + ")"
        return ConformanceError(f"{where}: {what}")

    def at(self, n: int, state: State) -> Callable[[str], ConformanceError]:
        """The error of a failure at action ``n``, taken in ``state`` as it is now."""
        round_number, d = state.round_number, state.pending
        return lambda what: self.error(what, n, round_number, d)


def check_game(game: Game, index: int, folder: Path, checks: Checks = ALL, rules_file: str | None = None) -> Played:
    """Play conformance game ``index`` of ``game`` and check it as ``checks`` ask; raise ConformanceError.
    ``folder``: where its record is written to be replayed; ``rules_file``: the rule file's path, for a game that
    is not bundled (its records name it, a pickled state is loaded from it)."""
    case = _Case(game, seed_of(index), rules_file)
    watch = _Watch(case, checks.conserve)
    recorded = checks.records or checks.drivers
    first: list[dict[str, Any]] | None = None
    if checks.lockstep or checks.every or not recorded:  # the checked path, checked at every action
        seen = _playout(case, checks.every) if checks.lockstep else None
        state = _walk(case, checks.every, _agents(case), random.Random(case.seed), seen, watch)
        if seen is not None:
            _equal(case.error, "playout ended in another state than the checked path", fingerprint(state),
                   seen[-1][2])
            _quiet(case, state, watch.values)
            _default_policy(case)
    else:  # the first driver's own run is checked at every action
        first = _driven(case, 0, watch)
        assert watch.state is not None, f"{DRIVERS[0].name} tells after each action of the engine's state"
        state = watch.state
    if len(state.round_results) != state.round_number or sum(map(sum, zip(*state.round_results))) != sum(state.totals):
        raise case.error("the round scores do not add up to the totals")
    end = (list(state.totals), game.winners(state), state.round_number)
    if recorded:
        first = first or _driven(case, 0, None)
        _ends_as(case, first, end)
        if checks.records:
            _again(case, first, end, folder)
        if checks.drivers:
            points = {(i + 1) * watch.n // (checks.saves + 1): i % 2 == 0 for i in range(checks.saves)}
            for k in range(1, len(DRIVERS)):
                _same_records(case, 0, first, k, _driven(case, k, _Saves(case, points)))
    return Played(state.round_number, watch.n)


# ---------------------------------------------------------------------------------------------- the checked path


class _Watch:
    """Told of the state after each action and chance event of the game that is checked at every action (the
    checked path's, or the first driver's): counts them, checks that every card of the deck is in exactly one place
    (``conserve``), keeps the round values of each round as it ended."""

    def __init__(self, case: _Case, conserve: bool):
        self.case = case
        self.deck = sorted(case.game.deck) if conserve else None
        self.n = 0
        self.values: list[dict[str, Any]] = []
        self.state: State | None = None

    def __call__(self, state: State) -> State:
        self.n += 1
        self.state = state
        if self.deck is not None and sorted(state.all_cards()) != self.deck:
            raise self.case.error(f"after it {len(state.all_cards())} cards of {len(self.deck)} are in play, or a "
                                  "card is in two places", self.n - 1, state.round_number)
        if state.ended is not None and (not self.values or state.ended is not self.values[-1]):
            self.values.append(state.ended)
        return state


def _agents(case: _Case) -> Callable[[int, list[Any]], int]:
    """The agents' choices of the seed's game, by seat: the index of the chosen action."""
    picks = [cast(RandomAgent, agent).pick for agent in random_agents(case.game, case.seed)]
    return lambda seat, actions: picks[seat](actions)


def _walk(case: _Case, every: int, choose: Callable[[int, list[Any]], int], rng: random.Random,
          seen: list[tuple[int, list[Any], Any]] | None, watch: _Watch | None, notes: bool = False) -> State:
    """The game on the checked path (``state.pending``, ``Game.apply``), chance from ``rng``, the seats choosing
    by ``choose``: ``watch`` told after each action and chance event, a clone checked at every ``every``-th, each
    decision checked against playout's (``seen``). The state at the end."""
    game = case.game
    n = k = 0
    state: State | None = None
    last: tuple[Any, ...] | None = None  # the state's fingerprint, when one was taken after the last action
    apply: Callable[[State, Any], None]
    try:
        state = game.new_state()
        if notes:
            state.notes = []
        while not state.finished:
            d = state.pending
            assert d is not None, "a game not finished waits for a decision"
            if d.actor == CHANCE:
                action, apply = game.sample_chance(state, rng), game.apply_chance
            else:
                if seen is not None:
                    last = _as_playout(case, n, k, state, d, seen, last)
                action, apply = d.actions[choose(d.actor, d.actions)], game.apply
                k += 1
            if every and n % every == 0:
                last = _cloned(case.at(n, state), state, apply, action, last)
            else:
                apply(state, action)
                last = None
            n += 1
            if watch is not None:
                watch(state)
    except ConformanceError:
        raise
    except TrickbookError as exc:  # a rule error in play, or a game that does not end
        raise case.error(str(exc), n, None if state is None else state.round_number) from None
    if seen is not None and k != len(seen) - 1:
        raise case.error(f"playout took {len(seen) - 1} decisions, the checked path {k}")
    return state


def _cloned(error: Callable[[str], ConformanceError], state: State, apply: Callable[[State, Any], None],
            action: Any, before: tuple[Any, ...] | None) -> tuple[Any, ...]:
    """Take ``action`` on ``state`` and on a clone of it: the clone equal before, the state unchanged by the clone's
    action, the two equal after. ``before``: the state's fingerprint, when it was taken. The fingerprint after."""
    if before is None:
        before = fingerprint(state)
    twin = state.clone()
    _equal(error, "a clone differs from the state", before, fingerprint(twin), ("in the state", "in the clone"))
    apply(twin, copy.copy(action))
    _equal(error, "playing the action on a clone changed the state", before, fingerprint(state),
           ("before", "after"))
    apply(state, action)
    after = fingerprint(state)
    _equal(error, "the clone and the state differ after the same action", after, fingerprint(twin),
           ("in the state", "in the clone"))
    return after


_PATHS = ("on the checked path", "in playout")


def _equal(error: Callable[[str], ConformanceError], what: str, a: tuple[Any, ...], b: tuple[Any, ...],
           names: tuple[str, str] = _PATHS) -> None:
    """Two fingerprints are equal; else the error of ``what``, naming where they differ (``names``: whose each is)."""
    if a != b:
        raise error(f"{what}: {difference(a, b, names)}")


# ---------------------------------------------------------------------------------------------- playout


def _playout(case: _Case, every: int, notes: list[str] | None = None) -> list[tuple[int, list[Any], Any]]:
    """The seed's game by ``Game.playout`` under the agents' policy: each decision as the policy saw it (the seat,
    the actions, and at every ``every``-th the state's :func:`settled` fingerprint), then the end: (CHANCE, [], the
    state's whole fingerprint). ``notes``: narrated, the narration put there."""
    game = case.game
    choose = _agents(case)
    seen: list[tuple[int, list[Any], Any]] = []

    def policy(state: State, seat: int, actions: list[Any]) -> int:
        seen.append((seat, list(actions), settled(state) if every and len(seen) % every == 0 else None))
        return choose(seat, actions)

    try:
        state = game.new_state()
        state.notes = notes
        taken = game.playout(state, random.Random(case.seed), policy)
    except TrickbookError as exc:
        raise case.error(f"playout: {exc}") from None
    if taken != len(seen) or not state.finished or state.pending is not None:
        raise case.error(f"playout said it took {taken} decisions, its policy was asked {len(seen)} times"
                         + ("" if state.finished else ", and the game is not over"))
    seen.append((CHANCE, [], fingerprint(state)))
    return seen


def _as_playout(case: _Case, n: int, k: int, state: State, d: Decision, seen: list[tuple[int, list[Any], Any]],
                now: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
    """The checked path's decision ``k`` (at action ``n``) is playout's: the same seat and actions, and, where it
    was taken, the same settled state. ``now``: the state's fingerprint, when it was taken; it, or the one taken
    here."""
    if k >= len(seen) - 1:
        raise case.at(n, state)(f"the checked path asks for decision {k + 1}; playout ended after {len(seen) - 1}")
    seat, actions, settled_there = seen[k]
    if seat != d.actor or actions != d.actions or any(type(a) is not type(b) for a, b in zip(actions, d.actions)):
        names = case.game.seat_names
        raise case.at(n, state)(f"playout took another decision {k + 1}: {names[seat]} among "
                                f"{_shown(case.game, d, actions)}, where the checked path asks {names[d.actor]} "
                                f"among {_shown(case.game, d, d.actions)}")
    if settled_there is not None:
        now = now or fingerprint(state)
        _equal(case.at(n, state), f"the state at decision {k + 1} differs in playout",
               tuple(now[i] for i in SETTLED), settled_there)
    return now


def _shown(game: Game, d: Decision, actions: list[Any]) -> str:
    try:
        shown = [d.step.words.label(game, a) for a in actions]
    except (TypeError, AttributeError, IndexError, KeyError, ValueError):  # not actions of this step: as they are
        shown = list(map(repr, actions))
    return ", ".join(shown[:12]) + (" ..." if len(shown) > 12 else "")


def lockstep(game: Game, seed: Any, every: int = 1, notes: bool = False) -> list[tuple[int, list[Any], Any]]:
    """Check that ``Game.playout`` under the seed's agents takes the decisions the checked path takes with the same
    choices, decision by decision, with equal states at every ``every``-th decision, and ends in the same state
    (``notes``: narrated, with the same narration); raise ConformanceError. Playout's decisions: (seat, actions,
    the :func:`settled` fingerprint at every ``every``-th, else None), the last entry the end (CHANCE, [], the whole
    fingerprint)."""
    case = _Case(game, seed)
    told: list[str] | None = [] if notes else None
    seen = _playout(case, every, told)
    state = _walk(case, 0, _agents(case), random.Random(seed), seen, None, notes)
    _equal(case.error, "playout ended in another state than the checked path", fingerprint(state), seen[-1][2])
    if state.notes != told:
        raise case.error("playout narrated otherwise than the checked path")
    return seen


def _quiet(case: _Case, state: State, values: list[dict[str, Any]]) -> None:
    """``play_game`` recording and telling nothing (Game.playout round by round) plays the checked path's game."""
    ended: list[dict[str, Any]] = []
    try:
        out = play_game(case.game, seed=case.seed, round_values=ended)
    except TrickbookError as exc:
        raise case.error(f"the quiet run of play_game: {exc}") from None
    if (out.totals, out.winners, out.rounds, out.round_results) != \
            (state.totals, case.game.winners(state), state.round_number, state.round_results):
        raise case.error(f"the quiet run of play_game ended with totals {out.totals} after {out.rounds} rounds, the "
                         f"checked path with {state.totals} after {state.round_number}")
    if ended != values:
        raise case.error("the quiet run of play_game gave other round values than the checked path")


def _default_policy(case: _Case) -> None:
    """``Game.playout`` with its default policy (uniform draws from its rng, written in the steps' own loops) plays
    the game it plays with a policy drawing the same numbers (a policy's game is the checked path's: see
    :func:`_as_playout`)."""
    game = case.game
    states = []
    for drawn in (False, True):
        rng = random.Random(case.seed)
        try:
            state = game.new_state()
            game.playout(state, rng, _drawing(rng) if drawn else None)
        except TrickbookError as exc:
            raise case.error(f"playout{'' if drawn else ' with its default policy'}: {exc}") from None
        states.append(fingerprint(state))
    _equal(case.error, "playout with its default policy ended in another state than with a policy drawing alike",
           states[0], states[1], ("with its default policy", "with the policy"))


def _drawing(rng: random.Random) -> Callable[[State, int, list[Any]], int]:
    """The policy that draws as playout's default policy does, from ``rng``."""
    draw = rng.random
    return lambda _state, _seat, actions: int(draw() * len(actions))


# ---------------------------------------------------------------------------------------------- records


def _driven(case: _Case, k: int, after: Callable[[Any], Any] | None) -> list[dict[str, Any]]:
    """The record driver ``k`` of DRIVERS writes of the seed's game, telling ``after`` after each action."""
    driver = DRIVERS[k]
    try:
        return driver.play(case.game, case.seed, case.rules_file, after)
    except ConformanceError:
        raise
    except TrickbookError as exc:  # a rule error in play, or a game that does not end
        counted = after if isinstance(after, (_Watch, _Saves)) else None
        raise case.error(f"driven by {driver.name}: {exc}", None if counted is None else counted.n) from None


def _ends_as(case: _Case, record: list[dict[str, Any]], end: tuple[list[int], list[int], int]) -> None:
    """The record begins with the game and ends with the checked path's result."""
    names = case.game.seat_names
    result = {"type": "result", "rounds": end[2], "totals": dict(zip(names, end[0])),
              "winners": [names[s] for s in end[1]]}
    if record[0].get("type") != "game" or record[-1] != result:
        raise case.error(f"the record of {DRIVERS[0].name} does not begin with the game and end with the checked "
                         f"path's result ({json.dumps(result)}): it ends {json.dumps(record[-1])[:300]}")


def _again(case: _Case, first: list[dict[str, Any]], end: tuple[list[int], list[int], int], folder: Path) -> None:
    """The same seed gives the same record, and the record replays to the same end."""
    _same_records(case, 0, first, 0, _driven(case, 0, None), "the same seed gave a different record")
    path = folder / f"{str(case.seed).replace('/', '-')}.jsonl"
    try:
        write_record(path, first)
    except OSError as exc:  # a full disk: not a failure of the game, the run cannot go on
        raise TrickbookError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        replayed = replay(path, game=case.game)
    except TrickbookError as exc:
        raise case.error(f"the record does not replay: {exc}") from None
    finally:
        path.unlink(missing_ok=True)
    if (replayed.totals, replayed.winners, replayed.rounds) != end:
        raise case.error(f"the replay ended with totals {replayed.totals} after {replayed.rounds} rounds, the game "
                         f"with {end[0]} after {end[2]}")


def _same_records(case: _Case, a: int, first: list[dict[str, Any]], b: int, second: list[dict[str, Any]],
                  what: str | None = None) -> None:
    """The records of drivers ``a`` and ``b`` are the same, line for line (the text of each)."""
    lines = [[json.dumps(e, ensure_ascii=False) for e in record] for record in (first, second)]
    if lines[0] == lines[1]:
        return
    i = next((i for i, (x, y) in enumerate(zip(*lines)) if x != y), min(map(len, lines)))
    shown = [line[i][:300] if i < len(line) else "nothing (its record ends)" for line in lines]
    names = ("the first time", "the second") if a == b else (DRIVERS[a].name, DRIVERS[b].name)
    what = what or f"the records of {DRIVERS[a].name} and {DRIVERS[b].name} differ"
    raise case.error(f"{what}, at their line {i + 1}: {names[0]} {shown[0]}, {names[1]} {shown[1]}")


# ---------------------------------------------------------------------------------------------- saves


class _Saves:
    """The API driver's state after the chosen actions (``points``: the number of actions taken -> True to serialize
    it, False to pickle it), read back and compared; the copy read back goes on alongside the state to the next
    chance event (serialized) or instead of it (pickled). The driver's ``after``."""

    def __init__(self, case: _Case, points: dict[int, bool]):
        self.case, self.points = case, dict(points)
        self.n = 0  # actions and chance events taken
        self.twin: GameState | None = None
        self.told = 0  # the state's events the twin has followed
        self.since = 0  # the action after which the twin was read back

    def __call__(self, state: GameState) -> GameState:
        self.n += 1
        n = self.n
        if self.twin is not None:
            self._follow(state)
        serialize = self.points.pop(n, None)
        if serialize is None or state.is_over():
            return state
        if serialize and state.is_chance():  # the copy is to go on with the seats' actions: from the next one
            self.points[n + 1] = True
            return state
        text = state.serialize()
        try:
            again = state.game.deserialize(text) if serialize else pickle.loads(pickle.dumps(state))
        except TrickbookError as exc:
            raise self.case.at(n, state._state)(f"the state {'serialized' if serialize else 'pickled'} here does "
                                                f"not read back: {exc}") from None
        self._same(state, again, "the state serialized and read back here" if serialize else
                   "the state pickled and loaded here")
        if not serialize:
            return again  # goes on instead of the state: its record must be the other drivers'
        self.twin, self.told, self.since = again, len(state.events_since(0)), n
        return state

    def _follow(self, state: GameState) -> None:
        """The twin takes the action the state took last (by its label, as a record has it); at the next chance
        event, the next save or the end, the two are compared and the twin let go."""
        twin = self.twin
        assert twin is not None
        new = state.events_since(self.told)
        self.told += len(new)
        twin.apply(next(e["action"] for e in new if e["type"] == "action"))
        if state.is_chance() or state.is_over() or self.n in self.points:
            self._same(state, twin, f"the state read back after action {self.since} went on otherwise")
            self.twin = None

    def _same(self, state: GameState, other: GameState, what: str) -> None:
        error = self.case.at(self.n, state._state)
        _equal(error, what, fingerprint(state._state, kinds=True), fingerprint(other._state, kinds=True),
               ("in the state", "read back"))
        mine, theirs = state.serialize().splitlines(), other.serialize().splitlines()
        if mine != theirs:
            i = next((i for i, (x, y) in enumerate(zip(mine, theirs)) if x != y), min(len(mine), len(theirs)))
            raise error(f"{what}: its events differ from line {i + 1} on")
