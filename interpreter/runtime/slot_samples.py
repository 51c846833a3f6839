"""The samples search draws of one decision, into the compact slots (runtime/slots.py): a sample is a copy of the
decision's slots (the state packed once) with the cards the seat does not know dealt again into their zone slots.

What is drawn is engine/samples.py's: ``Unknown`` gathers once what the seat does not know (the unknown cards by the
deal that put them there, where each lies, the bans, the checks and hidden teams) and ``Unknown.draw`` deals them
again, with the same random draws as a sample of today's state. A card in the slots is its kind, so a drawn card is
written as its kind at the place of the card it replaces (a zone is read and written only through
``Slots.cards``/``Slots.put``, in today's order of its cards): identical cards need no renaming. Only what names an
unknown card outside the zones is renamed: a value holding one, a running step's progress holding one (a choice
made in secret), each found once for the decision. The hidden values and teams worked out again on the draw are
written into their value slots.

Choices the seat has not seen (a simultaneous choice pending) are drawn again among what their chooser could choose
by the step on today's state (``Search.redraw``): while one is pending, the sample is drawn as today's state and
packed. A game without a compact form is sampled as today's state (``StateSamples``): ``samples_of`` picks."""

from __future__ import annotations

from typing import Any

from interpreter.engine.card_values import renamed
from interpreter.engine.game import Game
from interpreter.engine.knowledge import Knowledge
from interpreter.engine.samples import StateSamples, Unknown
from interpreter.engine.state import State
from interpreter.engine.steps.running import running
from interpreter.runtime.compact_game import CompactGame, compact_game
from interpreter.runtime.layout import GAME, ROUND, SEAT, TEAM, layout
from interpreter.runtime.slots import Slots


def samples_of(game: Game, state: State, seat: int, knowledge: Knowledge) -> StateSamples | SlotSamples:
    """The samples of ``seat``'s decision in ``state``: into the compact slots where ``game`` has a compact form,
    else as today's state."""
    unknown = Unknown(game, state, seat, knowledge)
    compact = compact_game(game)
    return StateSamples(unknown) if compact is None else SlotSamples(compact, unknown)


class SlotSamples:
    """Samples of one decision into the compact slots (see the module's docstring): what a search plays them by
    (``game``, the compact game), and a sample (``draw``)."""

    def __init__(self, compact: CompactGame, unknown: Unknown):
        game, state = unknown.game, unknown.state
        lay = layout(game)
        self.game, self.unknown = compact, unknown
        self.root = compact.start(state)
        kind = self.kind = lay.kind
        # each zone slot holding unknown cards: its cards as kinds (today's order) and the spots the draw fills,
        # as (index in the zone, deal, spot of that deal)
        fills: dict[int, list[tuple[int, int, int]]] = {}
        for e, spots in enumerate(unknown.spots):
            for j, ((zone, seat), i) in enumerate(spots):
                fills.setdefault(lay.zone_slot(zone, None if seat < 0 else seat), []).append((i, e, j))
        self.zones: list[tuple[int, list[int], list[tuple[int, int, int]]]] = []
        for slot, fill in fills.items():
            zone, owner = lay.zones[slot]
            cards = state.shared[zone] if owner is None else state.per_seat[zone][owner]
            self.zones.append((slot, [kind[c] for c in cards], fill))
        slot_of = {key: i for i, key in enumerate(lay.values)}
        self._seat_slots = {name: [slot_of[(SEAT, name, s)] for s in range(lay.players)]
                            for name in unknown.knowledge.derived}
        self._teams = slot_of[(TEAM, "", 0)]
        named, self.progress_renamed = naming_unknown(unknown)
        # values naming an unknown card: (slot, type, the value as today's state holds it)
        self.values: list[tuple[int, Any, Any]] = [(slot_of[key], t, value) for key, t, value in named
                                                   if key in slot_of]

    def draw(self, rng: Any) -> Slots:
        """A sample: the decision's slots with the unknown cards dealt again (the draws of ``Unknown.sample``)."""
        unknown = self.unknown
        if unknown.redraws:  # choices the seat has not seen, drawn again by their step on today's state
            return self.game.start(unknown.sample(rng))
        draw = unknown.draw(rng)
        sample = self.root.copy()
        kind, dealt = self.kind, draw.dealt
        for slot, cards, fill in self.zones:
            cards = list(cards)
            for i, e, j in fill:
                cards[i] = kind[dealt[e][j]]
            sample.put(slot, cards)
        v = sample.v
        if self.values or self.progress_renamed:
            rename = draw.rename.get

            def as_kind(c: int) -> int:
                new = rename(c)
                return kind[c if new is None else new]

            for slot, t, value in self.values:
                v[slot] = renamed(t, value, as_kind)
            if self.progress_renamed:
                sample.progress = _relabelled(unknown.game, unknown.state, as_kind)
        types = unknown.game.value_types
        for name, values in unknown.hidden(draw).items():
            t = types.get(name)
            for slot, value in zip(self._seat_slots[name], values):
                v[slot] = renamed(t, value, kind.__getitem__)
        teams = unknown.teams_drawn(draw)
        if teams is not None:
            v[self._teams:self._teams + len(teams)] = teams
        return sample


def naming_unknown(unknown: Unknown) -> tuple[list[tuple[tuple[str, str, int | None], Any, Any]], bool]:
    """What names a card ``unknown``'s seat does not know outside the zones, so that a sample renames it: the values
    (each as its key in the layout, its type and the value as today's state holds it), and whether the running
    steps' progress does (a choice made in secret)."""
    game, state = unknown.game, unknown.state
    unknown_cards = {c for true, _, _ in unknown.events for c in true}
    types = game.value_types
    held: list[tuple[tuple[str, str, int | None], Any]] = [
        ((ROUND, name, None), value) for name, value in state.vars.items()]
    held += [((GAME, name, None), value) for name, value in state.game_vars.items()]
    held += [((SEAT, name, s), value) for name, per_seat in state.seat_vars.items() for s, value in
             enumerate(per_seat)]
    values = []
    for key, value in held:
        t = types.get(key[1])
        asked = Asked()
        renamed(t, value, asked)
        if asked.any_of(unknown_cards):
            values.append((key, t, value))
    asked = Asked()
    if state.progress is not None:
        _relabelled(game, state, asked)
    return values, asked.any_of(unknown_cards)


def _relabelled(game: Game, state: State, card: Any) -> Any:
    """A copy of ``state``'s progress with the cards the running steps hold renamed by ``card``."""
    p = state.progress.copy()
    for step, q in running(game.steps, state.step_index, p):
        step.search.relabel(q, card)
    return p


class Asked:
    """A renaming that renames nothing and notes the cards it was asked for."""

    def __init__(self) -> None:
        self.cards: list[int] = []

    def __call__(self, c: int) -> int:
        self.cards.append(c)
        return c

    def any_of(self, cards: set[int]) -> bool:
        return any(c in cards for c in self.cards)
