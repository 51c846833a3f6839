"""JSON Schema validation with every error mapped to its YAML line and column.

The validator sees a copy of the rule data in which every mapping key is a
string (YAML gives ``players: {3: ...}`` int keys, which JSON Schema keywords
such as ``patternProperties`` cannot match). Error paths are mapped back to
the original keys so that :class:`RuleSource` positions resolve.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from interpreter import cache
from interpreter.errors import Position, RuleErrors, SchemaError, in_file_order
from interpreter.limits import (
    MAX_CARD_TOKENS,
    MAX_CARDS,
    MAX_CHECKED_DECK,
    MAX_CHECKED_TOKENS,
    MAX_RULE_TOKENS,
    MAX_YAML_NODES,
    TOKEN,
)
from interpreter.rules import options
from interpreter.rules.catalog import schema_path
from interpreter.rules.source import RuleSource

if TYPE_CHECKING:  # jsonschema is imported when a file is checked: `trickbook list`, play of a bundled
    import jsonschema  # game by name, and a file found valid before need less
    from jsonschema.exceptions import ValidationError

Path_ = tuple[Any, ...]

_MAX_MESSAGE = 300


@lru_cache(maxsize=1)
def load_schema() -> dict[str, Any]:
    return json.loads(_schema_text())


@lru_cache(maxsize=1)
def _schema_text() -> str:
    return schema_path().read_text(encoding="utf-8")


def _digest(part: str, data: Any) -> str:
    """A part of the data and the schema, as one digest: the same digest, the same answer from the schema."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(f"{_schema_digest()}\0{part}\0{text}".encode()).hexdigest()


@lru_cache(maxsize=1)
def _schema_digest() -> str:
    """The schema's own digest (a part's digest holds it, not the schema's text: a file is checked in many parts)."""
    return hashlib.sha256(_schema_text().encode()).hexdigest()


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(load_schema())


@lru_cache(maxsize=64)
def _part_validator(part: str) -> jsonschema.Draft202012Validator:
    """A validator for one part of a file: "top" (its keys), a top-level key's value, "round" (its step
    names) or "step" (one step of the round)."""
    import jsonschema

    schema = load_schema()
    rules = schema["definitions"]["rules"]  # a whole file (a variant is checked once merged)
    props = rules["properties"]
    if part == "top":
        sub = dict(rules, properties=dict.fromkeys(props, {}))
    elif part == "step":
        sub = {"$ref": "#/definitions/step"}
    elif part == "round":
        sub = dict(props["round"], additionalProperties={})
    else:
        sub = dict(props[part])
    sub.update({key: schema[key] for key in ("$schema", "$id", "definitions")})
    return jsonschema.Draft202012Validator(sub)


def validate(source: RuleSource) -> None:
    """Raise :class:`RuleErrors` listing every schema violation, in file order; and refuse a file too big to
    check or compile quickly (see :func:`size_of`), before anything compiles it.

    The file is checked in parts: its keys, each top-level value, each step of the round. A part found valid
    before (the same data, against the same schema) is not checked again: its digest is kept in the
    user's cache folder (see interpreter/cache.py), so an edit checks only what it changed, and an
    unchanged file is not checked at all. Errors are always worked out afresh.
    """
    tokens = size_of(source)
    _check_schema(source)
    players = source.data.get("players")
    counts = len(players) if isinstance(players, dict) else 1
    if tokens * counts > MAX_CHECKED_TOKENS:
        raise RuleErrors([SchemaError(
            f"the text values of this file hold {tokens:,} tokens, and validate compiles them once for each of "
            f"its {counts} player counts: {tokens * counts:,} tokens, more than the limit of "
            f"{MAX_CHECKED_TOKENS:,} (fewer player counts, or shorter rules)", source.key_pos(("players",)))])
    cards, cells = deck_size(source.data.get("deck"))
    if cards > MAX_CARDS:  # the compiler says so, group by group, before any card is made
        return
    if cards * tokens * counts > MAX_CARD_TOKENS:  # rules judged card by card: check, tables, led classes
        raise RuleErrors([SchemaError(
            f"the deck's {cards:,} cards times the {tokens:,} tokens of the rules times its {counts} player counts "
            f"is {cards * tokens * counts:,}, more than the limit of {MAX_CARD_TOKENS:,}: validate judges the "
            "rules card by card for each count (fewer cards, shorter rules or fewer player counts)",
            source.key_pos(("deck",)))])
    if cells * counts > MAX_CHECKED_DECK:
        raise RuleErrors([SchemaError(
            f"the deck takes {cells:,} cells to build (each card times its attributes and label fields), and "
            f"validate builds it once for each of its {counts} player counts: {cells * counts:,}, more than the "
            f"limit of {MAX_CHECKED_DECK:,} (fewer cards, attributes or player counts)", source.key_pos(("deck",)))])


