"""The processes a test's agents left behind: found by a mark in their environment, whatever process group or
session they made for themselves (tests/test_own_agents.py, the fuzz kind agents)."""

from __future__ import annotations

import os


def marked(name: str, value: str) -> list[tuple[int, str]]:
    """The live processes (zombies not counted) whose environment holds ``name=value``, each with its command."""
    found = []
    needle = f"{name}={value}".encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
            with open(f"/proc/{entry}/environ", "rb") as f:
                if state == b"Z" or needle not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue
        found.append((int(entry), command[:200]))
    return found
