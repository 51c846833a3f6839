"""What every step kind is: its declared options, its reading (compiling its keys), its play, and the parts it
holds for what it says, what search asks of it and chance's outcomes.

A step kind declares its options once (:class:`~interpreter.plan.declaration.Opt`: key, kind, bound names,
description). The compiler reads them to check and compile a step's keys, and
``interpreter.schema_gen`` turns them into the JSON Schema and the option
tables of docs/rule-files.md, so the three can never disagree.

Play protocol: ``start`` returns the step's progress (a small object with
``copy()``) or None when the step has nothing to decide; ``decision`` gives the
pending :class:`Decision` or None when the step is over; ``apply`` changes the
state and may return the next decision of the same step (saving the engine a call).

A step is put together from parts, each a class of its own that the step holds one of (made when the step is):
``words`` (words.py: labels, narration, public progress, its actions listed), ``search`` (search.py: hidden
values, samples, judging a card) and ``chance`` (chance.py: chance's outcomes). A kind names the classes of its
parts (``words_part``, ``search_part``, ``chance_part``); its written code is its writer's (engine/module.py's
``WRITERS``), which imports the kind, never the other way.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from interpreter.dsl.compiler import Compiled
from interpreter.dsl.types import SEAT, VALUE, Type, list_of
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.action_types import Choice
from interpreter.engine.steps.chance import Chance
from interpreter.engine.steps.context import Path_, StepContext
from interpreter.engine.steps.options import Options
from interpreter.engine.steps.search import Search
from interpreter.engine.steps.words import Words
from interpreter.engine.steps.writer import Found, Lines, ListWriter
from interpreter.errors import ExpressionError, RuleError, RuleErrors, SchemaError
from interpreter.plan.declaration import Opt, declared_in
from interpreter.plan.section import raise_all


class Step:
    """A stage of a round (or of a trick, for the steps a trick runs between plays or after it)."""

    kind: ClassVar[str] = "step"
    summary: ClassVar[str] = ""
    # what a step of this kind does, as a rulebook says it, from the step as written (its keys) and the file's
    # names (a plan Telling); None: explain says the first sentence of the summary
    rulebook: ClassVar[staticmethod[[dict[str, Any], Any], str] | None] = None
    options: ClassVar[tuple[Opt, ...]] = ()
    nested: ClassVar[bool] = False  # may run inside a trick (between_plays, after_trick)
    decides: ClassVar[bool] = False  # asks seats (so automatic seats need a policy for it)
    loops: ClassVar[bool] = False  # its written code has a playout loop of its own (``run``, see playout)

    # the classes of its parts (see the module's docstring): a kind that says, hides or draws more names its own
    words_part: ClassVar[type[Words[Any]]] = Words
    search_part: ClassVar[type[Search[Any]]] = Search
    chance_part: ClassVar[type[Chance[Any]]] = Chance

    where = ""  # FILE:LINE:COL of the step's name, set when the step is built

    def __init__(self, name: str, path: Path_):
        self.name = name
        self.path = path
        self.when: Compiled | None = None
        self.guard: Compiled | None = None  # a condition the step holding it adds to when (a climb's hooks)
        self.outer: Any = None  # for nested steps: gives the values of the names the trick binds
        self.bound: dict[str, Type] = {}  # the names the trick binds, for compiling
        self._written: Any = None  # the step's code in the game's module (see code), and that game
        self.words = self.words_part(self)
        self.search = self.search_part(self)
        self.chance = self.chance_part(self)

    @classmethod
    def declared(cls, key: str) -> Opt:
        """The declaration of option ``key`` (every option a step reads is declared)."""
        return declared_in(cls.options, key)

    def reader(self, ctx: StepContext) -> Options:
        """The reader of this step's keys, by its declared options (every option a step reads comes through it)."""
        return Options(ctx, self.options, self.path, self.bound)

    def env(self, state: State) -> dict[str, Any]:
        """A fresh evaluation environment: the state, plus the names an enclosing trick binds."""
        if self.outer is None:
            return {"$s": state}
        env = self.outer(state)
        env["$s"] = state
        return env

    def declare(self, ctx: StepContext, opts: Options) -> None:
        """First pass: declare the values this step sets (its options read by ``opts``, mistakes collected there)."""

    def infer(self, ctx: StepContext) -> None:
        """Between the passes: work out the types of the values this step sets (may be called repeatedly)."""

    def build(self, ctx: StepContext, opts: Options) -> None:
        """Second pass: compile expressions and check the options (read by ``opts``, which collects every mistake
        found: a check goes on after one, skipping only what needs an option that could not be read)."""

    def check(self, game: GameView) -> list[RuleError]:
        """After the game is built: what the checks that need the deck or the seats find (every mistake, not only
        the first; compile_game raises them with the other steps')."""
        return []

    def start(self, game: GameView, state: State) -> Any:
        """Enter the step; return its progress, or None when it has nothing to decide."""
        return None

    def decision(self, game: GameView, state: State, p: Any) -> Decision | None:
        """The decision now pending, or None when the step is over."""
        return None

    def inside(self, p: Any) -> tuple[Step, Any] | None:
        """The step running inside this one now and its progress (a repeat's step, a trick's hook), or None."""
        return None

    def together(self, p: Any) -> list[int]:
        """The seats this step still asks, in its order, when its choices are made together (each seat decides
        without seeing the others' picks of the step, ``simultaneous``); [] for a step that asks in turn."""
        return []

    def playout(self, game: GameView, state: State, policy: Any, random: Any) -> int:
        """For ``Game.playout``: take the pending decision and those after it in a loop of the step's own (its
        written code's ``run``, when the kind ``loops``), as ``apply`` would, each by ``policy(state, seat,
        actions)``, or, when it is None, drawn uniformly with ``random()`` (see Writer.pick); return how many were
        taken (0: this step has no such loop)."""
        return cast(int, self.code(game).run(game, state, policy, random)) if self.loops else 0

    def apply(self, game: GameView, state: State, p: Any, action: Any) -> Decision | None:
        """Change the state; may return the next decision of this step."""
        raise NotImplementedError

    def policy_binds(self) -> dict[str, Type]:
        """The names an automatic seat's policy for this step may use."""
        return {"seat": SEAT, "legal": list_of(VALUE)}

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
        game's module: kept for the game it was last asked for (a step belongs to one compiled game, whose code is
        written for today's state and, for the compact layout, again: runtime/compact_game.py)."""
        written = self._written
        if written is None or written[0] is not game:
            written = self._written = (game, game.module().code(self))
        return written[1]

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


