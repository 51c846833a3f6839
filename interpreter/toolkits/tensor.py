"""The seats' observation tensors kept from step to step, for the toolkits (PettingZoo, OpenSpiel).

``GameState.observation_tensor`` makes a seat's whole observation (a dict of labels and names) and encodes all of
it, every time it is asked. A ``KeptTensor`` keeps the tensors instead and, when asked again, brings up to date
only the segments whose part of the game changed since; the numbers are the same (tests/test_kept_tensor.py
compares them with ``observation_tensor`` after every step of whole games of every bundled game, and
tests/test_pettingzoo.py the environment's observations after every step).

A seat's tensor is the sum of two kept arrays: what a spectator sees (kept once for every seat: the seat to act,
the dealer, the round, the zones as a spectator sees them, the counters and totals, the round and game values,
the trick on the table and the last trick), and the seat's own part, zero elsewhere: the observer, the cards of
the zones it sees and a spectator does not (a spectator's part has their counts, zero in their cards' slots), its
seat values and the teams it knows (zero in the spectator's part). Adding them is one numpy operation, which makes
the new array a caller gets. Either part is brought up to date when asked for, and only when the state took an
action since (``State.actions_taken``: every change of a state is an action or a chance event):

* a zone: compared with its copy of the last time (by the spectator's part, a zone's lists at a time); when it
  changed, its counts are moved by the cards that came (cards added at its end: a card led, a trick won), that
  left (one card taken out: a card played; all of them: a trick gathered), else by the cards that left and came (a
  card is in one place at a time), in the spectator's part for a zone everyone sees, in its seat's part for a zone
  only its seat sees (the spectator's part keeping its count); a zone no one sees: its length;
* the seat to act: directly;
* the counters and totals, the trick and the last trick (the running steps' ``public``): each segment encoded
  again, by the game's ``ObservationEncoder``, only where its value changed; the trick is looked at again only
  when a card moved (cards come to a trick and leave it by moving) or the round's step moved on;
* everything else, which changes rarely: when what it is made from differs from its copy (the state's values,
  the step filling values in secret, the teams), the observation is made (``observe``) and the segments whose
  value changed encoded again from it.

The tensors are kept for one engine state at a time: another one (``reset``, a state played again after a failed
action) is encoded from scratch. A deep copy of what holds both (OpenSpiel clones its states at every step of a
search) keeps the copy's tensors for the copy's state: they go on from where the original's were. What a zone
shows a seat (its cards, or only how many) is read from the engine's own observations, not decided here. The kept
state's zones are the engine's lists themselves (the engine changes a zone in place).
"""

from __future__ import annotations

import weakref
from array import array
from collections.abc import Iterable
from itertools import compress
from operator import ne
from typing import Any, Self

import numpy as np

from interpreter.api import GameState, TrickGame
from interpreter.engine.encoding import Encode, Reader
from interpreter.engine.observation import observe, observed
from interpreter.engine.state import CHANCE, State
from interpreter.engine.steps.running import running

_TRICK = ("trick", "last_trick")  # what the running steps show of their progress (Step.public), alike for all
_NUMBERS = ("counters", "totals")
_ALIKE = ("dealer", "round", "finished", "values", "game_values")  # made from the observation, alike for all
_OWN = ("seat", "teams", "seat_values")  # made from the seat's observation: they differ from seat to seat
_KNOWN = ("to_act", "zones", *_TRICK, *_NUMBERS, *_ALIKE, *_OWN)
_STATE_KEYS = {"seat", "round", "dealer", "values", "seat_values", "game_values", "teams", "zones", "counters",
               "totals", "finished"}  # what engine/observation.py's ``observed`` makes alone
_NOTHING = object()


