"""Every seat sets aside cards from its hand, one card per decision.

With ``to: cache`` each chosen card goes straight to the seat's own zone.
With ``hold: ZONE`` the chosen cards wait there (declare it visible to its
owner only) and move only once every seat has chosen, so the choice is
simultaneous in effect; passing to a neighbour (``of: left|right``, e.g.
``to: hand``) requires a hold zone.
``prefer`` restricts the choice to matching cards while the hand has any.
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.types import CARD, SEAT
from interpreter.engine.card_tables import CardTable, allowed, as_bool
from interpreter.engine.steps.base import Decision, Step, StepContext, register

_DIRECTIONS = {"self": 0, "left": 1, "right": -1}


@register
class SelectCards(Step):
    kind = "select_cards"

    def build(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        self.count = ctx.expr(path + ("count",), {"seat": SEAT})
        prefer = ctx.expr(path + ("prefer",), {"card": CARD, "seat": SEAT}) if spec.get("prefer") else None
        self.prefer = CardTable([prefer], ctx.card_kinds, as_bool, False) if prefer else None
        self.source = ctx.zone(path + ("from",), per_seat=True) if "from" in spec else "hand"
        self.target = ctx.zone(path + ("to",), per_seat=True)
        self.shift = _DIRECTIONS[spec.get("of", "self")]
        self.hold = ctx.zone(path + ("hold",), per_seat=True) if "hold" in spec else None
        if self.shift and self.hold is None:
            raise ctx.error("cards passed to another seat need a hold zone where they wait "
                            "until everyone has chosen (hold: ZONE)", path)
        self.verb = spec.get("verb") or ("pass" if self.shift else "discard")

    def begin(self, game: Any, state: Any) -> None:
        n = game.players
        first = (state.dealer + 1) % n
        order = [(first + i) % n for i in range(n)]
        need = {}
        for s in order:
            k = self.count({"$s": state, "seat": s})
            need[s] = max(0, min(int(k), len(state.per_seat[self.source][s])))
        state.step_data = {"order": [s for s in order if need[s]], "need": need}

    def decision(self, game: Any, state: Any) -> Decision | None:
        data = state.step_data
        if not data["order"]:
            return None
        seat = data["order"][0]
        hand = state.per_seat[self.source][seat]
        cands = allowed(self.prefer, state, seat, hand, None, []) if self.prefer is not None else hand
        kinds = game.cards.kinds
        actions = list({kinds[c]: c for c in cands}.values())
        return Decision(seat, actions, self, f"{self.verb} a card ({data['need'][seat]} to go)")

    def apply(self, game: Any, state: Any, card: int) -> None:
        data = state.step_data
        seat = data["order"][0]
        state.per_seat[self.source][seat].remove(card)
        if self.hold is not None:
            state.per_seat[self.hold][seat].append(card)
        else:
            state.per_seat[self.target][seat].append(card)
        data["need"][seat] -= 1
        if data["need"][seat] == 0:
            data["order"].pop(0)
            if not data["order"] and self.hold is not None:
                self._deliver(game, state)

    def _deliver(self, game: Any, state: Any) -> None:
        n = game.players
        held = state.per_seat[self.hold]
        target = state.per_seat[self.target]
        for s in range(n):
            target[(s + self.shift) % n].extend(held[s])
        for s in range(n):
            held[s].clear()

    def describe(self, game: Any, state: Any, card: int, viewer: int | None = None) -> str:
        verb = f"{self.verb}es" if self.verb.endswith("s") else f"{self.verb}s"
        seat = state.step_data["order"][0]
        hidden_zone = self.hold or self.target
        if viewer is not None and viewer != seat and game.zones[hidden_zone].visible != "all":
            return f"{verb} a card"
        return f"{verb} {game.cards.labels[card]}"

    def label(self, game: Any, state: Any, card: int) -> str:
        return game.cards.labels[card]
