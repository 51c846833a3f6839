"""The code that lists a seat's legal plays in a ``tricks`` step, written for each step from its play obligations,
each rule in place, in order, as trick_parts.narrowing applies them: a rule read by its card tables through them, any
other by its judged functions (its ``select``, and its holding's ``exists``) over one environment of the seat, the
led card and the trick; identical cards offered once, and a play from several zones naming its zone.

``PlaysWriter.actions`` writes the lines that give ``actions`` (None: the seat is stuck) from ``hands`` (every seat's
cards of the first zone) or ``zones`` (of each zone, with several); trick_code.py places them in the checked
``actions`` and in the playout loop alike. The checked path's are the step's play actions; the playout loop of a
trick played from one zone holds the cards they play instead (``as_cards``: the card of each play, in the same
order), the cheapest list to make: where a card is its kind, the hand's kinds once each, in their order (a hand held
by count, runtime/counted.py: its kinds list itself, or those of it the follow table allows, with no merging).
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.state_shape import StateShape
from interpreter.engine.steps.tricks import Tricks
from interpreter.engine.steps.writer import Lines


def rule_tables(tag: str, rules: list[Any]) -> list[tuple[str, str, Any]]:
        """For rules read by their card tables: the global naming each table's lookup (``FM0``: the first follow
        rule's must, ``FH0`` its holding), the local its table is held in, and the table."""
        out = []
        for k, rule in enumerate(rules):
            if not rule.static:
                continue
            out.append((f"{tag}M{k}", f"m{k}", rule.must_table))
            if rule.hold_table is not None:
                out.append((f"{tag}H{k}", f"h{k}", rule.hold_table))
        return out


def rule_lookups(tag: str, rules: list[Any], shape: StateShape) -> dict[str, Any]:
    """The lookups of the tables of rules read by card tables, named as ``rule_tables`` names them (over a state
    held as ``shape`` says), with what ``look_up`` reads of each; for the other rules, their judged functions
    (``FS0``: the first follow rule's ``select``, ``FX0`` its holding's ``exists``), written for ``shape``."""
    out = {}
    for k, rule in enumerate(rules):
        if rule.static:
            for name, table in ((f"{tag}M{k}", rule.must_table), (f"{tag}H{k}", rule.hold_table)):
                if table is not None:
                    out.update(lookup_globals(name, shape.table(table)))
        else:
            written = rule.written_for(shape)
            out[f"{tag}S{k}"] = written.select
            if written.exists is not None:
                out[f"{tag}X{k}"] = written.exists
    return out


def lookup_globals(name: str, table: Any) -> dict[str, Any]:
    """What the code ``look_up`` writes for the card table ``table`` refers to: its lookup (``name``), the tables it
    has made (``name_T``) and the class of each led card (``name_K``)."""
    return {name: table.table, f"{name}_T": table.made, f"{name}_K": table.led_classes}


def look_up(w: Lines, target: str, name: str, table: Any, led: str, shape: StateShape) -> None:
    """``target``: the card table named ``name`` (see ``lookup_globals``) for the led card ``led`` (never None):
    looked up in place among the tables it has made, by the round values it reads (read as ``shape`` says) and the
    led card's class, as its ``table`` keys them; made by the lookup when it is not there yet."""
    if table.fields is None:  # (not a table: worked out each time)
        w(f"{target} = {name}(state, {led})")
        return
    if not table.fields:
        w(f"{target} = {name}_T.get({name}_K[{led}])")
    else:
        values = [shape.round("state", f) for f in table.fields]
        read = values[0] if len(values) == 1 else f"({', '.join(values)})"
        with w.block("try:"):
            w(f"{target} = {name}_T.get(({read}, {name}_K[{led}]))")
        with w.block("except TypeError:"):  # a round value that is no key (a record): the lookup makes one
            w(f"{target} = None")
    with w.block(f"if {target} is None:"):
        w(f"{target} = {name}(state, {led})")


