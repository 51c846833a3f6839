"""One entry of the keyword table: everything about one top-level section of a rule file, in one place.

The way python-jsonschema keeps one function per schema keyword (``minItems``, ``properties``...) and a validator
that only looks each keyword up, the plan keeps one :class:`Section` per top-level key of a rule file (``deck``,
``players``, ``game``...). An entry gives

- ``schema``: the section's fragment of the JSON Schema (and ``definitions``: the definitions it owns), from
  which interpreter/schema_gen.py writes schema/game.schema.json and the sections table of docs/rule-files.md;
- ``read``: the section's YAML (schema-checked) as plain frozen data, its *piece* of the plan; a reader never
  fails on data the schema accepts;
- ``checks``: a generator yielding every mistake it finds in the piece (a RuleError at the file's line and
  column), given the other sections' pieces too: nothing stops at the first mistake;
- ``words``: the section as a rulebook says it (interpreter/explain.py), as blocks each at its place in the
  rulebook.

Nothing else describes a section: tests/test_plan.py checks that the schema's top level, the table and the docs
name the same sections.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from interpreter.dsl.vocabulary import Vocabulary
from interpreter.dsl.words import condition_words, in_words
from interpreter.errors import RuleError, RuleErrors, in_file_order
from interpreter.rules.source import RuleSource

JSON = dict[str, Any]
Path_ = tuple[Any, ...]
Block = tuple[str, Any]  # ("h1" | "h2" | "h3" | "p" | "ul", text or list of texts) or ("table", (head, rows))
Told = tuple[int, list[Block]]  # blocks, at their place in the rulebook (see PLACES)

# where a section's words stand in a rulebook (explain sorts the blocks of all sections by these)
PLACES = {"title": 0, "about": 1, "players": 10, "cards": 20, "zones": 30, "setup": 40, "combinations": 50,
          "terms": 60, "round": 70, "table": 80, "end": 90, "options": 100}

IDENTIFIER = "^[A-Za-z_][A-Za-z0-9_]*$"
STEP_NAME = "^[A-Za-z_][A-Za-z0-9_-]*$"
NAME_RULE = "letters, digits and _, not starting with a digit"
STEP_NAME_RULE = "a step name is made of letters, digits, _ and -, not starting with a digit or -"


class Telling(NamedTuple):
    """What a section's words are told with: the rule file, the comment written on a key (as " — comment", or ""),
    and the step kinds by name (each with its ``summary`` and its declared ``options``: the round's steps are told
    by their kinds, which live above the plan, in interpreter/engine/steps/)."""

    source: RuleSource
    comment: Callable[[Path_], str]
    kinds: Mapping[str, Any]
    vocabulary: Vocabulary = Vocabulary()

    def say(self, value: Any) -> str:
        """An expression (or a plain value) of the file in words, with the file's names."""
        return in_words(value, self.vocabulary)

    def picks(self, text: Any, subject: str = "card") -> str:
        """A condition on ``subject`` said as what it picks: "a card whose colour is red"."""
        return condition_words(str(text), subject, self.vocabulary)


class Plan:
    """The pieces of a rule file's sections, by section key, and the file they were read from."""

    __slots__ = ("source", "pieces")

    def __init__(self, source: RuleSource, pieces: dict[str, Any]):
        self.source = source
        self.pieces = pieces

    def __getitem__(self, key: str) -> Any:
        return self.pieces[key]


def _no_schema() -> JSON:
    return {}


def _nothing(source: RuleSource) -> None:
    return None


def _fine(piece: Any, plan: Plan) -> Iterator[RuleError]:
    return iter(())


def _silent(value: Any, tell: Telling) -> list[Told]:
    return []


class Section(NamedTuple):
    """One top-level key of a rule file (see the module's doc)."""

    key: str
    schema: Callable[[], JSON]  # its property in the schema's top level
    required: bool = False
    read: Callable[[RuleSource], Any] = _nothing  # its piece of the plan
    checks: Callable[[Any, Plan], Iterator[RuleError]] = _fine  # every mistake in its piece
    words: Callable[[Any, Telling], list[Told]] = _silent  # the section's value as a rulebook says it
    definitions: Callable[[], JSON] = _no_schema  # the schema definitions it owns (by name)


def ref(name: str, description: str | None = None) -> JSON:
    """A schema that is the definition ``name`` (described here as ``description``)."""
    out: JSON = {"description": description} if description else {}
    out["$ref"] = f"#/definitions/{name}"
    return out


def names(description: str, pattern: str = IDENTIFIER) -> JSON:
    """A ``propertyNames`` schema: the keys are names the author chooses."""
    return {"description": description, "type": "string", "pattern": pattern}


def raise_all(errors: Iterable[RuleError]) -> None:
    """Raise what ``errors`` holds, in file order: a mistake alone as itself, several as one RuleErrors (as the
    schema reports them); nothing when there is none. The same mistake found twice is reported once."""
    found = in_file_order(errors)
    if not found:
        return
    if len(found) == 1:
        raise found[0]
    raise RuleErrors(found)
