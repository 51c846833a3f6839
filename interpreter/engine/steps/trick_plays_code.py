"""The code that lists a seat's legal plays in a ``tricks`` step, written for each step from its play obligations:
each rule read by its card tables written in place (as trick_parts.apply_rules reads them), the others worked out by
the step (``step._allowed``); identical cards offered once, and a play from several zones naming its zone.

``PlaysWriter.actions`` writes the lines that give ``actions`` (None: the seat is stuck) from ``hands`` (every seat's
cards of the first zone) or ``zones`` (of each zone, with several); trick_code.py places them in the checked
``actions`` and in the playout loop alike.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.state_shape import StateShape
from interpreter.engine.steps.tricks import Tricks
from interpreter.engine.steps.writer import Lines


def rule_tables(tag: str, rules: list[Any]) -> list[tuple[str, str]]:
        """For rules read by their card tables: the global naming each table's lookup (``FM0``: the first follow
        rule's must, ``FH0`` its holding), and the local its table is held in."""
        out = []
        for k, rule in enumerate(rules):
            out.append((f"{tag}M{k}", f"m{k}"))
            if rule.hold_table is not None:
                out.append((f"{tag}H{k}", f"h{k}"))
        return out


def rule_lookups(tag: str, rules: list[Any], shape: StateShape) -> dict[str, Any]:
    """The lookups of the tables of rules read by card tables, named as ``rule_tables`` names them (over a state
    held as ``shape`` says)."""
    out = {}
    for k, rule in enumerate(rules):
        if rule.static:
            out[f"{tag}M{k}"] = shape.table(rule.must_table).table
            if rule.hold_table is not None:
                out[f"{tag}H{k}"] = shape.table(rule.hold_table).table
    return out


class PlaysWriter:
    """Writes a seat's legal plays for one trick step (see the module's docstring)."""

    def __init__(self, step: Tricks):
        self.step = step
        self.one_zone = len(step.zones) == 1
        # no two cards alike: a seat's plays need no merging of identical cards (a list, not a dict)
        self.distinct = all(k == c for c, k in enumerate(step.kinds))
        # the follow rules' tables, fixed once a trick is led, kept for the trick: when every rule is read by its
        # tables, the led card is the first, and no step run between plays can change a round value they read
        follow = step.follow_rules
        self.cached_follow = bool(follow) and step.led is None and all(r.static for r in follow) and (
            not step.between or not any(t.fields for r in follow for t in (r.must_table, r.hold_table) if t))

    def actions(self, w: Lines) -> None:
        """``actions``: the plays of ``seat`` now (identical cards: the first of them), or None (stuck)."""
        step = self.step
        if not self.one_zone:  # the rules judge the cards of every zone; a play names its zone
            w("hand = [c for cards in zones for c in cards[seat]]")
            with w.block("if p.plays:"):
                self._choose(w, "F", step.follow_rules, "cands")
            with w.block("else:"):
                self._choose(w, "L", step.lead_rules, "cands")
            with w.block("if cands is None:"):
                w("actions = None")
            with w.block("else:"):
                self.zone_actions(w)
            return
        w("hand = hands[seat]")
        with w.block("if p.plays:"):
            self._choose(w, "F", step.follow_rules)
        with w.block("else:"):
            self._choose(w, "L", step.lead_rules)

    def zone_actions(self, w: Lines) -> None:
        """``actions``: the plays of the cards ``cands`` allows, zone by zone in the seat's own order, each naming
        its zone (identical cards: the first of each kind in each zone)."""
        w("ok = set(cands)")
        zones = range(len(self.step.zones))
        if self.distinct:
            w("actions = " + " + ".join(f"[PLAYS_Z[{z}][c] for c in zones[{z}][seat] if c in ok]" for z in zones))
            return
        w("actions = []")
        for z in zones:
            w("seen = set()")
            with w.block(f"for c in zones[{z}][seat]:"):
                with w.block("if c in ok and KINDS[c] not in seen:"):
                    w("seen.add(KINDS[c])", f"actions.append(PLAYS_Z[{z}][c])")

    def _choose(self, w: Lines, tag: str, rules: list[Any], target: str = "actions") -> None:
        """``actions`` from ``hand``, through ``rules`` (the follow rules, tag F, or the lead rules, tag L): each
        written in place when every one is read by its card tables (as trick_parts.apply_rules reads them),
        else worked out by the step. With ``target`` "cands", the cards the rules allow (None: stuck)."""
        plays = target == "actions"
        if not rules:
            w(f"actions = {self._plays('hand')}" if plays else "cands = hand")
            return
        if not all(rule.static for rule in rules):
            w("cands = step._allowed(state, p, seat, hand, FOLLOW, LEAD, led_of)")
            if plays:
                w(f"actions = None if cands is None else {self._plays('cands')}")
            return
        tables = rule_tables(tag, rules)
        if tag == "F" and self.cached_follow:
            w(f"{', '.join(local for _, local in tables)}, = p.answers")
        else:
            w("led = None" if tag == "L" else "led = p.plays[0][1]" if self.step.led is None
              else "led = led_of(state, p.plays)")
            for name, local in tables:
                w(f"{local} = {name}(state, led)")
        if plays and len(rules) == 1 and rules[0].hold_table is None and not rules[0].end:  # if you can: one pass
            w(f"actions = {self._plays('hand', 'm0[c]')} or {self._plays('hand')}")
            return
        w("cands = hand")
        for k, rule in enumerate(rules):
            if k:
                w("if cands is not None:")
                w.depth += 1
            if rule.hold_table is not None:  # the rule binds only a seat holding such a card
                w(f"if any(map(h{k}.__getitem__, cands)):")
                w.depth += 1
            w(f"allowed = [c for c in cands if m{k}[c]]")
            with w.block("if allowed:"):
                w("cands = allowed")
            if rule.end:
                with w.block("else:"):
                    w("cands = None")
            if rule.hold_table is not None:
                w.depth -= 1
        w.depth -= len(rules) - 1
        if plays:
            w(f"actions = None if cands is None else {self._plays('cands')}")

    def _plays(self, cards: str, test: str = "") -> str:
        """The source of the plays of ``cards`` (those for which ``test`` holds): identical cards merged, the
        first of each kind kept, unless the deck has no two alike."""
        where = f" if {test}" if test else ""
        if self.distinct:
            return f"[PLAYS[c] for c in {cards}{where}]"
        return f"list({{KINDS[c]: PLAYS[c] for c in {cards}{where}}}.values())"
