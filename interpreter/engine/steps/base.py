"""What every step kind provides, and the context steps are compiled in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.dsl.compiler import Compiled, Compiler
from interpreter.dsl.types import Type
from interpreter.errors import ExpressionError, SchemaError

if TYPE_CHECKING:
    from interpreter.engine.game import Game
    from interpreter.engine.state import State
    from interpreter.rules.source import RuleSource

Path_ = tuple[Any, ...]


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

    def expr(self, path: Path_, bound: dict[str, Type] | None = None, expect: str | None = None) -> Compiled:
        """Compile the expression stored at ``path`` in the rule file."""
        return self.compiler.compile(self.source.get(path), bound or {}, self.source.locator(path), expect)

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
        name = self.source.get(path)
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

    def declare(self, name: str, type_: Type, path: Path_) -> None:
        if name in self.round_fields:
            raise ExpressionError(f"round value {name!r} is set by two steps", self.source.pos(path))
        self.round_fields[name] = type_


class Step:
    """A stage of a round. Steps keep their progress in ``state.step_data``."""

    kind = "step"

    def __init__(self, name: str, when: Compiled | None):
        self.name = name
        self.when = when

    def declare(self, ctx: StepContext, spec: dict[str, Any], path: Path_) -> None:
        """First pass: declare the round values this step sets."""

    def build(self, ctx: StepContext, spec: dict[str, Any], path: Path_) -> None:
        """Second pass: compile expressions."""

    def begin(self, game: Game, state: State) -> None:
        """Enter the step: set ``state.step_data``."""

    def decision(self, game: Game, state: State) -> Decision | None:
        """The decision now pending, or None when the step is over."""
        raise NotImplementedError

    def apply(self, game: Game, state: State, action: Any) -> Decision | None:
        """Change the state; a step may return its next decision (saving the engine a call)."""
        raise NotImplementedError

    def label(self, game: Game, state: State, action: Any) -> str:
        raise NotImplementedError

    def describe(self, game: Game, state: State, action: Any, viewer: int | None = None) -> str | None:
        """The action as a phrase for a readable account ("plays red 7"); None: not worth telling.

        ``viewer`` is the seat the account is told to (None: everything is shown);
        a step whose actions are hidden from other seats says less to them.
        """
        return self.label(game, state, action)

    def public(self, game: Game, state: State) -> dict[str, Any]:
        """What everyone sees of this step's progress (for observations)."""
        return {}

    # chance steps only
    def sample(self, game: Game, state: State, rng: Any) -> Any:  # pragma: no cover - chance steps override
        raise NotImplementedError

    def outcome_to_record(self, game: Game, state: State, outcome: Any) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def outcome_from_record(self, game: Game, state: State, data: dict[str, Any]) -> Any:  # pragma: no cover
        raise NotImplementedError


class Decision:
    """Who acts now (a seat index, or CHANCE) and the legal actions."""

    __slots__ = ("actor", "actions", "step", "prompt")

    def __init__(self, actor: int, actions: list[Any], step: Step, prompt: str = ""):
        self.actor = actor
        self.actions = actions
        self.step = step
        self.prompt = prompt

    def __repr__(self) -> str:
        return f"Decision(actor={self.actor}, step={self.step.name!r}, {len(self.actions)} actions)"


REGISTRY: dict[str, type[Step]] = {}


def register(cls: type[Step]) -> type[Step]:
    REGISTRY[cls.kind] = cls
    return cls

