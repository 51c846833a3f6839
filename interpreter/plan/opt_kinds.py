"""What each kind of a step's key is (``Opt.kind``): one entry a kind, giving the keywords of its schema, its
value in ``explain``'s words and how a step reads it (``reads``: engine/steps/options.py goes by it).
interpreter/schema_gen.py writes a step kind's schema from its options through :func:`option_schema`; explain
tells each key through :func:`words`; a kind not in :data:`KINDS` is refused when a step kind declares it
(tests/test_declarations.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from interpreter.dsl.words_base import and_list, name_words
from interpreter.plan.declaration import Opt
from interpreter.plan.section import JSON, NAME_RULE, Telling, names

# how a step's reader (engine/steps/options.py) reads a value of each kind: an expression compiled with the names its
# declaration binds, a zone's name checked against the zones (with its kind), a value worked out before play, or the
# data as written (which the step goes through itself, each nested mapping read by the same reader)
COMPILED, ZONE, ZONES, CONSTANT, DATA = "compiled", "zone", "zones", "constant", "data"
READINGS = (COMPILED, ZONE, ZONES, CONSTANT, DATA)


class OptKind(NamedTuple):
    schema: Callable[[Opt, str], JSON]  # the keywords of an option of this kind, given its owner ("board step")
    words: Callable[[Opt, Any, Telling], str]  # a value written for it, as explain tells it (with the file's names)
    reads: str = DATA  # how a step reads a value of this kind: one of READINGS


# ---------------------------------------------------------------- schemas


def _shared(definition: str) -> Callable[[Opt, str], JSON]:
    """A kind whose values are one shared definition of the schema."""
    return lambda opt, owner: {"$ref": f"#/definitions/{definition}"}


def _fixed(keywords: JSON) -> Callable[[Opt, str], JSON]:
    return lambda opt, owner: dict(keywords)


def _rules_schema(opt: Opt, owner: str) -> JSON:
    """A condition, a rule mapping, or a list of either: one schema whose keywords each apply to one type."""
    title = f"{opt.key} rule of the {owner}"
    mapping = {k: v for k, v in fields_schema(opt.fields, title, "").items() if k not in ("title", "description")}
    del mapping["type"]
    return {"title": title, "type": ["string", "boolean", "object", "array"], "minLength": 1, **mapping,
            "minItems": 1,
            "items": {"title": title, "description": "One rule: a condition or a rule mapping.",
                      "type": ["string", "boolean", "object"], "minLength": 1, **mapping}}


def _object_schema(opt: Opt, owner: str) -> JSON:
    return {"title": f"{opt.key} of the {owner}", "type": "object", **({"minProperties": 1} if opt.required else {}),
            "propertyNames": names(f"each key of {opt.key} is a name usable in expressions: {NAME_RULE}"),
            "additionalProperties": fields_schema(opt.fields, f"{opt.key} entry of the {owner}",
                                                  f"One entry of {opt.key}.")}


def _list_schema(opt: Opt, owner: str) -> JSON:
    return {"title": f"{opt.key} of the {owner}", "type": "array", **({"minItems": 1} if opt.required else {}),
            "items": fields_schema(opt.fields, f"{opt.key} entry of the {owner}", f"One entry of {opt.key}.")}


def _enum_schema(opt: Opt, owner: str) -> JSON:
    return {"enum": list(opt.choices)}


def option_schema(opt: Opt, owner: str) -> JSON:
    """The schema of one option of ``owner`` (e.g. "board step"; nested mappings are titled after it)."""
    kind = KINDS.get(opt.kind)
    if kind is None:
        raise ValueError(f"option {opt.key!r} has the unknown kind {opt.kind!r} (kinds: {', '.join(KINDS)})")
    out: JSON = {"description": describe(opt), **kind.schema(opt, owner)}
    if opt.default is not None:
        out["default"] = opt.default
    if "title" in out:
        out = {"title": out.pop("title"), **out}
    return out


def fields_schema(fields: tuple[Opt, ...], title: str, description: str) -> JSON:
    """A closed mapping with these fields (``title`` also names the owner of nested ones)."""
    out: JSON = {"title": title, "description": description, "type": "object", "additionalProperties": False}
    required = [f.key for f in fields if f.required]
    if required:
        out["required"] = required
    out["properties"] = {f.key: option_schema(f, title) for f in fields}
    return out


def describe(opt: Opt) -> str:
    """An option's description: its doc, plus the names an expression there may use."""
    return opt.doc.strip() + bound_text(opt, "{}")


def bound_text(opt: Opt, name: str) -> str:
    """The names an expression of the option may use, as its declaration binds them (each written as ``name``
    formats it)."""
    if not opt.binds:
        return ""
    where = f" (with {opt.binds_with})" if opt.binds_with else ""
    return f" Names bound here{where}: " + ", ".join(name.format(b) for b in opt.binds) + "."


# ---------------------------------------------------------------- words


def words(opt: Opt, value: Any, tell: Telling) -> str:
    """A value written for ``opt``, as explain tells it."""
    return KINDS[opt.kind].words(opt, value, tell)


