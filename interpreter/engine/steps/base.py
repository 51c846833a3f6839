"""What every step kind provides: its declared options, its compile and play methods.

A step kind declares its options once (:class:`~interpreter.plan.declaration.Opt`: key, kind, bound names,
description). The compiler reads them to check and compile a step's keys, and
``interpreter.schema_gen`` turns them into the JSON Schema and the option
tables of docs/rule-files.md, so the three can never disagree.

Play protocol: ``start`` returns the step's progress (a small object with
``copy()``) or None when the step has nothing to decide; ``decision`` gives the
pending :class:`Decision` or None when the step is over; ``apply`` changes the
state and may return the next decision of the same step (saving the engine a call).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, cast

from interpreter.dsl.compiler import Compiled, Compiler
from interpreter.dsl.types import SEAT, VALUE, Type, join, list_of
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.writer import Found, Lines, ListWriter
from interpreter.errors import ExpressionError, RuleError, RuleErrors, SchemaError
from interpreter.plan.declaration import Opt, declared_in
from interpreter.plan.section import raise_all

if TYPE_CHECKING:
    from interpreter.rules.source import RuleSource

Path_ = tuple[Any, ...]


class Play(NamedTuple):
    """Play ``card`` from the step's ``zone``-th source zone."""

    card: int
    zone: int


class Choice(NamedTuple):
    """Choose ``value`` (text, number, seat, card, list or record), shown as ``label``."""

    value: Any
    label: str


class Pass(NamedTuple):
    """Decline to choose, shown as ``label``."""

    label: str


class Stop(NamedTuple):
    """End one's turn after at least one pick, shown as ``label``."""

    label: str


class Cover(NamedTuple):
    """Cover space ``space`` of board row ``row``."""

    row: int
    space: int


class Take(NamedTuple):
    """Take ``card`` from the trick on the table (a share of a trick)."""

    card: int


ACTION_TYPES = (Play, Choice, Pass, Stop, Cover, Take)


# ---------------------------------------------------------------- compile context


