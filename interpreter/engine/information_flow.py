"""Information flow: the values, status lines and narration a seat is shown that depend on what it cannot see.

``validate`` warns of them (``leaks``): a public round value set to the current seat's legal plays shows that
seat's hand to every seat, and nothing else would tell the author. The check reads the compiled expressions' typed
parts (dsl/ir.py), each as what its value depends on:

* the hidden sources an expression reads: the cards of a zone some seat does not see (another seat's ``hand``, the
  stock), a value some seat does not see (a choice made with ``visible: owner``, a per-seat value set so), the true
  teams when a teams step hides them;
* and whether a value is the seat the line is shown to (``seat`` in a status line): that seat's own hand and its own
  hidden values are not hidden from it.

What is not hidden: how many cards a zone holds (``len``: every seat sees the counts), the cards of a zone that
only ever gets cards every seat has seen (a pile of won tricks, face down: each card was played face up; worked
out as a fixed point over the steps that move cards), round values every seat sees (each is checked where it is
set, so one leak is told once), the choices of a step every seat sees, the names a trick binds (its cards, its
winner). Values worked out once the round's last decision is taken (the steps after the last one that asks a
seat: the count of the round, when the hands are shown) tell nothing that could still change a play. A set step
whose values the rules mean to tell everyone (a hint) says ``discloses: true``.

Only what flows into a value is followed, not what decides whether a step runs (its ``when``) or how play goes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from interpreter.dsl import ast
from interpreter.dsl.builtins import REGISTRY
from interpreter.dsl.compiler import Compiled
from interpreter.dsl.ir import Part
from interpreter.dsl.parser import DslSyntaxError, parse
from interpreter.engine.game import Game
from interpreter.engine.steps.base import Step
from interpreter.errors import RuleWarning
from interpreter.rules.source import RuleSource


class Hidden(NamedTuple):
    """Something an expression reads that some seat does not see."""

    what: str  # as the warning names it
    read: tuple[str, str]  # what reads it in an expression's tree: ("name", zone), ("attr", name), ("call", builtin)
    via: tuple[str, ...] = ()  # the defines it is read through, the one the expression calls first


Flow = tuple[frozenset[Hidden], bool]  # what a value depends on; whether it is the seat the line is shown to
NOTHING: Flow = (frozenset(), False)
_TEAMS = ("team", "opponents", "same_team")  # read the true teams
_KNOWN_TEAMS = ("known_team", "known_opponents", "knows_team")  # the teams as their first argument knows them


class Sink(NamedTuple):
    """An expression whose value some seats are shown: how the warning names it, and where it is written."""

    expr: Compiled
    path: tuple[Any, ...]
    shown: str  # "round value 'legal' is told to every seat"
    own: bool  # seen by the seat bound as ``seat`` alone (its own hidden things are not hidden from it)
    fix: str


def leaks(source: RuleSource, game: Game) -> list[RuleWarning]:
    """Every value, status line and narration of ``game`` (compiled from ``source``) that some seat is shown and
    that depends on something that seat cannot see, as warnings at the expression (the caret at the read)."""
    reader = _Reader(game)
    out: list[RuleWarning] = []
    for sink in _sinks(game):
        hidden, _ = reader.flow(sink.expr.part, {"seat": (frozenset(), sink.own)}) if sink.expr.part else NOTHING
        if not hidden:
            continue
        first = min(hidden, key=lambda h: (h.what, h.via))
        through = f" (through {', '.join(v + '()' for v in first.via)})" if first.via else ""
        others = len({h.what for h in hidden}) - 1
        more = f", and {others} more hidden thing{'s' if others > 1 else ''}" if others else ""
        locate = source.locator(sink.path)
        message = f"{sink.shown}, but it reads {first.what}{through}{more}; {sink.fix}"
        out.append(RuleWarning(message, locate(_offset(sink.expr.text, first))))
    return out


# ---------------------------------------------------------------- where values are shown


def _sinks(game: Game) -> Iterator[Sink]:
    """The expressions whose values are shown, while a seat may still decide something this round."""
    for step in _every_step(_in_play(game.steps)):
        yield from _step_sinks(step)
    for i, line in enumerate(game.table):
        if line.discloses:
            continue
        shown = f"status line '{line.title}' shows "
        yield Sink(line.show, ("table", i, "show"), shown + ("every seat's value to each seat" if line.each else
                                                             "its value to the seat looking"), not line.each,
                   "show what every seat has seen" if line.each else
                   "show what every seat has seen, or the seat's own (seat.hand)")
        if line.when is not None:
            yield Sink(line.when, ("table", i, "when"), f"whether status line '{line.title}' is shown tells the seat "
                       "looking", True, "decide it from what every seat has seen, or from the seat's own")


def _in_play(steps: list[Step]) -> list[Step]:
    """The steps of a round up to the last one that asks a seat: those after it work out the round's end, once
    nothing a seat is told can change a play (the hands are shown for the count)."""
    deciding = [i for i, s in enumerate(steps) if _decides(s)]
    return steps[:deciding[-1] + 1] if deciding else []


def _decides(step: Step) -> bool:
    return step.decides or any(_decides(s) for s in step.inner_steps())


_HIDE = ("keep it for each seat alone (seats: with visible: owner), work it out from what every seat has seen (the "
         "trick), or say discloses: true on the step when the rules tell it to everyone (a hint)")


def _step_sinks(step: Any) -> Iterator[Sink]:
    kind = step.kind
    if kind == "set" and not step.discloses:
        for group, name, expr in step.assign:
            key = "game" if group == "game_seats" else group
            if group == "seats" and name in step.hidden:  # visible: owner
                yield Sink(expr, step.path + (key, name), f"per-seat value '{name}' is shown to its seat", True,
                           "read only the seat's own hidden things (seat.hand), or what every seat has seen")
                continue
            shown = {"round": f"round value '{name}' is told to every seat", "game": f"game value '{name}' is told "
                     "to every seat", "seats": f"per-seat value '{name}' is shown to every seat",
                     "game_seats": f"game value '{name}' is shown to every seat"}[group]
            yield Sink(expr, step.path + (key, name), shown, False, _HIDE)
    elif kind == "choose":
        public = step.visible == "all" and not step.simultaneous
        for key, expr in (("label", step.label_expr), ("describe", step.describe_expr)):
            if expr is None:
                continue
            what = "its narration (describe)" if key == "describe" else "its labels"
            # the seat choosing says it: its own hand and hidden values are its to tell (an announcement that names
            # its party), another seat's are not
            yield Sink(expr, step.path + (key,),
                       f"step '{step.name}' tells {what} to " + ("every seat" if public else "the seat choosing"),
                       True, "tell only the value chosen, the chooser's own things, or what every seat has seen")
    elif kind == "score":
        for key, expr in (("points", step.points), ("explain", step.explain)):
            if expr is not None:
                yield Sink(expr, step.path + (key,), f"step '{step.name}' adds to the totals every seat sees"
                           if key == "points" else f"step '{step.name}' tells its explain to every seat", False,
                           "score once the round's last decision is taken, or from what every seat has seen")


# ---------------------------------------------------------------- what a value depends on


class _Reader:
    """Works out what the parts of expressions depend on (``flow``), for one compiled game."""

    def __init__(self, game: Game):
        self.game = game
        self.unknown = unknown_zones(game)
        self.teams_hidden = any(s.kind == "teams" and s.hides for s in _every_step(game.steps))
        self.builtins = {id(b.impl): name for name, b in REGISTRY.items()}
        self._defines: dict[tuple[int, tuple[Flow, ...]], Flow] = {}

    def flow(self, part: Part, env: dict[str, Flow]) -> Flow:
        """What ``part``'s value depends on, given what the names bound around it (``env``) depend on."""
        op = part.op
        if part.const or op in ("game", "const"):
            return NOTHING
        if op == "name":
            return env.get(part.data, NOTHING)
        if op == "zone":
            return self._zone(part.data, None), False
        if op == "round":
            return self._value(part.data, "round", False), False
        if op == "seat":
            base, own = self.flow(part.kids[0], env)
            if not part.data[2]:  # fixed for the whole game: name, index, role
                return base, False
            name = part.data[4]
            spec = self.game.zones.get(name)
            if spec is not None and spec.per_seat:
                return base | self._zone(name, own), False
            return base | self._value(name, "seat", own), False
        if op == "call":
            return self._call(part, env)
        if op == "for":
            var, body, cond, _ = part.data
            source, _ = self.flow(part.kids[0], env)
            inner = {**env, var: (source, False)}
            looped = source | self.flow(body, inner)[0]
            return (looped | self.flow(cond, inner)[0]) if cond is not None else looped, False
        if op == "define":
            return self._define(part, env)
        out: frozenset[Hidden] = frozenset()
        for kid in part.kids:
            out |= self.flow(kid, env)[0]
        return out, False

    def _call(self, part: Part, env: dict[str, Flow]) -> Flow:
        name = self.builtins.get(id(part.data[0]))
        args = [self.flow(k, env) for k in part.kids]
        out: frozenset[Hidden] = frozenset().union(*(a[0] for a in args)) if args else frozenset()
        if name == "len" and part.kids and part.kids[0].op in ("zone", "seat") and part.kids[0].data is not None:
            kid = part.kids[0]  # how many cards a zone holds: every seat sees the counts
            if kid.op == "zone":
                return frozenset(), False
            if kid.data[4] in self.game.zones:
                return self.flow(kid.kids[0], env)[0], False
        if self.teams_hidden and (name in _TEAMS or name in _KNOWN_TEAMS and not args[0][1]):
            out |= {Hidden(f"the true teams ({name}()), which a teams step hides", ("call", name or ""))}
        return out, False

    def _define(self, part: Part, env: dict[str, Flow]) -> Flow:
        d, _, body = part.data
        args = tuple(self.flow(k, env) for k in part.kids)
        key = (id(body), args)
        if key not in self._defines:
            self._defines[key] = NOTHING  # no recursion (refused), but a define met again while working it out
            hidden, _ = self.flow(body.part, dict(zip(body.keys, args, strict=True)))
            given = frozenset().union(*(a[0] for a in args)) if args else frozenset()
            self._defines[key] = (frozenset(h if h in given else h._replace(via=(d.name,) + h.via)
                                            for h in hidden), False)
        return self._defines[key]

    def _zone(self, name: str, own: bool | None) -> frozenset[Hidden]:
        """The cards of zone ``name`` (a shared one: ``own`` None; a seat's: whether it is the seat shown to)."""
        spec = self.game.zones[name]
        why = self.unknown.get(name)
        if spec.visible == "all" or why is None or own and spec.visible == "owner":
            return frozenset()
        # why, where it is not plain: a face-down pile that holds cards no seat saw
        said = "" if why.startswith("dealt") else f" ({why})"
        if own is None:
            return frozenset({Hidden(f"the cards of '{name}' (visible: nobody), which no seat sees{said}",
                                     ("name", name))})
        who = "only that seat sees" if spec.visible == "owner" else "no seat sees"
        return frozenset({Hidden(f"the cards of a seat's '{name}' (visible: {spec.visible}), which {who}{said}",
                                 ("attr", name))})

    def _value(self, name: str, group: str, own: bool) -> frozenset[Hidden]:
        visible = self.game.visibility.get(name, "all") if name not in ("number", "dealer") else "all"
        if visible == "all" or group == "seat" and own and visible == "owner":
            return frozenset()
        if group == "round":
            return frozenset({Hidden(f"round.{name} (chosen with visible: owner), which only the seat that chose it "
                                     "sees", ("round", name))})
        return frozenset({Hidden(f"a seat's value '{name}' (visible: {visible}), which only that seat sees",
                                 ("attr", name))})


