"""The ``templates`` section: steps written once with parameters, used by several steps (``use:``). The loader
puts each use's arguments into its template's step before anything else reads the file
(interpreter/rules/templates.py), so this section is only the schema an editor checks a file against."""

from __future__ import annotations

from interpreter.plan.section import JSON, STEP_NAME, STEP_NAME_RULE, Section, names


def _schema() -> JSON:
    return {
        "description": "Steps written once and used by several steps of the round: each template is a step (do: "
                       "and its keys) whose text may name its parameters as $name ($$ is a dollar sign), with "
                       "parameters: naming them. A step that says use: TEMPLATE is that step with the use's "
                       "arguments put in; its other keys are merged over it as a variant's are.",
        "type": "object",
        "propertyNames": names(STEP_NAME_RULE, STEP_NAME),
        "additionalProperties": {
            "description": "A template: a step (do: and its keys) with parameters: naming its parameters.",
            "type": "object",
            "required": ["do"],
            "properties": {
                "parameters": {
                    "description": "The template's parameters: each name (written $name in the step), then what "
                                   "it is.",
                    "type": "object",
                    "propertyNames": names("A parameter's name: a letter or _, then letters, digits or _.",
                                           "^[A-Za-z_][A-Za-z0-9_]*$"),
                    "additionalProperties": {"type": "string"},
                },
            },
        },
    }


SECTION = Section("templates", _schema)
