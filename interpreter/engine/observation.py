"""What one seat may see, derived from the visibility declared in the rule file.

Zones say ``visible: all`` (everyone sees the cards), ``owner`` (a per-seat
zone's cards are seen by their seat, others see how many), or ``nobody``
(only the count). Round values and the current step's public progress (the
board, the trick on the table) are seen by everyone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Set
from typing import Any

from interpreter.dsl.ir import USES
from interpreter.dsl.types import VALUE
from interpreter.engine.card_values import readable
from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE, State
from interpreter.engine.steps.running import running
from interpreter.engine.table import status


def observe(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    """The observation of ``seat`` (None: a spectator who sees only public information). A seat's cards are
    listed as people hold them: grouped by suit (deck.group), in deck order within a suit."""
    filling = _filling(state)
    obs: dict[str, Any] = {key: part(game, state, seat, filling) for key, part in _PARTS.items()}
    d = state.pending
    if d is not None:
        obs["step"] = d.step.name
        obs["to_act"] = "chance" if d.actor == CHANCE else game.seat_names[d.actor]
        for step, p in running(game.steps, state.step_index, state.progress):
            obs.update(step.words.public(game, state, p, seat))
        obs["decision"] = d.kind
    else:
        obs["finished"] = True
    return obs


def observed(game: Game, state: State, seat: int | None, keys: Iterable[str]) -> dict[str, Any]:
    """The entries ``keys`` of ``observe(game, state, seat)`` made alone, each a key of the observation that is
    made from the state's values and seats (``seat``, ``round``, ``dealer``, ``values``, ``seat_values``,
    ``game_values``, ``teams``, ``zones``, ``counters``, ``totals``) or ``finished`` (absent while the game goes
    on)."""
    filling = _filling(state)
    out = {key: _PARTS[key](game, state, seat, filling) for key in keys if key in _PARTS}
    if state.pending is None and "finished" in keys:
        out["finished"] = True
    return out


def public_status(game: Game, state: State) -> list[tuple[str, str]]:
    """The status lines (the rule file's ``table:``) a spectator reads: those that read nothing but round values
    everyone sees (and not one the pending step is still filling in secret), and ``seat`` only as the seat a line
    of ``each: true`` is about. A line that reads anything else (a zone, a seat's value, a game value, ``seat`` as
    the viewer: "your team") is left out, as a spectator is no seat and knows no more than what everyone sees."""
    filling = _filling(state)

    def public(deps: Set[str], each: bool) -> bool:  # each: ``seat`` is the seat the line is about, not the viewer
        return all(d.startswith(USES) or d == "ctx:seat" and each or d.startswith("round:") and d[6:] not in filling
                   and game.visibility.get(d[6:], "all") == "all" for d in deps)

    lines = [line for line in game.table
             if public(line.show.deps, line.each) and (line.when is None or public(line.when.deps, False))]
    return status(game, lines, state, None)


def _zones(game: Game, state: State, seat: int | None) -> dict[str, Any]:
    names = game.seat_names
    labels = game.cards.labels
    order = game.hand_order
    zones: dict[str, Any] = {}
    for zname, spec in game.zones.items():
        if spec.per_seat:
            per = {}
            for s, cards in enumerate(state.per_seat[zname]):
                seen = spec.visible == "all" or (spec.visible == "owner" and s == seat)
                per[names[s]] = ([labels[c] for c in sorted(cards, key=order.__getitem__)] if seen
                                 else {"count": len(cards)})
            zones[zname] = per
        else:
            cards = state.shared[zname]
            zones[zname] = [labels[c] for c in cards] if spec.visible == "all" else {"count": len(cards)}
    return zones


Part = Callable[[Game, State, "int | None", "Set[str]"], Any]  # (game, state, seat, the values being filled)

_PARTS: dict[str, Part] = {  # the entries of an observation made from the state's values and seats, in order
    "seat": lambda game, state, seat, filling: game.seat_names[seat] if seat is not None else None,
    "round": lambda game, state, seat, filling: state.round_number,
    "dealer": lambda game, state, seat, filling: game.seat_names[state.dealer],
    "values": lambda game, state, seat, filling: {
        k: _readable(game, state, k, v) for k, v in state.vars.items()
        if game.visibility.get(k, "all") == "all" and k not in filling},
    "seat_values": lambda game, state, seat, filling: _seat_values(game, state, seat, filling),
    "game_values": lambda game, state, seat, filling: {
        k: _readable(game, state, k, v) for k, v in state.game_vars.items()},
    "teams": lambda game, state, seat, filling: _teams(game, state, seat),
    "zones": lambda game, state, seat, filling: _zones(game, state, seat),
    "counters": lambda game, state, seat, filling: {
        c: {game.seat_names[s]: v for s, v in enumerate(vals)} for c, vals in state.counters.items()},
    "totals": lambda game, state, seat, filling: {game.seat_names[s]: t for s, t in enumerate(state.totals)},
}


def _teams(game: Game, state: State, viewer: int | None) -> list[list[str]]:
    """The teams as lists of seat names. Hidden teams: each team, in the order the teams step gave them, with the
    seats ``viewer`` knows to be on it (State.known_teams); the seats it does not know are on none of the lists."""
    names = game.seat_names
    if state.team_known is None:
        groups: dict[int, list[str]] = {}
        for s, t in enumerate(state.teams):
            groups.setdefault(t, []).append(names[s])
        return list(groups.values())
    shown: list[list[str]] = [[] for _ in range(max(state.teams) + 1)]
    for s, known in enumerate(state.known_teams(viewer)):
        if known is not None:
            shown[known].append(names[s])
    return shown


def _filling(state: State) -> frozenset[str]:
    """The values the pending step is still filling in secret (a simultaneous choice): hidden, but a seat's own."""
    return state.pending.step.search.filling() if state.pending is not None else frozenset()


def _seat_values(game: Game, state: State, viewer: int | None, filling: Set[str] = frozenset()) -> dict[str, Any]:
    out: dict[str, Any] = {}
    names = game.seat_names
    for key, values in state.seat_vars.items():
        visible = game.visibility.get(key, "all")
        if key in filling and visible == "all":
            visible = "owner"
        shown = {}
        for s, v in enumerate(values):
            if visible == "all" or (visible == "owner" and s == viewer):
                shown[names[s]] = _readable(game, state, key, v)
        if shown:
            out[key] = shown
    return out


def _readable(game: Game, state: State, key: str, value: Any) -> Any:
    """Round and seat values as people read them: seat names, card labels, a record's label."""
    return readable(game, game.value_types.get(key, VALUE), value)


def held(game: Game, state: State, seat: int) -> tuple[set[int], set[int]]:
    """(the cards in ``seat``'s own hidden zones, every card ``seat`` sees now): a card in the first that was not
    in the second before an action came to the seat face down (a pass), which is what a person is told."""
    own: set[int] = set()
    seen: set[int] = set()
    for zone, spec in game.zones.items():
        if spec.per_seat:
            for s, cards in enumerate(state.per_seat[zone]):
                if spec.visible == "all" or spec.visible == "owner" and s == seat:
                    seen.update(cards)
                    if s == seat and spec.visible == "owner":
                        own.update(cards)
        elif spec.visible == "all":
            seen.update(state.shared[zone])
    return own, seen


def received(before: tuple[Set[int], Set[int]], now: tuple[Set[int], Set[int]]) -> list[int]:
    """The cards a seat holds face down now that it did not see before (``held`` before and after an action):
    the cards passed to it, in the deck's order."""
    return sorted(c for c in now[0] if c not in before[1])