@dataclass
class StepContext:
    """Compile-time view of the game for step builders."""

    source: RuleSource
    compiler: Compiler
    players: int
    seat_names: list[str]
    seat_zones: dict[str, str]  # name -> visibility
    shared_zones: dict[str, str]
    card_kinds: tuple[int, ...] = ()
    counters: list[str] = field(default_factory=list)
    round_fields: dict[str, Type] = field(default_factory=dict)
    seat_fields: dict[str, Type] = field(default_factory=dict)
    game_fields: dict[str, Type] = field(default_factory=dict)
    game_seat_fields: dict[str, Type] = field(default_factory=dict)  # per-seat values kept across rounds
    step_names: dict[str, Path_] = field(default_factory=dict)
    visibility: dict[str, str] = field(default_factory=dict)  # value name -> all, owner, nobody
    hidden_teams: bool = False  # a teams step hides its teams (reveal steps may then tell them)
    refresh: Any = None  # called when value types change (the compiler's seat attributes follow them)
    combinations: Any = None  # the combinations section (engine/combinations.py), for climb steps

    def expr(self, path: Path_, bound: dict[str, Type] | None = None, expect: str | None = None,
             per: str | None = None) -> Compiled:
        """Compile the expression stored at ``path`` in the rule file (``per``: see Compiler.compile)."""
        return self.compiler.compile(self.source.get(path), bound or {}, self.source.locator(path), expect, per)

    def option(self, opt: Opt, path: Path_, outer: dict[str, Type], names: dict[str, Type] | None = None,
               expect: str | None = None, per: str | None = None) -> Compiled:
        """Compile the expression of option ``opt`` stored at ``path`` with the names its declaration binds
        (typed by ``names``) and those of an enclosing trick (``outer``); ``binds_with`` is looked up among the
        keys of the mapping that holds the option."""
        given = self.source.get(path[:-1]) if path else {}
        bound = opt.bound_names(outer, names or {}, given if isinstance(given, dict) else {})
        return self.expr(path, bound, expect or opt.expects, per)

    def led_classes(self, exprs: list[Compiled]) -> tuple[int, ...]:
        """Per card: the first card that is the same led card for ``exprs`` (they read only attributes of
        ``led`` that both have alike); identical cards when they read the led card itself."""
        uses = frozenset().union(*(e.uses for e in exprs))
        if "bare:led" in uses:
            return self.card_kinds
        attrs = [self.compiler.g.card_attrs[u[9:]] for u in sorted(uses) if u.startswith("attr:led.")]
        first: dict[tuple[Any, ...], int] = {}
        return tuple(first.setdefault(tuple(a[c] for a in attrs), c) for c in range(len(self.card_kinds)))

    def constant(self, path: Path_) -> Any:
        """A value known before play: plain data as written, or an expression of constants."""
        value = self.source.get(path)
        if isinstance(value, str):
            return self.compiler.constant_value(value, self.source.locator(path))
        return value

    def error(self, message: str, path: Path_) -> SchemaError:
        return SchemaError(message, self.source.pos(path))

    def zone(self, path: Path_, per_seat: bool | None = None) -> str:
        """Check that the zone named at ``path`` exists (and its kind)."""
        return self.zone_named(self.source.get(path), path, per_seat)

    def zone_named(self, name: Any, path: Path_, per_seat: bool | None = None) -> str:
        if name in self.seat_zones:
            if per_seat is False:
                raise self.error(f"zone {name!r} belongs to each seat; a shared zone is needed here", path)
            return name
        if name in self.shared_zones:
            if per_seat is True:
                raise self.error(f"zone {name!r} is shared; a zone with per_seat: true is needed here", path)
            return name
        known = ", ".join(sorted(set(self.seat_zones) | set(self.shared_zones)))
        raise self.error(f"unknown zone {name!r} (zones: {known})", path)

    def zones(self, path: Path_, per_seat: bool | None = None) -> list[str]:
        """One zone name or a list of them."""
        value = self.source.get(path)
        if isinstance(value, list):
            return [self.zone_named(v, path + (i,), per_seat) for i, v in enumerate(value)]
        return [self.zone_named(value, path, per_seat)]

    def declare(self, name: str, type_: Type, path: Path_) -> None:
        """A round value this step sets (read as ``round.NAME``)."""
        if name in ("number", "dealer"):
            raise self.error(f"round.{name} is set by the engine; choose another name", path)
        _widen(self.round_fields, name, type_)

    def declare_seat(self, name: str, type_: Type, path: Path_) -> None:
        """A per-seat value this step sets (read as ``seat.NAME``)."""
        _widen(self.seat_fields, name, type_)


def _widen(fields: dict[str, Type], name: str, type_: Type) -> None:
    """Two steps may set one value: its type is what either gives (a value not yet typed takes the new one)."""
    old = fields.get(name)
    fields[name] = type_ if old is None or old.literal_none else join(old, type_)


# ---------------------------------------------------------------- steps


