"""Trick play: lead, follow, find the winner by ordered strengths, collect.

``strength`` is a list of expressions compared in order (a tuple): the
highest wins; ``equal_cards`` says whether the later or the first of equal
cards wins. ``follow`` says which cards answer the led card: a player who
holds any must play one. ``capture`` sends some cards of a won trick to a
separate zone (e.g. captured 0s). ``can_win`` excludes seats from winning.

Speed: follow, lead and strength go through :class:`CardTable`, so an
expression that reads only ``card``, ``led`` and round values is evaluated
once per (round values, led card, card) and then looked up.
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.compiler import RUNTIME_ERRORS
from interpreter.dsl.types import CARD, SEAT
from interpreter.engine.card_tables import CardTable, as_bool, as_tuple
from interpreter.engine.steps.base import Decision, Step, StepContext, register


@register
class Tricks(Step):
    kind = "tricks"

    def declare(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        self.counter = spec.get("count", "tricks")
        if self.counter not in ctx.counters:
            ctx.counters.append(self.counter)

    def build(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        self.leader = ctx.expr(path + ("leader",), expect="seat")
        card_env = {"card": CARD, "led": CARD, "seat": SEAT}
        self.follow = ctx.expr(path + ("follow",), card_env) if spec.get("follow") else None
        self.lead = ctx.expr(path + ("lead",), {"card": CARD, "seat": SEAT}) if spec.get("lead") else None
        self.strength = [ctx.expr(path + ("strength", i), card_env) for i in range(len(spec["strength"]))]
        self.later_wins = spec.get("equal_cards", "later_wins") == "later_wins"
        self.can_win = ctx.expr(path + ("can_win",), {"seat": SEAT}) if spec.get("can_win") else None
        self.hand = ctx.zone(path + ("from",), per_seat=True) if "from" in spec else "hand"
        self.trick_zone = ctx.zone(path + ("trick",), per_seat=False) if "trick" in spec else "trick"
        if self.trick_zone not in ctx.shared_zones:
            raise ctx.error("trick play needs a shared zone named 'trick' (or say trick: ZONE)", path)
        self.won = ctx.zone(path + ("to",), per_seat=True)
        cap = spec.get("capture")
        self.capture = None
        if cap:
            self.capture = ctx.expr(path + ("capture", "cards"), {"card": CARD, "player": SEAT, "winner": SEAT})
            self.capture_zone = ctx.zone(path + ("capture", "to"), per_seat=True)
        kinds = ctx.card_kinds
        self._follow = CardTable([self.follow], kinds, as_bool, True) if self.follow else None
        self._follow_static = self._follow is not None and self._follow.static
        self._lead = CardTable([self.lead], kinds, as_bool, False) if self.lead else None
        self._strength = CardTable(self.strength, kinds, as_tuple, True, lazy=True)
        self._capture_fn = self.capture.fn if self.capture else None

    # -- decisions

    def begin(self, game: Any, state: Any) -> None:
        leader = self.leader({"$s": state})
        state.step_data = {"leader": leader, "turn": leader, "plays": [], "number": 0, "last": None,
                           "answers": None}

    def decision(self, game: Any, state: Any) -> Decision | None:
        data = state.step_data
        seat = data["turn"]
        hand = state.per_seat[self.hand][seat]
        if not hand:
            return None
        plays = data["plays"]
        if plays:
            ok = data["answers"]  # fixed for the whole trick: round values and led card do not change
            if ok is not None:
                cands = [c for c in hand if ok[c]] or hand
                if len(cands) == 1:
                    return Decision(seat, cands, self, "play a card")
            elif self._follow is not None:
                cands = _allowed(self._follow, state, seat, hand, plays[0][1])
            else:
                cands = hand
        elif self._lead is not None:
            cands = _allowed(self._lead, state, seat, hand, None)
        else:
            cands = hand
        kinds = game.cards.kinds
        return Decision(seat, list({kinds[c]: c for c in cands}.values()), self, "play a card")

    def _strengths(self, state: Any, plays: list[tuple[int, int]]) -> list[tuple]:
        table = self._strength
        led = plays[0][1]
        if table.static:
            values = table.table(state, led)
            out = []
            for _, c in plays:
                v = values[c]
                out.append(table.fill(values, state, led, c) if v is None else v)
            return out
        env = {"$s": state, "led": led}
        out = []
        for seat, c in plays:
            env["card"] = c
            env["seat"] = seat
            out.append(table.value(env))
        return out

    def apply(self, game: Any, state: Any, card: int) -> Decision | None:
        data = state.step_data
        seat = data["turn"]
        state.per_seat[self.hand][seat].remove(card)
        state.shared[self.trick_zone].append(card)
        plays = data["plays"]
        plays.append((seat, card))
        if len(plays) == 1 and self._follow_static:
            data["answers"] = self._follow.table(state, card)  # shared, never changed
        if len(plays) < game.players:
            data["turn"] = (seat + 1) % game.players
            return self.decision(game, state)
        winner = self._winner(game, state, plays)
        self._collect(game, state, plays, winner)
        data["last"] = {"plays": plays, "winner": winner}  # a new list is started below
        if state.notes is not None:
            names, labels = game.seat_names, game.cards.labels
            shown = ", ".join(f"{names[s]} {labels[c]}" for s, c in plays)
            state.note(f"Trick {data['number'] + 1}: {shown} -> {names[winner]} wins")
        data["plays"] = []
        data["answers"] = None
        data["number"] += 1
        data["leader"] = data["turn"] = winner
        return self.decision(game, state)

    def _winner(self, game: Any, state: Any, plays: list[tuple[int, int]]) -> int:
        keys = self._strengths(state, plays)
        eligible = None
        if self.can_win is not None:
            eligible = {s for s, _ in plays if self.can_win({"$s": state, "seat": s})}
        best = None
        winner = plays[0][0]
        later = self.later_wins
        for (seat, _card), key in zip(plays, keys):
            if eligible is not None and seat not in eligible:
                continue
            if best is None or key > best or (later and key == best):
                best, winner = key, seat
        return winner

    def _collect(self, game: Any, state: Any, plays: list[tuple[int, int]], winner: int) -> None:
        trick = state.shared[self.trick_zone]
        won = state.per_seat[self.won][winner]
        if self.capture is not None:
            captured = state.per_seat[self.capture_zone][winner]
            capture = self._capture_fn
            env = {"$s": state, "winner": winner}
            try:
                for seat, card in plays:
                    env["card"] = card
                    env["player"] = seat
                    (captured if capture(env) else won).append(card)
            except RUNTIME_ERRORS:
                self.capture(env)  # evaluates again through the checked path: names the expression
                raise
        else:
            won.extend(trick)
        trick.clear()
        state.counters[self.counter][winner] += 1

    def public(self, game: Any, state: Any) -> dict[str, Any]:
        data = state.step_data
        names, labels = game.seat_names, game.cards.labels
        out: dict[str, Any] = {"trick": [[names[s], labels[c]] for s, c in data["plays"]],
                               "tricks_played": data["number"]}
        if data["last"]:
            out["last_trick"] = {"cards": [[names[s], labels[c]] for s, c in data["last"]["plays"]],
                                 "winner": names[data["last"]["winner"]]}
        return out

    def describe(self, game: Any, state: Any, card: int, viewer: int | None = None) -> str:
        return f"plays {game.cards.labels[card]}"

    def label(self, game: Any, state: Any, card: int) -> str:
        return game.cards.labels[card]


def _allowed(table: CardTable, state: Any, seat: int, hand: list[int], led: int | None) -> list[int]:
    """The cards of ``hand`` the rule allows, or the whole hand when it allows none."""
    if table.static:
        ok = table.table(state, led)
        return [c for c in hand if ok[c]] or hand
    env = {"$s": state, "seat": seat, "led": led}
    good = []
    for c in hand:
        env["card"] = c
        if table.value(env):
            good.append(c)
    return good or hand
