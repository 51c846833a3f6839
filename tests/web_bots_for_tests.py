"""What a bot's worker process does in tests/test_web_faults.py: dies, or hangs, for a table asking for one of the
iterations below, else decides as the server's own workers do (interpreter.web.bots.decide). A worker process
imports this module by its name, so it lives in a module of its own."""

from __future__ import annotations

import os
import time
from typing import Any

from interpreter.web.bots import decide

DIES = 13  # iterations that make the worker process end at once
HANGS = 14  # iterations that make it wait for ever


def faulty(job: dict[str, Any]) -> dict[str, Any]:
    if job["iterations"] == DIES:
        os._exit(3)
    if job["iterations"] == HANGS:
        time.sleep(3600)
    return decide(job)
