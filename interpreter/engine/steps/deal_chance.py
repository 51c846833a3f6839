"""Chance's decision at a ``deal`` step: the deal drawn (an order of its pack, every order equally likely), the cards
it puts in an order, a deal with each seat's hand given (a deal file), and the deal as a record writes it (hands by
seat, cards by label) and reads it back (checked to use the pack exactly)."""

from __future__ import annotations

from random import Random
from typing import Any

from interpreter.engine.game_view import GameView
from interpreter.engine.state import State
from interpreter.engine.steps.chance import Chance
from interpreter.engine.steps.deal_reading import DealReading
from interpreter.errors import RecordError


class DealChance(Chance[DealReading]):
    """Chance's part of a deal step, read from its resolved options."""

    def chance_cards(self, game: GameView, state: State) -> list[int]:
        return list(self.step.pack)

    def sample(self, game: GameView, state: State, rng: Any) -> list[int]:
        order = list(self.step.pack)
        shuffle(rng, order)
        return order

    def hands_problem(self, game: GameView, state: State, hands: tuple[tuple[int, ...], ...]) -> tuple[int, str] | None:
        """Why this deal cannot give each seat the hand ``hands`` lists for it (card ids), as (seat, why), or None."""
        counts = self.step.counts(game.players, state.progress)
        for s, cards in enumerate(hands):
            if len(cards) != counts[s]:
                each = "to each seat" if len(set(counts)) == 1 else "to this seat"
                return s, f"it has {len(cards)} cards; this deal gives {counts[s]} {each}"
            stray = [c for c in cards if self.step.packed is not None and c not in self.step.packed]
            if stray:
                return s, f"this deal does not deal the {game.cards.labels[stray[0]]}"
        return None

    def fixed_outcome(self, game: GameView, state: State, hands: tuple[tuple[int, ...], ...], rng: Any) -> list[int]:
        """This deal with each seat's hand given (``hands_problem`` found none): the cards left over go to ``rest``
        shuffled by ``rng``."""
        dealt = {c for cards in hands for c in cards}
        rest = [c for c in self.step.pack if c not in dealt]
        rng.shuffle(rest)
        return [c for cards in hands for c in cards] + rest

    def outcome_to_record(self, game: GameView, state: State, outcome: list[int]) -> dict[str, Any]:
        counts = self.step.counts(game.players, state.progress)
        labels = game.cards.labels
        hands, at = {}, 0
        for s, k in enumerate(counts):
            hands[game.seat_names[s]] = [labels[c] for c in outcome[at:at + k]]
            at += k
        out: dict[str, Any] = {self.step.hand_zone: hands}
        if self.step.rest is not None:
            out[self.step.rest] = [labels[c] for c in outcome[at:]]
        return out

    def outcome_from_record(self, game: GameView, state: State, data: dict[str, Any]) -> list[int]:
        """Turn readable card lists back into a deal, checking it uses the deck exactly."""
        hands = data.get(self.step.hand_zone)
        if not isinstance(hands, dict):
            raise RecordError(f"the deal needs {self.step.hand_zone!r}: an object from seat name to a list of cards")
        available = game.cards_by_label(self.step.pack)
        order: list[int] = []

        def take(label: Any, where: str) -> int:
            ids = available.get(label) if isinstance(label, str) else None
            if not ids:
                if isinstance(label, str) and label in game.cards.by_label():
                    raise RecordError(f"{where}: card {label!r} is dealt more often than the deck has it")
                raise RecordError(f"{where}: {label!r} is not a card of this deck")
            return ids.pop()

        for name, k in zip(game.seat_names, self.step.counts(game.players, state.progress)):
            cards = hands.get(name)
            if not isinstance(cards, list) or len(cards) != k:
                raise RecordError(f"the deal must give {name!r} a list of exactly {k} cards")
            order.extend(take(c, f"{self.step.hand_zone} of {name}") for c in cards)
        extra = set(hands) - set(game.seat_names)
        if extra:
            raise RecordError(f"the deal names seats that are not playing: {', '.join(sorted(extra))}")
        if self.step.rest is not None:
            rest = data.get(self.step.rest)
            if not isinstance(rest, list):
                raise RecordError(f"the deal needs {self.step.rest!r}: the list of the remaining cards")
            order.extend(take(c, self.step.rest) for c in rest)
        left = sum(len(v) for v in available.values())
        if left:
            raise RecordError(f"the deal leaves {left} card(s) of the deck unplaced")
        return order


def shuffle(rng: Any, cards: list[int]) -> None:
    """``rng.shuffle(cards)``: for a ``random.Random`` itself, the same draws of ``getrandbits`` in the same order
    (so the same order of the cards) in one loop, without a call of ``_randbelow`` per card; any other source of
    randomness by its own ``shuffle``."""
    if type(rng) is not Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
