"""The code written for steps other than tricks (choose_code.py, board_code.py, repeat_code.py, steps_code.py) and
the one module of a game (module.py): each fragment written once and placed where it runs, only the parts a step
has, every list of steps entered by written code."""

from __future__ import annotations

import textwrap

from interpreter.engine.module import written_part
from interpreter.engine.steps.writer import functions

from .conftest import game_of
from .test_steps import DEAL_3, TRICKS, make
from .test_trick_code import _functions


def _stripped(text: str) -> str:
    return "\n".join(line.strip() for line in text.splitlines())


def test_a_choice_s_loop_runs_the_very_code_of_its_decision():
    """Written once, placed twice: the playout loop of a choose step holds the body of ``decision`` (what is
    done once the decision is found aside: the checked path returns it, the loop calls the policy)."""
    seen = 0
    for name in ("njet-riogrande", "mue", "oh-hell", "spades"):
        game = game_of(name, 4)
        for step in game.every_step():
            if step.kind != "choose":
                continue
            bodies = _functions(game.module().source_of(step))
            decision = _stripped(bodies["decision"]).split("\nreturn Decision(")[0]
            assert decision in _stripped(bodies["run"]), (name, step.name)
            seen += 1
    assert seen >= 8


def test_a_choice_s_code_has_only_the_parts_it_has(tmp_path):
    plain = make(tmp_path, DEAL_3, 'pick: {do: choose, options: "[1, 2]", set: picked}', TRICKS)
    source = plain.module().source_of(plain.steps[1])
    for absent in ("Pass", "Stop", "until", "per_seat", "seen.cards", "_choices_of", "STEP._swap", "may_pass"):
        assert absent not in source, absent
    assert "STEP._fixed or STEP._fix(state, options)" in source  # the same choices every time: made once
    rich = make(tmp_path, DEAL_3, 'lay: {do: choose, options: seat.hand, pass: keep, move_to: out, '
                'until: "len(out) > 1", allowed: "value != first(seat.hand)"}', TRICKS, zones="out: {visible: all}")
    source = rich.module().source_of(rich.steps[1])
    for present in ("if cls is Pass:", "done = ", "state.shared['out'].append(value)", "seen.cards.extend",
                    ".select(env, options)"):
        assert present in source, present


def test_every_list_of_steps_is_entered_by_written_code():
    """The round's steps, a repeat's and a trick's hooks: each list entered by code written for it, each step's
    when in place, a set step's values worked out in place (no method of the step called)."""
    was_sticht = game_of("was-sticht", 4)
    source = was_sticht.module().source
    for function in ("enter_ROUND", "enter_INNER", "advance_INNER", "enter_AFTER", "run_AFTER"):
        assert f"def {function}(" in source, function
    inner = _functions(textwrap.dedent("\n".join(line for line in source.splitlines()
                                              if line.startswith("    "))))["enter_INNER"]
    assert "INNER_3.start(" not in inner and "state.vars['would_win'] = value" in inner  # hint: a set step


def test_a_game_is_one_module_and_its_steps_play_by_its_functions():
    game = game_of("meinz", 4)
    module = game.module()
    parts = [line for line in module.source.splitlines() if line.startswith("def _part")]
    written = [s for s in game.every_step() if written_part(s, game, game._gen) is not None]
    assert len(parts) == len(written) + 1  # each written step, and the round
    for step in written:
        code = step.code(game)
        made = code if callable(code) else code[0]
        assert made.__code__.co_filename == "<trickbook>" and made.__qualname__.startswith("_part")
        assert set(functions(module.source_of(step))) >= {made.__name__}
