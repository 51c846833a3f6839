"""The keyword table: one entry per top-level section of a rule file, in the order the schema lists them.

interpreter/schema_gen.py writes the schema's top level, the sections' definitions and the sections table of
docs/rule-files.md from it; interpreter/engine/compile.py reads every section through its reader and its checks
(:func:`read`); interpreter/explain.py tells each section in its words."""

from __future__ import annotations

from interpreter.plan import combinations, deck, define, game, head, options, players, round, status, types, zones
from interpreter.plan import templates as step_templates
from interpreter.plan.section import Plan, Section, raise_all
from interpreter.rules.source import RuleSource

SECTIONS: dict[str, Section] = {s.key: s for s in (
    *head.SECTIONS, options.SECTION, deck.SECTION, players.SECTION, zones.SECTION, define.SECTION, types.SECTION,
    status.SECTION, combinations.SECTION, game.SECTION, step_templates.SECTION, round.SECTION)}


def read(source: RuleSource) -> Plan:
    """Every section of the (schema-checked) rule file read into its piece, and checked: raises every mistake the
    sections' checks find (a RuleError, or RuleErrors for several), in file order."""
    plan = Plan(source, {key: section.read(source) for key, section in SECTIONS.items()})
    raise_all(error for key, section in SECTIONS.items() for error in section.checks(plan[key], plan))
    return plan

