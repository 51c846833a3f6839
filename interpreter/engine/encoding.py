"""A seat's observation as a fixed-length list of numbers, laid out from the rule file.

The encoder reads the observation dict (engine/observation.py), so the numbers show exactly what the seat may
see and nothing more. Its layout is the same for every state of a game (a rule file, a player count and
options): ``ObservationEncoder.layout`` names each segment and its size, in order; docs/api.md describes the
encoding of each kind of segment. Seats are in seat order (not turned to the observer); a card is counted in
the slot of its kind (identical cards share one); a value the seat cannot see encodes as none; a text made in play
(engine/made_texts.py: one of endless many, none known before play) as any value of another kind, 1 when there is
one.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from typing import Any

from interpreter.dsl.types import VALUE, Type
from interpreter.engine.card_values import card_kinds, card_texts
from interpreter.engine.game import Game
from interpreter.engine.made_texts import made_texts
from interpreter.engine.steps.teams import Teams
from interpreter.errors import GameError

Encode = Callable[[Any, MutableSequence[float], int], None]  # (value as the observation shows it, out, offset)


class ObservationEncoder:
    """The layout of a game's observation tensor, and the encoding of one observation into it."""

    def __init__(self, game: Game):
        self.game = game
        names = game.seat_names
        self.players = n = len(names)
        self.seat_of = {name: i for i, name in enumerate(names)}
        labels = game.cards.labels
        kinds = card_kinds(game)
        kind_slot = {k: i for i, k in enumerate(kinds)}
        self.card_slot = {labels[c]: kind_slot[game.cards.kinds[c]] for c in game.deck}
        self.kinds = len(kinds)
        self.texts = _texts(game)
        self.layout: list[tuple[str, int]] = []
        self.paths: list[tuple[str | int, ...]] = []  # where each segment's value is in the observation dict
        self.encoders: list[Encode] = []  # each segment's encoding
        self._parts: list[tuple[Reader, Encode, int]] = []

        self._add("observer", n, Reader("seat"), self._seat)
        self._add("to act (seats, then chance)", n + 1, Reader("to_act"), self._actor)
        self._add("dealer", n, Reader("dealer"), self._seat)
        self._add("round", 1, Reader("round"), self._number1)
        self._add("game over", 1, Reader("finished"), self._number1)
        for zone, spec in game.zones.items():
            if spec.per_seat:
                for name in names:
                    self._add(f"zone {zone}: {name}", self.kinds + 1, Reader("zones", zone, name), self._cards)
            else:
                self._add(f"zone {zone}", self.kinds + 1, Reader("zones", zone), self._cards)
        for counter in game.counters:
            self._add(f"counter {counter}", n, Reader("counters", counter), self._per_seat_numbers)
        self._add("totals", n, Reader("totals"), self._per_seat_numbers)
        if any(isinstance(step, Teams) and step.hides for step in game.every_step()):
            for i in range(n):  # hidden teams: the seats the observer knows to be on each team (all zero: unknown)
                self._add(f"team {i + 1}", n, Reader("teams", i), self._seat_list)
        made = made_texts(game)  # (texts made in play: 1 when there is one, as for values of other kinds)
        for name in game.round_fields:
            if name in ("number", "dealer"):
                continue
            size, encode = self._value(VALUE if name in made else game.value_types.get(name, VALUE))
            self._add(f"round value {name}", size, Reader("values", name), encode)
        for name in game.flow.game_values:
            size, encode = self._value(VALUE if name in made else game.value_types.get(name, VALUE))
            self._add(f"game value {name}", size, Reader("game_values", name), encode)
        for name in game.seat_value_names + list(game.flow.game_seat_values):
            size, encode = self._value(VALUE if name in made else game.value_types.get(name, VALUE))
            for seat in names:
                self._add(f"seat value {name}: {seat}", size, Reader("seat_values", name, seat), encode)
        if any(step.kind == "tricks" for step in game.every_step()):
            for i in range(n):
                self._add(f"trick: play {i + 1}", n + self.kinds, Reader("trick", i), self._play)
            for i in range(n):
                self._add(f"last trick: play {i + 1}", n + self.kinds, Reader("last_trick", "cards", i), self._play)
            self._add("last trick: winner", n, Reader("last_trick", "winner"), self._seat)
        self.size = sum(size for _, size in self.layout)

    def _add(self, name: str, size: int, read: Reader, encode: Encode) -> None:
        self.layout.append((name, size))
        self.paths.append(read.path)
        self.encoders.append(encode)
        self._parts.append((read, encode, size))

    def encode(self, observation: dict[str, Any]) -> list[float]:
        """The numbers of ``observation`` (an observation dict of this game), ``size`` of them."""
        out = [0.0] * self.size
        at = 0
        for read, encode, size in self._parts:
            encode(read(observation), out, at)
            at += size
        return out

    # ------------------------------------------------------------------ encoders by kind of value

    def _seat(self, value: Any, out: MutableSequence[float], at: int) -> None:
        """One slot a seat, all zero for none (or a value the seat cannot see)."""
        s = self.seat_of.get(value) if isinstance(value, str) else None
        if s is not None:
            out[at + s] = 1.0

    def _actor(self, value: Any, out: MutableSequence[float], at: int) -> None:
        if value == "chance":
            out[at + self.players] = 1.0
        else:
            self._seat(value, out, at)

    @staticmethod
    def _number1(value: Any, out: MutableSequence[float], at: int) -> None:
        out[at] = float(value) if isinstance(value, (int, float)) else 0.0

    def _per_seat_numbers(self, value: Any, out: MutableSequence[float], at: int) -> None:
        for name, v in (value or {}).items():
            if isinstance(v, (int, float)):
                out[at + self.seat_of[name]] = float(v)

    def _cards(self, value: Any, out: MutableSequence[float], at: int) -> None:
        """A count a card kind the seat sees, then how many cards there are (seen or not)."""
        if isinstance(value, dict):
            out[at + self.kinds] = float(value.get("count", 0))
            return
        slot = self.card_slot
        for label in value or ():
            out[at + slot[label]] += 1.0
        out[at + self.kinds] = float(len(value or ()))

    def _play(self, value: Any, out: MutableSequence[float], at: int) -> None:
        """A play of a trick: who (a slot a seat), then the card (a slot a kind)."""
        if value:
            seat, label = value
            s = self.seat_of.get(seat) if isinstance(seat, str) else None  # as _seat (a play at every card: inline)
            if s is not None:
                out[at + s] = 1.0
            k = self.card_slot.get(label) if isinstance(label, str) else None
            if k is not None:
                out[at + self.players + k] = 1.0

    def _value(self, t: Type) -> tuple[int, Encode]:
        """The size and encoder of a value of type ``t`` (the last slot, where there is one: none)."""
        n, k = self.players, self.kinds
        if t.kind == "seat":
            return n, self._seat
        if t.kind == "card":
            return k, self._card_value
        if t.kind == "list" and t.element is not None and t.element.kind == "card":
            return k, self._card_value
        if t.kind == "list" and t.element is not None and t.element.kind == "seat":
            return n, self._seat_list
        if t.kind == "value" and t.plain in ("number", "truth"):
            return 2, self._plain
        if t.kind == "value" and t.plain == "text":
            return len(self.texts) + 1, self._text
        return 1, self._present

    def _card_value(self, value: Any, out: MutableSequence[float], at: int) -> None:
        for label in value if isinstance(value, list) else [value]:
            if label in self.card_slot:
                out[at + self.card_slot[label]] += 1.0

    def _seat_list(self, value: Any, out: MutableSequence[float], at: int) -> None:
        for name in value or ():
            self._seat(name, out, at)

    @staticmethod
    def _plain(value: Any, out: MutableSequence[float], at: int) -> None:
        """The number (true: 1), then 1 when it is none."""
        if isinstance(value, (int, float)):
            out[at] = float(value)
        else:
            out[at + 1] = 1.0

    def _text(self, value: Any, out: MutableSequence[float], at: int) -> None:
        """A slot a known text (``texts``), the last for any other text; none is all zero."""
        if isinstance(value, str):
            out[at + self.texts.get(value, len(self.texts))] = 1.0

    @staticmethod
    def _present(value: Any, out: MutableSequence[float], at: int) -> None:
        """Values of other kinds (records, lists of values): 1 when there is one."""
        out[at] = 0.0 if value is None or value == [] else 1.0


class Reader:
    """What reads the value at ``path`` of an observation (keys of mappings, places in lists); None where the
    observation has nothing there."""

    __slots__ = ("path",)

    def __init__(self, *path: str | int):
        self.path = path

    def __call__(self, observation: dict[str, Any]) -> Any:
        value: Any = observation
        for step in self.path:
            if isinstance(step, int):
                value = value[step] if isinstance(value, list) and step < len(value) else None
            else:
                value = value.get(step) if isinstance(value, dict) else None
        return value


def _texts(game: Game) -> dict[str, int]:
    """The texts a text value is told apart by: those of the cards' attributes and of the game's options, and
    the values of the choices of texts, each with its slot."""
    out: dict[str, None] = {}
    out.update(dict.fromkeys(card_texts(game)))
    out.update((v, None) for v in game.options.values() if isinstance(v, str))
    for step in game.every_step():
        for kind, _, value, _ in _entries(game, step):
            if kind == "text" and isinstance(value, str):
                out[value] = None
    return {t: i for i, t in enumerate(out)}


def _entries(game: Game, step: Any) -> list[tuple[str, Any, Any, str]]:
    try:
        return step.words.action_entries(game)
    except GameError:  # a choice of lists without a domain has no texts to give
        return []
