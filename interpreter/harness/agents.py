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
        it has not seen where they are now are dealt again among their places, such that the values it was told
        come out the same (see engine/knowledge.py).
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
        self._bits = self.rng.getrandbits

    def act(self, turn: Turn) -> Any:
        return turn.legal[self.pick(turn.legal)]

    def pick(self, actions: list[Any]) -> int:
        """The index of its choice among ``actions``: an agent that needs nothing but the list says so by having
        this method, and a run that records and tells nothing then plays without a Turn for each decision
        (see runner.play_game). The draw is ``rng.randrange(n)``'s, written out (random bits of n's length until
        they make a number below n), which saves two calls a decision."""
        n = len(actions)
        if n <= 1:
            return 0
        k = n.bit_length()
        r = self._bits(k)
        while r >= n:
            r = self._bits(k)
        return r


class HumanAgent:
    """A person at the terminal: sees their own observation, answers by number or label (or its start).

    Cards are offered in the order the hand is shown in: by suit, then deck order."""

    def __init__(self, read: Callable[[str], str] = input, out: TextIO = sys.stdout):
        self.read, self.out = read, out

    def act(self, turn: Turn) -> Any:
        game = turn.game
        order = _in_deck_order(game, turn.legal, turn.labels)
        legal = [turn.legal[i] for i in order]
        labels = [turn.labels[i] for i in order]
        if len(labels) == 1:
            print(f"  ({turn.seat_name}: only one choice: {labels[0]})", file=self.out)
            return legal[0]
        print(render_observation(turn.observation(), titles(game), suits(game)), file=self.out)
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
                return legal[number - 1]
            folded = [lab.casefold() for lab in labels]
            if answer.casefold() in folded:
                return legal[folded.index(answer.casefold())]
            starts = [i for i, lab in enumerate(folded) if answer and lab.startswith(answer.casefold())]
            if len(starts) == 1:
                return legal[starts[0]]
            if len(starts) > 1:
                fits = ", ".join(labels[i] for i in starts[:8]) + (", ..." if len(starts) > 8 else "")
                print(f"  {answer!r} fits {len(starts)} choices ({fits}): type more of the label, or its number",
                      file=self.out)
            else:
                print(f"  please answer with a number from 1 to {len(labels)} or one of the labels", file=self.out)


def _in_deck_order(game: Game, legal: list[Any], labels: list[str]) -> list[int]:
    """The order to offer ``legal`` in: cards (plays, takes, choices of a card) as the hand shows them (by suit,
    then deck order), the rest as given."""
    names = game.cards.labels

    def card(i: int) -> int | None:
        a = legal[i]
        c = getattr(a, "card", None)
        if c is None:
            value = getattr(a, "value", None)
            if type(value) is int and 0 <= value < len(names) and names[value] == labels[i]:
                c = value
        return c

    maybe = [card(i) for i in range(len(legal))]
    cards = [c for c in maybe if c is not None]
    if len(cards) < len(legal):
        return list(range(len(legal)))
    order = game.hand_order
    return sorted(range(len(legal)), key=lambda i: (order[cards[i]], getattr(legal[i], "zone", 0)))


def titles(game: Game) -> dict[str, str]:
    """How the narration calls round values that people do not know by their names (board rows)."""
    out: dict[str, str] = {}
    for step in game.every_step():
        out.update(step.titles())
    return out


def suits(game: Game) -> dict[str, Any]:
    """Each card label's group (its suit) for showing a hand."""
    return dict(zip(game.cards.labels, game.hand_group))


def render_observation(obs: dict[str, Any], titles: dict[str, str] | None = None,
                       groups: dict[str, Any] | None = None) -> str:
    """A compact text view of an observation for people: round values named as the narration names them (a
    value not set shows as none), counters (tricks won) from the start, the seat's cards grouped by ``groups``
    (label -> suit), the trick on the table and who leads."""
    titles = titles or {}
    me = obs["seat"]
    lines = [f"--- round {obs['round']} ({obs.get('step', 'end')}), you are {me} ---"]
    values = {k: v for k, v in obs["values"].items() if k not in ("number",)}
    if values:
        lines.append("  " + "; ".join(f"{titles.get(k, k)}: {_text(v)}" for k, v in values.items()))
    if "board" in obs:
        for row, spaces in obs["board"].items():
            lines.append(f"  {titles.get(row, row)}: {' | '.join(spaces)}")
    for name, per_seat in (obs.get("counters") or {}).items():
        lines.append(f"  {name}: " + ", ".join(f"{s} {v}" for s, v in per_seat.items()))
    for name, per_seat in (obs.get("seat_values") or {}).items():
        shown = {s: v for s, v in per_seat.items() if v is not None and v != []}
        if shown:
            lines.append(f"  {name}: " + ", ".join(f"{s} {_text(v)}" for s, v in shown.items()))
    if len(obs["teams"]) < len(obs["totals"]):
        lines.append("  teams: " + " vs ".join(" + ".join(t) or "?" for t in obs["teams"]))
    for zname, content in obs["zones"].items():
        if not isinstance(content, dict):
            continue
        mine = content.get(me)
        if isinstance(mine, list) and mine:
            lines.append(f"  your {zname}: {_grouped(mine, groups or {})}")
        open_cards = {s: cards for s, cards in content.items()  # other seats' cards that lie face up
                      if s != me and isinstance(cards, list) and cards}
        if open_cards:
            lines.append(f"  {zname}: " + "; ".join(f"{s} {', '.join(cards)}" for s, cards in open_cards.items()))
    last = obs.get("last_trick")
    if last and not obs.get("trick"):
        lines.append("  last trick: " + ", ".join(f"{s} {c}" for s, c in last["cards"])
                     + (f" -> {last['winner']} won it" if last.get("winner") else ""))
    if "trick" in obs and obs.get("decision") == "play":
        number = obs.get("tricks_played", 0) + 1
        if obs["trick"]:
            lines.append(f"  trick {number}, led by {obs['trick'][0][0]}: "
                         + ", ".join(f"{s} {c}" for s, c in obs["trick"]))
        else:
            leader = obs.get("to_act")
            lines.append(f"  trick {number}: " + ("you lead" if leader == me else f"{leader} leads"))
    lines.append("  totals: " + ", ".join(f"{s} {t}" for s, t in obs["totals"].items()))
    return "\n".join(lines)


def _grouped(cards: list[str], groups: dict[str, Any]) -> str:
    """Cards in their order, a ' | ' between groups."""
    out = ""
    for i, card in enumerate(cards):
        if i:
            out += " | " if groups.get(card) != groups.get(cards[i - 1]) else ", "
        out += card
    return out


def _text(value: Any) -> str:
    """A value of an observation as people read it: lists joined, records as their fields' values, none."""
    if value is None:
        return "none"
    if isinstance(value, dict):
        return " ".join(_text(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, dict) for v in value):
            return ", ".join(_text(v) for v in value)
        return " + ".join(_text(v) for v in value)
    return str(value)
