"""The one reader of a step's keys (:class:`Options`): every option a step kind reads comes through it, by its
declaration (:class:`~interpreter.plan.declaration.Opt`): whether it is written, its value by its kind (how each kind
is read is plan/opt_kinds.py's ``reads``), its default when it is not written, its choices.

A reader collects the mistakes it finds instead of raising the first: an option that cannot be read is remembered
(``found``) and read as None, a step's own checks add theirs with :meth:`Options.mistake`, and the step's reading
goes on, so a step with three mistakes reports all three (``finish_steps`` raises them together, in file order, as
the schema does). A check that needs an option that could not be read asks :meth:`Options.ok` first and is skipped:
it would only report a consequence of the first mistake. tests/test_option_reads.py keeps every read of a step's
keys in this module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from interpreter.dsl.types import Type
from interpreter.engine.steps.context import Path_, StepContext
from interpreter.errors import RuleError, RuleErrors
from interpreter.plan.declaration import Opt, declared_in
from interpreter.plan.opt_kinds import COMPILED, CONSTANT, KINDS, ZONE, ZONES

T = TypeVar("T")


class Options:
    """The keys of one mapping of the rule file (a step, or one entry of an option with ``fields``), read by their
    declarations ``fields``; ``bound``: the names an enclosing trick binds; ``found``: where mistakes are collected
    (shared with the readers of nested mappings, made by :meth:`within`)."""

    def __init__(self, ctx: StepContext, fields: tuple[Opt, ...], path: Path_, bound: dict[str, Type],
                 found: list[RuleError] | None = None):
        self.ctx = ctx
        self.fields = fields
        self.path = path
        self.bound = bound
        self.found: list[RuleError] = [] if found is None else found
        self.failed: set[str] = set()  # keys whose value could not be read
        written = ctx.source.get(path)
        self.is_mapping = isinstance(written, dict)  # (a rule may be written as a condition alone)
        self._mapping: dict[str, Any] = written if isinstance(written, dict) else {}

    def given(self, key: str) -> bool:
        """Whether the declared option ``key`` is written."""
        declared_in(self.fields, key)
        return key in self._mapping

    def plain(self, key: str) -> Any:
        """The value of ``key`` as written (for the step to go through itself), or its declared default."""
        opt = declared_in(self.fields, key)
        return self._mapping.get(key, opt.default)

    def get(self, key: str, names: dict[str, Type] | None = None, expect: str | None = None, per: str | None = None,
            per_seat: bool | None = None) -> Any:
        """The value of ``key`` read by its kind: an expression compiled with the names its declaration binds (typed
        by ``names``; ``expect``, ``per``: see Compiler.compile), a zone checked to exist (and, with ``per_seat``, to
        be of that kind), a constant worked out, or the data as written; its declared default when it is not
        written; None, with the mistake collected, when it cannot be read."""
        return self.attempt(lambda: self.need(key, names, expect, per, per_seat), key)

    def need(self, key: str, names: dict[str, Type] | None = None, expect: str | None = None,
             per: str | None = None, per_seat: bool | None = None) -> Any:
        """As :meth:`get`, raising the mistake: for a part that cannot be made without the value (its maker is
        then attempted as a whole)."""
        opt = declared_in(self.fields, key)
        if key not in self._mapping:
            return opt.default
        return self.read(opt, self.path + (key,), names, expect, per, per_seat)

    def read(self, opt: Opt, path: Path_, names: dict[str, Type] | None = None, expect: str | None = None,
             per: str | None = None, per_seat: bool | None = None) -> Any:
        """The value at ``path`` read as option ``opt`` says (raising its mistake): the one place a kind is read."""
        reads = KINDS[opt.kind].reads
        if reads == COMPILED:
            return self.ctx.option(opt, path, self.bound, names, expect, per)
        if reads == ZONE:
            return self.ctx.zone(path, per_seat)
        if reads == ZONES:
            return self.ctx.zones(path, per_seat)
        if reads == CONSTANT:
            return self.ctx.constant(path)
        value = self.ctx.source.get(path)
        if opt.choices and value not in opt.choices:
            raise self.ctx.error(f"{opt.key} must be one of {', '.join(opt.choices)}, not {value!r}", path)
        return value

    def itself(self, key: str, names: dict[str, Type] | None = None, expect: str | None = None,
               per: str | None = None) -> Any:
        """This reader's whole value read as its field ``key`` (a rule written as a condition alone is its
        ``must``), raising the mistake."""
        return self.read(declared_in(self.fields, key), self.path, names, expect, per)

    def entry(self, key: str, at: Any, names: dict[str, Type] | None = None, like: str | None = None) -> Any:
        """The expression written at ``at`` within option ``key`` (an ordering's item, a value of a values
        mapping), compiled with the names the declaration of ``key`` (or of ``like``) binds; raising its mistake."""
        opt = declared_in(self.fields, like or key)
        return self.ctx.option(opt, self.path + (key, at), self.bound, names)

    def within(self, key: str, *at: Any) -> Options:
        """The reader of a mapping nested in option ``key`` (``at``: its place there, e.g. an entry's name or
        index), by the option's ``fields``; its mistakes are collected with this reader's."""
        opt = declared_in(self.fields, key)
        return Options(self.ctx, opt.fields, self.path + (key, *at), self.bound, self.found)

    def mistake(self, message: str, *at: Any) -> None:
        """A mistake a step's check found, at ``at`` within this mapping (its key, then deeper)."""
        self.found.append(self.ctx.error(message, self.path + at))

    def attempt(self, work: Callable[[], T], *keys: str) -> T | None:
        """The result of ``work`` (a reading or a check that raises its mistake), or None with the mistake
        collected (``keys``: the options it reads, remembered as not read)."""
        try:
            return work()
        except RuleErrors as exc:
            self.found += exc.errors
        except RuleError as exc:
            self.found.append(exc)
        self.failed.update(keys)
        return None

    def part(self, work: Callable[[], T], *keys: str) -> T:
        """A part the step cannot be played without (its ordering...), made by ``work``: as :meth:`attempt`; when
        it has a mistake it is None, and the step, reported, is never played."""
        return cast(T, self.attempt(work, *keys))

    def ok(self, *keys: str) -> bool:
        """Whether each of ``keys`` was read without a mistake (a check on them is meaningful)."""
        return not self.failed.intersection(keys)
