"""Players: anything that picks one of the legal actions from a :class:`Turn`.

Agents see a turn, never the state: the legal actions with their labels and
the seat's observation (what the rules let that seat see).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from interpreter.engine.game import Game
from interpreter.engine.knowledge import Knowledge, determinize
from interpreter.engine.observation import observe
from interpreter.engine.state import State
from interpreter.errors import GameError
from interpreter.limits import whole_number


class Turn:
    """One decision for one seat: legal actions, labels and observation, computed on demand."""

    __slots__ = ("_game", "_state", "seat", "legal", "prompt", "kind", "_labels", "_knowledge")

    def __init__(self, game: Game, state: State, seat: int, legal: list[Any], prompt: str,
                 knowledge: Knowledge | None = None, kind: str = "choose"):
        self._game, self._state = game, state
        self.seat, self.legal, self.prompt = seat, legal, prompt
        self.kind = kind  # play (a card to a trick), choose, cover or take
        self._labels: list[str] | None = None
        self._knowledge = knowledge

    @property
    def game(self) -> Game:
        """The rules being played (public: every seat knows them)."""
        return self._game

    @property
    def labels(self) -> list[str]:
        if self._labels is None:
            self._labels = [self._game.label(self._state, a) for a in self.legal]
        return self._labels

    def observation(self) -> dict[str, Any]:
        return observe(self._game, self._state, self.seat)

    def sample(self, rng: random.Random) -> State:
        """A state this seat cannot tell from the real one, drawn from what it knows (for search): the cards
        it has not seen where they are now are dealt again among their places (see engine/knowledge.py).
        Only for agents with ``samples = True`` (the harness then follows who knows which card)."""
        if self._knowledge is None:
            raise GameError("this agent was not given samples: set samples = True on its class")
        return determinize(self._game, self._state, self.seat, self._knowledge, rng)

    @property
    def seat_name(self) -> str:
        return self._game.seat_names[self.seat]


class Agent(Protocol):
    def act(self, turn: Turn) -> Any: ...


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded random source."""

    def __init__(self, seed: Any = None):
        self.rng = random.Random(seed)

    def act(self, turn: Turn) -> Any:
        legal = turn.legal
        return legal[self.rng.randrange(len(legal))] if len(legal) > 1 else legal[0]


class HumanAgent:
    """A person at the terminal: sees their own observation, answers by number or label."""

    def __init__(self, read: Callable[[str], str] = input, out: TextIO = sys.stdout):
        self.read, self.out = read, out

    def act(self, turn: Turn) -> Any:
        labels = turn.labels
        if len(labels) == 1:
            print(f"  ({turn.seat_name}: only one choice: {labels[0]})", file=self.out)
            return turn.legal[0]
        print(render_observation(turn.observation()), file=self.out)
        print(f"{turn.seat_name}, {turn.prompt}:", file=self.out)
        for i, lab in enumerate(labels, 1):
            print(f"  {i:2d}. {lab}", file=self.out)
        while True:
            try:
                answer = self.read("> ").strip()
            except EOFError:
                raise KeyboardInterrupt from None
            number = whole_number(answer)
            if number is not None and 1 <= number <= len(labels):
                return turn.legal[number - 1]
            folded = [lab.casefold() for lab in labels]
            if answer.casefold() in folded:
                return turn.legal[folded.index(answer.casefold())]
            starts = [i for i, lab in enumerate(folded) if answer and lab.startswith(answer.casefold())]
            if len(starts) == 1:
                return turn.legal[starts[0]]
            print(f"  please answer with a number from 1 to {len(labels)} or one of the labels", file=self.out)


def render_observation(obs: dict[str, Any]) -> str:
    """A compact text view of an observation for people."""
    lines = [f"--- round {obs['round']} ({obs.get('step', 'end')}), you are {obs['seat']} ---"]
    values = {k: v for k, v in obs["values"].items() if v is not None and k not in ("number",)}
    if values:
        lines.append("  " + "; ".join(f"{k}: {_text(v)}" for k, v in values.items()))
    if "board" in obs:
        for row, spaces in obs["board"].items():
            lines.append(f"  {row}: {' | '.join(spaces)}")
    for name, per_seat in (obs.get("counters") or {}).items():
        if any(per_seat.values()):
            lines.append(f"  {name}: " + ", ".join(f"{s} {v}" for s, v in per_seat.items()))
    for name, per_seat in (obs.get("seat_values") or {}).items():
        shown = {s: v for s, v in per_seat.items() if v is not None and v != []}
        if shown:
            lines.append(f"  {name}: " + ", ".join(f"{s} {_text(v)}" for s, v in shown.items()))
    if len(obs["teams"]) < len(obs["totals"]):
        lines.append("  teams: " + " vs ".join(" + ".join(t) for t in obs["teams"]))
    for zname, content in obs["zones"].items():
        if not isinstance(content, dict):
            continue
        mine = content.get(obs["seat"])
        if isinstance(mine, list) and mine:
            lines.append(f"  your {zname}: {', '.join(mine)}")
        open_cards = {s: cards for s, cards in content.items()  # other seats' cards that lie face up
                      if s != obs["seat"] and isinstance(cards, list) and cards}
        if open_cards:
            lines.append(f"  {zname}: " + "; ".join(f"{s} {', '.join(cards)}" for s, cards in open_cards.items()))
    if obs.get("trick"):
        lines.append("  on the table: " + ", ".join(f"{s} {c}" for s, c in obs["trick"]))
    lines.append("  totals: " + ", ".join(f"{s} {t}" for s, t in obs["totals"].items()))
    return "\n".join(lines)


def _text(value: Any) -> str:
    """A value of an observation as people read it: lists joined, records as their fields' values."""
    if isinstance(value, dict):
        return " ".join(_text(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, dict) for v in value):
            return ", ".join(_text(v) for v in value)
        return " + ".join(_text(v) for v in value)
    return str(value)