class Step:
    """A stage of a round (or of a trick, for the steps a trick runs between plays or after it)."""

    kind: ClassVar[str] = "step"
    summary: ClassVar[str] = ""
    options: ClassVar[tuple[Opt, ...]] = ()
    nested: ClassVar[bool] = False  # may run inside a trick (between_plays, after_trick)
    decides: ClassVar[bool] = False  # asks seats (so automatic seats need a policy for it)
    loops: ClassVar[bool] = False  # its written code has a playout loop of its own (``run``, see playout)

    where = ""  # FILE:LINE:COL of the step's name, set when the step is built

    def __init__(self, name: str, path: Path_):
        self.name = name
        self.path = path
        self.when: Compiled | None = None
        self.guard: Compiled | None = None  # a condition the step holding it adds to when (a climb's hooks)
        self.outer: Any = None  # for nested steps: gives the values of the names the trick binds
        self.bound: dict[str, Type] = {}  # the names the trick binds, for compiling
        self._written: Any = None  # the step's code in the game's module (see code)

    @classmethod
    def declared(cls, key: str) -> Opt:
        """The declaration of option ``key`` (every option a step reads is declared)."""
        return declared_in(cls.options, key)

    def read(self, ctx: StepContext, key: str, names: dict[str, Type] | None = None, expect: str | None = None,
             per: str | None = None) -> Compiled:
        """Compile the expression of option ``key``, with the names its declaration binds (typed by ``names``)."""
        return ctx.option(self.declared(key), self.path + (key,), self.bound, names, expect, per)

    def value(self, spec: dict[str, Any], key: str) -> Any:
        """A plain option's value as written, or its declared default."""
        return spec.get(key, self.declared(key).default)

    def env(self, state: State) -> dict[str, Any]:
        """A fresh evaluation environment: the state, plus the names an enclosing trick binds."""
        if self.outer is None:
            return {"$s": state}
        env = self.outer(state)
        env["$s"] = state
        return env

    def declare(self, ctx: StepContext, spec: dict[str, Any]) -> None:
        """First pass: declare the values this step sets."""

    def infer(self, ctx: StepContext) -> None:
        """Between the passes: work out the types of the values this step sets (may be called repeatedly)."""

    def build(self, ctx: StepContext, spec: dict[str, Any]) -> None:
        """Second pass: compile expressions."""

    def check(self, game: GameView) -> None:
        """After the game is built: checks that need the deck or the seats."""

    def start(self, game: GameView, state: State) -> Any:
        """Enter the step; return its progress, or None when it has nothing to decide."""
        return None

    def decision(self, game: GameView, state: State, p: Any) -> Decision | None:
        """The decision now pending, or None when the step is over."""
        return None

    def inside(self, p: Any) -> tuple[Step, Any] | None:
        """The step running inside this one now and its progress (a repeat's step, a trick's hook), or None."""
        return None

    def relabel(self, p: Any, card: Callable[[int], int]) -> None:
        """Rename the cards progress ``p`` holds by ``card`` (for a state sampled by search; see knowledge.py);
        not those of a nested step's progress (``running`` gives each step its own)."""

    def judge(self, game: GameView, state: State, p: Any, action: Any) -> tuple[int | None, Any] | None:
        """For heuristic players: after ``action`` (a card played to a trick, this step's own decision), the
        seat that would win the trick so far and the card's strength in it; None for any other action."""
        return None

    def redrawn(self) -> frozenset[str]:
        """The values hidden while this step is pending that ``redraw`` draws again for a sample."""
        return frozenset()

    def redraw(self, game: GameView, state: State, p: Any, seat: int, rng: Any) -> None:
        """In a state sampled for ``seat`` (see knowledge.py): draw again the choices made so far that
        ``seat`` has not seen, each at random among what its chooser could choose."""

    def playout(self, game: GameView, state: State, policy: Any, random: Any) -> int:
        """For ``Game.playout``: take the pending decision and those after it in a loop of the step's own (its
        written code's ``run``, when the kind ``loops``), as ``apply`` would, each by ``policy(state, seat,
        actions)``, or, when it is None, drawn uniformly with ``random()`` (see Writer.pick); return how many were
        taken (0: this step has no such loop)."""
        return cast(int, self.code(game).run(game, state, policy, random)) if self.loops else 0

    def apply(self, game: GameView, state: State, p: Any, action: Any) -> Decision | None:
        """Change the state; may return the next decision of this step."""
        raise NotImplementedError

    def refusal(self, game: GameView, state: State, card: int) -> str | None:
        """Why the seat to act may not choose ``card`` now, in the rule file's words; None when this step's kind
        does not say (or the card may be chosen)."""
        return None

    def label(self, game: GameView, action: Any) -> str:
        if isinstance(action, (Choice, Pass, Stop)):
            return action.label
        if isinstance(action, (Play, Take)):
            return game.cards.labels[action.card]
        raise NotImplementedError

    def action_entries(self, game: GameView) -> list[tuple[str, Any, Any, str]]:
        """Every action this step can offer, known before play, as (kind, key, value, label): what the kind of
        its choice is, declared by each step kind that decides (see engine/actions.py). None: it decides nothing."""
        return []

    def shown(self, game: GameView, kind: str, value: Any) -> Any:
        """The value of one of its actions (as ``action_entries`` gives it) as people read it."""
        if kind == "card":
            return game.cards.labels[value]
        if kind == "seat":
            return game.seat_names[value]
        return list(value) if isinstance(value, tuple) else value

    def action_key(self, game: GameView, action: Any) -> Any:
        """The key ``action_entries`` gives ``action`` (one of this step's legal actions)."""
        raise NotImplementedError

    def describe(self, game: GameView, state: State, d: Decision, action: Any, viewer: int | None = None) -> str | None:
        """The action as a phrase for a readable account ("plays red 7"); None: not worth telling.

        ``viewer`` is the seat the account is told to (None: everything is shown).
        """
        return self.label(game, action)

    def public(self, game: GameView, state: State, p: Any, viewer: int | None = None) -> dict[str, Any]:
        """What everyone (and ``viewer``) sees of this step's own progress (for observations)."""
        return {}

    def policy_binds(self) -> dict[str, Type]:
        """The names an automatic seat's policy for this step may use."""
        return {"seat": SEAT, "legal": list_of(VALUE)}

    def filling(self) -> frozenset[str]:
        """Values this step fills in secret while it is pending (others see them once it is over)."""
        return frozenset()

    def titles(self) -> dict[str, str]:
        """How people call the round values this step sets, when not by their names (a board row's title)."""
        return {}

    def won_zones(self) -> tuple[str, ...]:
        """The per-seat zones this step puts the cards of won tricks in (for heuristic players)."""
        return ()

    def inner_steps(self) -> list[Step]:
        """Steps this step runs inside itself (a trick's hooks)."""
        return []

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """Write entering this step, its ``when`` already checked, into the code that runs its list (see
        steps_code.py; ``k``: its index there): by default through its ``start`` and ``decision``. A kind that
        does its work in place, or has written code of its own, writes that instead."""
        ref = x.step_ref(k)
        x.started(w, k, found, began, f"{ref}.start(game, state)", f"{ref}.decision(game, state, q)")

    def code(self, game: GameView) -> Any:
        """The functions written for this step (by its kind's writer, see engine/module.py's WRITERS), from the
        game's module (kept: a step belongs to one compiled game)."""
        code = self._written
        if code is None:
            code = self._written = game.module().code(self)
        return code

    def outer_names(self) -> set[str] | None:
        """For a step a trick runs: the names of the trick its written code reads (the trick gives them in a
        dict); None for a step with no written code of that kind (it reads them through ``env``)."""
        return None

    def value_of(self, game: GameView, state: State, p: Any, d: Decision, value: Any) -> Any:
        """The action for a value an automatic seat's policy gave, or None when it is not a candidate."""
        for a in d.actions:
            if isinstance(a, Choice) and a.value == value:
                return a
        return None

    # chance steps only
    def chance_cards(self, game: GameView, state: State) -> list[int]:  # pragma: no cover - chance steps override
        """The cards a chance event of this step puts in an order (its outcome is an order of them, every order
        equally likely), for dealing them one at a time (the public API's ``chance_outcomes``)."""
        raise NotImplementedError

    def sample(self, game: GameView, state: State, rng: Any) -> Any:  # pragma: no cover - chance steps override
        raise NotImplementedError

    def outcome_to_record(self, game: GameView, state: State, outcome: Any) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def outcome_from_record(self, game: GameView, state: State, data: dict[str, Any]) -> Any:  # pragma: no cover
        raise NotImplementedError


