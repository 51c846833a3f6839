"""``move``: cards from wherever they are to a zone, by expression, all at once.

Turn up the top card of a stock, pick it up, pass cards to a neighbour, return a
hand to the box: every card to move and its destination are worked out first,
then all cards move together, so passing to the left and receiving from the
right never see each other's cards.
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.compiler import ExpressionFailed
from interpreter.dsl.types import SEAT
from interpreter.engine.steps.base import COMMON, Opt, Step, StepContext, register


@register
class Move(Step):
    kind = "move"
    nested = True
    summary = ("Move cards to a zone, all at once: the cards an expression gives (from wherever they are), "
               "or every card of some zones. With each, it is done for every seat of a list, with seat bound.")
    options = COMMON + (
        Opt("cards", "expr", "The cards to move: an expression giving a card or a list of cards (none moves "
            "nothing), e.g. \"first(stock)\" or \"seat.passing\".", binds=("seat",), binds_with="each"),
        Opt("from", "zones", "Instead of cards: move every card of these zones (every seat's, for a per-seat "
            "zone; with each, only that seat's)."),
        Opt("to", "zone", "The zone the cards go to.", required=True),
        Opt("owner", "seat", "Whose zone, when to is a per-seat zone: a seat expression, e.g. \"right(seat)\" "
            "(default: seat, with each).", binds=("seat",), binds_with="each"),
        Opt("each", "seats", "Do the move for each of these seats in turn (binds seat), e.g. seats.",),
        Opt("top", "bool", "Put the cards on top of the zone (first) instead of at the bottom (default false).",
            default=False),
    )

    def build(self, ctx: StepContext, spec: dict[str, Any]) -> None:
        path = self.path
        if ("cards" in spec) == ("from" in spec):
            raise ctx.error("a move needs either cards: (an expression) or from: (zones), not both", path)
        self.each = self.read(ctx, "each") if "each" in spec else None
        names = {"seat": SEAT}
        self.cards = self.read(ctx, "cards", names) if "cards" in spec else None
        if self.cards is not None and self.cards.type.kind not in ("card", "list") and not self.cards.type.literal_none:
            raise ctx.error(f"cards must give a card or a list of cards, found {self.cards.type}", path + ("cards",))
        self.sources = ctx.zones(path + ("from",)) if "from" in spec else []
        self.to = ctx.zone(path + ("to",))
        self.to_per_seat = self.to in ctx.seat_zones
        self.owner = self.read(ctx, "owner", names, expect="seat") if "owner" in spec else None
        if self.to_per_seat and self.owner is None and self.each is None:
            raise ctx.error(f"zone {self.to!r} belongs to each seat: say whose with owner: (a seat expression) "
                            "or move for each seat with each:", path + ("to",))
        if not self.to_per_seat and self.owner is not None:
            raise ctx.error(f"zone {self.to!r} is shared; owner: is only for per-seat zones", path + ("owner",))
        self.top = bool(self.value(spec, "top"))
        self.seat_zones = set(ctx.seat_zones)

    def start(self, game: Any, state: Any) -> None:
        env = self.env(state)
        seats = [None]
        if self.each is not None:
            listed = self.each(env)
            seats = list(listed) if isinstance(listed, (list, tuple)) else [listed]
        plan: list[tuple[list[int], list[int], int | None]] = []  # (cards, destination, its seat)
        owners: list[int | None] = []  # the seat whose zones hold the cards, most likely
        planned: set[int] = set()
        for seat in seats:
            if seat is not None:
                env["seat"] = seat
            cards = [c for c in self._cards(game, state, env, seat) if c not in planned]
            planned.update(cards)
            if not cards:
                continue
            if self.to_per_seat:
                owner = self.owner(env) if self.owner is not None else seat
                if not isinstance(owner, int) or not 0 <= owner < game.players:
                    where = self.owner.position if self.owner is not None else self.path
                    raise ExpressionFailed(f"{where}: error: a move to {self.to!r} needs a seat, got {owner!r}")
                dest = state.per_seat[self.to][owner]
            else:
                owner, dest = None, state.shared[self.to]
            plan.append((cards, dest, owner))
            owners.append(seat)
        moved = 0
        for (cards, dest, _), seat in zip(plan, owners):
            for c in cards:
                where = state.zone_of(c, seat)
                if where is not None:
                    where.remove(c)
            if self.top:
                dest[:0] = cards
            else:
                dest.extend(cards)
            moved += len(cards)
        if moved and state.notes is not None and game.zones[self.to].visible == "all":
            labels, names = game.cards.labels, game.seat_names
            state.note("; ".join(f"{', '.join(labels[c] for c in cards)} to "
                                 + (self.to if owner is None else f"{names[owner]}'s {self.to}")
                                 for cards, _, owner in plan))
        return None

    def _cards(self, game: Any, state: Any, env: dict[str, Any], seat: int | None) -> list[int]:
        if self.cards is not None:
            value = self.cards(env)
            if value is None:
                return []
            cards = list(value) if isinstance(value, (list, tuple)) else [value]
            for c in cards:
                if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < len(game.cards):
                    raise ExpressionFailed(f"{self.cards.position}: error: cards must give cards, got {value!r}")
            if len(set(cards)) != len(cards):
                raise ExpressionFailed(f"{self.cards.position}: error: a card is named twice in {value!r}")
            return cards
        out: list[int] = []
        for z in self.sources:
            if z in self.seat_zones:
                holders = state.per_seat[z] if seat is None else [state.per_seat[z][seat]]
                for cards in holders:
                    out.extend(cards)
            else:
                out.extend(state.shared[z])
        return out
