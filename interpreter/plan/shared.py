"""The schema definitions the sections and the step kinds share: expressions, conditions, names, plain data (an
option kind of a step maps to one of these or to a few keywords; a section's fragment refers to them by name)."""

from __future__ import annotations

from interpreter.plan.section import IDENTIFIER, JSON, NAME_RULE, STEP_NAME, STEP_NAME_RULE, names, ref


def definitions() -> JSON:
    return {**_expressions(), **_names_and_data()}


def _expressions() -> JSON:
    return {
        "identifier": {
            "description": f"A name usable in expressions: {NAME_RULE}.",
            "type": "string",
            "pattern": IDENTIFIER,
        },
        "expression": {
            "description": "An expression in the Trickbook expression language (DSL text), e.g. "
                           "\"card.colour == led.colour\", or a plain whole number or true/false.",
            "type": ["string", "integer", "boolean"],
            "minLength": 1,
        },
        "condition": {
            "description": "A yes/no expression (DSL text), or the constant true or false.",
            "type": ["string", "boolean"],
            "minLength": 1,
        },
        "number": {
            "description": "A whole-number expression (DSL text), or a whole-number constant.",
            "type": ["string", "integer"],
            "minLength": 1,
        },
        "seat": {
            "description": "An expression giving a seat (DSL text), e.g. left(round.dealer).",
            "type": "string",
            "minLength": 1,
        },
        "seats": {
            "description": "An expression giving a seat or a list of seats (DSL text), e.g. seats or round.start.",
            "type": "string",
            "minLength": 1,
        },
        "expression_or_data": {
            "description": "An expression (DSL text), a plain whole number or true/false, or a list written out "
                           "as YAML data: plain values (text, numbers, true/false, null), lists, or mappings such as "
                           "{label, value} or records {label, FIELD: value, ...}. The key's description says which "
                           "of these it takes; the compiler refuses the others.",
            "type": ["string", "integer", "boolean", "array"],
            "minLength": 1,
            "items": ref("data"),
        },
        "data": {
            "description": "A value written out as YAML: text, a whole number, true/false, null, a list of values "
                           "or a mapping of names to values.",
            "type": ["string", "integer", "boolean", "null", "array", "object"],
            "items": ref("data"),
            "propertyNames": names(f"a field name is a name usable in expressions: {NAME_RULE}"),
            "additionalProperties": ref("data"),
        },
        "constant": {
            "description": "A value known before play: plain data as written (text, a whole number, true/false, a "
                           "list or a mapping), or an expression (DSL text) over players, options and setup.",
            "type": ["string", "integer", "boolean", "array", "object"],
            "minLength": 1,
            "items": ref("data"),
            "propertyNames": names(f"a field name is a name usable in expressions: {NAME_RULE}"),
            "additionalProperties": ref("data"),
        },
    }


def _names_and_data() -> JSON:
    return {
        "zone_name": {
            "description": "The name of a zone declared under zones.",
            "type": "string",
            "minLength": 1,
        },
        "zone_names": {
            "description": "One zone name, or a list of zone names.",
            "type": ["string", "array"],
            "minLength": 1,
            "minItems": 1,
            "items": ref("zone_name"),
        },
        "ordering": {
            "description": "Expressions compared in order: the highest list of values wins.",
            "type": "array",
            "minItems": 1,
            "items": ref("expression", "One criterion: a number, text or true/false (true beats false)."),
        },
        "values": {
            "description": "Value name -> expression.",
            "type": "object",
            "propertyNames": names(f"a value name is a name usable in expressions: {NAME_RULE}"),
            "additionalProperties": ref("expression"),
        },
        "steps": {
            "description": "Step name -> step: steps run in order, each a mapping with do: KIND and the keys of "
                           "that kind.",
            "type": "object",
            "propertyNames": names(STEP_NAME_RULE, STEP_NAME),
            "additionalProperties": ref("step"),
        },
        "scalar": {
            "description": "A plain value: text, a whole number or true/false.",
            "type": ["string", "integer", "boolean"],
        },
    }