def _expression(opt: Opt, value: Any, tell: Telling) -> str:
    return plain(value, tell) if isinstance(value, (list, dict)) else tell.say(value)


def plain(value: Any, tell: Telling) -> str:
    """Data as people read it: a list's items, a mapping's label (or its keys and values), an expression in
    words."""
    if isinstance(value, list):
        if value and all(isinstance(v, list) for v in value):  # a list of lists: "North and South; East and West"
            return "; ".join(and_list([plain(i, tell) for i in v]) if v else "nothing" for v in value)
        return ", ".join(plain(v, tell) for v in value)
    if isinstance(value, dict):
        if "label" in value:
            return str(value["label"])
        return "; ".join(f"{name_words(str(k))} {plain(v, tell)}" for k, v in value.items())
    if value is None:
        return "nothing"
    return tell.say(value)


def _named(opt: Opt, value: Any, tell: Telling) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def _yes_no(opt: Opt, value: Any, tell: Telling) -> str:
    return "yes" if value else "no"


def _ordering(opt: Opt, value: Any, tell: Telling) -> str:
    items = value if isinstance(value, list) else [value]
    return "the highest wins, compared in order: " + "; then ".join(tell.say(v) for v in items)


def _values(opt: Opt, value: Any, tell: Telling) -> str:
    if not isinstance(value, dict):
        return _expression(opt, value, tell)
    return "; ".join(f"{name_words(k)}: {tell.say(v)}" for k, v in value.items())


def _rules(opt: Opt, value: Any, tell: Telling) -> str:
    """Play obligations in words: the rule's own words (says) where given; else a condition (or a rule without
    holding) is "play a card ... if you can", a rule with holding binds a player holding such a card."""
    rules = value if isinstance(value, list) else [value]
    said = []
    for rule in rules:
        spec = rule if isinstance(rule, dict) else {"must": rule}
        if spec.get("says"):
            text = str(spec["says"])
        elif "holding" in spec:
            text = f"holding {tell.picks(spec['holding'])}, play {tell.picks(spec['must'])}"
        else:
            text = f"play {tell.picks(spec['must'])} if you can"
        if spec.get("otherwise") == "end":
            text += "; a player who has none ends trick play"
        said.append(text)
    return "; else ".join(said)


def _entries(opt: Opt, value: Any, tell: Telling) -> str:
    """The entries of a mapping or a list of mappings, each field told by its own declaration."""
    entries = list(value.items()) if isinstance(value, dict) else list(enumerate(value if isinstance(value, list)
                                                                                  else []))
    parts = []
    for key, sub in entries:
        if isinstance(sub, dict):
            inner = "; ".join(f"{name_words(k)}: {_field(opt, k, v, tell)}" for k, v in sub.items())
            parts.append(inner if isinstance(key, int) else f"{name_words(str(key))} ({inner})")
        else:
            parts.append(tell.say(sub))
    return " | ".join(parts)


def _field(opt: Opt, key: str, value: Any, tell: Telling) -> str:
    sub = next((f for f in opt.fields if f.key == key), None)
    return words(sub, value, tell) if sub is not None else tell.say(value)


# ---------------------------------------------------------------- the table

KINDS: dict[str, OptKind] = {
    "expr": OptKind(_shared("expression_or_data"), _expression, COMPILED),  # an expression, or plain data
    "condition": OptKind(_shared("condition"), _expression, COMPILED),  # a yes/no expression
    "seat": OptKind(_shared("seat"), _expression, COMPILED),  # an expression giving a seat
    "seats": OptKind(_shared("seats"), _expression, COMPILED),  # a seat or a list of seats
    "number": OptKind(_shared("number"), _expression, COMPILED),  # a whole-number expression
    "constant": OptKind(_shared("constant"), _expression, CONSTANT),  # a value known before play
    "zone": OptKind(_shared("zone_name"), _named, ZONE),  # a zone's name
    "zones": OptKind(_shared("zone_names"), _named, ZONES),  # one zone's name or a list of them
    "name": OptKind(_shared("identifier"), _named),  # the name of a value the step sets
    "names": OptKind(_fixed({"type": "array", "uniqueItems": True, "items": {"$ref": "#/definitions/identifier"}}),
                     _named),
    "text": OptKind(_fixed({"type": "string", "minLength": 1}), _named),
    "bool": OptKind(_fixed({"type": "boolean"}), _yes_no),
    "enum": OptKind(_enum_schema, _named),  # one of the option's choices
    "ordering": OptKind(_shared("ordering"), _ordering),  # expressions compared in order
    "rules": OptKind(_rules_schema, _rules),  # play obligations
    "values": OptKind(_shared("values"), _values),  # value names and their expressions
    "steps": OptKind(_shared("steps"), _expression),  # nested steps (explain tells them as steps of their own)
    "object": OptKind(_object_schema, _entries),  # a mapping of names to mappings of the option's fields
    "list": OptKind(_list_schema, _entries),  # a list of mappings of the option's fields
}
