"""Rule data → :class:`Game`: build the deck, check every name, compile every expression.

Compilation is per player count and options, so ``players``, ``options.*``
and ``setup.*`` are constants folded into the compiled expressions.
"""

from __future__ import annotations

import re
from typing import Any

from interpreter.dsl.builtins import REGISTRY as BUILTINS
from interpreter.dsl.compiler import Compiler, Define, Globals
from interpreter.dsl.types import CARD, CARDS, SEAT, SEATS, VALUE, record, type_of_data
from interpreter.engine.cards import build_cards, label_fields
from interpreter.engine.game import Game, ZoneSpec
from interpreter.engine.steps import REGISTRY as STEPS
from interpreter.engine.steps.base import StepContext
from interpreter.errors import GameError, SchemaError
from interpreter.rules.loader import identity
from interpreter.rules.source import RuleSource

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_DEFINE = re.compile(rf"^\s*({_NAME})\s*(?:\(\s*({_NAME}(?:\s*,\s*{_NAME})*)?\s*\))?\s*$")
_RESERVED = {"card", "led", "seat", "player", "winner", "space", "trick", "taken", "round", "players", "options",
             "setup", "seats",
             "true", "false", "none", "and", "or", "not", "in", "if", "else", "for"}


def supported_players(source: RuleSource) -> list[int]:
    return sorted(int(n) for n in source.data["players"])


def option_defaults(source: RuleSource) -> dict[str, Any]:
    return {k: v["default"] for k, v in (source.data.get("options") or {}).items()}


def parse_option_value(source: RuleSource, name: str, text: str) -> Any:
    """Turn ``--option name=text`` into a value of the option's type."""
    options = source.data.get("options") or {}
    if name not in options:
        known = ", ".join(options) or "none"
        raise GameError(f"unknown option {name!r} (options of this game: {known})")
    default = options[name]["default"]
    if isinstance(default, bool):
        if text.lower() in ("true", "yes", "1", "on"):
            return True
        if text.lower() in ("false", "no", "0", "off"):
            return False
        raise GameError(f"option {name} takes true or false, not {text!r}")
    if isinstance(default, int):
        try:
            value = int(text)
        except ValueError:
            raise GameError(f"option {name} takes a whole number, not {text!r}") from None
    else:
        value = text
    choices = options[name].get("choices")
    if choices and value not in choices:
        raise GameError(f"option {name} must be one of {', '.join(map(str, choices))}, not {text!r}")
    return value