def _every_step(steps: list[Any]) -> Iterator[Any]:
    for step in steps:
        yield step
        yield from _every_step(step.inner_steps())


# ---------------------------------------------------------------- zones whose cards some seat does not know


def unknown_zones(game: Game) -> dict[str, str]:
    """The zones some seat does not see whose cards it may not know, each with why: dealt to, or given cards from
    such a zone. A zone that only gets cards every seat has seen (won tricks put face down) is not one of them."""
    zones = game.zones
    entries: list[tuple[str, tuple[str, ...] | None, str]] = []  # (zone, where its cards come from: None unseen, step)
    dealt = set()
    for step in _every_step(_in_play(game.steps)):
        entries += _moves(step, zones)
        if step.kind == "deal":
            dealt.add(step.name)
    unknown: dict[str, str] = {}
    for zone, sources, step in entries:
        if sources is None and zones[zone].visible != "all" and zone not in unknown:
            unknown[zone] = f"step '{step}' puts cards there that not every seat has seen"
            if step in dealt:
                unknown[zone] = f"dealt by step '{step}'"
    grown = True
    while grown:
        grown = False
        for zone, sources, step in entries:
            if zone in unknown or zones[zone].visible == "all" or sources is None:
                continue
            given = next((s for s in sources if s in unknown), None)
            if given is not None:
                unknown[zone] = f"step '{step}' puts cards there from '{given}'"
                grown = True
    return unknown


