"""Step kinds: the explicit registry of what a round (or a trick's hooks) can be made of."""

from interpreter.engine.steps import board, choose, climb, deal, move, repeat, reveal, score, teams, tricks, values  # noqa: F401
from interpreter.engine.steps.base import REGISTRY, Step
from interpreter.engine.steps.context import StepContext

__all__ = ["REGISTRY", "Step", "StepContext"]
