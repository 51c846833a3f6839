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
from interpreter.engine.knowledge import Knowledge
from interpreter.engine.observation import observe
from interpreter.engine.samples import StateSamples, Unknown, determinize, seen_status
from interpreter.engine.state import State
from interpreter.errors import GameError
from interpreter.limits import whole_number
from interpreter.match.together import own_zones
from interpreter.runtime.slot_samples import SlotSamples, samples_of


class Turn:
    """One decision for one seat: legal actions, labels and observation, computed on demand."""

    __slots__ = ("_game", "_state", "seat", "legal", "prompt", "kind", "_labels", "_knowledge", "following",
                 "_game_state")

    def __init__(self, game: Game, state: State, seat: int, legal: list[Any], prompt: str,
                 knowledge: Knowledge | None = None, kind: str = "choose", following: Any = None,
                 ahead_of: State | None = None):
        """``ahead_of``: the game, when ``state`` is a copy of it in which the seat is asked ahead of its turn (a
        step whose choices are made together, match/together.py): what the seat sees is the game's, its own cards
        as the copy has them."""
        self._game, self._state = game, state
        self._game_state = ahead_of
        self.seat, self.legal, self.prompt = seat, legal, prompt
        self.kind = kind  # play (a card to a trick), choose, cover or take
        self._labels: list[str] | None = None
        self._knowledge = knowledge
        # the game followed on the compiled machine (harness/following.py), for a search run there; None: not
        self.following = following

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
        seen = observe(self._game, self._state, self.seat)
        if self._game_state is None:
            return seen
        return own_zones(observe(self._game, self._game_state, self.seat), seen)

    def sample(self, rng: random.Random) -> State:
        """A state this seat cannot tell from the real one, drawn from what it knows (for search): the cards
        it has not seen where they are now are dealt again among their places, such that the values it was told
        come out the same (see engine/knowledge.py).
        Only for agents with ``samples = True`` (the harness then follows who knows which card)."""
        if self._knowledge is None:
            raise GameError("this agent was not given samples: set samples = True on its class")
        return determinize(self._game, self._state, self.seat, self._knowledge, rng)

    def samples(self) -> StateSamples | SlotSamples:
        """The samples of this decision, for a search that draws many (``draw(rng)``, each as ``sample`` would give
        it): what the seat does not know gathered once, each sample drawn into the compact slots where the game has
        them (runtime/slot_samples.py), played by the sampler's ``game``. Only for agents with ``samples = True``."""
        if self._knowledge is None:
            raise GameError("this agent was not given samples: set samples = True on its class")
        return samples_of(self._game, self._state, self.seat, self._knowledge)

    def unknown(self) -> Unknown:
        """What this seat does not know of the state (engine/samples.py), gathered once for the samples of a search
        run elsewhere (the compiled backend's). Only for agents with ``samples = True``."""
        if self._knowledge is None:
            raise GameError("this agent was not given samples: set samples = True on its class")
        return Unknown(self._game, self._state, self.seat, self._knowledge)

    @property
    def seat_name(self) -> str:
        return self._game.seat_names[self.seat]

    def refusal(self, card: int) -> str | None:
        """Why this seat may not play (or choose) the card ``card`` now, in the rule file's words (public: the
        rules are, and the seat knows its own cards)."""
        return self._game.refusal(self._state, card)

    def status(self) -> list[tuple[str, str]]:
        """The game's status lines as this seat sees them (the rule file's ``table:``): each title with its
        text, worked out on a sample of what the seat knows, so a line never shows what the seat cannot see.
        Empty when the file declares none (or the agent was given no samples)."""
        if self._knowledge is None:
            return []
        return seen_status(self._game, self._game_state or self._state, self.seat, self._knowledge)


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
    """A person at the terminal: sees their own observation, answers by number, label, the start of a label, or
    a card's short form ("qc" for the Q of clubs, "10d" for the 10 of diamonds).

    Cards are offered in the order the hand is shown in: by suit, then deck order, every menu numbered from 1 (a
    pass of three cards too: a card picked leaves the list, and the others are numbered again). A card the rules
    refuse is refused with the rule, in the rule file's words; ``?`` shows the choices again and, for each card the
    seat holds that it may not choose now, the rule that refuses it."""

    samples = True  # the status lines are worked out on what the seat knows (a sample), never on the real state
    person = True  # asked at once with the other people of a step whose choices are made together (runner.py)

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
        obs = turn.observation()
        status = turn.status() if game.table else None  # (a table with no line to show now shows none)
        print(render_observation(obs, titles(game), suits(game), status), file=self.out)
        print(f"{turn.seat_name}, {turn.prompt}:", file=self.out)
        numbers = list(range(1, len(labels) + 1))  # every menu numbered from 1, a card picked or not
        self._menu(labels)
        short = short_forms(game.cards.labels)
        while True:
            try:
                answer = self.read("> ").strip()
            except EOFError:
                raise KeyboardInterrupt from None
            if answer in ("?", "help"):
                self._menu(labels)
                self._why_not(turn, obs, labels)
                continue
            chosen = self._answer(answer, numbers, labels, short)
            if chosen is not None:
                return legal[chosen]
            number = whole_number(answer)
            folded = [lab.casefold() for lab in labels]
            starts = [] if number is not None else [i for i, lab in enumerate(folded)
                                                    if answer and lab.startswith(answer.casefold())]
            if len(starts) > 1:
                fits = ", ".join(labels[i] for i in starts[:8]) + (", ..." if len(starts) > 8 else "")
                print(f"  {answer!r} fits {len(starts)} choices ({fits}): type more of the label, or its number",
                      file=self.out)
                continue
            refused = self._refused(turn, answer, short)
            if refused:
                print(f"  {refused}", file=self.out)
            else:
                print(f"  please answer with one of the numbers shown ({numbers[0]} to {numbers[-1]}) or a "
                      "label; ? shows the choices again, and why the others are not allowed", file=self.out)

    def _menu(self, labels: list[str]) -> None:
        for n, lab in enumerate(labels, 1):
            print(f"  {n:2d}. {lab}", file=self.out)

    def _why_not(self, turn: Turn, obs: dict[str, Any], labels: list[str]) -> None:
        """After ``?``: each card the seat holds and may not choose now, with the rule that refuses it."""
        offered = set(labels)
        names = turn.game.cards.by_label()
        held = [lab for content in obs["zones"].values() if isinstance(content, dict)
                for lab in (content.get(obs["seat"]) or []) if isinstance(lab, str) and lab in names]
        refused = []
        for lab in dict.fromkeys(held):
            if lab in offered:
                continue
            why = next((w for w in (turn.refusal(c) for c in names[lab]) if w), None)
            if why:
                refused.append(f"  not now: {lab} ({why})")
        print("\n".join(refused) if refused else "  (every card you hold that may be chosen now is listed)",
              file=self.out)

    @staticmethod
    def _answer(answer: str, numbers: list[int], labels: list[str], short: dict[str, set[str]]) -> int | None:
        """The index of the choice ``answer`` names: a number shown, a label, a card's short form, or the start
        of one label only. A number not shown (a card picked already) names nothing."""
        number = whole_number(answer)
        if number is not None and number in numbers:
            return numbers.index(number)
        key = answer.casefold()
        folded = [lab.casefold() for lab in labels]
        if key in folded:
            return folded.index(key)
        if number is not None:
            return None
        shorts = [i for i, lab in enumerate(labels) if key.replace(" ", "") in short.get(lab, ())]
        if len(shorts) == 1:
            return shorts[0]
        starts = [i for i, lab in enumerate(folded) if answer and lab.startswith(key)]
        return starts[0] if len(starts) == 1 else None

    @staticmethod
    def _refused(turn: Turn, answer: str, short: dict[str, set[str]]) -> str | None:
        """The rule that refuses the card ``answer`` names (by label or short form), if it names one."""
        key = answer.casefold().replace(" ", "")
        game = turn.game
        named = [lab for lab, forms in short.items() if key == lab.casefold().replace(" ", "") or key in forms]
        if len(named) != 1:
            return None
        for card in game.cards.by_label()[named[0]]:
            why = turn.refusal(card)
            if why:
                return f"you may not play {named[0]} now: {why}"
        return None


