"""The seats' observation tensors kept from step to step, for the toolkits (PettingZoo, OpenSpiel).

``GameState.observation_tensor`` makes a seat's whole observation (a dict of labels and names) and encodes all of
it, every time it is asked. A ``KeptTensor`` keeps the tensors instead and, when asked again, brings up to date
only the segments whose part of the game changed since; the numbers are the same (tests/test_kept_tensor.py
compares them with ``observation_tensor`` after every step of whole games of every bundled game).

What a spectator sees is kept once (the seat to act, the dealer, the round, the zones as a spectator sees them,
the counters and totals, the round and game values, the trick on the table and the last trick); each seat keeps
only what it sees otherwise (the observer, the zones whose cards it sees and a spectator does not, its seat
values, the teams it knows). A seat's tensor is the first with the second's segments copied in. Either part is
brought up to date when asked for:

* a zone: compared with its copy of the last time; when it changed, its counts are moved by the cards that came
  (cards added at its end: a card led, a trick won), else by the cards that left and came (a card is in one place
  at a time); a zone seen only as a count: its length;
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
from typing import Any

import numpy as np

from interpreter.api import GameState, TrickGame
from interpreter.engine.encoding import Encode, Reader
from interpreter.engine.observation import observe
from interpreter.engine.state import CHANCE, State
from interpreter.engine.steps.running import running

_TRICK = ("trick", "last_trick")  # what the running steps show of their progress (Step.public), alike for all
_NUMBERS = ("counters", "totals")
_ALIKE = ("dealer", "round", "finished", "values", "game_values")  # made from the observation, alike for all
_OWN = ("seat", "teams", "seat_values")  # made from the seat's observation: they differ from seat to seat
_KNOWN = ("to_act", "zones", *_TRICK, *_NUMBERS, *_ALIKE, *_OWN)
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
        self.own: dict[int, _Part] = {}
        self.mine: list[list[_Segment]] = []  # each seat's own segments: what it sees otherwise than a spectator
        self.places: list[np.ndarray] = []  # the places of the tensor they fill, each seat's

    def __deepcopy__(self, memo: dict[int, Any]) -> KeptTensor:
        """A copy for the copy of the state kept, when the same deep copy copied it already (a clone of what holds
        both); else one that starts from scratch."""
        other = KeptTensor(self.game)
        owner, was = self.owner, self.state
        copied = None if owner is None or was is None or owner._state is not was else memo.get(id(owner))
        if was is not None and isinstance(copied, GameState):
            other.state, other.owner = copied._state, copied
            other.mine, other.places = self.mine, self.places  # made once a state, never changed
            other.alike = self.alike.copy(other, copied._state, was)
            other.own = {seat: part.copy(other, copied._state, was) for seat, part in self.own.items()}
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        return KeptTensor, (self.game,)

    def tensor(self, state: GameState, seat: int) -> np.ndarray:
        """``state.observation_tensor(seat)``, as a new float32 array."""
        inner = state._state
        if inner is not self.state:
            self._start(inner)
            self.owner = state
        else:
            self.alike.update(inner)
        own = self.own.get(seat)
        if own is None:
            own = self.own[seat] = _Part(self, seat)
            own.start(inner, self.mine[seat])
        else:
            own.update(inner)
        out = self.alike.view.copy()
        places = self.places[seat]
        out[places] = own.view[places]
        return out

    def _start(self, state: State) -> None:
        """Keep ``state``: what a spectator sees is kept alike for every seat; a seat's own part is what it sees
        otherwise, as the engine's observations show."""
        self.state = state
        spectator = observe(self.engine, state, None)
        alone = [s for s in self.segments if s.root in _OWN or s.root not in _KNOWN]
        zones = [s for s in self.segments if s.root == "zones"]
        self.mine, self.places = [], []
        for seat in range(self.engine.players):
            seen = observe(self.engine, state, seat)
            mine = alone + [s for s in zones if isinstance(s.read(seen), list) != isinstance(s.read(spectator), list)]
            self.mine.append(mine)
            self.places.append(np.array([i for s in mine for i in range(s.at, s.at + s.size)], np.intp))
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
    """The segments kept for one seat (what it sees otherwise than a spectator), or for every seat alike
    (``seat`` None: what a spectator sees), with copies of what they were made from."""

    def __init__(self, kept: KeptTensor, seat: int | None):
        self.kept = kept
        self.engine = kept.engine
        self.seat = seat
        self.names = self.engine.seat_names
        self.values = array("f", bytes(4 * kept.encoder.size))
        self.view = np.frombuffer(self.values, np.float32)
        self.zeros, self.slot, self.kinds = kept.zeros, kept.slot, kept.encoder.kinds

    def start(self, state: State, mine: list[_Segment]) -> None:
        """Encode ``state`` from scratch, and keep ``mine``, this part's segments."""
        obs = observe(self.engine, state, self.seat)
        self.values[:] = array("f", self.kept.encoder.encode(obs))
        self.encoded = {s.at: s.read(obs) for s in mine}  # each segment's value as encoded, by its place
        # the observer's segment never changes: encoded once
        self.made = _grouped(s for s in mine if s.root not in (*_TRICK, *_NUMBERS, "to_act", "zones", "seat"))
        self.always = any(root not in _KNOWN for root in self.made)  # a kind not known here: every time
        self.tricks = _grouped(s for s in mine if s.root in _TRICK)
        self.last = {root: obs.get(root) for root in (*self.made, *self.tricks)}  # each group's value encoded
        self.numbers = [(s, s.read.path[0] == "totals", str(s.read.path[-1])) for s in mine if s.root in _NUMBERS]
        zones = [s for s in mine if s.root == "zones"]
        places = [(str(s.read.path[1]), None if len(s.read.path) == 2 else self.names.index(str(s.read.path[2])))
                  for s in zones]  # each zone's name, and its seat's index for a seat's zone
        shown = [isinstance(self.encoded[s.at], list) for s in zones]  # the part sees its cards, else how many
        self.zone_places = [place for place, seen in zip(places, shown) if seen]
        self.count_places = [place for place, seen in zip(places, shown) if not seen]
        self.zones, self.counted = _lists(state, self.zone_places), _lists(state, self.count_places)
        self.zone_at = [s.at for s, seen in zip(zones, shown) if seen]
        self.copies = [list(cards) for cards in self.zones]
        self.count_at = [s.at + self.kinds for s, seen in zip(zones, shown) if not seen]
        self.counts = [len(cards) for cards in self.counted]
        actor = [s for s in mine if s.root == "to_act"]
        self.actor_at = actor[0].at if actor else None
        self.chance_slot = actor[0].size - 1 if actor else 0
        self.actor = None if state.pending is None else state.pending.actor
        self.counters = {k: list(v) for k, v in state.counters.items()}  # the counters and totals as encoded
        self.totals = list(state.totals)
        self.step_index, self.progress = state.step_index, state.progress  # the round's step, as encoded
        self.sources = self._sources(state)

    def copy(self, kept: KeptTensor, state: State, was: State) -> _Part:
        """This part for ``state``, a copy of ``was`` (the state it was kept for): what it encoded and its copies
        of what that was made from are copied; the zones it watches are ``state``'s."""
        other = _Part.__new__(_Part)
        other.__dict__.update(self.__dict__)  # what start made once (the segments, their places) is shared
        other.kept = kept
        other.values = array("f", self.values)
        other.view = np.frombuffer(other.values, np.float32)
        other.encoded, other.last = dict(self.encoded), dict(self.last)
        other.zones, other.counted = _lists(state, self.zone_places), _lists(state, self.count_places)
        other.copies = [list(cards) for cards in self.copies]
        other.counts = list(self.counts)
        other.counters = {k: list(v) for k, v in self.counters.items()}
        other.totals = list(self.totals)
        # the step's progress as encoded: the copy's own when it was the original's, else one that differs from any
        other.progress = state.progress if self.progress is was.progress else object()
        return other

    def update(self, state: State) -> None:
        moved = self._zones()
        if self.actor_at is not None:
            d = state.pending
            actor = None if d is None else d.actor
            if actor != self.actor:
                self._actor(actor)
        if self.numbers and (state.totals != self.totals or state.counters != self.counters):
            self._numbers(state)
        if self.made and (self.always or self._sources_changed(state)):
            self._encode(self.made, observe(self.engine, state, self.seat))
            self.sources = self._sources(state)
        if self.tricks and (moved or state.progress is not self.progress or state.step_index != self.step_index):
            shown: dict[str, Any] = {}
            for step, p in running(self.engine.steps, state.step_index, state.progress):
                shown.update(step.words.public(self.engine, state, p, self.seat))
            self._encode(self.tricks, shown)
            self.step_index, self.progress = state.step_index, state.progress

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

    def _zones(self) -> bool:
        """Bring the zones up to date; whether any changed."""
        values, slot, zones, copies = self.values, self.slot, self.zones, self.copies
        moved = False
        for i in compress(range(len(zones)), map(ne, zones, copies)):
            moved = True
            cards, before, at = zones[i], copies[i], self.zone_at[i]
            kept = len(before)
            if len(cards) > kept and cards[:kept] == before:  # cards came at its end (a card led, a trick won)
                came: Iterable[int] = cards[kept:]
            else:  # a card is in one place at a time: what left and what came are sets
                now = set(cards)
                came = now.difference(before)
                for c in set(before).difference(now):
                    values[at + slot[c]] -= 1.0
            for c in came:
                values[at + slot[c]] += 1.0
            values[at + self.kinds] = len(cards)
            copies[i] = list(cards)
        if self.counted:
            counts = list(map(len, self.counted))
            if counts != self.counts:
                moved = True
                for i in compress(range(len(counts)), map(ne, counts, self.counts)):
                    values[self.count_at[i]] = counts[i]
                self.counts = counts
        return moved

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

    def _sources(self, state: State) -> tuple[Any, ...]:
        """Copies of what the segments made from the observation are made from."""
        d = state.pending
        filling = None if d is None else d.step.search.filling()
        if self.seat is None:
            return state.dealer, state.round_number, d is None, filling, dict(state.vars), dict(state.game_vars)
        return (filling, {k: list(v) for k, v in state.seat_vars.items()}, list(state.teams),
                None if state.team_known is None else list(state.team_known))

    def _sources_changed(self, state: State) -> bool:
        d = state.pending
        if self.seat is None:
            dealer, round_number, over, filling, round_values, game_values = self.sources
            return (state.dealer != dealer or state.round_number != round_number or (d is None) != over
                    or state.vars != round_values or state.game_vars != game_values
                    or (None if d is None else d.step.search.filling()) != filling)
        filling, seat_values, teams, team_known = self.sources
        return (state.seat_vars != seat_values or state.teams != teams or state.team_known != team_known
                or (None if d is None else d.step.search.filling()) != filling)


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
