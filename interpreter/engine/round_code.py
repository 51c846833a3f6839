"""The code of a round and of the game around it, written for each game: the round's steps entered one after the
other, the game's values when it starts, whether it ends after a round, who may win.

``enter_ROUND(game, state, p, i)`` enters the round's steps from the ``i``-th until one has a decision, as
steps_code.py writes the entering of any list of steps (each step's ``when`` in place, a step without decisions
doing its work, a step with written code started through it): the step found and its progress are kept in the
state (``step_index``, ``progress``) as soon as it starts, and its decision is given; after the last step the
round is over (``step_index`` -1) and None is given. ``begin_GAME``, ``over_ROUND``, ``dealer_ROUND`` and
``can_win_GAME`` write the game's own expressions (``game.values``, ``game.seat_values``, ``until``, ``rounds``,
``next_dealer``, ``can_win``) in place.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from interpreter.dsl.codegen import Namespace
from interpreter.dsl.compiler import RUNTIME_ERRORS, Compiled
from interpreter.engine.faults import bad_dealer
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision
from interpreter.engine.state_shape import STATE_SHAPE, StateShape
from interpreter.engine.steps.base import Step
from interpreter.engine.steps.steps_code import StepsWriter
from interpreter.engine.steps.writer import Lines, Part


class Flow(Protocol):
    """How the game runs from round to round, as the round's code is written from it (engine/game.py's Flow)."""

    @property
    def rounds(self) -> Compiled | None: ...

    @property
    def until(self) -> Compiled | None: ...

    @property
    def can_win(self) -> Compiled | None: ...

    @property
    def next_dealer(self) -> Compiled | None: ...

    @property
    def game_values(self) -> dict[str, Compiled]: ...

    @property
    def game_seat_values(self) -> dict[str, Compiled]: ...


class WrittenGame(GameView, Protocol):
    """A game as its module is written from it (engine/game.py's Game): its steps, its flow."""

    @property
    def steps(self) -> list[Step]: ...  # the round's

    @property
    def flow(self) -> Flow: ...

    def every_step(self) -> list[Step]: ...  # the round's, and those nested in them

    @property
    def round_fields(self) -> list[str]: ...  # the round's values besides its number and dealer

    @property
    def seat_value_names(self) -> list[str]: ...  # the values of each seat a round clears

    @property
    def counters(self) -> list[str]: ...


class RoundCode(NamedTuple):
    """The functions written for a game's round (see the module's docstring)."""

    enter: Any
    begin: Any  # begin_GAME(state): the game's values and each seat's, when the game starts
    start: Any  # start_ROUND(state): a round begins: its values cleared, counters at zero, each seat its own team
    end: Any  # end_ROUND(state): a round is over: its values kept as the last round's (``ended``)
    over: Any  # over_ROUND(state): whether the game ends with the round just played (until, rounds)
    dealer: Any  # dealer_ROUND(state): who deals the next round (next_dealer; default the left neighbour)
    can_win: Any  # can_win_GAME(state): the seats that may win (game.can_win)


def part(game: WrittenGame, gen: Namespace, shape: StateShape = STATE_SHAPE) -> Part:
    """The functions of ``game``'s round; ``gen``: the namespace of the game's expressions; ``shape``: how the state
    is held."""
    steps = StepsWriter("ROUND", game.steps, gen, game, None, shape, loops=False)  # (its playout: Rounds.playout)
    w = Lines()
    with w.block("def enter_ROUND(game, state, p, i):"):
        steps.enter(w, lambda k: w("return d"), lambda k: w(f"state.step_index = {k}", "state.progress = q"))
        w("state.step_index = -1", "state.progress = None", "return None")
    flow, names = game.flow, {"seat": "_v_seat"}
    with w.block("def begin_GAME(state):"):
        w("e = {'$s': state}")
        for name, expr in flow.game_values.items():
            steps.assign(w, shape.game("state", name), expr, {})
        for name, expr in flow.game_seat_values.items():
            w(shape.new_seat_values("state", name, game.players))
            with w.block(f"for _v_seat in range({game.players}):"):
                steps.assign(w, shape.seat_value("state", name, "_v_seat"), expr, names)
    _start_and_end(w, game, shape)
    with w.block("def over_ROUND(state):"):
        w("e = {'$s': state}")
        if flow.until is not None:
            steps.assign(w, "done", flow.until, {})
            with w.block("if done:"):
                w("return True")
        if flow.rounds is not None:
            steps.assign(w, "rounds", flow.rounds, {}, "number")
            with w.block(f"if {shape.attribute('state', 'round_number')} >= rounds:"):
                w("return True")
        w("return False")
    with w.block("def dealer_ROUND(state):"):
        if flow.next_dealer is None:
            w(f"return ({shape.attribute('state', 'dealer')} + 1) % {game.players}")
        else:
            w("e = {'$s': state}")
            steps.assign(w, "dealer", flow.next_dealer, {})
            at = str(flow.next_dealer.position) if flow.next_dealer.position else None
            with w.block(f"if dealer.__class__ is not int or not 0 <= dealer < {game.players}:"):
                w(f"raise {steps.ref(bad_dealer)}({at!r}, dealer)")
            w("return dealer")
    with w.block("def can_win_GAME(state):"):
        if flow.can_win is None:
            w(f"return list(range({game.players}))")
        else:
            w("e = {'$s': state}", "out = []")
            with w.block(f"for _v_seat in range({game.players}):"):
                steps.assign(w, "ok", flow.can_win, names)
                with w.block("if ok:"):
                    w("out.append(_v_seat)")
            w("return out")
    return Part(w.text(), {"RUNTIME_ERRORS": RUNTIME_ERRORS,
                           "Decision": Decision, **steps.globals()},
                lambda f: RoundCode(f["enter_ROUND"], f["begin_GAME"], f["start_ROUND"], f["end_ROUND"],
                                    f["over_ROUND"], f["dealer_ROUND"], f["can_win_GAME"]))


def _start_and_end(w: Lines, game: WrittenGame, shape: StateShape) -> None:
    """``start_ROUND`` and ``end_ROUND`` (see RoundCode)."""
    n = game.players
    number, dealer = shape.attribute("state", "round_number"), shape.attribute("state", "dealer")
    with w.block("def start_ROUND(state):"):
        w(f"{number} += 1", shape.new_round_values("state", list(game.round_fields)))
        w(f"{shape.round('state', 'number')} = {number}", f"{shape.round('state', 'dealer')} = {dealer}")
        for name in game.seat_value_names:  # values of the round; game seat values stay
            w(shape.new_seat_values("state", name, n))
        with w.block(f"for s in range({n}):"):
            for counter in game.counters:
                w(f"{shape.counter('state', counter, 's')} = 0")
            w(f"{shape.team('state', 's')} = s")
        w(f"{shape.attribute('state', 'team_known')} = None", f"{shape.attribute('state', 'team_counted')} = False")
    with w.block("def end_ROUND(state):"):
        w(f"state.ended = {shape.round_values('state', ['number', 'dealer', *game.round_fields])}")
        kept = shape.ended_teams("state")
        if kept is not None:
            w(kept)