def short_forms(labels: tuple[str, ...] | list[str]) -> dict[str, set[str]]:
    """Each card label's short forms, lower case: its words but those every label has ("of"), each a number or
    at most two letters as it is, a longer word by its first letter, in the label's order and backwards: "Q of
    clubs" is "qc" and "cq", "10 of diamonds" "10d" and "d10", "red 7" "r7" and "7r". A short form two labels
    share belongs to neither."""
    words = {lab: lab.casefold().split() for lab in set(labels)}
    common = set.intersection(*(set(w) for w in words.values())) if words else set()
    forms: dict[str, set[str]] = {}
    for lab, ws in words.items():
        parts = [w if w.isdigit() or len(w) <= 2 else w[0] for w in ws if w not in common]
        if parts:
            forms[lab] = {"".join(parts), "".join(reversed(parts))}
    owners: dict[str, int] = {}
    for fs in forms.values():
        for f in fs:
            owners[f] = owners.get(f, 0) + 1
    return {lab: {f for f in fs if owners[f] == 1} for lab, fs in forms.items()}


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
        out.update(step.words.titles())
    return out


def suits(game: Game) -> dict[str, Any]:
    """Each card label's group (its suit) for showing a hand."""
    return dict(zip(game.cards.labels, game.hand_group))


def render_observation(obs: dict[str, Any], titles: dict[str, str] | None = None,
                       groups: dict[str, Any] | None = None, status: list[tuple[str, str]] | None = None) -> str:
    """A compact text view of an observation for people: the game's status lines (``status``: the rule file's
    ``table:``, each with its title; none to show now: an empty list), or where the file declares no table
    (``status`` None) the round values named as the narration names them (a value not set shows as none) and the
    per-seat values and teams; a board in play (its rows, who covered what, what each row has left); counters
    (tricks won) from the start, the
    seat's cards grouped by ``groups`` (label -> suit), the trick on the table and who leads."""
    titles = titles or {}
    me = obs["seat"]
    lines = [f"--- round {obs['round']} ({obs.get('step', 'end')}), you are {me} ---"]
    for title, text in status or []:
        lines.append(f"  {title}: {text}")
    values = {k: v for k, v in obs["values"].items() if k not in ("number",)} if status is None else {}
    if values:
        lines.append("  " + "; ".join(f"{titles.get(k, k)}: {_text(v)}" for k, v in values.items()))
    if "board" in obs:
        lines += _board(obs["board"], me)
    for name, per_seat in (obs.get("counters") or {}).items():
        lines.append(f"  {name}: " + ", ".join(f"{s} {v}" for s, v in per_seat.items()))
    for name, per_seat in (obs.get("seat_values") or {}).items() if status is None else ():
        shown = {s: v for s, v in per_seat.items() if v is not None and v != []}
        if shown:
            lines.append(f"  {name}: " + ", ".join(f"{s} {_text(v)}" for s, v in shown.items()))
    if status is None and len(obs["teams"]) < len(obs["totals"]):
        lines.append("  teams: " + " vs ".join(" + ".join(t) or "?" for t in obs["teams"]))
    for zname, content in obs["zones"].items():
        if isinstance(content, list):  # a shared zone lying face up (the trick is shown below, with its seats)
            if content and zname != "trick":
                lines.append(f"  {zname}: {', '.join(content)}")
            continue
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


def _board(board: dict[str, Any], me: str) -> list[str]:
    """A board step's rows as the observation gives them (public): each row's title, its spaces in order, a covered
    one in brackets with who covered it ("[red by lilac]", "[red]" covered before play), and how many it has left."""
    rows = [(row["title"], [s["label"] if s["open"] else
                            f"[{s['label']} by {'you' if s['by'] == me else s['by']}]" if s["by"] else f"[{s['label']}]"
                            for s in row["spaces"]], sum(s["open"] for s in row["spaces"])) for row in board.values()]
    width = max((len(title) for title, _, _ in rows), default=0)
    return ["  the board (a covered space: [space by who covered it]):"] + [
        f"    {title + ':':<{width + 1}} {' | '.join(spaces)}  ({left} left)" for title, spaces, left in rows]


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
