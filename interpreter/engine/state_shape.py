"""Where the code a step kind writes reads and changes a state: today's ``State`` (engine/state.py), or a state held
another way (the compact layout's slots, runtime/compact_reads.py), so that one writer of a step kind writes the
code of both.

A ``StateShape`` is the expression writer's ``Reads`` (dsl/state_reads.py: a shared zone, a round value, a game
value, a seat's attribute) and the parts of a state only steps change: a seat's value, a total, a seat's team, what
each seat knows of the teams, the rounds' results. Each method gives a source that may be read or assigned. Today's
code also keeps the narration and what a Knowledge needs (``state.notes``, ``state.seen``: ``edges``); code for the
compact layout keeps neither (they are made at the edges, from the match's events)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from interpreter.dsl.state_reads import Reads


class StateShape(Reads):
    """Today's ``State``: its containers, by name (see the module's docstring)."""

    edges = True  # the code writes the narration (state.notes) and what a Knowledge needs (state.seen)
    kinds = False  # a zone holds card ids (each card apart), not card kinds (identical cards alike)
    # the seat zones held as their kinds once each (in the order of their first copies) with a count per kind
    # (runtime/counted.py: ``kinds``, ``n``) rather than as a list of their cards (today's: none)
    counted: frozenset[str] = frozenset()

    def seat_value(self, state: str, name: str, seat: str) -> str:
        """The source of ``seat``'s value ``name``."""
        return f"{state}.seat_vars[{name!r}][{seat}]"

    def attribute(self, state: str, name: str) -> str:
        """The source of one of the state's own values: ``dealer``, ``round_number``, ``round_results`` (the list of
        the rounds' scores), ``team_known`` (what each seat knows of the teams: a list of bits per seat; None: the
        teams are public), ``team_counted`` (the teams' sizes are public)."""
        return f"{state}.{name}"

    @property
    def moves(self) -> Moves:
        """What moves cards over this state."""
        return STATE_MOVES

    def decision(self, actor: str, actions: str, step: str, prompt: str, kind: str) -> str:
        """The source of a decision: ``actor`` chooses among ``actions`` (sources) at ``step``; ``prompt`` and
        ``kind`` as a Decision gives them."""
        return f"Decision({actor}, {actions}, {step}, {prompt}, {kind})"

    def zones(self, state: str) -> str:
        """The source of every zone's list of cards (in no particular order)."""
        return f"[*{state}.shared.values(), *(cards for hands in {state}.per_seat.values() for cards in hands)]"

    def held(self, cards: str, ref: Any) -> str:
        """The source of the cards of ``cards`` (a source giving card ids, as chance deals them) as the state holds
        them (today: card ids)."""
        return cards

    def card_set(self, cards: Any) -> frozenset[int]:
        """A set of cards as the state holds them (today: card ids)."""
        return frozenset(cards)

    def seat_zone(self, state: str, name: str, seat: str) -> str:
        """The source of ``seat``'s zone ``name`` (a list of cards)."""
        return f"{state}.per_seat[{name!r}][{seat}]"

    def new_seat_values(self, state: str, name: str, players: int) -> str:
        """The statement that makes every seat's value ``name`` none (a new list, for today's state)."""
        return f"{state}.seat_vars[{name!r}] = [None] * {players}"

    def new_round_values(self, state: str, names: list[str]) -> str:
        """The statement that makes the round values ``names`` none (and, for today's state, drops the others)."""
        return f"{state}.vars = dict.fromkeys({names!r})"

    def round_values(self, state: str, names: list[str]) -> str:
        """The source of the round's values, by name (today's: the state's own dict of them)."""
        return f"{state}.vars"

    def ended_teams(self, state: str) -> str | None:
        """The line that keeps each seat's team as the round ends (today's state keeps them beside its round values,
        for a summary's sides: the next round may set others within the same action), or None."""
        return f"{state}.ended_teams = list({state}.teams)"

    def seat_lists(self, state: str, name: str) -> str:
        """The source of a list of every seat's zone ``name`` (each the zone's own list of cards)."""
        return f"{state}.per_seat[{name!r}]"

    def counter(self, state: str, name: str, seat: str) -> str:
        return f"{state}.counters[{name!r}][{seat}]"

    def remove_card(self, cards: str, card: str, last: bool, ref: Any, sure: bool = False,
                    zone: str | None = None) -> str:
        """The source of a statement taking ``card`` out of the list ``cards`` (a card a seat's actions offered:
        where a card is its kind, the last copy with ``last``, as the actions offer identical cards; else the
        first). ``sure``: ``cards`` is known to hold it (a playout loop took it from the plays made from them), so
        nothing is left to undo when it is not there; else the list is left as it is and ValueError raised.
        ``zone``: the zone ``cards`` is (a seat's), when the shape may hold it otherwise than as a list."""
        return f"{cards}.remove({card})"

    def total(self, state: str, seat: str) -> str:
        return f"{state}.totals[{seat}]"

    def team(self, state: str, seat: str) -> str:
        return f"{state}.teams[{seat}]"

    def compiled(self, expr: Any) -> Any:
        """A compiled expression whose functions the code calls, written for this state (today's: as it is)."""
        return expr

    def table(self, table: Any) -> Any:
        """A card table the code looks values up in, over this state (today's: as it is)."""
        return table

    def code_of(self, step: str, ref: Any) -> str:
        """The source of the written code of the step ``step`` (a source) over this state (its start, decision and
        apply; ``game`` is in scope)."""
        return f"{step}.code(game)"


STATE_SHAPE = StateShape()



class Moves(Protocol):
    """What moves cards over a state (StateMoves: today's; runtime/moves.py's SlotMoves: the compact layout's)."""

    def carrier(self, step: Any) -> Any: ...

    def remover(self, zones: tuple[str, ...]) -> Any: ...

    def swapper(self, step: Any) -> Any: ...


class StateMoves:
    """What moves cards over today's State (a card is its id: it is where it is)."""

    def carrier(self, step: Any) -> Any:
        """What carries out a move step's plan: ``carry(state, plan, owners)`` (move.py)."""
        return step._carry_out

    def remover(self, zones: tuple[str, ...]) -> Any:
        """``remove(state, card, seat)``: a card taken from where it is (the seat's zones looked in first; where a
        card is its kind, only in ``zones``, the zones it comes from, when there are any)."""
        return _remove

    def swapper(self, step: Any) -> Any:
        """``swap(state, seat, pair)``: the two cards of a pair change places (a choose step's swap; a card that
        lies in no zone: the step's ``_not_in_zones(pair)`` is raised)."""
        return _swapper(step._not_in_zones)


STATE_MOVES = StateMoves()


def _remove(state: Any, card: int, seat: int | None) -> None:
    state.take(card, seat)


def _swapper(fail: Callable[[Any], Exception]) -> Callable[[Any, int, Any], None]:
    """``swap(state, seat, pair)`` over today's State (``fail(pair)``: the error of a card that lies in no zone)."""

    def swap(state: Any, seat: int, pair: Any) -> None:
        """The two cards of ``pair`` change places (a card swapped with itself stays where it is)."""
        if pair[0] == pair[1]:
            return
        a, b = pair
        if state.zone_of(a, seat) is None or state.zone_of(b, seat) is None:
            raise fail(pair)
        where_a, where_b = state.take(a, seat), state.take(b, seat)
        where_a.append(b)
        where_b.append(a)

    return swap
