"""Rule data → :class:`Game`: build the deck, check every name, compile every expression.

Compilation is per player count and options, so ``players``, ``options.*``
and ``setup.*`` are constants folded into the compiled expressions.
"""

from __future__ import annotations

import math
import re
from typing import Any

import interpreter.engine.steps  # noqa: F401 - registers the step kinds
from interpreter import cache
from interpreter.dsl.builtins import REGISTRY as BUILTINS
from interpreter.dsl.compiler import Compiler, Define, Globals
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
from interpreter.engine.cards import build_cards, label_fields
from interpreter.engine.combinations import compile_combinations
from interpreter.engine.declared import apply as declare_types
from interpreter.engine.declared import declared
from interpreter.engine.game import Flow, Game, SeatSpec, StatusLine, ZoneSpec
from interpreter.engine.notation import build_notation
from interpreter.engine.steps.base import Step, StepContext, build_steps, finish_steps, infer_types
from interpreter.errors import GameError, Position, RuleError, RuleErrors, SchemaError, TrickbookError
from interpreter.limits import MAX_CARDS, MAX_ROUNDS
from interpreter.rules import options as declared_options
from interpreter.rules.loader import identity
from interpreter.rules.source import RuleSource

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_DEFINE = re.compile(rf"^\s*({_NAME})\s*(?:\(\s*({_NAME}(?:\s*,\s*{_NAME})*)?\s*\))?\s*$")
_KEYWORDS = {"true", "false", "none", "and", "or", "not", "in", "if", "else", "for", "let"}
# seat attributes the engine provides; zones and values may not take these names
SEAT_ATTRIBUTES = ("total", "name", "index", "role")


def supported_players(source: RuleSource) -> list[int]:
    return sorted(int(n) for n in source.data["players"])


def rule_file_problems(name: str, allow: tuple[Any, ...] = ()) -> list[RuleError]:
    """Every problem ``trickbook validate`` finds in one rule file (untrusted: it may be anyone's), each with
    its line and column: the loader's (YAML, extends, the schema), then the compiler's for every player count
    the file supports (the checks only: no code is generated, no game is played). A problem without a place
    in the file is put at 1:1, with no source line."""
    from interpreter.rules.loader import load_rules

    def at_start(text: str) -> RuleError:
        return RuleError(text, Position(name, 1, 1), "")

    try:
        source = load_rules(name, allow)
    except RuleErrors as exc:
        return list(exc.errors)
    except RuleError as exc:
        return [exc]
    except TrickbookError as exc:
        return [at_start(str(exc))]
    found: list[RuleError] = []
    for n in supported_players(source):
        try:
            compile_game(source, n, generate=False)
        except RuleError as exc:
            if all(exc.render() != e.render() for e in found):
                found.append(exc)
        except TrickbookError as exc:
            found.append(at_start(f"with {n} players: {exc}"))
    return found


def _value_places(source: RuleSource, setup_path: tuple[Any, ...], setup: dict[str, Any], opts: dict[str, Any]
                  ) -> dict[str, Position]:
    """Where each setup value and option default is written, for those a file extending another wrote over a value
    of another kind (or where the other has none): a mistake such a value causes is shown there (Compiler.compile)."""
    def changed(path: tuple[Any, ...], value: Any) -> bool:
        return path not in source.smap.replaced or type(source.smap.replaced[path]) is not type(value)

    places = {f"setup.{k}": source.pos(setup_path + (k,)) for k, v in setup.items() if changed(setup_path + (k,), v)}
    places.update((f"options.{k}", source.pos(("options", k, "default"))) for k, v in opts.items()
                  if v == source.data["options"][k]["default"] and changed(("options", k, "default"), v))
    return places


