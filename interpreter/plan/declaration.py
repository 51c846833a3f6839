"""The declaration of one key a step kind accepts (:class:`Opt`): the one description its schema fragment, its
reading, its expressions' expected kinds, its docs row and its words in ``explain`` are made from.

Step kinds (engine/steps/) declare their options with it; interpreter/schema_gen.py turns the declarations into
the JSON Schema and the option tables of docs/rule-files.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.dsl.types import Type


@dataclass(frozen=True)
class Opt:
    """One key a step kind accepts.

    ``kind`` says what the value is (an expression, a condition, a zone's name, play obligations, nested steps, a
    mapping with its own ``fields``...): one of plan/opt_kinds.py's KINDS, where each kind's schema and words are.
    """

    key: str
    kind: str
    doc: str
    binds: tuple[str, ...] = ()
    required: bool = False
    choices: tuple[str, ...] = ()
    fields: tuple[Opt, ...] = ()
    default: Any = None
    binds_with: str | None = None  # ``binds`` are bound only when the step also has this key (move's each)
    # what an ``expr`` option's expression must give (see Compiler.compile's expect): "list", "cards", "shown"...
    gives: str | None = None

    @property
    def expects(self) -> str | None:
        """What its expression must give: ``gives``, or what its kind says (a condition gives true or false)."""
        return self.gives or EXPECTS.get(self.kind)

    def bound_names(self, outer: dict[str, Type], names: dict[str, Type], given: Any = ()) -> dict[str, Type]:
        """The names an expression of this option is compiled with: those an enclosing trick binds (``outer``)
        and the ones this option declares, typed by ``names`` (every name the step can bind, with its type).
        Only this declaration says which: a name the step could bind but the option does not declare is
        unknown to its expressions, and the docs and the schema say the same (they are made from it)."""
        bound = dict(outer)
        if self.binds_with is None or self.binds_with in given:
            for name in self.binds:
                bound[name] = names[name]
        return bound


# what the expression of an option of each kind must give (see Compiler.compile's expect)
EXPECTS = {"condition": "truth", "number": "number", "seat": "seat", "seats": "seats"}


def declared_in(fields: tuple[Opt, ...], key: str) -> Opt:
    """The declaration of ``key`` among ``fields`` (an option's fields, or a step kind's options)."""
    for opt in fields:
        if opt.key == key:
            return opt
    raise AssertionError(f"option {key!r} is read but not declared")