REGISTRY: dict[str, type[Step]] = {}

COMMON = (
    Opt("do", "enum", "The kind of step.", required=True),
    Opt("when", "condition", "A condition: the step is played only when it is true (checked when the round, "
        "or the trick, reaches the step)."),
)


def register(cls: type[Step]) -> type[Step]:
    REGISTRY[cls.kind] = cls
    return cls


def build_steps(ctx: StepContext, listed: dict[str, Any], path: Path_, nested: bool = False,
                inside: str = "a trick") -> list[Step]:
    """Instantiate and declare the steps ``listed`` at ``path`` (a round's, or a trick's hook, or a repeat's:
    ``nested``, ``inside`` naming it for messages); compile them with ``finish_steps``. The mistakes of every step
    of the list are raised together: a step of an unknown kind, of a kind not allowed here or of a name taken is
    left out, the others declared."""
    steps = []
    found: list[RuleError] = []
    for sname in listed:
        spath = path + (sname,)
        kind = Options(ctx, COMMON, spath, {}).plain("do")
        cls = REGISTRY.get(kind)
        if cls is None:
            found.append(SchemaError(f"unknown step kind {kind!r} (kinds: {', '.join(sorted(REGISTRY))})",
                                     ctx.source.pos(spath + ("do",))))
            continue
        if nested and not cls.nested:
            allowed = ", ".join(sorted(k for k, c in REGISTRY.items() if c.nested))
            found.append(SchemaError(f"a {kind} step cannot run inside {inside} (kinds allowed here: {allowed})",
                                     ctx.source.pos(spath + ("do",))))
            continue
        if sname in ctx.step_names:
            found.append(SchemaError(f"two steps are named {sname!r}; step names must differ (policies and records "
                                     "name steps)", ctx.source.key_pos(spath)))
            continue
        ctx.step_names[sname] = spath
        step = cls(sname, spath)
        step.where = str(ctx.source.key_pos(spath))  # for errors in play that belong to the step as a whole
        try:
            steps.append(declared(ctx, step))
        except (RuleError, RuleErrors) as exc:
            found += list(exc.errors) if isinstance(exc, RuleErrors) else [exc]
    raise_all(found)
    return steps


def declared(ctx: StepContext, step: Step) -> Step:
    """``step`` with its values declared; the mistakes its declaring finds raised together."""
    opts = step.reader(ctx)
    step.declare(ctx, opts)
    raise_all(opts.found)
    return step


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
    """Compile declared steps (nested ones know their bound names from ``bind_nested``). A step's reader collects
    every mistake its reading and its checks find, and a step's mistakes do not stop the others from being
    compiled: all are raised at the end, together, in file order (raise_all)."""
    found: list[RuleError] = []
    for step in steps:
        opts = step.reader(ctx)
        try:
            step.when = opts.get("when")
            step.build(ctx, opts)
        except RuleErrors as exc:
            found += exc.errors
        except RuleError as exc:
            found.append(exc)
        except (TypeError, AttributeError, KeyError, ValueError):
            # a check that went on over an option that could not be read (None): the mistakes found first are
            # what to report, this is a consequence of them
            if not opts.found:
                raise
        found += opts.found
    raise_all(found)