def _moves(step: Any, zones: dict[str, Any]) -> list[tuple[str, tuple[str, ...] | None, str]]:
    """Where ``step`` puts cards, and where from (None: cards not every seat has seen, as a deal's)."""
    kind, name = step.kind, step.name
    if kind == "deal":
        return [(z, None, name) for z in (step.hand_zone, step.rest) if z is not None]
    if kind == "move":
        return [(step.to, tuple(step.looks_in) or None, name)]
    if kind == "choose" and (step.move_to is not None or step.swap):
        told = step.visible == "all" and not step.simultaneous  # every seat is told the cards chosen
        sources: tuple[str, ...] | None = () if told else (tuple(step.looks_in) or None)
        targets = [step.move_to] if step.move_to is not None else list(step.looks_in)
        return [(z, sources, name) for z in targets]
    if kind == "tricks":
        trick = (step.trick_zone,)
        out = [(step.trick_zone, tuple(step.zones), name), (step.won, trick, name)]
        out += [(r.zone, trick, name) for r in step.routes]
        return out + ([(step.unclaimed, trick, name)] if step.unclaimed is not None else [])
    return []


# ---------------------------------------------------------------- where the warning points


def _offset(text: str, hidden: Hidden) -> int:
    """Where in ``text`` the expression reads ``hidden`` (the call of the define it is read through), or 0."""
    try:
        tree = parse(text)
    except DslSyntaxError:  # pragma: no cover - the expression compiled
        return 0
    kind, name = ("call", hidden.via[0]) if hidden.via else hidden.read
    for node in _nodes(tree):
        if _reads(node, kind, name):
            return node.offset
    return 0


def _reads(node: ast.Node, kind: str, name: str) -> bool:
    match: Callable[[ast.Node], bool] = {
        "name": lambda n: isinstance(n, ast.Name) and n.name == name,
        "attr": lambda n: isinstance(n, ast.Attribute) and n.name == name,
        "round": lambda n: isinstance(n, ast.Attribute) and n.name == name and isinstance(n.base, ast.Name)
        and n.base.name == "round",
        "call": lambda n: isinstance(n, ast.Call) and n.name == name,
    }[kind]
    return match(node)


def _nodes(node: ast.Node) -> Iterator[ast.Node]:
    """Every node of a tree, in the order of the text."""
    yield node
    for field in node.fields[1:]:
        value = getattr(node, field)
        for v in value if isinstance(value, tuple) else (value,):
            if isinstance(v, ast.Node):
                yield from _nodes(v)
