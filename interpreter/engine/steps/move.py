"""``move``: cards from wherever they are to a zone, by expression, all at once.

Turn up the top card of a stock, pick it up, pass cards to a neighbour, return a
hand to the box: every card to move and its destination are worked out first,
then all cards move together, so passing to the left and receiving from the
right never see each other's cards.
"""

from __future__ import annotations

from interpreter.dsl.ir import places_read
from interpreter.dsl.types import SEAT
from interpreter.engine.faults import cards_of, no_seat
from interpreter.engine.state import State
from interpreter.engine.steps import rulebook
from interpreter.engine.steps.base import COMMON, register
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.engine.steps.steps_code import InPlace
from interpreter.engine.steps.writer import Found, Lines, ListWriter
from interpreter.plan.declaration import Opt


@register
class Move(InPlace):
    kind = "move"
    rulebook = staticmethod(rulebook.moved)
    nested = True
    summary = ("Move cards to a zone, all at once: the cards an expression gives (from wherever they are), "
               "or every card of some zones. With each, it is done for every seat of a list, with seat bound.")
    options = COMMON + (
        Opt("cards", "expr", "The cards to move: an expression giving a card or a list of cards (none moves "
            "nothing), e.g. \"first(stock)\" or \"seat.passing\".", binds=("seat",), binds_with="each", gives="cards"),
        Opt("from", "zones", "Instead of cards: move every card of these zones (every seat's, for a per-seat "
            "zone; with each, only that seat's)."),
        Opt("to", "zone", "The zone the cards go to.", required=True),
        Opt("owner", "seat", "Whose zone, when to is a per-seat zone: a seat expression, e.g. \"right(seat)\" "
            "(default: seat, with each).", binds=("seat",), binds_with="each"),
        Opt("each", "seats", "Do the move for each of these seats in turn (binds seat), e.g. seats.",),
        Opt("top", "bool", "Put the cards on top of the zone (first) instead of at the bottom (default false).",
            default=False),
    )

    def build(self, ctx: StepContext, opts: Options) -> None:
        if opts.given("cards") == opts.given("from"):
            opts.mistake("a move needs either cards: (an expression) or from: (zones), not both")
        self.each = opts.get("each")
        names = {"seat": SEAT}
        self.cards = opts.get("cards", names)
        if self.cards is not None and self.cards.type.kind not in ("card", "list") and not self.cards.type.literal_none:
            opts.mistake(f"cards must give a card or a list of cards, found {self.cards.type}", "cards")
        self.sources = opts.get("from") or []
        # where its cards are looked for, when a card is its kind (runtime/moves.py): the from zones, or the places
        # the cards expression reads (those that are zones; none, or a card that may come from elsewhere: every zone)
        self.looks_in = tuple(self.sources) or (tuple(sorted(places_read(self.cards.part) or ()))
                                              if self.cards is not None and self.cards.part is not None else ())
        self.to = opts.get("to")
        self.to_per_seat = self.to in ctx.seat_zones
        self.owner = opts.get("owner", names, expect="seat")
        if not opts.ok("to"):  # an unknown zone: whether it needs an owner cannot be told
            pass
        elif self.to_per_seat and not opts.given("owner") and not opts.given("each"):
            opts.mistake(f"zone {self.to!r} belongs to each seat: say whose with owner: (a seat expression) "
                         "or move for each seat with each:", "to")
        elif not self.to_per_seat and opts.given("owner"):
            opts.mistake(f"zone {self.to!r} is shared; owner: is only for per-seat zones", "owner")
        self.top = bool(opts.get("top"))
        self.seat_zones = set(ctx.seat_zones)
        self.deck_size = len(ctx.card_kinds)

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """Every card to move and its destination worked out first, in place; then all cards move together."""
        shape = x.shape
        names = x.outer_locals(w, [self.each, self.cards, self.owner])
        per_seat = {**names, "seat": "_v_seat"} if self.each is not None else names
        w("e = {'$s': state}")
        if self.each is not None:
            x.assign(w, "listed", self.each, names)
            w("seats = list(listed) if isinstance(listed, (list, tuple)) else [listed]")
        else:
            w("seats = [None]")
        w("plan = []", "owners = []", "planned = set()")
        with w.block("for _v_seat in seats:"):
            if self.cards is not None:
                x.assign(w, "value", self.cards, per_seat)
                at = str(self.cards.position)
                w(f"cards = {x.ref(cards_of)}({at!r}, value, {self.deck_size}, {shape.kinds!r})")
            else:
                self._write_sources(x, w)
            if not shape.kinds:  # a card listed twice (by two seats) moves once; kinds: where it is looked for
                w("cards = [c for c in cards if c not in planned]", "planned.update(cards)")
            with w.block("if not cards:"):
                w("continue")
            if self.to_per_seat:
                if self.owner is not None:
                    x.assign(w, "owner", self.owner, per_seat, "seat")
                else:
                    w("owner = _v_seat")
                with w.block(f"if not isinstance(owner, int) or not 0 <= owner < {x.game.players}:"):
                    # the seat came from owner, else from each (a per-seat zone needs one of them)
                    at = str((self.owner if self.owner is not None else self.each).position)
                    w(f"raise {x.ref(no_seat)}({at!r}, {self.to!r}, owner)")
                w(f"dest = {shape.seat_zone('state', self.to, 'owner')}")
            else:
                w("owner = None", f"dest = {shape.zone('state', self.to)}")
            w("plan.append((cards, dest, owner))", "owners.append(_v_seat)")
        w(f"{x.ref(shape.moves.carrier(self))}(state, plan, owners)")

    def _write_sources(self, x: ListWriter, w: Lines) -> None:
        """``cards``: every card of the ``from`` zones (every seat's, for a per-seat zone; with each, only that
        seat's)."""
        shape = x.shape
        w("cards = []")
        for z in self.sources:
            if z not in self.seat_zones:
                w(f"cards.extend({shape.zone('state', z)})")
            elif self.each is not None:
                w(f"cards.extend({shape.seat_zone('state', z, '_v_seat')})")
            else:
                for s in range(x.game.players):
                    w(f"cards.extend({shape.seat_zone('state', z, str(s))})")

    def _carry_out(self, state: State, plan: list[tuple[list[int], list[int], int | None]],
                   owners: list[int | None]) -> None:
        """Every card of the plan from where it is to its destination (the owner's zones looked in first)."""
        moved = 0
        for (cards, dest, _), seat in zip(plan, owners):
            for c in cards:
                state.take(c, seat)
            if self.top:
                dest[:0] = cards
            else:
                dest.extend(cards)
            moved += len(cards)
        game = state.game
        if moved and state.notes is not None and game.zones[self.to].visible == "all":
            labels, names = game.cards.labels, game.seat_names
            state.note("; ".join(f"{', '.join(labels[c] for c in cards)} to "
                                 + (self.to if owner is None else f"{names[owner]}'s {self.to}")
                                 for cards, _, owner in plan))