class KeptTensor:
    """The observation tensors of a game in progress, kept up to date as they are asked for."""

    def __init__(self, game: TrickGame):
        self.game = game
        self.engine = game.engine
        self.encoder = game.encoder
        # what the game's layout gives, the same for every state of the game (a search copies states by thousands)
        self.segments, self.zeros, self.slot = _layout(game)
        self.state: State | None = None  # the engine state kept
        self.owner: GameState | None = None  # the API state whose engine state it is (a deep copy finds its copy)
        self.alike = _Part(self, None)
        self.own: dict[int, _Own] = {}
        self.mine: list[list[_Segment]] = []  # each seat's own segments: what it sees otherwise than a spectator

    def __deepcopy__(self, memo: dict[int, Any]) -> KeptTensor:
        """A copy for the copy of the state kept, when the same deep copy copied it already (a clone of what holds
        both); else one that starts from scratch."""
        other = KeptTensor(self.game)
        owner, was = self.owner, self.state
        copied = None if owner is None or was is None or owner._state is not was else memo.get(id(owner))
        if was is not None and isinstance(copied, GameState):
            other.state, other.owner = copied._state, copied
            other.mine = self.mine  # made once a state, never changed
            other.alike = self.alike.copy(other, copied._state, was)
            other.own = {seat: part.copy(other, copied._state, was) for seat, part in self.own.items()}
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        return KeptTensor, (self.game,)

    def tensor(self, state: GameState, seat: int) -> np.ndarray:
        """``state.observation_tensor(seat)``, as a new float32 array."""
        inner = state._state
        alike = self.alike
        if inner is not self.state:
            self._start(inner)
            self.owner = state
            alike = self.alike
        elif inner.actions_taken != alike.taken:
            alike.update(inner)
        own = self.own.get(seat)
        if own is None:
            own = self.own[seat] = _Own(self, seat)
            own.start(inner, self.mine[seat])
        elif inner.actions_taken != own.taken and own.made:
            own.update(inner)
        return np.add(alike.view, own.view)

    def _start(self, state: State) -> None:
        """Keep ``state``: what a spectator sees is kept alike for every seat; a seat's own part is what it sees
        otherwise, as the engine's observations show (the first time: which zones a seat sees otherwise is the
        same in every state of the game)."""
        self.state = state
        alone = [s for s in self.segments if s.root in _OWN or s.root not in _KNOWN]
        if not self.mine:
            spectator = observe(self.engine, state, None)
            zones = [s for s in self.segments if s.root == "zones"]
            for seat in range(self.engine.players):
                seen = observe(self.engine, state, seat)
                self.mine.append(alone + [s for s in zones
                                          if isinstance(s.read(seen), list) != isinstance(s.read(spectator), list)])
        self.alike = _Part(self, None)
        self.alike.start(state, [s for s in self.segments if s not in alone])
        self.own = {}


_LAYOUTS: weakref.WeakKeyDictionary[TrickGame, tuple[list[_Segment], dict[int, array[float]], list[int]]] = \
    weakref.WeakKeyDictionary()


def _layout(game: TrickGame) -> tuple[list[_Segment], dict[int, array[float]], list[int]]:
    """The segments of ``game``'s tensor, a row of zeros of each size, and each card's slot in a zone's segment
    (identical cards: one), made once a game."""
    made = _LAYOUTS.get(game)
    if made is None:
        encoder, engine = game.encoder, game.engine
        segments: list[_Segment] = []
        at = 0
        for (_, size), path, encode in zip(encoder.layout, encoder.paths, encoder.encoders):
            segments.append(_Segment(at, size, path, encode))
            at += size
        zeros = {s.size: array("f", bytes(4 * s.size)) for s in segments}
        slot = [0] * len(engine.cards.kinds)
        for label, cards in engine.cards_by_label().items():
            for c in cards:
                slot[c] = encoder.card_slot[label]
        made = _LAYOUTS[game] = (segments, zeros, slot)
    return made


class _Segment:
    """A segment of the layout: where it starts, its size, where its value is in an observation, its encoding."""

    __slots__ = ("at", "size", "read", "root", "below", "place", "encode")

    def __init__(self, at: int, size: int, path: tuple[str | int, ...], encode: Encode):
        self.at, self.size, self.read, self.root, self.encode = at, size, Reader(*path), str(path[0]), encode
        self.below = Reader(*path[1:])  # reads its value from the value of its key of the observation
        self.place = path[1] if len(path) == 2 and isinstance(path[1], int) else None  # a place in a list: at once

    def pick(self, whole: Any) -> Any:
        """Its value, from ``whole``, the value of its key of the observation (as ``read`` reads it)."""
        i = self.place
        if i is None:
            return self.below(whole)
        return whole[i] if isinstance(whole, list) and i < len(whole) else None


