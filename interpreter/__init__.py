"""Trickbook: trick-taking card games written as data, run by one generic interpreter.

The public Python API (docs/api.md): ``load``, ``TrickGame``, ``GameState``, ``ActionInfo``, ``CHANCE``,
``load_serialized``, the rule files before a game is loaded (``games``, ``about``, ``check``, ``RuleFile``), the
built-in agents by name (``agents``) and the errors ``TrickbookError`` and ``IllegalAction``. They are imported
when first used, so the command line starts without them.
"""

from typing import Any

__version__ = "0.1.0"

_API = ("load", "load_serialized", "TrickGame", "GameState", "ActionInfo", "CHANCE", "games", "about", "check",
        "RuleFile", "agents")
_ERRORS = ("TrickbookError", "IllegalAction", "GameError", "RecordError")
__all__ = [*_API, *_ERRORS]


def __getattr__(name: str) -> Any:
    if name in _API:
        from interpreter import api

        return getattr(api, name)
    if name in _ERRORS:
        from interpreter import errors

        return getattr(errors, name)
    raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
