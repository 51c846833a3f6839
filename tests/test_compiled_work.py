"""The work the compiled backend's written code does, counted (never timed): a choice's options worked out once a
decision, and a function the templates write alike written once."""

from __future__ import annotations

from collections import Counter

import pytest

from interpreter.compiled.machine import Machine
from interpreter.compiled.module import source_of

from .compiled_games import lockstep_game
from .conftest import game_of


def test_a_choice_works_out_its_choices_once_a_decision():
    """Meinz at 4 (a discard, the "Meinz!" call between plays, the exchange after a trick): the choices of the seat
    asked, and its options, are worked out once when it is asked and kept; legal reads them (they were worked out
    again for legal)."""
    machine = Machine(game_of("meinz", 4))
    space = machine.module.legal.__globals__  # (the plain-Python module: its functions call each other through it)
    steps = [name[:-len("_choices")] for name in space if name.endswith("_choices")]
    assert len(steps) == 3, steps
    calls: Counter[str] = Counter()
    inside: list[str] = []  # the legal being asked

    def counted(name: str) -> None:
        original = space[name]

        def call(*args):
            calls[name] += 1
            if inside:
                calls[f"{name} for legal"] += 1
            if name.endswith("_legal"):
                inside.append(name)
            try:
                return original(*args)
            finally:
                if name.endswith("_legal"):
                    inside.pop()

        space[name] = call

    options = {step: [name for name in space if name.startswith(f"{step}_options")] for step in steps}
    for step in steps:
        for name in (f"{step}_choices", f"{step}_legal", *options[step]):
            counted(name)
    assert lockstep_game(machine, 4) > 0
    for step in steps:
        assert calls[f"{step}_legal"] > 0 and calls[f"{step}_choices for legal"] == 0, (step, calls)
        assert sum(calls[o] for o in options[step]) == calls[f"{step}_choices"], (step, calls)


def test_a_function_every_move_step_writes_alike_is_compiled_once():
    """Every move step of a game carries its cards by one function, its step's constants its arguments: written by
    each step, kept once in the module (module.source_of)."""
    machine = Machine(game_of("tichu", 4))
    moves = [s for s in machine.game.every_step() if s.kind == "move"]
    assert len(moves) > 3
    assert machine.source.count("def move_carried(") == 1
    assert machine.source.count("return move_carried(") == len(moves)


def test_functions_written_alike_are_kept_once_and_two_named_alike_refused():
    same = "def f(x):\n    return x + 1\n"
    source = source_of([], f"def a(x):\n    return f(x)\n\n{same}",
                       f"K = 5\n{same}\ndef b(x):\n    return f(x) * K\n")  # (a constant of the module between)
    assert source.count("def f(") == 1 and "def a(" in source and "def b(" in source
    space: dict = {}
    exec(source, space)
    assert space["b"](3) == 20
    with pytest.raises(AssertionError, match="two functions named 'f'"):
        source_of([], same, "def f(x):\n    return x + 2\n")


def test_every_choice_keeps_each_value_once_by_one_function():
    """Each choice's choices, each value once where it first stands: one function for all of them (and one for
    whether a value is among others), written by each choice, kept once."""
    machine = Machine(game_of("skat", 3))
    choices = machine.source.count("_choices(z, zn, v, l, ln, h, p, seat):")
    assert choices > 3
    assert machine.source.count("def choose_distinct(") == 1 and machine.source.count("def choose_holds(") == 1
    assert machine.source.count("return out_at, choose_distinct(out, n)") == choices
