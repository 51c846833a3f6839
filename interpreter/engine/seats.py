"""A seat of a compiled game: its name, its role, and for an automatic seat the policy it decides by."""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.dsl.compiler import Compiled


@dataclass(frozen=True)
class SeatSpec:
    """A seat: its name, its role, and for an automatic seat the policy of each step (step name -> expression)."""

    name: str
    role: str = "player"
    policy: dict[str, Compiled] | None = None  # None: a person or a bot decides
    where: str = ""  # where the seat is declared, for errors

    @property
    def automatic(self) -> bool:
        return self.policy is not None
