"""A rule file's options: what each declares (its kind, default and choices), the checks of those declarations,
and the one reading of a value given for an option (on the command line, through the API, from a web table).

An option's kind is the kind of its default: true/false, a whole number or text. Everything that reads an option
reads it here, so the default, the choices, a variant's change and a value chosen for a game are held to the same
kind. YAML 1.1 read ``yes``, ``no``, ``on`` and ``off`` as true and false; rule files are read by YAML 1.2, where
they are text, so an unquoted one where an option's value is written is refused with "did you mean false?" (a text
option that means the word writes it in quotes).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from interpreter.errors import GameError, SchemaError

# unquoted, YAML 1.1 read these as true or false; YAML 1.2 (and this loader) reads them as text
YAML11_TRUE = frozenset({"yes", "on", "true"})
YAML11_FALSE = frozenset({"no", "off", "false"})

KINDS = {bool: "truth", int: "number", str: "text"}
NOUNS = {"truth": "true or false", "number": "a whole number", "text": "text"}


@dataclass(frozen=True)
class Option:
    """One declared option."""

    name: str
    description: str
    kind: str  # "truth", "number" or "text"
    default: Any
    choices: tuple[Any, ...] | None

    def value(self, value: Any) -> Any:
        """``value`` (given for a game through the API or a web table) when it is of this option's kind and one of
        its choices; a GameError saying what it takes otherwise."""
        if kind_of(value) != self.kind:
            raise GameError(f"option {self.name} takes {self.takes()}, not {_shown(value)}")
        if self.choices is not None and value not in self.choices:
            raise GameError(f"option {self.name} must be one of {', '.join(map(_shown, self.choices))}, "
                            f"not {_shown(value)}")
        return value

    def parse(self, text: str) -> Any:
        """The value of ``--option NAME=TEXT``: text read as this option's kind (true/yes/on/1 and
        false/no/off/0 for true or false, digits for a number), then checked as :meth:`value` checks it."""
        value: Any = text
        if self.kind == "truth":
            word = text.strip().lower()
            if word in YAML11_TRUE or word in ("1", "y"):
                value = True
            elif word in YAML11_FALSE or word in ("0", "n"):
                value = False
            else:
                raise GameError(f"option {self.name} takes true or false, not {text!r}")
        elif self.kind == "number":
            try:
                value = int(text.strip())
            except ValueError:
                raise GameError(f"option {self.name} takes a whole number, not {text!r}") from None
        return self.value(value)

    def takes(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(map(_shown, self.choices))
        return NOUNS[self.kind]


def kind_of(value: Any) -> str | None:
    """"truth", "number" or "text" for a plain value (a bool is not a number here), None for anything else."""
    return KINDS.get(type(value))


def declared(data: dict[str, Any]) -> dict[str, Option]:
    """The options a rule file's (checked) data declares, by name."""
    out = {}
    for name, spec in (data.get("options") or {}).items():
        choices = spec.get("choices")
        out[name] = Option(name, spec.get("description", ""), kind_of(spec["default"]) or "text", spec["default"],
                           tuple(choices) if choices is not None else None)
    return out


def defaults(data: dict[str, Any]) -> dict[str, Any]:
    """Every option's default, by name."""
    return {name: option.default for name, option in declared(data).items()}


def choose(options: dict[str, Option], given: dict[str, Any] | None) -> dict[str, Any]:
    """The options a game is played with (``options``: those declared): the defaults, with ``given`` values checked
    and put in their place."""
    values = {name: option.default for name, option in options.items()}
    for name, value in (given or {}).items():
        values[name] = _known(options, name).value(value)
    return values


def parsed(data: dict[str, Any], name: str, text: str) -> Any:
    """The value of ``--option NAME=TEXT`` for this rule file."""
    return _known(declared(data), name).parse(text)


def _known(options: dict[str, Option], name: Any) -> Option:
    if name not in options:
        raise GameError(f"unknown option {name!r} (options of this game: {', '.join(options) or 'none'})")
    return options[name]


# ---------------------------------------------------------------- checks of the declarations


def problems(data: dict[str, Any], scalar_style: Any, pos: Any) -> Iterator[SchemaError]:
    """Every mistake in the options section of schema-checked ``data``: a default or a choice written as an
    unquoted YAML 1.1 word for true or false, choices of another kind than the default, a default that is not one
    of the choices. ``scalar_style(path)`` is the YAML style of the scalar there (None: plain), ``pos(path)`` its
    position."""
    for name, spec in (data.get("options") or {}).items():
        base = ("options", name)
        kind = kind_of(spec["default"])
        for path, value in [(base + ("default",), spec["default"]),
                            *((base + ("choices", i), c) for i, c in enumerate(spec.get("choices") or ()))]:
            word = yaml11_word(value, scalar_style(path))
            if word is not None:
                yield SchemaError(f"{value!r} is text here, not {word} (only true and false are true/false in a rule "
                                  f"file); did you mean {word}? (write it in quotes, '{value}', for the text)",
                                  pos(path))
        choices = spec.get("choices")
        if choices is None:
            continue
        for i, choice in enumerate(choices):
            if kind_of(choice) != kind:
                yield SchemaError(f"option {name} is {NOUNS[kind or 'text']} (its default is {_shown(spec['default'])})"
                                  f": every choice must be too, not {_shown(choice)}", pos(base + ("choices", i)))
        if spec["default"] not in choices or kind is None:
            yield SchemaError(f"option {name}'s default {_shown(spec['default'])} is not one of its choices "
                              f"({', '.join(map(_shown, choices))})", pos(base + ("default",)))


def variant_problems(base: dict[str, Any], over: dict[str, Any], scalar_style: Any, pos: Any
                     ) -> Iterator[SchemaError]:
    """A file that extends another may change an option's default and choices, not its kind: each option of
    ``over`` whose default's kind is not that of the same option in ``base``, at the variant's line (``pos`` and
    ``scalar_style`` are the variant's, as for :func:`problems`)."""
    base_options, over_options = base.get("options"), over.get("options")
    if not isinstance(base_options, dict) or not isinstance(over_options, dict):
        return
    for name, spec in over_options.items():
        old = base_options.get(name)
        if not isinstance(spec, dict) or not isinstance(old, dict) or "default" not in spec or "default" not in old:
            continue
        was, now = kind_of(old["default"]), kind_of(spec["default"])
        if was is not None and now is not None and was != now:
            path = ("options", name, "default")
            word = yaml11_word(spec["default"], scalar_style(path)) if was == "truth" else None
            hint = f"; did you mean {word}?" if word else ""
            yield SchemaError(f"option {name} is {NOUNS[was]} (the file it extends declares default: "
                              f"{_shown(old['default'])}); a variant may change its default, not its kind: "
                              f"{_shown(spec['default'])} is {NOUNS[now]}{hint}", pos(path))


def yaml11_word(value: Any, style: str | None) -> str | None:
    """"true" or "false" when ``value`` is an unquoted YAML 1.1 word for it (``no``, ``On``...), else None."""
    if not isinstance(value, str) or style is not None:
        return None
    word = value.lower()
    if value in ("true", "false"):
        return None
    return "true" if word in YAML11_TRUE else "false" if word in YAML11_FALSE else None


def _shown(value: Any) -> str:
    return "true" if value is True else "false" if value is False else repr(value)


__all__ = ["Option", "choose", "declared", "defaults", "kind_of", "parsed", "problems",
           "variant_problems", "yaml11_word"]