def compile_game(source: RuleSource, players: int, options: dict[str, Any] | None = None, *,
                 generate: bool = True) -> Game:
    """The rules for ``players`` players; ``generate``: every expression's generated Python function made now
    (see dsl/codegen.py), else only those run while compiling (what validate needs: the same checks, sooner)."""
    data = source.data
    counts = supported_players(source)
    if players not in counts:
        raise GameError(f"{data['name']} is for {', '.join(map(str, counts))} players, not {players}")
    cache.scope(source.file)  # its expression trees are kept with the rule file
    opts = declared_options.chosen(data, options)

    setup_key = players if players in data["players"] else str(players)
    setup_path = ("players", setup_key)
    setup = dict(data["players"][setup_key] or {})
    remove = setup.pop("remove", None)
    automatic = list(setup.pop("automatic", None) or [])  # extra seats that play by their policy

    # -- deck
    deck_spec = data["deck"]
    template = deck_spec.get("label")
    attr_names = {n for g in deck_spec["cards"] for n in g if n != "label"}
    if template:
        for f in label_fields(template):
            if f not in attr_names and f != "copy":
                raise SchemaError(f"the label names {f!r}, which is not a card attribute "
                                  f"({', '.join(sorted(attr_names))})", source.pos(("deck", "label")))
    total = 0
    for i, g in enumerate(deck_spec["cards"]):
        own = [n for n in g if n != "label"]
        for f in label_fields(g.get("label") or ""):
            if f not in own and f != "copy":
                raise SchemaError(f"the group's label names {f!r}, which is not an attribute of this group "
                                  f"({', '.join(own)})", source.pos(("deck", "cards", i, "label")))
        total += math.prod(len(g[k]) for k in own)
        if total > MAX_CARDS:  # counted before any card is made: a group of 8 x 20 values is 25 billion cards
            raise SchemaError(f"the deck has more than {MAX_CARDS:,} cards (by this group it has {total:,}); every "
                              "combination of a group's values is one card", source.pos(("deck", "cards", i)))
    cards = build_cards(deck_spec["cards"], template)
    group = deck_spec.get("group")
    if group is not None and group not in attr_names:
        raise SchemaError(f"deck.group names {group!r}, which is not a card attribute "
                          f"({', '.join(sorted(attr_names))})", source.pos(("deck", "group")))
    by_label: dict[str, int] = {}
    for c, label in enumerate(cards.labels):
        first = by_label.setdefault(label, c)
        if cards.kinds[first] != cards.kinds[c]:
            raise SchemaError(f"two different cards are both labelled {label!r}; put the attribute that tells "
                              "them apart into deck.label", source.pos(("deck", "label") if template else ("deck",)))

    # -- seats
    names = data.get("seats") or [f"P{i + 1}" for i in range(max(counts))]
    if len(names) < max(counts):
        raise SchemaError(f"seats names {len(names)} seats but the game is for up to {max(counts)} players",
                          source.pos(("seats",)))
    seat_names = list(names[:players]) + [a["name"] for a in automatic]
    if len(set(seat_names)) != len(seat_names):
        where = setup_path + ("automatic",) if automatic else ("seats",)
        raise SchemaError("two seats have the same name", source.pos(where))
    n_seats = len(seat_names)

    # -- globals for expressions
    g = Globals()
    g.card_attrs = dict(cards.attributes)
    g.card_attrs["label"] = cards.labels
    g.constants = {
        "players": (NUMBER, players),
        "options": (record({k: type_of_plain(v) for k, v in opts.items()}), dict(opts)),
        "setup": (type_of_data(setup), setup),
        "seats": (SEATS, tuple(range(n_seats))),
    }
    g.places, g.derived = _value_places(source, setup_path, setup, opts), source.smap.derived
    g.round_fields = {"number": NUMBER, "dealer": SEAT}
    for key, text in (data.get("define") or {}).items():
        m = _DEFINE.match(str(key))
        kpos = source.key_pos(("define", key))
        if not m:
            raise SchemaError(f"a define is written name or name(param, ...), not {key!r}", kpos)
        dname = m.group(1)
        params = tuple(p.strip() for p in (m.group(2) or "").split(",") if p.strip())
        if dname in BUILTINS:
            raise SchemaError(f"{dname!r} is a builtin function; choose another name for this define", kpos)
        if dname in _KEYWORDS:
            raise SchemaError(f"{dname!r} is a word of the expression language; choose another name", kpos)
        if dname in g.defines:
            raise SchemaError(f"{dname!r} is defined twice", kpos)
        if len(set(params)) != len(params):
            raise SchemaError("a parameter name is repeated", kpos)
        g.defines[dname] = Define(dname, params, str(text), source.locator(("define", key)))
    # the generated functions' code is kept per rule file, player count and options (see dsl/codegen.py)
    key = f"{identity(data)}/{players}/{sorted(opts.items())!r}" if generate else None
    compiler = Compiler(g, generate, key)

    # -- zones
    zones: dict[str, ZoneSpec] = {}
    for zname, zspec in data["zones"].items():
        zones[zname] = ZoneSpec(zname, bool(zspec.get("per_seat", False)), zspec.get("visible", "all"))
    for zname, spec in zones.items():
        clash = g.constants.keys() | {"round", "game"} | _KEYWORDS
        if not spec.per_seat and zname in clash:
            raise SchemaError(f"zone name {zname!r} is taken by a name of the expression language",
                              source.key_pos(("zones", zname)))
        if not spec.per_seat:
            g.zones[zname] = CARDS
    ctx = StepContext(source, compiler, n_seats, seat_names,
                      {z: s.visible for z, s in zones.items() if s.per_seat},
                      {z: s.visible for z, s in zones.items() if not s.per_seat},
                      card_kinds=cards.kinds, round_fields=g.round_fields, game_fields=g.game_fields)

    # -- game values (persist from round to round)
    gspec = data.get("game") or {}
    for vname in gspec.get("values") or {}:
        g.game_fields[vname] = NONE  # typed below: the set steps' values of it, then its value at the start
    for vname in gspec.get("seat_values") or {}:
        ctx.game_seat_fields[vname] = VALUE
        ctx.declare_seat(vname, VALUE, ("game", "seat_values", vname))

    # -- plays of several cards (climbing games)
    combinations = compile_combinations(data.get("combinations"), source, compiler, len(cards), group)
    ctx.combinations = combinations

    # -- steps: declare everything first, then compile (a step may read what a later one sets)
    steps = build_steps(ctx, data["round"], ("round",))

    # -- remove cards for this player count
    deck = list(range(len(cards)))
    if remove:
        drop = compiler.compile(remove, {"card": CARD}, source.locator(setup_path + ("remove",)), "truth")
        if drop.deps - {"ctx:card"}:
            raise SchemaError("remove may use only card, players, options and setup (it applies before play)",
                              source.pos(setup_path + ("remove",)))
        deck = [c for c in deck if not drop({"card": c})]

    if "deck" not in zones:  # every card of the game, for values known before play (a zone of that name wins)
        g.constants["deck"] = (CARDS, tuple(deck))

    zone_names = set(zones)
    deck_start = deck_spec.get("start")
    if deck_start is not None and (deck_start not in zones or zones[deck_start].per_seat):
        raise SchemaError(f"deck.start must name a shared zone (shared zones: "
                          f"{', '.join(z for z in zones if not zones[z].per_seat) or 'none'})",
                          source.pos(("deck", "start")))
    for zname in zones:
        if zones[zname].per_seat and zname in SEAT_ATTRIBUTES + tuple(ctx.counters):
            raise SchemaError(f"zone name {zname!r} is taken by a seat attribute", source.key_pos(("zones", zname)))
    for vname in ctx.seat_fields:
        if vname in SEAT_ATTRIBUTES + tuple(ctx.counters) or vname in zone_names:
            raise SchemaError(f"the seat value {vname!r} has the name of a seat attribute or a zone; "
                              "choose another name", source.pos(ctx.step_names.get(vname, ("round",))))
    roles = ["player"] * players + [a.get("role", "automatic") for a in automatic]  # what seat.role reads
    ctx.refresh = lambda: g.seat_attrs.update(_seat_attributes(zones, ctx.counters, ctx.seat_fields, seat_names,
                                                               roles))
    ctx.refresh()

    # typed game values: their initial expressions see everything declared
    infer_types(ctx, steps)
    flow = Flow(winners=gspec.get("winners", "highest_total"))
    for vname in gspec.get("values") or {}:
        expr = ctx.expr(("game", "values", vname))
        sets = g.game_fields[vname]  # what the set steps give it (none when none does)
        g.game_fields[vname] = sets if expr.type.literal_none else expr.type if sets.literal_none \
            else join(expr.type, sets)
        flow.game_values[vname] = expr
    for vname in gspec.get("seat_values") or {}:
        expr = ctx.expr(("game", "seat_values", vname), {"seat": SEAT})
        ctx.seat_fields[vname] = ctx.game_seat_fields[vname] = expr.type
        flow.game_seat_values[vname] = expr
    # the kinds the types section declares: checked against what the steps give, then seen by every expression
    types = declared(data.get("types") or {}, source)
    if types:
        fields = {"round": ctx.round_fields, "seats": ctx.seat_fields, "game": ctx.game_fields}
        declare_types(types, fields, source, check=True)
        infer_types(ctx, steps)  # again: values worked out from a declared one take their kinds from it
        declare_types(types, fields, source, check=False)
    ctx.refresh()
    finish_steps(ctx, steps)

    # -- game flow
    flow.rounds = ctx.expr(("game", "rounds"), expect="number") if "rounds" in gspec else None
    if flow.rounds is not None and flow.rounds.is_constant:
        rounds = flow.rounds({})
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
            raise SchemaError(f"rounds must be a whole number from 1 to {MAX_ROUNDS}, got {rounds!r}",
                              source.pos(("game", "rounds")))
    flow.until = ctx.expr(("game", "until"), expect="truth") if "until" in gspec else None
    flow.can_win = ctx.expr(("game", "can_win"), {"seat": SEAT}, "truth") if "can_win" in gspec else None
    flow.next_dealer = ctx.expr(("game", "next_dealer"), expect="seat") if "next_dealer" in gspec else None
    if flow.rounds is None and flow.until is None:
        raise SchemaError("the game needs an end: game.rounds or game.until", source.pos(("game",)))
    if "first_dealer" in gspec:
        dealer = ctx.constant(("game", "first_dealer"))
        if type(dealer) is not int:  # '' or a list passes the schema as an expression; it is still no seat index
            raise SchemaError(f"first_dealer must be a whole number (the seat index), not {gspec['first_dealer']!r}",
                              source.pos(("game", "first_dealer")))
        flow.first_dealer = dealer

    # -- what the players see on the table
    table = []
    for i, spec in enumerate(data.get("table") or []):
        lpath = ("table", i)
        table.append(StatusLine(spec["title"], ctx.expr(lpath + ("show",), {"seat": SEAT}),
                                ctx.expr(lpath + ("when",), {"seat": SEAT}, "truth") if "when" in spec else None,
                                bool(spec.get("each", False))))

    # -- seats and their policies
    seats = [SeatSpec(n, roles[i]) for i, n in enumerate(names[:players])]
    all_steps = _all_steps(steps)
    for i, spec in enumerate(automatic):
        apath = setup_path + ("automatic", i)
        policy = {}
        for step_name in spec.get("policy") or {}:
            ppath = apath + ("policy", step_name)
            step = all_steps.get(step_name)
            if step is None or not step.decides:
                known = ", ".join(n for n, s in all_steps.items() if s.decides) or "none"
                raise SchemaError(f"there is no step {step_name!r} that asks seats (steps that do: {known})",
                                  source.key_pos(ppath))
            policy[step_name] = ctx.expr(ppath, step.policy_binds())
        seats.append(SeatSpec(spec["name"], roles[players + i], policy, str(source.pos(apath))))

    # syntax-check defines nobody calls
    for d in g.defines.values():
        if d.tree is None:
            compiler._parse(d.text, d.locate)

    notation = None
    if deck_spec.get("notation") is not None:
        every_seat = list(dict.fromkeys(list(names) + [s.name for s in seats]))  # of any player count
        notation = build_notation(deck_spec["notation"], cards, deck, every_seat, source)

    value_types = {**ctx.round_fields, **ctx.seat_fields, **ctx.game_fields}
    game = Game(
        name=data["name"], title=data.get("title", data["name"]), identity=identity(data), player_count=players,
        options=opts, seats=seats, cards=cards, deck=deck, deck_start=deck_start, zones=zones,
        counters=list(ctx.counters), steps=steps,
        flow=flow, round_fields=[f for f in ctx.round_fields if f not in ("number", "dealer")],
        seat_value_names=[v for v in ctx.seat_fields if v not in ctx.game_seat_fields], value_types=value_types,
        visibility=dict(ctx.visibility), group=group, table=table, notation=notation,
    )
    game.combinations = combinations
    for step in all_steps.values():
        step.check(game)
    game.written(compiler.gen, compiler.generate)
    compiler.gen.save()  # the code compiled for this game, for the next run
    return game


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


__all__ = ["compile_game", "supported_players"]
