"""The code written for a trick step (engine/steps/trick_code.py): one source for the checked path and playouts,
with only the parts the trick has."""

from __future__ import annotations

import textwrap

from interpreter.engine.steps.trick_code import TrickWriter

from .conftest import game_of
from .test_playout import TRICK_VARIANTS
from .test_steps import DEAL_3, TRICKS, make


def _functions(source: str) -> dict[str, str]:
    """Each written function's body, dedented, by name."""
    out: dict[str, list[str]] = {}
    name = ""
    for line in source.splitlines():
        if line.startswith("def "):
            name = line[4:line.index("(")]
            out[name] = []
        else:
            out[name].append(line)
    return {k: textwrap.dedent("\n".join(v)) for k, v in out.items()}


def test_the_playout_loop_runs_the_very_code_of_play_and_actions():
    """Written once, placed twice: the loop holds the bodies of ``play`` and of ``actions`` line for line."""
    for name in ("njet-riogrande", "hearts", "mit-list-und-tuecke", "meinz"):
        step = next(s for s in game_of(name, 4).steps if s.kind == "tricks")
        functions = _functions(step.code(game_of(name, 4)).source)
        loop = "\n".join(line.strip() for line in functions["playout"].splitlines())
        for part in ("play", "actions"):
            body = [line.strip() for line in functions[part].splitlines() if line.strip() != "return actions"]
            assert "\n".join(body) in loop, (name, part)


def test_a_trick_s_code_has_only_the_parts_it_has(tmp_path):
    plain = make(tmp_path, DEAL_3, TRICKS).steps[1]
    source = TrickWriter(plain, 4).source()
    for absent in ("enter(", "ROUTES", "WON_BY", "ZONES[zone]", "p.active", "step._allowed", "step._shares",
                   "PER_TRICK", "step._led", "ORDERING.best(state, plays, led, CAN_WIN)"):
        assert absent not in source, absent
    claim = make(tmp_path, DEAL_3, TRICKS + "  " + "\n  ".join(
        [TRICK_VARIANTS["claim"], TRICK_VARIANTS["route"], TRICK_VARIANTS["between plays"]]) + "\n",
        zones="out: {visible: all}").steps[1]
    source = TrickWriter(claim, 4).source()
    for present in ("enter(state.game, state, BETWEEN)", "route_cards(state, ROUTES", "WON_BY({'$s': state})"):
        assert present in source, present
