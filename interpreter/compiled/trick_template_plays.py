"""The legal actions of a ``tricks`` step written for the compiled backend (trick_template.py): the seat's plays,
each rule of its obligations applied in order as trick_parts.narrowing applies them, or the cards of the trick a
taker may choose (the kinds once each, in the trick's order).

A seat's plays: the kinds of its cards once each, where each first stands in its zones taken in order (a mark per
kind in the progress, cleared again: no pass over the list per card; no marks where every card of the deck is a kind
of its own, so that no kind is held twice), narrowed by the rules (one test of a rule
per card); then, played from one zone, those kinds; from several, for each zone in turn the kinds the rules left
that it holds, once per zone, each as its play (its kind plus the zone's index times the deck's size).
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS
from interpreter.compiled.trick_progress import PLAYED, TAKING, TURN

# the names a card's rules and strengths read (trick_parts.CARD_NAMES), each as the local the written code holds it in
CARD_RULE_NAMES = {"card": "c", "led": "led", "seat": "s", "trick": "trick", "trick_seats": "trick_seats"}


def seats(t: Any) -> str:
    """Who played the cards of the trick step ``t``'s trick so far, in playing order: the ``trick_seats`` its
    expressions read."""
    return t.span(t.regions.seats, t.at(PLAYED))


def write(t: Any) -> list[str]:
    """``NAME_legal`` of the trick step ``t`` writes (trick_template.TrickWriter)."""
    marks = t.base + t.regions.marks
    lines = [f"def {t.name}_legal({ARRAYS}, p, out):"]
    if t.hooks.deciding:  # a step the trick runs decides (trick_template_hooks.py)
        lines += [f"    if {t.hooks.at} >= 0:", f"        return {t.name}_hook_legal({ARRAYS}, p, out)"]
    if not t.sole:  # a taker chooses a card of the trick
        lines += [f"    if {t.at(TAKING)} >= 0:",
                  *("    " + line for line in _once(t, [f"{t.trick}"], marks)), "        return n"]
    lines += [f"    seat = {t.at(TURN)}",
              *_once(t, [f"{row} + seat" for row in t.rows], marks),
              f"    led = {t.name}_led({ARRAYS}, p)",
              f"    trick = {t.cards()}",
              f"    trick_seats = {seats(t)}"]
    names = {**CARD_RULE_NAMES, "seat": "seat"}
    lead = [line for rule in t.step.lead_rules for line in _rule(t, rule, names)]
    follow = [line for rule in t.step.follow_rules for line in _rule(t, rule, names)]
    if lead:
        lines += [f"    if {t.at(PLAYED)} == 0:", *("    " + b for b in lead)]
    if follow:
        lines += ["    else:" if lead else f"    if {t.at(PLAYED)} != 0:", *("    " + b for b in follow)]
    if len(t.rows) > 1:
        lines += _by_zone(t, marks)
    return [*lines, "    return n", ""]


def _once(t: Any, rows: list[str], marks: int) -> list[str]:
    """``out[:n]``: the kinds of the zones' ``rows`` once each, in their order (the marks set and cleared; none
    where no two cards of the deck are of one kind)."""
    lines = ["    n = 0"]
    if max(t.lay.layout.copies, default=0) <= 1:
        for row in rows:
            lines += [f"    for i in range(zn[{row}]):", f"        out[n] = z[{row}, i]", "        n += 1"]
        return lines
    for row in rows:
        lines += [f"    for i in range(zn[{row}]):",
                  f"        c = z[{row}, i]",
                  f"        if p[{marks} + c] == 0:",
                  f"            p[{marks} + c] = 1",
                  "            out[n] = c",
                  "            n += 1"]
    return [*lines, "    for i in range(n):", f"        p[{marks} + out[i]] = 0"]


def _rule(t: Any, rule: Any, names: dict[str, str]) -> list[str]:
    """One obligation narrowing ``out[:n]``: the cards its ``must`` allows, if any (else, with ``otherwise: end``,
    -1: the seat is stuck); bound only when the seat holds a ``holding`` card among them."""
    must = t.call(rule.must, names, "must")
    lines = []
    pad = ""
    if rule.holding is not None:
        holding = t.call(rule.holding, names, "holding")
        lines += ["    binds = 0",
                  "    for i in range(n):",
                  "        c = out[i]",
                  f"        if truth({holding}):",
                  "            binds = 1",
                  "            break",
                  "    if binds == 1:"]
        pad = "    "
    lines += [f"{pad}    m = 0",  # (the cards kept written over those looked at: none written while m is 0)
              f"{pad}    for i in range(n):",
              f"{pad}        c = out[i]",
              f"{pad}        if truth({must}):",
              f"{pad}            out[m] = c",
              f"{pad}            m += 1",
              f"{pad}    if m > 0:",
              f"{pad}        n = m"]
    if rule.end:
        lines += [f"{pad}    else:", f"{pad}        return -1"]
    return lines


def _by_zone(t: Any, marks: int) -> list[str]:
    """The kinds ``out[:n]`` the rules left, as the plays from each zone that holds them (once per zone): a kind's
    mark is 1 while allowed, 2 + the zone's index once played from that zone."""
    lines = ["    for i in range(n):",
             f"        p[{marks} + out[i]] = 1",
             "    n = 0"]
    for zone, row in enumerate(t.rows):
        lines += [f"    for i in range(zn[{row} + seat]):",
                  f"        c = z[{row} + seat, i]",
                  f"        if p[{marks} + c] != 0 and p[{marks} + c] != {zone + 2}:",
                  f"            p[{marks} + c] = {zone + 2}",
                  f"            out[n] = c + {zone * t.deck}",
                  "            n += 1"]
    return [*lines, "    for i in range(n):", f"        p[{marks} + out[i] % {t.deck}] = 0"]
