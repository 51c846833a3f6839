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

    @property
    def defines(self) -> Defines:
        """Where what the writer makes of the defines' bodies for these reads is kept."""
        return ON_THE_DEFINES


class Defines:
    """What the writer made of each define's body, and each define's memo, for one kind of reads: today's kept on the
    defines themselves (a subclass keeps those of other reads apart)."""

    def made(self, body: Any) -> Any:
        """What the writer made of a define's body (see emit._define_functions), or None."""
        return body.made

    def keep(self, body: Any, made: Any) -> None:
        body.made = made

    def memo(self, define: Any, sig: Any) -> list[Any]:
        """The memo of a define's values within a batch, for one kind of arguments (shared by every call site)."""
        memo: list[Any] = define.memos.setdefault(sig, [None, {}])
        return memo


class KeptApart(Defines):
    """What the writer made of the defines for reads other than today's, kept here (holding the defines)."""

    def __init__(self) -> None:
        self._made: dict[int, tuple[Any, Any]] = {}  # id of a define's body -> (the body, what was made of it)
        self._memos: dict[tuple[int, Any], tuple[Any, list[Any]]] = {}  # (id of a define, kinds) -> (it, memo)

    def made(self, body: Any) -> Any:
        kept = self._made.get(id(body))
        return None if kept is None else kept[1]

    def keep(self, body: Any, made: Any) -> None:
        self._made[id(body)] = (body, made)

    def memo(self, define: Any, sig: Any) -> list[Any]:
        return self._memos.setdefault((id(define), sig), (define, [None, {}]))[1]


ON_THE_DEFINES = Defines()
STATE_READS = Reads()
