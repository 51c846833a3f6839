"""What a step kind reads while it is compiled: the rule file, the compiler, the seats and zones, and the values the
steps declare (``StepContext``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.dsl.compiler import Compiled, Compiler
from interpreter.dsl.types import Type, join
from interpreter.errors import SchemaError
from interpreter.plan.declaration import Opt

if TYPE_CHECKING:
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
