"""A compiled game's code: one Python module, written from the rule file once it is compiled.

Every step kind whose play is written (engine/steps/*_code.py) and the round (round_code.py) give their part: the
source of their functions and the values that source names (the step, its compiled parts, the engine's
helpers). The module holds each part in a function of its own that takes those values and gives back the part's
functions (closures over them), so two steps of one kind never share a name; the expressions written in place
refer to the helpers of the game's expressions, the module's globals (dsl/codegen.py's namespace). The module's
code object is kept with the expressions' code, in the user's cache folder, under the rule file's identity, the
player count and the options; a game compiled for validating only (``compile_game(generate=False)``) writes its
module when something first plays it.

``Module.source`` is the whole text, for reading what a rule file became (``trickbook`` does not show it; a
curious designer may print it, docs/architecture.md says how). No test reads it: the tests check what the code
does, so that the writers may change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from interpreter.dsl.codegen import Namespace, run_block
from interpreter.engine.game_view import GameView
from interpreter.engine.round_code import WrittenGame
from interpreter.engine.round_code import part as round_part
from interpreter.engine.state_shape import STATE_SHAPE, StateShape
from interpreter.engine.steps import board_code, choose_code, deal_code, repeat_code, trick_code
from interpreter.engine.steps.base import Step
from interpreter.engine.steps.board import Board
from interpreter.engine.steps.choose import Choose
from interpreter.engine.steps.deal_reading import DealReading
from interpreter.engine.steps.repeat import Repeat
from interpreter.engine.steps.steps_code import InPlace, standalone
from interpreter.engine.steps.tricks import Tricks
from interpreter.engine.steps.writer import BUILTINS, Part, functions, prune

# the writer of each step kind whose play is written (by the kind's class, or a class its kinds derive from): it
# gives the step's part of the module. The writers read the steps; a step kind knows nothing of its writer.
WRITERS: dict[type[Step], Callable[[Any, GameView, Namespace, StateShape], Part]] = {  # Any: the key's own class
    Board: board_code.part,
    Choose: choose_code.part,
    DealReading: deal_code.part,
    Repeat: repeat_code.part,
    Tricks: trick_code.part,
    InPlace: standalone,
}


def written_part(step: Step, game: GameView, gen: Namespace, shape: StateShape = STATE_SHAPE) -> Part | None:
    """What ``step`` writes into the game's module (its kind's writer's part), or None: it plays by its methods.
    ``shape``: how the state its code runs on is held (engine/state_shape.py)."""
    for cls in type(step).__mro__:
        writer = WRITERS.get(cls)
        if writer is not None:
            return writer(step, game, gen, shape)
    return None


class Built(NamedTuple):
    """Parts written into one module: its source, and each part's code (its ``build`` of its functions)."""

    source: str
    codes: list[Any]


def built_parts(parts: list[Part], gen: Namespace, keep: bool) -> Built:
    """One module of ``parts``: each part's source in a function of its own taking the part's globals and giving
    back its functions (so that two parts never share a name), run in the namespace of the game's expressions
    (``gen``; its code kept with theirs when ``keep``)."""
    lines: list[str] = []
    for i, p in enumerate(parts):
        lines.append(f"def _part{i}({', '.join(sorted(p.globals))}):")
        lines.extend("    " + line for line in p.source.splitlines())
        lines.append(f"    return {{{', '.join(f'{n!r}: {n}' for n in functions(p.source))}}}")
    source = "\n".join(lines) + "\n"
    namespace = run_block(source, {**gen.ns, "__builtins__": BUILTINS}, gen if keep else None)
    return Built(source, [p.build(namespace[f"_part{i}"](**p.globals)) for i, p in enumerate(parts)])


class Module:
    """The written code of one compiled game: each step's, by the step, and the round's (over a state held as
    ``shape`` says; NotImplementedError: a part of the game not written through a shape yet)."""

    def __init__(self, game: WrittenGame, gen: Namespace, keep: bool, shape: StateShape = STATE_SHAPE):
        owners: list[Any] = []
        parts: list[Part] = []
        for step in game.every_step():
            made = written_part(step, game, gen, shape)
            if made is not None:
                owners.append(step)
                parts.append(made._replace(source=prune(made.source)))
        owners.append(game)
        made = round_part(game, gen, shape)
        parts.append(made._replace(source=prune(made.source)))
        built = built_parts(parts, gen, keep)
        self.source = built.source
        self._codes = {id(owner): code for owner, code in zip(owners, built.codes)}
        self._sources = {id(owner): p.source for owner, p in zip(owners, parts)}
        self._owners = owners  # the keys stay the ids of live objects

    def code(self, owner: Any) -> Any:
        """The code of ``owner`` (a step, or the game for its round)."""
        return self._codes[id(owner)]

    def has(self, owner: Any) -> bool:
        """Whether ``owner`` has written code here (a step of a kind that plays by its methods has none)."""
        return id(owner) in self._codes

    def source_of(self, owner: Any) -> str:
        """The source of ``owner``'s part, as its writer wrote it (before the module held it in a function)."""
        return self._sources[id(owner)]
