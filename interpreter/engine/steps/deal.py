"""Chance: gather the cards (every card, or those a condition picks), shuffle, and deal a number of cards to
every seat; the rest stay in a zone."""

from __future__ import annotations

from typing import Any

from interpreter.dsl.compiler import ExpressionFailed
from interpreter.dsl.types import CARD
from interpreter.engine.game_view import GameView
from interpreter.engine.state import CHANCE, Decision, State
from interpreter.engine.steps.base import COMMON, Step, StepContext, register
from interpreter.engine.steps.writer import Found, Lines, ListWriter
from interpreter.errors import RecordError
from interpreter.plan.declaration import Opt


class _Dealing:
    __slots__ = ("count", "dealt")

    def __init__(self, count: int):
        self.count = count
        self.dealt = False

    def copy(self) -> _Dealing:
        other = _Dealing(self.count)
        other.dealt = self.dealt
        return other


@register
class Deal(Step):
    kind = "deal"
    summary = ("Chance: gather every card back, shuffle the deck (after remove) and deal the same number of "
               "cards to every seat; the cards left over go to rest.")
    options = COMMON + (
        Opt("hand", "number", "Cards dealt to each seat: a number or an expression, which may change by round "
            "(e.g. setup.hand, or 11 - round.number).", required=True),
        Opt("to", "zone", "The per-seat zone dealt to (default: hand).", default="hand"),
        Opt("rest", "zone", "The shared zone that gets the cards left over (the stock); needed when cards are "
            "left over. Its first card is its top card."),
        Opt("cards", "condition", "Which cards this deal gathers, shuffles and deals: a condition on card, e.g. "
            "\"card.kind == 'number'\" (default: every card). The other cards stay where they are, so a game "
            "with several decks deals each with a deal of its own.", binds=("card",)),
    )

    def build(self, ctx: StepContext, spec: dict[str, Any]) -> None:
        path = self.path
        self.hand_zone = ctx.zone(path + ("to",), per_seat=True) if "to" in spec else self.value(spec, "to")
        if self.hand_zone not in ctx.seat_zones:
            raise ctx.error("a deal needs a per-seat zone named 'hand' (or say to: ZONE)", path)
        self.count = self.read(ctx, "hand", expect="number")
        self.rest = ctx.zone(path + ("rest",), per_seat=False) if "rest" in spec else None
        self.ctx_error = ctx.error
        self.which = None
        if "cards" in spec:
            self.which = self.read(ctx, "cards", {"card": CARD})
            if self.which.deps - {"ctx:card"}:
                raise ctx.error("cards may use only card, players, options and setup (the cards of a deal are "
                                "known before play)", path + ("cards",))

    def check(self, game: GameView) -> None:
        self.pack = game.deck if self.which is None else [c for c in game.deck if self.which({"card": c})]
        self.packed = None if self.which is None else frozenset(self.pack)
        if not self.pack:
            raise self.ctx_error("no card of the deck meets this deal's cards condition", self.path + ("cards",))
        if self.count.is_constant:
            problem = self._problem(self.count({}), game)
            if problem:
                raise self.ctx_error(problem, self.path + ("hand",))

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """The number of cards worked out in place and checked; then the deal is chance's decision."""
        ref = x.step_ref(k)
        w("e = {'$s': state}")
        x.assign(w, "count", self.count, {}, "number")
        w(f"problem = {ref}._problem(count, game)")
        with w.block("if problem:"):
            w(f"raise {ref}._cannot(problem, state)")
        x.started(w, k, found, began, f"{ref}.progress_class(count)", f"{ref}.decision(game, state, q)")

    progress_class = _Dealing  # what the written start makes

    def _cannot(self, problem: str, state: State) -> ExpressionFailed:
        return ExpressionFailed(f"{self.count.position}: error: {problem} (round {state.round_number})")

    def _problem(self, count: Any, game: GameView) -> str | None:
        """Why ``count`` cards per seat cannot be dealt from this deck, or None."""
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            return f"hand must be a whole number of cards, got {count!r}"
        need, have = count * game.players, len(self.pack)
        cards = "the deck has" if self.which is None else "this deal's cards are"
        if need > have:
            return f"dealing {count} cards to {game.players} seats needs {need} cards, {cards} {have}"
        if need < have and self.rest is None:
            return f"{have - need} cards are left after the deal; say where they go with rest: ZONE"
        return None

    def decision(self, game: GameView, state: State, p: _Dealing) -> Decision | None:
        if p.dealt:
            return None
        return Decision(CHANCE, [], self, "deal", "chance")

    def chance_cards(self, game: GameView, state: State) -> list[int]:
        return list(self.pack)

    def sample(self, game: GameView, state: State, rng: Any) -> list[int]:
        order = list(self.pack)
        rng.shuffle(order)
        return order

    def apply(self, game: GameView, state: State, p: _Dealing, outcome: list[int]) -> None:
        # gather the cards back first, so a deal always starts from the full deck (or its whole part)
        packed = self.packed
        zones = [*state.shared.values(), *(cards for hands in state.per_seat.values() for cards in hands)]
        for zone in zones:
            if packed is None:
                zone.clear()
            elif zone and not packed.isdisjoint(zone):
                zone[:] = [c for c in zone if c not in packed]
        n, k = game.players, p.count
        hands = state.per_seat[self.hand_zone]
        for s in range(n):
            hands[s].extend(outcome[s * k:(s + 1) * k])
        if self.rest is not None:
            state.shared[self.rest].extend(outcome[n * k:])
        p.dealt = True
        if state.seen is not None:
            state.seen.dealt.extend(outcome)

    def hands_problem(self, game: GameView, state: State, hands: tuple[tuple[int, ...], ...]) -> tuple[int, str] | None:
        """Why this deal cannot give each seat the hand ``hands`` lists for it (card ids), as (seat, why), or None."""
        k = state.progress.count
        for s, cards in enumerate(hands):
            if len(cards) != k:
                return s, f"it has {len(cards)} cards; this deal gives {k} to each seat"
            stray = [c for c in cards if self.packed is not None and c not in self.packed]
            if stray:
                return s, f"this deal does not deal the {game.cards.labels[stray[0]]}"
        return None

    def fixed_outcome(self, game: GameView, state: State, hands: tuple[tuple[int, ...], ...], rng: Any) -> list[int]:
        """This deal with each seat's hand given (``hands_problem`` found none): the cards left over go to ``rest``
        shuffled by ``rng``."""
        dealt = {c for cards in hands for c in cards}
        rest = [c for c in self.pack if c not in dealt]
        rng.shuffle(rest)
        return [c for cards in hands for c in cards] + rest

    def label(self, game: GameView, outcome: Any) -> str:
        return "deal"

    def outcome_to_record(self, game: GameView, state: State, outcome: list[int]) -> dict[str, Any]:
        n, k = game.players, state.progress.count
        labels = game.cards.labels
        out: dict[str, Any] = {
            self.hand_zone: {game.seat_names[s]: [labels[c] for c in outcome[s * k:(s + 1) * k]] for s in range(n)}
        }
        if self.rest is not None:
            out[self.rest] = [labels[c] for c in outcome[n * k:]]
        return out

    def outcome_from_record(self, game: GameView, state: State, data: dict[str, Any]) -> list[int]:
        """Turn readable card lists back into a deal, checking it uses the deck exactly."""
        hands = data.get(self.hand_zone)
        if not isinstance(hands, dict):
            raise RecordError(f"the deal needs {self.hand_zone!r}: an object from seat name to a list of cards")
        available = game.cards_by_label(self.pack)
        order: list[int] = []

        def take(label: Any, where: str) -> int:
            ids = available.get(label) if isinstance(label, str) else None
            if not ids:
                if isinstance(label, str) and label in game.cards.by_label():
                    raise RecordError(f"{where}: card {label!r} is dealt more often than the deck has it")
                raise RecordError(f"{where}: {label!r} is not a card of this deck")
            return ids.pop()

        for name in game.seat_names:
            cards = hands.get(name)
            if not isinstance(cards, list) or len(cards) != state.progress.count:
                raise RecordError(f"the deal must give {name!r} a list of exactly {state.progress.count} cards")
            order.extend(take(c, f"{self.hand_zone} of {name}") for c in cards)
        extra = set(hands) - set(game.seat_names)
        if extra:
            raise RecordError(f"the deal names seats that are not playing: {', '.join(sorted(extra))}")
        if self.rest is not None:
            rest = data.get(self.rest)
            if not isinstance(rest, list):
                raise RecordError(f"the deal needs {self.rest!r}: the list of the remaining cards")
            order.extend(take(c, self.rest) for c in rest)
        left = sum(len(v) for v in available.values())
        if left:
            raise RecordError(f"the deal leaves {left} card(s) of the deck unplaced")
        return order
