"""Where written code reads the state: the five places the expression writer (emit.py) shows how a state is held.

An expression reads the state in five ways only: a shared zone (``trick``), a round value (``round.trump``), a
game value (``game.leader``), a seat's attribute (``seat.hand``, ``seat.tricks``, ``seat.total``) and the
builtins that take the state (``team()``, ``same_team()``, ``left()``...: they ask the state object itself). A
``Reads`` says how the first four are written for one way of holding a state; the builtins ask whichever state
they are given, so a state held another way answers the same questions (see runtime/slots.py).

``STATE_READS`` is today's: the engine's ``State`` (engine/state.py), its containers read by name. A compact
layout's reads (runtime/compact_reads.py) read numbered slots instead; the expression writer takes either, and the
same checked tree gives the same values over both (tests/test_compact_reads.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Getter = Callable[[Any, Any], Any]  # (state, seat) -> the attribute's value
Source = Callable[[str, str, Callable[[Any], str]], str]  # (state source, seat source, ref) -> the source reading it


class Reads:
    """How written code reads a state held one way: today's ``State`` (this class), or another (a subclass)."""

    # the source of a simple read of a round value, which the writer may repeat rather than keep in a local
    simple = r"(?:state|e\['\$s'\])\.vars\['[A-Za-z_]\w*'\]"

    def zone(self, state: str, name: str) -> str:
        """The source of a shared zone's cards; ``state``: the source of the state."""
        return f"{state}.shared[{name!r}]"

    def round(self, state: str, name: str) -> str:
        """The source of a round value."""
        return f"{state}.vars[{name!r}]"

    def game(self, state: str, name: str) -> str:
        """The source of a game value."""
        return f"{state}.game_vars[{name!r}]"

    def seat(self, name: str, getter: Getter, source: Source) -> tuple[Getter, Source]:
        """A seat attribute that reads the state (a seat's zone, counter, value or total): its getter and the
        source that reads it, given today's (those the game declares its seat attributes with)."""
        return getter, source

    def define(self, body: Any) -> Any:
        """What the writer made of a define's body for these reads (see emit._define_functions), or None."""
        return body.made

    def keep_define(self, body: Any, made: Any) -> None:
        """Keep what the writer made of a define's body for these reads."""
        body.made = made

    def define_memo(self, define: Any, sig: Any) -> list[Any]:
        """The memo of a define's values within a batch, for one kind of arguments (shared by every call site)."""
        memo: list[Any] = define.memos.setdefault(sig, [None, {}])
        return memo


STATE_READS = Reads()