def deck_size(deck: Any) -> tuple[int, int]:
    """The cards of a deck (a schema-valid ``deck`` section) and the work of building it, its cells, counted
    before any card is made: every card of a group is a row of all the deck's attributes, and its label
    fills its template's fields."""
    if not isinstance(deck, dict) or not isinstance(deck.get("cards"), list):
        return 0, 0
    groups = [g for g in deck["cards"] if isinstance(g, dict)]
    names = {n for g in groups for n in g if n != "label"}
    default = deck.get("label")
    cards = cells = 0
    for g in groups:
        n = math.prod(len(v) if isinstance(v, list) else 1 for k, v in g.items() if k != "label")
        template = g.get("label") or default
        fields = template.count("{") if isinstance(template, str) else len(names)  # at most one field a brace
        cards += n
        cells += n * (1 + len(names) + fields)
    return cards, cells


def size_of(source: RuleSource) -> int:
    """The tokens of the merged file's text values; refuse a file past the size limits, before its schema.

    Each file was read within MAX_YAML_NODES; the files an ``extends`` chain merges are held to it together,
    as the schema and the compiler go through the merged data. The tokens of every text value (expressions,
    and labels and names too, which cost as little to count) are counted with one regular expression: Lark
    parses about 12 µs a token, the compiler takes about 5 µs a token, and validate compiles the file once for
    each player count (the expression parser bounds each expression on its own).
    """
    nodes = tokens = 0
    stack: list[tuple[Path_, Any]] = [((), source.data)]
    while stack:
        path, value = stack.pop()
        nodes += 1
        if nodes > MAX_YAML_NODES:  # each file alone is within it: said of the file asked for, not of a base
            raise RuleErrors([SchemaError(
                f"with the files it extends, more than {MAX_YAML_NODES:,} YAML nodes (keys, values and list "
                f"items); a rule file has at most {MAX_YAML_NODES:,}", Position(source.file, 1, 1))])
        if isinstance(value, str):
            tokens += len(TOKEN.findall(value))
            if tokens > MAX_RULE_TOKENS:
                raise RuleErrors([SchemaError(
                    f"the text values of this file (with the files it extends) hold more than {MAX_RULE_TOKENS:,} "
                    f"tokens (names, numbers, strings, operators, brackets); a rule file has at most "
                    f"{MAX_RULE_TOKENS:,}", source.pos(path))])
        elif isinstance(value, dict):
            nodes += len(value)  # the keys
            stack.extend((path + (k,), v) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((path + (i,), v) for i, v in reversed(list(enumerate(value))))
    return tokens


def _check_schema(source: RuleSource) -> None:
    data = _string_keys(source, source.data, ())
    whole = _digest("file", data)
    if cache.seen("valid-rules", whole):
        return
    errors = _part_errors(data)
    if not errors:
        cache.add("valid-rules", whole)
        return
    found: list[SchemaError] = []
    _originals.clear()
    try:
        for e in _relevant(errors):
            found.extend(_to_rule_errors(source, e))
    finally:
        _originals.clear()
    raise RuleErrors(in_file_order(found))


def _part_errors(data: Any) -> list[ValidationError]:
    """The schema's errors, part by part (paths as if the file had been checked whole): its keys, the value of
    each top-level key, the round's step names, and each step."""
    if not isinstance(data, dict):
        return list(_validator().iter_errors(data))
    known = load_schema()["definitions"]["rules"]["properties"]
    parts: list[tuple[str, Any, Path_]] = [("top", dict.fromkeys(data), ())]
    for key, value in data.items():
        if key not in known:
            continue  # refused by "top"
        if key == "round" and isinstance(value, dict):
            parts.append(("round", dict.fromkeys(value), ("round",)))
            parts += [("step", step, ("round", name)) for name, step in value.items()]
        else:
            parts.append((key, value, (key,)))
    errors = []
    for part, value, prefix in parts:
        digest = _digest("/".join(map(str, prefix)) or "top", value)
        if cache.seen("valid-rules", digest):
            continue
        found = list(_part_validator(part).iter_errors(value))
        if not found:
            cache.add("valid-rules", digest)
        for e in found:
            e.relative_path.extendleft(reversed(prefix))  # where the part is in the file
        errors.extend(found)
    return errors


# ---------------------------------------------------------------- string keys

def _string_keys(source: RuleSource, value: Any, path: Path_) -> Any:
    """A copy of ``value`` whose mapping keys are all strings."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            sk = str(k)
            if sk in out:
                raise RuleErrors([SchemaError(f"key {sk} is written twice, once as a number and once as text",
                                              source.key_pos(path + (k,)))])
            out[sk] = _string_keys(source, v, path + (k,))
        return out
    if isinstance(value, list):
        return [_string_keys(source, v, path + (i,)) for i, v in enumerate(value)]
    return value


# while validate words its errors: id of a mapping -> (the mapping, kept alive so the id stays its own; its keys
# by their text), so a mapping of thousands of number keys, each one an error, is gone through once
_originals: dict[int, tuple[dict[Any, Any], dict[str, Any]]] = {}


def _original_key(node: Any, key: Any) -> Any:
    """The key of ``node`` (from the original data) that was stringified to ``key``."""
    if isinstance(node, dict) and key not in node:
        known = _originals.get(id(node))
        if known is None:
            known = _originals[id(node)] = (node, {str(k): k for k in node})
        return known[1].get(key, key)
    return key


def _original_path(data: Any, path: Path_) -> Path_:
    out = []
    node = data
    for step in path:
        if isinstance(node, dict):
            step = _original_key(node, step)
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        else:
            node = None
        out.append(step)
    return tuple(out)


# ---------------------------------------------------------------- selection

def _relevant(errors: list[ValidationError]) -> list[ValidationError]:
    """Keep the errors worth showing.

    For oneOf/anyOf failures keep only the best-matching branch's error (unless
    every branch is just a list of required keys: then the union says it best).
    A step's ``unevaluatedProperties`` error only repeats what the error of its
    kind (or of its ``do``) already says, so it is dropped when one exists.
    """
    from jsonschema.exceptions import best_match

    out = []
    for e in errors:
        if e.context and not _alternative_required(e):
            out.append(best_match([e]))  # descends to the deepest branch error
        else:
            out.append(e)
    paths = [tuple(e.absolute_path) for e in out]
    kept = []
    for e in out:
        if e.validator == "unevaluatedProperties":
            here = tuple(e.absolute_path)
            if any(p[:len(here)] == here for p, o in zip(paths, out, strict=True) if o is not e):
                continue
        kept.append(e)
    return kept


def _alternative_required(e: ValidationError) -> bool:
    branches = e.validator_value if e.validator in ("anyOf", "oneOf") else None
    return isinstance(branches, list) and bool(branches) and all(isinstance(b, dict) and set(b) == {"required"}
                                                                 for b in branches)


# ---------------------------------------------------------------- messages

def _where(e: ValidationError, path: Path_) -> str:
    if not path:
        return " at the top level"
    title = e.schema.get("title") if isinstance(e.schema, dict) else None
    properties = e.schema.get("properties") if isinstance(e.schema, dict) else None
    if title and path[0] == "round" and (len(path) == 2 or isinstance(properties, dict) and "do" in properties):
        return f" in the {title} {str(path[-1])!r}"  # names the step (of the round, or nested in a step)
    return f" in the {title}" if title else ""


def _unknown_keys(source: RuleSource, e: ValidationError, path: Path_) -> list[SchemaError]:
    schema, instance = e.schema, e.instance
    assert isinstance(schema, Mapping) and isinstance(instance, dict), "the error of an object's unknown keys"
    allowed = sorted((schema.get("properties") or {}).keys())
    patterns = schema.get("patternProperties") or {}
    if e.validator == "unevaluatedProperties":
        allowed = sorted(set(allowed) | {"do", "when"})
    extra = [k for k in instance if k not in allowed and not any(re.search(p, k) for p in patterns)]
    out = []
    node = source.get(path)
    for key in extra:
        close = _close(key, allowed)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        if allowed:
            rest = f" (allowed here: {', '.join(allowed)})"
        else:
            rest = f" (keys here must match {' or '.join(patterns)})" if patterns else ""
        out.append(SchemaError(f"unknown key {key!r}{_where(e, path)}{hint}{rest}",
                               source.key_pos(path + (_original_key(node, key),))))
    return out


_TYPE_WORDS = {"string": "text", "integer": "a whole number", "boolean": "true/false", "array": "a list",
               "object": "a mapping", "null": "null", "number": "a number"}


def _show(value: Any) -> str:
    """A value as the rule file would write it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def _to_rule_errors(source: RuleSource, e: ValidationError) -> list[SchemaError]:
    path = _original_path(source.data, tuple(e.absolute_path))
    where = "/".join(str(p) for p in path)

    if "propertyNames" in e.absolute_schema_path:
        key = e.instance
        node = source.get(path)
        description = e.schema.get("description") if isinstance(e.schema, dict) else None
        message = f"{key!r} is not allowed as a name here"
        if description:
            message += f": {description}"
        return [SchemaError(message, source.key_pos(path + (_original_key(node, key),)))]

    if e.validator in ("additionalProperties", "unevaluatedProperties") and isinstance(e.instance, dict) \
            and e.validator_value is False:
        found = _unknown_keys(source, e, path)
        if found:
            return found

    if e.validator == "required":
        missing = re.match(r"^'(.*)' is a required property$", e.message)
        name = missing.group(1) if missing else e.message
        inside = _where(e, path) or (f" in {where}" if where else "")
        removed = source.smap.removed.get(tuple(path) + (name,))
        if removed is not None:  # the user's file took it away: the error is there
            return [SchemaError(f"{name!r} is missing{inside} (required): removed here (a key with no value, or "
                                "null, removes the key of the file this one extends)", removed)]
        return [SchemaError(f"{name!r} is missing{inside} (required)",
                            source.key_pos(path) if path else source.pos(path))]

    if e.validator in ("anyOf", "oneOf") and _alternative_required(e):
        branches = e.validator_value
        assert isinstance(branches, list), "checked by _alternative_required"
        names = [b["required"][0] if len(b["required"]) == 1 else " and ".join(b["required"])
                 for b in branches]
        inside = _where(e, path) or (f" in {where}" if where else "")
        return [SchemaError(f"one of {', '.join(repr(n) for n in names)} is needed{inside}",
                            source.key_pos(path) if path else source.pos(path))]

    message = e.message
    if e.validator == "type":
        wanted = e.validator_value
        if not isinstance(wanted, list):
            assert isinstance(wanted, str), "JSON Schema's type is a name or a list of names"
            wanted = [wanted]
        words = [_TYPE_WORDS.get(w, w) for w in wanted]
        alts = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
        message = f"expected {alts}, not {_show(e.instance)}"
        word = options.yaml11_word(e.instance, source.smap.style(path)) if "boolean" in wanted else None
        if word is not None:
            message += f"; did you mean {word}? (only true and false are true/false in a rule file)"
        if e.instance is None:
            message += " (null removes a key only in a file that extends another)"
    elif e.validator in ("oneOf", "anyOf"):
        description = e.schema.get("description") if isinstance(e.schema, dict) else None
        message = f"{_show(e.instance)} is not allowed here" + (f": {description}" if description else "")
    elif e.validator == "enum" and isinstance(e.instance, str):
        values = e.validator_value
        assert isinstance(values, list), "JSON Schema's enum is a list"
        choices = [c for c in values if isinstance(c, str)]
        close = _close(e.instance, choices)
        message = f"{e.instance!r} is not one of {', '.join(choices)}"
        if close:
            message += f"; did you mean {close[0]!r}?"
    elif e.validator == "const":
        message = f"{e.instance!r} must be {e.validator_value!r}"
    if len(message) > _MAX_MESSAGE:
        message = message[:_MAX_MESSAGE] + "..."
    if where:
        message = f"{where}: {message}"
    return [SchemaError(message, source.pos(path))]


def _close(word: str, words: list[str]) -> list[str]:
    """The closest of ``words`` to a misspelt ``word`` (difflib is imported only when a file has a mistake)."""
    import difflib

    return difflib.get_close_matches(word, words, n=1, cutoff=0.6)
