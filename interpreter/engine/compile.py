"""The plan of a rule file → :class:`Game`: the sections read and checked (interpreter/plan/), every name checked,
every expression compiled.

Compilation is per player count and options, so ``players``, ``options.*`` and ``setup.*`` are constants folded
into the compiled expressions. Mistakes are collected wherever one does not hide another: the sections' own
checks all at once (plan.sections.read), then what the compiled steps tell (names that clash, declared types),
then the game's flow, status lines, policies and defines, each stage reporting every mistake it finds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TypeVar

import interpreter.engine.steps  # noqa: F401 - registers the step kinds
from interpreter import cache
from interpreter.dsl.compiler import Compiled, Compiler, Define, Globals
from interpreter.dsl.types import (
    CARD,
    CARDS,
    NONE,
    NUMBER,
    SEAT,
    SEATS,
    TEXT,
    VALUE,
    Type,
    join,
    record,
    type_of_data,
    type_of_plain,
)
from interpreter.engine.combinations import compile_combinations
from interpreter.engine.game import Flow, Game
from interpreter.engine.information_flow import leaks
from interpreter.engine.notation import build_notation
from interpreter.engine.seats import SeatSpec
from interpreter.engine.steps.base import Step, build_steps, finish_steps, infer_types
from interpreter.engine.steps.context import StepContext
from interpreter.engine.table import StatusLine
from interpreter.errors import (
    GameError,
    Position,
    RuleError,
    RuleErrors,
    RuleWarning,
    SchemaError,
    TrickbookError,
)
from interpreter.plan import game as game_section
from interpreter.plan import players as players_section
from interpreter.plan import types as types_section
from interpreter.plan import zones as zones_section
from interpreter.plan.cards import CardTable
from interpreter.plan.players import Setup
from interpreter.plan.section import Path_, Plan, raise_all
from interpreter.plan.sections import read as read_plan
from interpreter.plan.status import StatusLinePlan
from interpreter.plan.zones import ZoneSpec
from interpreter.rules import options as declared_options
from interpreter.rules.loader import identity
from interpreter.rules.source import RuleSource

T = TypeVar("T")


def supported_players(source: RuleSource) -> list[int]:
    return list(players_section.read(source).counts)


def rule_file_problems(name: str, allow: tuple[Any, ...] = ()) -> list[RuleError]:
    """Every problem ``trickbook validate`` finds in one rule file (untrusted: it may be anyone's), each with
    its line and column: the loader's (YAML, extends, the schema), then the compiler's for every player count
    the file supports (the checks only: no code is generated, no game is played). A problem without a place
    in the file is put at 1:1, with no source line."""
    return rule_file_check(name, allow, warn=False)[0]


def rule_file_check(name: str, allow: tuple[Any, ...] = (), warn: bool = True
                    ) -> tuple[list[RuleError], list[RuleWarning]]:
    """``rule_file_problems``'s errors, and (``warn``, a file without errors) its warnings: the values, status lines
    and narration that show a seat what it cannot see (engine/information_flow.py), for every player count, each
    once."""
    from interpreter.rules.loader import load_rules

    def at_start(text: str) -> RuleError:
        return RuleError(text, Position(name, 1, 1), "")

    try:
        source = load_rules(name, allow)
    except RuleErrors as exc:
        return list(exc.errors), []
    except RuleError as exc:
        return [exc], []
    except TrickbookError as exc:
        return [at_start(str(exc))], []
    found: list[RuleError] = []
    warnings: dict[str, RuleWarning] = {}
    for n in supported_players(source):
        try:
            game = compile_game(source, n, generate=False)
        except (RuleError, RuleErrors) as exc:
            found += [e for e in _each(exc) if all(e.render() != f.render() for f in found)]
        except TrickbookError as exc:
            found.append(at_start(f"with {n} players: {exc}"))
        else:
            if warn:
                for w in leaks(source, game):
                    warnings.setdefault(w.render(), w)
    if found:
        return found, []
    return found, sorted(warnings.values(), key=lambda w: (w.position.line, w.position.column) if w.position
                         else (0, 0))


def _each(exc: RuleError | RuleErrors) -> list[RuleError]:
    return list(exc.errors) if isinstance(exc, RuleErrors) else [exc]


class _Found:
    """Mistakes collected where one does not stop the others from being looked for."""

    def __init__(self) -> None:
        self.errors: list[RuleError] = []

    def attempt(self, make: Callable[[], T]) -> T | None:
        """What ``make`` gives, or None when it finds a mistake (kept)."""
        try:
            return make()
        except (RuleError, RuleErrors) as exc:
            self.errors += _each(exc)
            return None

    def add(self, errors: Iterable[RuleError]) -> None:
        self.errors += errors

    def report(self) -> None:
        raise_all(self.errors)


def compile_game(source: RuleSource, players: int, options: dict[str, Any] | None = None, *,
                 generate: bool = True) -> Game:
    """The rules for ``players`` players; ``generate``: every expression's generated Python function made now
    (see dsl/codegen.py), else only those run while compiling (what validate needs: the same checks, sooner)."""
    plan = read_plan(source)
    counts = plan["players"].counts
    if players not in counts:
        raise GameError(f"{plan['name']} is for {', '.join(map(str, counts))} players, not {players}")
    cache.scope(source.file)  # its expression trees are kept with the rule file
    opts = declared_options.choose(plan["options"], options)
    setup: Setup = plan["players"].setups[players]
    raise_all(players_section.seats_problems(plan["players"], plan["seats"], players, source))
    cards: CardTable = plan["deck"].cards
    names = list(players_section.seat_names(plan["seats"], max(counts)))
    seat_names = names[:players] + [a.name for a in setup.automatic]
    roles = ["player"] * players + [a.role for a in setup.automatic]  # what seat.role reads

    g = _globals(plan, setup, players, opts, cards, len(seat_names))
    # the generated functions' code is kept per rule file, player count and options (see dsl/codegen.py)
    key = f"{identity(source.data)}/{players}/{sorted(opts.items())!r}" if generate else None
    compiler = Compiler(g, generate, key)
    zones: dict[str, ZoneSpec] = plan["zones"]
    ctx = _context(plan, compiler, seat_names, cards)
    ctx.combinations = compile_combinations(plan["combinations"], source, compiler, len(cards), plan["deck"].group)
    # steps: declare everything first, then compile (a step may read what a later one sets)
    steps = build_steps(ctx, source.data["round"], ("round",))
    deck = _deck(setup, source, compiler, len(cards))
    if "deck" not in zones:  # every card of the game, for values known before play (a zone of that name wins)
        g.constants["deck"] = (CARDS, tuple(deck))
    raise_all(zones_section.clashes(zones, ctx.counters, ctx.seat_fields, ctx.step_names, source))
    ctx.refresh = lambda: g.seat_attrs.update(_seat_attributes(zones, ctx.counters, ctx.seat_fields, seat_names,
                                                               roles))
    ctx.refresh()
    flow = _typed(plan, ctx, steps)
    found = _Found()
    found.attempt(partial(finish_steps, ctx, steps))
    _flow(plan, ctx, flow, found)
    table = [line for line in (found.attempt(partial(_status_line, ctx, spec)) for spec in plan["table"])
             if line is not None]
    all_steps = _all_steps(steps)
    seats = [SeatSpec(n, roles[i]) for i, n in enumerate(names[:players])]
    seats += _automatic_seats(setup, ctx, all_steps, roles[players:], found)
    for d in g.defines.values():  # syntax-check defines nobody calls
        if d.tree is None:
            found.attempt(partial(compiler._parse, d.text, d.locate))
    found.report()
    notation = None
    if plan["deck"].notation is not None:
        every_seat = list(dict.fromkeys(names + [s.name for s in seats]))  # of any player count
        notation = build_notation(plan["deck"].notation, cards, deck, every_seat, source)

    value_types = {**ctx.round_fields, **ctx.seat_fields, **ctx.game_fields}
    game = Game(
        name=plan["name"], title=plan["title"], identity=identity(source.data), player_count=players,
        options=opts, seats=seats, cards=cards, deck=deck, deck_start=plan["deck"].start, zones=zones,
        counters=list(ctx.counters), steps=steps,
        flow=flow, round_fields=[f for f in ctx.round_fields if f not in ("number", "dealer")],
        seat_value_names=[v for v in ctx.seat_fields if v not in ctx.game_seat_fields], value_types=value_types,
        visibility=dict(ctx.visibility), group=plan["deck"].group, table=table, notation=notation,
    )
    game.combinations = ctx.combinations
    raise_all(e for step in all_steps.values() for e in step.check(game))  # every step's, not the first
    game.written(compiler.gen, compiler.generate)
    compiler.gen.save()  # the code compiled for this game, for the next run
    return game


def _globals(plan: Plan, setup: Setup, players: int, opts: dict[str, Any], cards: CardTable, seats: int) -> Globals:
    """What every expression may name before the steps declare their values: the cards' attributes, the game's
    constants (players, options, setup, seats) and the defines."""
    source = plan.source
    g = Globals()
    g.card_attrs = dict(cards.attributes)
    g.card_attrs["label"] = cards.labels
    g.constants = {
        "players": (NUMBER, players),
        "options": (record({k: type_of_plain(v) for k, v in opts.items()}), dict(opts)),
        "setup": (type_of_data(setup.values), setup.values),
        "seats": (SEATS, tuple(range(seats))),
    }
    assert tuple(g.constants) == zones_section.CONSTANTS  # the names a shared zone may not take
    g.places, g.derived = _value_places(source, setup, opts), source.smap.derived
    g.round_fields = {"number": NUMBER, "dealer": SEAT}
    for d in plan["define"]:
        assert d.name is not None  # the section's checks refuse a key that names nothing
        g.defines[d.name] = Define(d.name, d.params, d.text, source.locator(d.path))
    return g


def _value_places(source: RuleSource, setup: Setup, opts: dict[str, Any]) -> dict[str, Position]:
    """Where each setup value and option default is written, for those a file extending another wrote over a value
    of another kind (or where the other has none): a mistake such a value causes is shown there (Compiler.compile)."""
    def changed(path: tuple[Any, ...], value: Any) -> bool:
        return path not in source.smap.replaced or type(source.smap.replaced[path]) is not type(value)

    places = {f"setup.{k}": source.pos(setup.path + (k,)) for k, v in setup.values.items()
              if changed(setup.path + (k,), v)}
    places.update((f"options.{k}", source.pos(("options", k, "default"))) for k, v in opts.items()
                  if v == source.data["options"][k]["default"] and changed(("options", k, "default"), v))
    return places


def _context(plan: Plan, compiler: Compiler, seat_names: list[str], cards: CardTable) -> StepContext:
    """What the steps are built with: the zones, the seats, the values the game keeps from round to round."""
    g = compiler.g
    zones: dict[str, ZoneSpec] = plan["zones"]
    for name, spec in zones.items():
        if not spec.per_seat:
            g.zones[name] = CARDS
    ctx = StepContext(plan.source, compiler, len(seat_names), seat_names,
                      {z: s.visible for z, s in zones.items() if s.per_seat},
                      {z: s.visible for z, s in zones.items() if not s.per_seat},
                      card_kinds=cards.kinds, round_fields=g.round_fields, game_fields=g.game_fields)
    flow: game_section.GamePlan = plan["game"]
    for name in flow.values:
        g.game_fields[name] = NONE  # typed below: the set steps' values of it, then its value at the start
    for name in flow.seat_values:
        ctx.game_seat_fields[name] = VALUE
        ctx.declare_seat(name, VALUE, ("game", "seat_values", name))
    return ctx


def _deck(setup: Setup, source: RuleSource, compiler: Compiler, size: int) -> list[int]:
    """The cards of the game for this player count: every card but those ``remove`` takes out."""
    deck = list(range(size))
    if setup.remove is None:
        return deck
    drop = compiler.compile(source.get(setup.remove), {"card": CARD}, source.locator(setup.remove), "truth")
    if drop.deps - {"ctx:card"}:
        raise SchemaError("remove may use only card, players, options and setup (it applies before play)",
                          source.pos(setup.remove))
    return [c for c in deck if not drop({"card": c})]


def _typed(plan: Plan, ctx: StepContext, steps: list[Step]) -> Flow:
    """The types of every value, worked out from the steps that set them and the game values' starting values, and
    held to what the types section declares; the game values' starting expressions, compiled."""
    infer_types(ctx, steps)
    spec: game_section.GamePlan = plan["game"]
    flow = Flow(winners=spec.winners)
    fields = ctx.game_fields
    for name in spec.values:  # their starting values see everything declared
        expr = ctx.expr(("game", "values", name))
        sets = fields[name]  # what the set steps give it (none when none does)
        fields[name] = sets if expr.type.literal_none else expr.type if sets.literal_none else join(expr.type, sets)
        flow.game_values[name] = expr
    for name in spec.seat_values:
        expr = ctx.expr(("game", "seat_values", name), {"seat": SEAT})
        ctx.seat_fields[name] = ctx.game_seat_fields[name] = expr.type
        flow.game_seat_values[name] = expr
    # the kinds the types section declares: checked against what the steps give, then seen by every expression
    types = plan["types"]
    if types:
        by_group = {"round": ctx.round_fields, "seats": ctx.seat_fields, "game": ctx.game_fields}
        raise_all(types_section.mismatches(types, by_group, plan.source))
        types_section.apply(types, by_group)
        infer_types(ctx, steps)  # again: values worked out from a declared one take their kinds from it
        types_section.apply(types, by_group)
    ctx.refresh()
    return flow


def _flow(plan: Plan, ctx: StepContext, flow: Flow, found: _Found) -> None:
    """The game section's expressions: its end, who can win, the next dealer and the first."""
    spec: game_section.GamePlan = plan["game"]
    source = plan.source

    def rounds(path: Path_) -> None:
        flow.rounds = ctx.expr(path, expect="number")
        if flow.rounds.is_constant:
            raise_all(e for e in [game_section.rounds_problem(flow.rounds({}), source)] if e is not None)

    def first_dealer(path: Path_) -> None:
        dealer = ctx.constant(path)
        raise_all(e for e in [game_section.first_dealer_problem(dealer, source)] if e is not None)
        flow.first_dealer = dealer

    def compiled(path: Path_, bound: dict[str, Type], expect: str) -> Compiled:
        return ctx.expr(path, bound, expect)

    if spec.rounds is not None:
        found.attempt(partial(rounds, spec.rounds))
    if spec.until is not None:
        flow.until = found.attempt(partial(compiled, spec.until, {}, "truth"))
    if spec.can_win is not None:
        flow.can_win = found.attempt(partial(compiled, spec.can_win, {"seat": SEAT}, "truth"))
    if spec.next_dealer is not None:
        flow.next_dealer = found.attempt(partial(compiled, spec.next_dealer, {}, "seat"))
    if spec.first_dealer is not None:
        found.attempt(partial(first_dealer, spec.first_dealer))


def _status_line(ctx: StepContext, line: StatusLinePlan) -> StatusLine:
    return StatusLine(line.title, ctx.expr(line.show, {"seat": SEAT}),
                      ctx.expr(line.when, {"seat": SEAT}, "truth") if line.when is not None else None, line.each,
                      line.discloses)


def _automatic_seats(setup: Setup, ctx: StepContext, steps: dict[str, Step], roles: list[str], found: _Found
                     ) -> list[SeatSpec]:
    """The automatic seats of this player count, each with its policy for every step that asks it."""
    deciding = ", ".join(n for n, s in steps.items() if s.decides) or "none"
    out = []
    for seat, role in zip(setup.automatic, roles):
        policy = {}
        for name in seat.policy:
            path = seat.path + ("policy", name)
            step = steps.get(name)
            if step is None or not step.decides:
                found.add([SchemaError(f"there is no step {name!r} that asks seats (steps that do: {deciding})",
                                       ctx.source.key_pos(path))])
                continue
            expr = found.attempt(partial(ctx.expr, path, step.policy_binds()))
            if expr is not None:
                policy[name] = expr
        out.append(SeatSpec(seat.name, role, policy, str(ctx.source.pos(seat.path))))
    return out


def _all_steps(steps: list[Step]) -> dict[str, Step]:
    out: dict[str, Step] = {}
    for s in steps:
        out[s.name] = s
        for inner in getattr(s, "inner_steps", lambda: [])():
            out[inner.name] = inner
    return out


def _seat_attributes(zones: dict[str, ZoneSpec], counters: list[str], values: dict[str, Type], names: list[str],
                     roles: list[str]) -> dict[str, Any]:
    """Each attribute of a seat: (its type, a getter ``(state, seat) -> value``, whether it is fixed for the whole
    game, the source that reads it in generated code: ``(state source, seat source, ref) -> source``)."""
    attrs: dict[str, Any] = {}
    for zname, spec in zones.items():
        if spec.per_seat:
            attrs[zname] = (CARDS, lambda st, s, z=zname: st.per_seat[z][s], False,
                            lambda st, s, ref, z=zname: f"{st}.per_seat[{z!r}][{s}]")
    for c in counters:
        attrs[c] = (NUMBER, lambda st, s, c=c: st.counters[c][s], False,
                    lambda st, s, ref, c=c: f"{st}.counters[{c!r}][{s}]")
    for vname, vtype in values.items():
        attrs[vname] = (vtype, lambda st, s, v=vname: st.seat_vars[v][s], False,
                        lambda st, s, ref, v=vname: f"{st}.seat_vars[{v!r}][{s}]")
    attrs["total"] = (NUMBER, lambda st, s: st.totals[s], False, lambda st, s, ref: f"{st}.totals[{s}]")
    attrs["index"] = (NUMBER, lambda st, s: s, True, lambda st, s, ref: s)
    attrs["name"] = (TEXT, lambda st, s: names[s], True, lambda st, s, ref: f"{ref(names)}[{s}]")
    attrs["role"] = (TEXT, lambda st, s: roles[s], True, lambda st, s, ref: f"{ref(roles)}[{s}]")
    return attrs


__all__ = ["compile_game", "rule_file_check", "rule_file_problems", "supported_players"]
