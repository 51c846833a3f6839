"""JSON Schema validation with every error mapped to its YAML line and column."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from interpreter.errors import RuleErrors, SchemaError
from interpreter.rules.catalog import schema_path
from interpreter.rules.source import RuleSource


@lru_cache(maxsize=1)
def load_schema() -> dict[str, Any]:
    return json.loads(schema_path().read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema())


def validate(source: RuleSource) -> None:
    """Raise :class:`RuleErrors` listing every schema violation, most relevant first."""
    errors = list(_validator().iter_errors(source.data))
    if not errors:
        return
    found = [_to_rule_error(source, e) for e in _relevant(errors)]
    found.sort(key=lambda e: (e.position.file, e.position.line, e.position.column) if e.position else ("", 0, 0))
    unique, seen = [], set()
    for e in found:
        key = (str(e.position), e.message)
        if key not in seen:
            seen.add(key)
            unique.append(e)
    raise RuleErrors(unique)


def _relevant(errors: list[ValidationError]) -> list[ValidationError]:
    """For oneOf/anyOf failures, keep only the best-matching branch error."""
    out = []
    for e in errors:
        if e.context:
            out.append(best_match(e.context))
        else:
            out.append(e)
    return out


def _to_rule_error(source: RuleSource, e: ValidationError) -> SchemaError:
    path = tuple(e.absolute_path)
    if e.validator == "additionalProperties" and isinstance(e.instance, dict):
        allowed = set((e.schema.get("properties") or {}).keys())
        extra = [k for k in e.instance if k not in allowed]
        patterns = e.schema.get("patternProperties") or {}
        if patterns:
            import re

            extra = [k for k in extra if not any(re.search(p, str(k)) for p in patterns)]
        if extra:
            key = extra[0]
            import difflib

            close = difflib.get_close_matches(str(key), sorted(allowed), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            known = ", ".join(sorted(allowed))
            return SchemaError(f"unknown key {key!r}{hint} (allowed here: {known})", source.key_pos(path + (key,)))
    if e.validator == "required":
        return SchemaError(e.message.replace("is a required property", "is missing (required here)"),
                           source.key_pos(path) if path else source.pos(path))
    message = e.message
    if len(message) > 300:
        message = message[:300] + "..."
    where = "/".join(str(p) for p in path)
    if e.validator in ("type", "enum", "const", "pattern", "minimum", "maximum", "minItems", "maxItems"):
        message = f"{where}: {message}" if where else message
    return SchemaError(message, source.pos(path))
