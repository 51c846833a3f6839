"""Step kinds: the explicit registry of what a round can be made of."""

from interpreter.engine.steps import choose_teams, deal, score, select_cards, tricks, veto_board  # noqa: F401
from interpreter.engine.steps.base import REGISTRY, Decision, Step, StepContext

__all__ = ["REGISTRY", "Decision", "Step", "StepContext"]