class _Part:
    """The segments kept for every seat alike (what a spectator sees), with copies of what they were made from.
    Its array is zero outside its segments. ``_Own``: a seat's own part."""

    own = False  # a seat's own part holds only the cards of the zones it sees and a spectator does not

    def __init__(self, kept: KeptTensor, seat: int | None):
        self.kept = kept
        self.engine = kept.engine
        self.seat = seat
        self.names = self.engine.seat_names
        self.values = array("f", bytes(4 * kept.encoder.size))
        self.view = np.frombuffer(self.values, np.float32)
        self.zeros, self.slot, self.kinds = kept.zeros, kept.slot, kept.encoder.kinds
        self.taken = -1  # the state's actions_taken when last brought up to date
        self.fillings: dict[Any, frozenset[str]] = {}  # the values each step fills in secret (Search.filling)

    def start(self, state: State, mine: list[_Segment]) -> None:
        """Encode ``state`` from scratch, and keep ``mine``, this part's segments."""
        roots = {s.root for s in mine}
        obs = (observed(self.engine, state, self.seat, roots) if roots <= _STATE_KEYS
               else observe(self.engine, state, self.seat))
        values, kinds = self.values, self.kinds
        self.encoded = {s.at: s.read(obs) for s in mine}  # each segment's value as encoded, by its place
        for s in mine:
            s.encode(self.encoded[s.at], values, s.at)
            if self.own and s.root == "zones":
                values[s.at + kinds] = 0.0  # the count is the spectator's
        # the observer's segment never changes: encoded once
        self.made = _grouped(s for s in mine if s.root not in (*_TRICK, *_NUMBERS, "to_act", "zones", "seat"))
        self.always = any(root not in _KNOWN for root in self.made)  # a kind not known here: every time
        tricks = _grouped(s for s in mine if s.root in _TRICK)
        self.tricks = [(root, _lists_in(segments)) for root, segments in tricks.items()]
        self.last = {root: obs.get(root) for root in (*self.made, *tricks)}  # each group's value encoded
        self.numbers = [(s, s.read.path[0] == "totals", str(s.read.path[-1])) for s in mine if s.root in _NUMBERS]
        # the zones: those whose cards the part sees; those a seat sees the cards of (the spectator's part: their
        # counts, the seat's own part: their cards, both kept here); those only counted
        zones = [s for s in mine if s.root == "zones"] if not self.own else []
        seen = [s for s in zones if isinstance(self.encoded[s.at], list)]
        owners = {s.at: seat for seat, segments in enumerate(self.kept.mine) for s in segments if s.root == "zones"}
        owned = [s for s in zones if s.at in owners]
        zones = seen + owned + [s for s in zones if s not in seen and s not in owned]
        self.places = [(str(s.read.path[1]), None if len(s.read.path) == 2 else self.names.index(str(s.read.path[2])))
                       for s in zones]  # each zone's name, and its seat's index for a seat's zone
        self.seen, self.watched = len(seen), len(seen) + len(owned)
        self.owners = [owners.get(s.at, -1) for s in zones]  # the seat whose own part has its cards, by zone
        self.zones = _grouped_lists(state, self.places[:self.watched])
        self.counted = _lists(state, self.places[self.watched:])
        self.counts = [len(cards) for cards in self.counted]
        self.zone_at = [s.at for s in zones]
        self.count_at = [s.at + kinds for s in zones]
        actor = [s for s in mine if s.root == "to_act"]
        self.actor_at = actor[0].at if actor else None
        self.chance_slot = actor[0].size - 1 if actor else 0
        self.actor = None if state.pending is None else state.pending.actor
        self.counters = {k: list(v) for k, v in state.counters.items()}  # the counters and totals as encoded
        self.totals = list(state.totals)
        self.step_index, self.progress = state.step_index, state.progress  # the round's step, as encoded
        self.sources = self._sources(state)
        self.taken = state.actions_taken

    def copy(self, kept: KeptTensor, state: State, was: State) -> Self:
        """This part for ``state``, a copy of ``was`` (the state it was kept for): what it encoded and its copies
        of what that was made from are copied; the zones it watches are ``state``'s."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)  # what start made once (the segments, their places) is shared
        other.kept = kept
        other.values = array("f", self.values)
        other.view = np.frombuffer(other.values, np.float32)
        other.encoded, other.last = dict(self.encoded), dict(self.last)
        other.zones = [(first, zones, [list(cards) for cards in copies])
                       for (first, _, copies), (_, zones, _) in zip(self.zones, _grouped_lists(state, self.places[
                           :self.watched]))]
        other.counted = _lists(state, self.places[self.watched:])
        other.counts = list(self.counts)
        other.counters = {k: list(v) for k, v in self.counters.items()}
        other.totals = list(self.totals)
        # the step's progress as encoded: the copy's own when it was the original's, else one that differs from any
        other.progress = state.progress if self.progress is was.progress else object()
        return other

    def update(self, state: State) -> None:
        """Bring the part up to date with ``state``, the state it keeps, which took an action since."""
        self.taken = state.actions_taken
        moved = False
        for first, zones, copies in self.zones:  # the zones whose cards a part sees, a zone's lists together
            if zones == copies:
                continue
            for j in compress(range(len(zones)), map(ne, zones, copies)):  # those that changed
                moved = True
                cards, i = zones[j], first + j
                if i < self.seen:
                    _recount(self.values, self.zone_at[i], cards, copies[j], self.slot)
                else:  # a seat's own: its cards in its part, once it has one (else they are encoded when it is made)
                    own = self.kept.own.get(self.owners[i])
                    if own is not None:
                        _recount(own.values, self.zone_at[i], cards, copies[j], self.slot)
                self.values[self.count_at[i]] = len(cards)
                copies[j] = cards[:]
        counted = self.counted
        if counted:  # the zones no part sees the cards of: their lengths
            counts = list(map(len, counted))
            if counts != self.counts:
                moved = True
                count_at, was, watched = self.count_at, self.counts, self.watched
                for i in compress(range(len(counts)), map(ne, counts, was)):
                    self.values[count_at[watched + i]] = counts[i]
                self.counts = counts
        d = state.pending
        actor = None if d is None else d.actor
        if actor != self.actor and self.actor_at is not None:
            self._actor(actor)
        if self.numbers and (state.totals != self.totals or state.counters != self.counters):
            self._numbers(state)
        if self.made and (self.always or self._sources_changed(state, d)):
            self._made(state)
        if self.tricks and (moved or state.progress is not self.progress or state.step_index != self.step_index):
            self._tricks(state)

    def _made(self, state: State) -> None:
        """The segments made from the observation, from its entries made again (all of it for a key not known
        here)."""
        obs = (observe(self.engine, state, self.seat) if self.always
               else observed(self.engine, state, self.seat, self.made))
        self._encode(self.made, obs)
        self.sources = self._sources(state)

    def _tricks(self, state: State) -> None:
        """The trick and the last trick, from what the running steps show: each place that changed encoded again."""
        shown: dict[str, Any] = {}
        engine, seat = self.engine, self.seat
        for step, p in running(engine.steps, state.step_index, state.progress):
            shown.update(step.words.public(engine, state, p, seat))
        self.step_index, self.progress = state.step_index, state.progress
        last, values, zeros, encoded = self.last, self.values, self.zeros, self.encoded
        for root, lists in self.tricks:
            whole: Any = shown.get(root)
            was = last[root]
            if whole == was:
                continue
            last[root] = whole
            for read, places in lists:
                first = 0
                if read is None:  # the list is the key's value itself (the trick's plays)
                    items = whole
                    if isinstance(was, list) and isinstance(whole, list) and len(whole) > len(was) \
                            and whole[:len(was)] == was:
                        first = len(was)  # plays added: only theirs
                else:
                    items = read(whole)
                n = len(items) if isinstance(items, list) else 0
                for i, segment in places[first:] if first else places:
                    value = (items[i] if i < n else None) if i >= 0 else items
                    at = segment.at
                    if value != encoded[at]:
                        values[at:at + segment.size] = zeros[segment.size]
                        segment.encode(value, values, at)
                        encoded[at] = value

    def _encode(self, groups: dict[str, list[_Segment]], obs: dict[str, Any]) -> None:
        """Encode again the segments of ``groups`` (by the key of the observation they are under) whose value in
        ``obs`` is not the one encoded."""
        values, zeros, last, encoded = self.values, self.zeros, self.last, self.encoded
        for root, segments in groups.items():
            whole = obs.get(root)
            if whole == last.get(root, _NOTHING):
                continue
            last[root] = whole
            for segment in segments:
                value = segment.pick(whole)
                at = segment.at
                if value != encoded[at]:
                    values[at:at + segment.size] = zeros[segment.size]
                    segment.encode(value, values, at)
                    encoded[at] = value

    def _actor(self, actor: int | None) -> None:
        at = self.actor_at
        assert at is not None
        if self.actor is not None:
            self.values[at + (self.chance_slot if self.actor == CHANCE else self.actor)] = 0.0
        if actor is not None:
            self.values[at + (self.chance_slot if actor == CHANCE else actor)] = 1.0
        self.actor = actor

    def _numbers(self, state: State) -> None:
        """The counters and totals: each list that changed encoded again."""
        values, zeros, names = self.values, self.zeros, self.names
        for segment, totals, name in self.numbers:
            now, copy = (state.totals, self.totals) if totals else (state.counters[name], self.counters[name])
            if now != copy:
                values[segment.at:segment.at + segment.size] = zeros[segment.size]
                segment.encode(dict(zip(names, now)), values, segment.at)
                copy[:] = now

    def _filling(self, step: Any) -> frozenset[str] | None:
        """The values ``step``, the pending one, fills in secret (None: the game is over), asked once a step."""
        if step is None:
            return None
        filling = self.fillings.get(step)
        if filling is None:
            filling = self.fillings[step] = step.search.filling()
        return filling

    def _sources(self, state: State) -> tuple[Any, ...]:
        """Copies of what the segments made from the observation are made from (the pending step first)."""
        step = None if state.pending is None else state.pending.step
        return step, self._filling(step), dict(state.vars), dict(state.game_vars), state.dealer, state.round_number

    def _sources_changed(self, state: State, d: Any) -> bool:
        sources = self.sources
        step = None if d is None else d.step
        return ((step is not sources[0] and self._filling(step) != sources[1]) or state.vars != sources[2]
                or state.game_vars != sources[3] or state.dealer != sources[4] or state.round_number != sources[5])


class _Own(_Part):
    """A seat's own part: what it sees otherwise than a spectator (the observer, the cards of the zones it sees and
    a spectator does not, its seat values, the teams it knows)."""

    own = True

    def update(self, state: State) -> None:
        """Its seat values and the teams it knows (the cards of its zones are moved by the spectator's part)."""
        self.taken = state.actions_taken
        if self.made and (self.always or self._sources_changed(state, state.pending)):
            self._made(state)

    def _sources(self, state: State) -> tuple[Any, ...]:
        step = None if state.pending is None else state.pending.step
        return (step, self._filling(step), {k: list(v) for k, v in state.seat_vars.items()}, list(state.teams),
                None if state.team_known is None else list(state.team_known))

    def _sources_changed(self, state: State, d: Any) -> bool:
        sources = self.sources
        step = None if d is None else d.step
        return ((step is not sources[0] and self._filling(step) != sources[1]) or state.seat_vars != sources[2]
                or state.teams != sources[3] or state.team_known != sources[4])


def _recount(values: array[float], at: int, cards: list[int], before: list[int], slot: list[int]) -> None:
    """Move the counts of a zone's cards (the segment at ``at``) from ``before`` to ``cards``."""
    kept = len(before)
    if len(cards) > kept and cards[:kept] == before:  # cards came at its end (a card led, a trick won)
        for c in cards[kept:]:
            values[at + slot[c]] += 1.0
        return
    if not cards:  # all of them left (a trick gathered, a hand given away)
        for c in before:
            values[at + slot[c]] -= 1.0
        return
    if len(cards) == kept - 1:  # one card taken out, the others in their order (a card played)
        i = next(compress(range(kept), map(ne, before, cards)), kept - 1)
        if before[i + 1:] == cards[i:]:
            values[at + slot[before[i]]] -= 1.0
            return
    now = set(cards)  # else: a card is in one place at a time, so what left and what came are sets
    for c in set(before).difference(now):
        values[at + slot[c]] -= 1.0
    for c in now.difference(before):
        values[at + slot[c]] += 1.0


def _lists_in(segments: list[_Segment]) -> list[tuple[Reader | None, list[tuple[int, _Segment]]]]:
    """The segments of one key of the observation by the list they are places of (a trick's plays), each with its
    place, in order, and what reads the list from the key's value (None: the value is the list); a segment that is
    no place in a list is alone, at place -1 (its value is the one read)."""
    out: dict[tuple[Any, ...], list[tuple[int, _Segment]]] = {}
    for s in segments:
        path = s.read.path[1:]
        if path and isinstance(path[-1], int):
            out.setdefault(path[:-1], []).append((path[-1], s))
        else:
            out.setdefault(path, []).append((-1, s))
    return [(Reader(*path) if path else None, places) for path, places in out.items()]


def _grouped_lists(state: State, places: list[tuple[str, int | None]]
                   ) -> list[tuple[int, list[list[int]], list[list[int]]]]:
    """The lists of ``state`` holding the zones at ``places`` (as ``_lists``), those of one zone in a row together:
    each group as (the place of its first, its lists, copies of them), to be compared a group at a time."""
    lists = _lists(state, places)
    out: list[tuple[int, list[list[int]], list[list[int]]]] = []
    for i, (name, _) in enumerate(places):
        if i == 0 or name != places[i - 1][0]:
            out.append((i, [], []))
        out[-1][1].append(lists[i])
        out[-1][2].append(list(lists[i]))
    return out


def _lists(state: State, places: list[tuple[str, int | None]]) -> list[list[int]]:
    """The lists of ``state`` holding the zones at ``places`` (a shared zone's name, or a seat's zone's and the
    seat)."""
    return [state.shared[name] if seat is None else state.per_seat[name][seat] for name, seat in places]


def _grouped(segments: Iterable[_Segment]) -> dict[str, list[_Segment]]:
    """Segments by the key of the observation they are under."""
    out: dict[str, list[_Segment]] = {}
    for segment in segments:
        out.setdefault(segment.root, []).append(segment)
    return out
