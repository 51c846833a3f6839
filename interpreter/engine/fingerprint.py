"""A state's fingerprint: everything that decides how its game goes on, as plain hashable data, and where two
fingerprints differ (for the conformance battery's checks of clones, saved states and playouts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from interpreter.engine.card_values import renamed
from interpreter.engine.samples import relabel
from interpreter.engine.state import CHANCE, Decision, State

if TYPE_CHECKING:
    from interpreter.engine.game import Game

# the parts of a fingerprint, in order
FINGERPRINT = ("shared zones", "seat zones", "round values", "seat values", "game values", "counters", "teams",
               "teams known to each seat", "team sizes known", "totals", "round results", "round number", "dealer",
               "step running", "progress of the steps", "pending decision", "actions taken", "last round's values",
               "game over")


def fingerprint(state: State, kinds: bool = False) -> tuple[Any, ...]:
    """Everything that decides how the game of ``state`` goes on from here, as nested tuples of plain values
    (hashable): two states of the same rules with equal fingerprints are the same game at the same point,
    whichever way each was reached (a clone, the same choices played by another path).

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
    pending, ended = plain(state.pending), plain(state.ended)
    if kinds:
        game = cast("Game", state.game)
        kind = game.cards.kinds.__getitem__
        real, state = state, state.clone()
        relabel(game, state, kind)
        d = real.pending
        if d is not None:
            pending = ("decision", d.actor, plain(d.step), d.kind, d.prompt,
                       tuple(d.step.words.label(game, a) for a in d.actions) if d.actor != CHANCE else ())
        if real.ended is not None:
            ended = plain({k: renamed(game.value_types.get(k), v, kind) for k, v in real.ended.items()})
    return (
        tuple((name, tuple(cards)) for name, cards in state.shared.items()),
        tuple((name, tuple(tuple(cards) for cards in hands)) for name, hands in state.per_seat.items()),
        plain(state.vars), plain(state.seat_vars), plain(state.game_vars), plain(state.counters),
        tuple(state.teams), None if state.team_known is None else tuple(state.team_known), state.team_counted,
        tuple(state.totals), tuple(tuple(r) for r in state.round_results),
        state.round_number, state.dealer, state.step_index, plain(state.progress), pending,
        state.actions_taken, ended, state.finished,
    )


_LEAVES = frozenset({int, str, float, type(None)})  # values that are their own fingerprint


def plain(value: Any) -> Any:
    """``value`` (a state's value, progress object, decision or action) as nested tuples of plain values, for
    :func:`fingerprint`: lists and tuples as tuples, a mapping as its items sorted, a named tuple (an action)
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
    from interpreter.engine.steps.base import Step

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
    """Where two fingerprints (:func:`fingerprint`) first differ, in words: the part, the path to the entry
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
