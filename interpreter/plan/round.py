"""The ``round`` section: the steps of one round, in order, each a mapping with ``do: KIND`` and the keys of that
kind. A step kind describes itself (its summary and its declared options, interpreter/engine/steps/): the schema,
the docs' option tables, the compiler and the words below are made from that declaration, which the words are
given (Telling.kinds)."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from interpreter.dsl.words import name_words
from interpreter.plan.declaration import Opt
from interpreter.plan.opt_kinds import words
from interpreter.plan.section import JSON, PLACES, STEP_NAME, STEP_NAME_RULE, Path_, Section, Telling, Told, names, ref
from interpreter.rules.source import RuleSource

BASE = ("round",)


class StepPlan(NamedTuple):
    """A step of the round: its name, its kind and where it is written (its keys are read by its kind)."""

    name: str
    kind: str
    path: Path_


def read(source: RuleSource) -> tuple[StepPlan, ...]:
    return tuple(StepPlan(name, step["do"], BASE + (name,)) for name, step in source.data["round"].items())


def tell(steps: Any, tell: Telling) -> list[Told]:
    out: list[Any] = [("h2", "A round"), ("p", "Each round is played in these steps, in order.")]
    for number, (name, step) in enumerate(steps.items(), 1):
        out += _step(tell, BASE + (name,), step, f"{number}. {name_words(name)}", level="h3")
    return [(PLACES["round"], out)]


def _step(tell: Telling, path: Path_, step: dict[str, Any], heading: str, level: str) -> list[Any]:
    kind = step["do"]
    cls = tell.kinds[kind]
    out: list[Any] = [(level, heading)]
    said = tell.comment(path).lstrip(" —")
    intro = f"*{kind}*: {(cls.rulebook(step, tell) if cls.rulebook else _first_sentence(cls.summary))}."
    if said:
        said = said[0].upper() + said[1:] + ("" if said.endswith(".") else ".") + " "
    out.append(("p", said + intro))
    items: list[str] = []
    nested: list[Any] = []
    if "when" in step:
        items.append(f"**only when** {tell.say(step['when'])}")
    for opt in cls.options:
        if opt.key not in step or opt.key in ("do", "when"):
            continue
        value = step[opt.key]
        if opt.kind == "steps":
            deeper = "h4" if level == "h3" else level
            nested.append(("p", f"**{_label(opt)}** ({opt.key}):"))
            for name, sub in value.items():
                nested += _step(tell, path + (opt.key, name), sub, name_words(name), deeper)
            continue
        items.append(f"**{_label(opt)}** ({opt.key}): {words(opt, value, tell)}" + tell.comment(path + (opt.key,)))
    if items:
        out.append(("ul", items))
    return out + nested


def _label(opt: Opt) -> str:
    """What a key is, in the first words of its declaration."""
    text = re.split(r":|\. | \(|, e\.g\.|;", opt.doc, maxsplit=1)[0].strip(" .,")
    return text[0].lower() + text[1:] if text else opt.key


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    return re.split(r"(?<=[a-z)])(?<!e\.g)(?<!i\.e)\. ", text, maxsplit=1)[0].rstrip(".")


def _schema() -> JSON:
    return {
        "title": "round section",
        "description": "The steps of one round, in order; the game plays rounds until it ends. Each step is a "
                       "mapping with do: KIND and the keys of that kind.",
        "type": "object",
        "minProperties": 1,
        "propertyNames": names(STEP_NAME_RULE, STEP_NAME),
        "additionalProperties": ref("step"),
    }


SECTION = Section("round", _schema, required=True, read=read, words=tell)