class PlaysWriter:
    """Writes a seat's legal plays for one trick step (see the module's docstring)."""

    def __init__(self, step: Tricks, shape: StateShape):
        self.step = step
        self.shape = shape
        self.one_zone = len(step.zones) == 1
        # where the trick's plays and the follow tables of this trick are read (locals in the playout loop)
        self.trick, self.answers = "p.plays", "p.answers"
        # the plays written are the cards they play, not the step's play actions (the playout loop of a trick from
        # one zone, where a play is its card: see trick_loop_code.py)
        self.as_cards = False
        # no two cards alike: a seat's plays need no merging of identical cards (a list, not a dict)
        self.distinct = all(k == c for c, k in enumerate(step.kinds))
        # the seat's cards held as their kinds once each with a count per kind (runtime/counted.py): the plays are
        # made from its kinds, which need no merging either
        self.counted = self.one_zone and step.zones[0] in shape.counted
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
            with w.block(f"if {self.trick}:"):
                self._choose(w, "F", step.follow_rules, "cands")
            with w.block("else:"):
                self._choose(w, "L", step.lead_rules, "cands")
            with w.block("if cands is None:"):
                w("actions = None")
            with w.block("else:"):
                self.zone_actions(w)
            return
        w("hand = hands[seat]")
        if self.counted:
            w("held = hand.kinds")
        with w.block(f"if {self.trick}:"):
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
        """``actions`` from ``hand``, through ``rules`` (the follow rules, tag F, or the lead rules, tag L), each
        written in place as trick_parts.narrowing applies it (see the module's docstring). With ``target``
        "cands", the cards the rules allow (None: stuck)."""
        plays = target == "actions"
        hand = "held" if self.counted else "hand"  # the seat's cards, or its kinds (held by count)
        if not rules:
            w(f"actions = {self._plays(hand)}" if plays else f"cands = {hand}")
            return
        tables = rule_tables(tag, rules)
        if tag == "F" and self.cached_follow:
            w(f"{', '.join(local for _, local, _ in tables)}, = {self.answers}")
        else:
            w("led = None" if tag == "L" else f"led = {self.trick}[0][1]" if self.step.led is None
              else f"led = led_of(state, {self.trick})")
            for name, local, table in tables:
                if tag == "L" or self.step.led is not None:  # (no card led, or a led rule's card: may be none)
                    w(f"{local} = {name}(state, led)")
                else:
                    look_up(w, local, name, table, "led", self.shape)
        if plays and len(rules) == 1 and rules[0].static and rules[0].hold_table is None and not rules[0].end:
            w(f"actions = {self._plays(hand, 'm0[c]')} or {self._plays(hand)}")  # if you can: one pass
            return
        w(f"cands = {hand}")
        judged = False  # the judged rules' environment made (by the first of them: the rules after it see it)
        nested = 0
        for k, rule in enumerate(rules):
            if any(r.end for r in rules[:k]):  # (only a rule with otherwise: end leaves the seat stuck)
                w("if cands is not None:")
                w.depth += 1
                nested += 1
            held = rule.hold_table is not None if rule.static else rule.exists is not None
            if not rule.static and not judged:  # one environment, one batch of the parts read once, for them all
                judged = True
                trick = self.trick
                w(f"env = {{'$s': state, 'seat': seat, 'led': led, 'trick': [c for _, c in {trick}], "
                  f"'trick_seats': [s for s, _ in {trick}], '$batch': object()}}")
            if held:  # the rule binds only a seat holding such a card
                w(f"if any(map(h{k}.__getitem__, cands)):" if rule.static else f"if {tag}X{k}(env, cands):")
                w.depth += 1
            w(f"allowed = [c for c in cands if m{k}[c]]" if rule.static else f"allowed = {tag}S{k}(env, cands)")
            with w.block("if allowed:"):
                w("cands = allowed")
            if rule.end:
                with w.block("else:"):
                    w("cands = None")
            if held:
                w.depth -= 1
        w.depth -= nested
        if plays:
            w(f"actions = None if cands is None else {self._plays('cands')}")

    def _plays(self, cards: str, test: str = "") -> str:
        """The source of the plays of ``cards`` (those for which ``test`` holds): identical cards merged, where the
        first of each kind stands, unless the deck has no two alike; with ``as_cards``, the card each plays (of
        identical cards the one its play names: today, the last of them; where a card is its kind, the kind)."""
        where = f" if {test}" if test else ""
        distinct = self.distinct or self.counted  # (a seat's kinds held by count are its cards once each)
        if not self.as_cards:
            if distinct:
                return f"[PLAYS[c] for c in {cards}{where}]"
            if self.shape.kinds and not test:  # (the kinds once each, made in C)
                return f"[PLAYS[c] for c in dict.fromkeys({cards})]"
            return f"list({{KINDS[c]: PLAYS[c] for c in {cards}{where}}}.values())"
        if distinct:  # (the list only drawn from before a card of it is taken: the cards themselves serve)
            return f"[c for c in {cards}{where}]" if test else cards
        if self.shape.kinds:
            return f"list({{c: None for c in {cards}{where}}})" if test else f"list(dict.fromkeys({cards}))"
        return f"list({{KINDS[c]: c for c in {cards}{where}}}.values())"
