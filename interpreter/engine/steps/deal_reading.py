"""The reading of a ``deal`` step: its declaration, and its options read from the rule file and checked: which
cards it deals (its pack), how many to each seat, where the rest go; the resolved options that its play (deal.py)
and its chance (deal_chance.py) read; and its progress."""

from __future__ import annotations

from interpreter.dsl.types import CARD, SEAT
from interpreter.engine.faults import deal_problem
from interpreter.engine.game_view import GameView
from interpreter.engine.steps.base import COMMON, Step
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.errors import RuleError
from interpreter.plan.declaration import Opt


class _Dealing:
    """The number of cards each seat gets (one number, or each seat's in seat order for an unequal deal), and
    whether chance has dealt."""

    __slots__ = ("count", "dealt")

    def __init__(self, count: int | tuple[int, ...]):
        self.count = count
        self.dealt = False

    def copy(self) -> _Dealing:
        other = _Dealing(self.count)
        other.dealt = self.dealt
        return other


class DealReading(Step):
    """A deal step as its rule file says it."""

    kind = "deal"
    summary = ("Chance: gather every card back, shuffle the deck (after remove) and deal the same number of "
               "cards to every seat; the cards left over go to rest.")
    options = COMMON + (
        Opt("hand", "number", "Cards dealt to each seat: a number or an expression, which may change by round "
            "(e.g. setup.hand, or 11 - round.number); one that reads seat gives each seat its own number (an "
            "unequal deal, e.g. every card dealt: \"24 // players + (1 if seat.index < 24 % players else 0)\").",
            required=True, binds=("seat",)),
        Opt("to", "zone", "The per-seat zone dealt to (default: hand).", default="hand"),
        Opt("rest", "zone", "The shared zone that gets the cards left over (the stock); needed when cards are "
            "left over. Its first card is its top card."),
        Opt("cards", "condition", "Which cards this deal gathers, shuffles and deals: a condition on card, e.g. "
            "\"card.kind == 'number'\" (default: every card). The other cards stay where they are, so a game "
            "with several decks deals each with a deal of its own.", binds=("card",)),
    )

    def build(self, ctx: StepContext, opts: Options) -> None:
        self.hand_zone = opts.get("to", per_seat=True)
        if opts.ok("to") and self.hand_zone not in ctx.seat_zones:  # (a zone written is checked as it is read)
            opts.mistake("a deal needs a per-seat zone named 'hand' (or say to: ZONE)")
        self.count = opts.get("hand", {"seat": SEAT}, expect="number")
        self.per_seat = self.count is not None and "ctx:seat" in self.count.deps  # each seat's own number
        self.rest = opts.get("rest", per_seat=False)
        self.ctx_error = ctx.error
        self.which = opts.get("cards", {"card": CARD})
        if self.which is not None and self.which.deps - {"ctx:card"}:
            opts.mistake("cards may use only card, players, options and setup (the cards of a deal are known before "
                         "play)", "cards")

    def check(self, game: GameView) -> list[RuleError]:
        self.pack = game.deck if self.which is None else [c for c in game.deck if self.which({"card": c})]
        self.packed = None if self.which is None else frozenset(self.pack)
        if not self.pack:  # (then how many a seat gets cannot be judged)
            return [self.ctx_error("no card of the deck meets this deal's cards condition", self.path + ("cards",))]
        problem = deal_problem(self.count({}), game.players, len(self.pack), self.which is not None,
                               self.rest is not None) if self.count.is_constant and not self.per_seat else None
        return [self.ctx_error(problem, self.path + ("hand",))] if problem else []

    progress_class = _Dealing  # what the written start makes

    @staticmethod
    def counts(players: int, p: _Dealing) -> list[int]:
        """The number of cards each seat gets, in seat order."""
        return list(p.count) if isinstance(p.count, tuple) else [p.count] * players
