"""``set``: compute round values, per-seat values and game values from expressions."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from interpreter.dsl.compiler import Compiled
from interpreter.dsl.types import NONE, SEAT, join
from interpreter.engine.steps.base import COMMON, register
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.engine.steps.steps_code import InPlace
from interpreter.engine.steps.words import show
from interpreter.engine.steps.writer import Found, Lines, ListWriter
from interpreter.plan.declaration import Opt


@register
class SetValues(InPlace):
    kind = "set"
    nested = True
    summary = ("Compute values: round values (read as round.NAME, back to none each round), per-seat values "
               "(seat.NAME) and game values (game.NAME, kept from round to round). Each is computed in order, "
               "so a later one may read an earlier one.")
    options = COMMON + (
        Opt("round", "values", "Round value name -> expression, e.g. trump: \"first(turnup).suit\"."),
        Opt("seats", "values", "Per-seat value name -> expression (seat is bound), e.g. bid: \"0\".",
            binds=("seat",)),
        Opt("game", "values", "Game value name -> expression; declare it under game.values (or, for a value "
            "of each seat, game.seat_values, with seat bound) first."),
        Opt("visible", "enum", "Who sees the per-seat values: all (default) or owner (each seat its own).",
            choices=("all", "owner"), default="all"),
        Opt("narrate", "bool", "Tell the round values set in the narration (default true); false for values "
            "the narration already shows, such as the winner of each trick.", default=True),
        Opt("discloses", "bool", "The values every seat sees here are worked out from what some seat cannot see, "
            "and the rules mean them to tell it (a hint a player gives): validate does not warn of them (default "
            "false).", default=False),
    )

    def declare(self, ctx: StepContext, opts: Options) -> None:
        if not any(opts.given(k) for k in ("round", "seats", "game")):
            opts.mistake("a set step needs round:, seats: or game: values to compute")
        self._pending = []
        for name in opts.plain("round") or {}:
            if opts.attempt(partial(ctx.declare, name, NONE, self.path + ("round", name)), "round") is None:
                self._pending.append(("round", name))
        for name in opts.plain("seats") or {}:
            ctx.declare_seat(name, NONE, self.path + ("seats", name))
            ctx.visibility[name] = opts.get("visible")
            self._pending.append(("seats", name))
        for name in opts.plain("game") or {}:
            if name in ctx.game_seat_fields:
                self._pending.append(("game_seats", name))
                continue
            if name not in ctx.game_fields:
                opts.mistake(f"game value {name!r} is not declared; add it under game: values: with its value at the "
                             "start of the game", "game", name)
            else:
                self._pending.append(("game", name))

    def infer(self, ctx: StepContext) -> None:
        opts = self.reader(ctx)
        for group, name in self._pending:
            if group == "game_seats":
                continue
            t = self._read(opts, group, name).type
            fields = ctx.round_fields if group == "round" else ctx.seat_fields if group == "seats" \
                else ctx.game_fields
            fields[name] = t if fields[name].literal_none else join(fields[name], t)

    def build(self, ctx: StepContext, opts: Options) -> None:
        self.narrate = bool(opts.get("narrate"))
        self.discloses = bool(opts.get("discloses"))
        self.hidden = tuple(name for group, name in self._pending
                            if group == "seats" and ctx.visibility.get(name, "all") != "all")
        self.assign: list[tuple[str, str, Any]] = []
        for group, name in self._pending:
            compiled = opts.attempt(partial(self._read, opts, group, name))
            if compiled is not None:
                self.assign.append((group, name, compiled))

    @staticmethod
    def _read(opts: Options, group: str, name: str) -> Compiled:
        """The expression of value ``name`` of ``group``: a game value of each seat binds seat as the values of
        seats do (its declaration is game.seat_values), a game value of the whole game binds nothing."""
        if group == "game_seats":
            return cast(Compiled, opts.entry("game", name, {"seat": SEAT}, like="seats"))
        return cast(Compiled, opts.entry(group, name, {"seat": SEAT}))

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """The values worked out in place, in order (each in a batch of its own), as ``start`` does."""
        ref, shape = x.step_ref(k), x.shape
        if shape.edges:
            with w.block("if state.seen is not None:"):
                w(f"state.seen.derived.append(({ref}, state.clone()))")
        names = x.outer_locals(w, [expr for _, _, expr in self.assign])
        w("e = {'$s': state}")
        for group, name, expr in self.assign:
            w("e['$batch'] = object()")
            # a list is kept as it is now: a zone's list (seat.hand) goes on changing with the zone
            t = expr.type
            kept = f"{x.ref(detached)}(value)" if t.kind == "list" or (t.kind == "value" and not t.plain) \
                else "value"
            if group in ("seats", "game_seats"):
                with w.block(f"for _v_seat in range({x.game.players}):"):
                    x.assign(w, "value", expr, {**names, "seat": "_v_seat"})
                    w(f"{shape.seat_value('state', name, '_v_seat')} = {kept}")
            elif group == "round":
                x.assign(w, "value", expr, names)
                w(f"{shape.round('state', name)} = value = {kept}")
                if self.narrate and x.game.visibility.get(name, "all") == "all" and shape.edges:
                    with w.block("if state.notes is not None and value is not None:"):
                        w(f"state.note({name + ': '!r} + {x.ref(show)}(state.game, {x.ref(expr.type)}, value))")
            else:
                x.assign(w, "value", expr, names)
                w(f"{shape.game('state', name)} = {kept}")


def detached(value: Any) -> Any:
    """``value`` as it is now: its lists copied (a zone's list, as ``seat.hand`` gives it, goes on changing with
    the zone; a value must not)."""
    if value.__class__ is list:
        return [detached(v) for v in value]
    return value