def compile_game(source: RuleSource, players: int, options: dict[str, Any] | None = None) -> Game:
    data = source.data
    counts = supported_players(source)
    if players not in counts:
        raise GameError(f"{data['name']} is for {', '.join(map(str, counts))} players, not {players}")
    opts = option_defaults(source)
    for k, v in (options or {}).items():
        if k not in opts:
            raise GameError(f"unknown option {k!r} (options of this game: {', '.join(opts) or 'none'})")
        if type(v) is not type(opts[k]):
            raise GameError(f"option {k} must be a {type(opts[k]).__name__}, not {v!r}")
        opts[k] = v

    setup_key = players if players in data["players"] else str(players)
    setup_path = ("players", setup_key)
    setup = dict(data["players"][setup_key] or {})
    remove = setup.pop("remove", None)
    automatic = list(setup.pop("automatic", None) or [])  # extra seats that play by rule

    # -- deck
    deck_spec = data["deck"]
    template = deck_spec.get("label")
    attr_names = {n for g in deck_spec["cards"] for n in g}
    if template:
        for f in label_fields(template):
            if f not in attr_names and f != "copy":
                raise SchemaError(f"the label names {f!r}, which is not a card attribute "
                                  f"({', '.join(sorted(attr_names))})", source.pos(("deck", "label")))
    cards = build_cards(deck_spec["cards"], template)
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
    seat_names = list(names[:players]) + automatic
    if len(set(seat_names)) != len(seat_names):
        where = setup_path + ("automatic",) if automatic else ("seats",)
        raise SchemaError("two seats have the same name", source.pos(where))
    n_seats = len(seat_names)

    # -- globals for expressions
    g = Globals()
    g.card_attrs = dict(cards.attributes)
    g.card_attrs["label"] = cards.labels
    g.constants = {
        "players": (VALUE, players),
        "options": (record({k: VALUE for k in opts}), dict(opts)),
        "setup": (type_of_data(setup), setup),
        "seats": (SEATS, tuple(range(n_seats))),
    }
    g.round_fields = {"number": VALUE, "dealer": SEAT}
    for key, text in (data.get("define") or {}).items():
        m = _DEFINE.match(str(key))
        kpos = source.key_pos(("define", key))
        if not m:
            raise SchemaError(f"a define is written name or name(param, ...), not {key!r}", kpos)
        dname = m.group(1)
        params = tuple(p.strip() for p in (m.group(2) or "").split(",") if p.strip())
        if dname in BUILTINS or dname in _RESERVED:
            raise SchemaError(f"{dname!r} is a builtin name; choose another name for this define", kpos)
        if dname in g.defines:
            raise SchemaError(f"{dname!r} is defined twice", kpos)
        if len(set(params)) != len(params):
            raise SchemaError("a parameter name is repeated", kpos)
        g.defines[dname] = Define(dname, params, str(text), source.locator(("define", key)))
    compiler = Compiler(g)

    # -- zones
    zones: dict[str, ZoneSpec] = {}
    for zname, zspec in data["zones"].items():
        zones[zname] = ZoneSpec(zname, bool(zspec.get("per_seat", False)), zspec.get("visible", "all"))
    ctx = StepContext(source, compiler, n_seats, list(names) if not automatic else seat_names,
                      {z: s.visible for z, s in zones.items() if s.per_seat},
                      {z: s.visible for z, s in zones.items() if not s.per_seat},
                      card_kinds=cards.kinds, round_fields=g.round_fields)

    # -- steps: declare everything first, then compile (a step may read what a later one sets)
    steps = []
    for sname, sspec in data["round"].items():
        kind = sspec["do"]
        cls = STEPS.get(kind)
        spath = ("round", sname)
        if cls is None:
            raise SchemaError(f"unknown step kind {kind!r} (kinds: {', '.join(sorted(STEPS))})",
                              source.pos(spath + ("do",)))
        step = cls(sname, None)
        step.declare(ctx, sspec, spath)
        steps.append((step, sspec, spath))

    # -- remove cards for this player count
    deck = list(range(len(cards)))
    if remove:
        drop = compiler.compile(remove, {"card": CARD}, source.locator(setup_path + ("remove",)))
        if drop.deps - {"ctx:card"}:
            raise SchemaError("remove may use only card, players, options and setup (it applies before play)",
                              source.pos(setup_path + ("remove",)))
        deck = [c for c in deck if not drop({"card": c})]

    for zname in zones:
        if zones[zname].per_seat and zname in ("total", "name", "index") + tuple(ctx.counters):
            raise SchemaError(f"zone name {zname!r} is taken by a seat attribute", source.key_pos(("zones", zname)))
    g.seat_attrs = _seat_attributes(zones, ctx.counters, names)
    if "automatic" in zones:
        raise SchemaError("zone name 'automatic' is taken by a seat attribute", source.key_pos(("zones", "automatic")))

    for step, sspec, spath in steps:
        if "when" in sspec:
            step.when = ctx.expr(spath + ("when",))
        step.build(ctx, sspec, spath)

    # -- game flow
    gspec = data.get("game") or {}
    rounds = ctx.expr(("game", "rounds")) if "rounds" in gspec else None
    until = ctx.expr(("game", "until")) if "until" in gspec else None
    if rounds is None and until is None:
        raise SchemaError("the game needs an end: game.rounds or game.until", source.pos(("game",)))

    # syntax-check defines nobody calls
    for d in g.defines.values():
        if d.tree is None:
            compiler._parse(d.text, d.locate)

    game = Game(
        name=data["name"], title=data.get("title", data["name"]), identity=identity(data), players=n_seats,
        options=opts, seat_names=seat_names, cards=cards, deck=deck, zones=zones,
        counters=list(ctx.counters), steps=[s for s, _, _ in steps], rounds=rounds, until=until,
        winners=gspec.get("winners", "highest_total"),
        first_dealer=int(ctx.constant(("game", "first_dealer"))) if "first_dealer" in gspec else 0,
        round_fields=[f for f in ctx.round_fields if f not in ("number", "dealer")],
        seat_fields=frozenset(f for f, t in ctx.round_fields.items() if t.kind == "seat"),
        player_count=players, automatic=frozenset(range(players, n_seats)),
    )
    for step, _, _ in steps:
        check = getattr(step, "check_deck", None)
        if check:
            check(game)
    return game


def _seat_attributes(zones: dict[str, ZoneSpec], counters: list[str], names: list[str]) -> dict[str, Any]:
    attrs: dict[str, Any] = {}
    for zname, spec in zones.items():
        if spec.per_seat:
            attrs[zname] = (CARDS, lambda st, s, z=zname: st.per_seat[z][s])
    for c in counters:
        attrs[c] = (VALUE, lambda st, s, c=c: st.counters[c][s])
    attrs["total"] = (VALUE, lambda st, s: st.totals[s])
    attrs["index"] = (VALUE, lambda st, s: s)
    attrs["name"] = (VALUE, lambda st, s: st.game.seat_names[s])
    attrs["automatic"] = (VALUE, lambda st, s: s in st.game.automatic)
    return attrs


__all__ = ["compile_game", "supported_players", "option_defaults", "parse_option_value"]