REGISTRY: dict[str, type[Step]] = {}

COMMON = (
    Opt("do", "enum", "The kind of step.", required=True),
    Opt("when", "condition", "A condition: the step is played only when it is true (checked when the round, "
        "or the trick, reaches the step)."),
)


def register(cls: type[Step]) -> type[Step]:
    REGISTRY[cls.kind] = cls
    return cls


def build_steps(ctx: StepContext, spec: dict[str, Any], path: Path_, nested: bool = False,
                inside: str = "a trick") -> list[Step]:
    """Instantiate and declare the steps of a round (or of a trick's hook, or a repeat: ``nested``, ``inside``
    naming it for messages); compile them with ``finish_steps``."""
    steps = []
    for sname, sspec in spec.items():
        spath = path + (sname,)
        kind = sspec["do"]
        cls = REGISTRY.get(kind)
        if cls is None:
            raise SchemaError(f"unknown step kind {kind!r} (kinds: {', '.join(sorted(REGISTRY))})",
                              ctx.source.pos(spath + ("do",)))
        if nested and not cls.nested:
            allowed = ", ".join(sorted(k for k, c in REGISTRY.items() if c.nested))
            raise SchemaError(f"a {kind} step cannot run inside {inside} (kinds allowed here: {allowed})",
                              ctx.source.pos(spath + ("do",)))
        if sname in ctx.step_names:
            raise SchemaError(f"two steps are named {sname!r}; step names must differ (policies and records "
                              "name steps)", ctx.source.key_pos(spath))
        ctx.step_names[sname] = spath
        step = cls(sname, spath)
        step.where = str(ctx.source.key_pos(spath))  # for errors in play that belong to the step as a whole
        step.declare(ctx, sspec)
        steps.append(step)
    return steps


def infer_types(ctx: StepContext, steps: list[Step]) -> None:
    """Work out the types of the values steps set, reading each other, until nothing changes.

    Mistakes found here are reported when the steps are compiled, in file order.
    """
    for _ in range(4):
        before = (dict(ctx.round_fields), dict(ctx.seat_fields))
        if ctx.refresh is not None:
            ctx.refresh()
        for step in steps:
            for inner in [step, *step.inner_steps()]:
                try:
                    inner.infer(ctx)
                except (ExpressionError, SchemaError):
                    pass
        for d in ctx.compiler.g.defines.values():
            d.compiled.clear()  # compiled against the old types
        if (ctx.round_fields, ctx.seat_fields) == before:
            break
    if ctx.refresh is not None:
        ctx.refresh()


def bind_nested(steps: list[Step], outer: dict[str, Type]) -> None:
    """Tell nested steps the names their trick binds (before types are inferred)."""
    for step in steps:
        step.bound = dict(outer)


def finish_steps(ctx: StepContext, steps: list[Step]) -> None:
    """Compile declared steps (nested ones know their bound names from ``bind_nested``). A step's mistake does not
    stop the others from being compiled: every step's first mistake is raised at the end, together (raise_all)."""
    found: list[RuleError] = []
    for step in steps:
        try:
            sspec = ctx.source.get(step.path)
            if "when" in sspec:
                step.when = ctx.option(COMMON[1], step.path + ("when",), step.bound)
            step.build(ctx, sspec)
        except RuleErrors as exc:
            found += exc.errors
        except RuleError as exc:
            found.append(exc)
    raise_all(found)


def third_person(verb: str) -> str:
    """'pass on' -> 'passes on', 'discard' -> 'discards': the first word takes the s."""
    first, _, rest = verb.partition(" ")
    if first.endswith(("s", "sh", "ch", "x", "z")):
        first += "es"
    elif first.endswith("y") and len(first) > 1 and first[-2] not in "aeiou":
        first = first[:-1] + "ies"
    else:
        first += "s"
    return f"{first} {rest}" if rest else first


class Running:
    """A list of steps being run (a round's, a repeat's, a trick's hook): the step running now (its index), its
    progress, and the decision found while entering or applying it (taken once by ``pending``)."""

    __slots__ = ("steps", "index", "p", "d")

    def __init__(self, steps: list[Step], index: int, p: Any, d: Decision | None = None):
        self.steps, self.index, self.p, self.d = steps, index, p, d

    def copy(self) -> Running:
        return Running(self.steps, self.index, None if self.p is None else self.p.copy())


def pending(game: GameView, state: State, r: Running) -> Decision | None:
    """The decision of the step running in ``r``."""
    d, r.d = r.d, None
    return d if d is not None else r.steps[r.index].decision(game, state, r.p)


def running(steps: list[Step], index: int, p: Any) -> list[tuple[Step, Any]]:
    """The steps running now, each with its progress: the round's step ``steps[index]``, then the step running
    inside it, and so on down to the one whose decision is pending."""
    out: list[tuple[Step, Any]] = []
    if index < 0 or p is None:
        return out
    here: tuple[Step, Any] | None = (steps[index], p)
    while here is not None and here[1] is not None:
        out.append(here)
        here = here[0].inside(here[1])
    return out

