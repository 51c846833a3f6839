"""Trick play: lead, follow, find the winner by ordered strengths, collect.

The plain trick: ``strength`` is a list of expressions compared in order (a
tuple), the highest wins, and ``equal_cards`` says whether the later or the
first of equal cards wins. ``follow`` says which cards answer the led card: a
player who holds any must play one. ``capture`` sends some cards of a won
trick to a separate zone (e.g. captured 0s). ``can_win`` excludes seats from
winning. Trick play ends when a trick would start and some seat has no card.

Further capabilities, each optional:

- ``play_if``: the cards that may be played at all (no fallback). A seat that
  holds none is stuck, and ``stuck.to`` says where the trick and every hand
  go: the trick play of the round ends at once.
- ``claim``: after the k-th card of a trick (k below the number of seats) the
  seat that just played, then the earlier ones in playing order, may claim the
  trick (``may`` says who can); at most one claim per trick, and the claimant
  wins it whatever is played later.
- ``exchange``: the winner may swap one hand card for a card of the trick just
  won for which ``match`` holds (``card`` is the hand card, ``taken`` the
  trick card); everyone sees the swap.
- ``split``: the trick has two winners. The winner by ``strength`` chooses
  ``takes`` cards one by one; the best card by ``second.strength`` among those
  for which ``second.eligible`` holds takes the rest (to ``unclaimed`` when
  there is none); ``leads`` says which of them leads the next trick.
- ``keep``: once the cards a seat has won show ``once`` different values of
  the card attribute ``by``, the seat keeps ``choose`` of those values; its
  cards of the other values, now and later, go to the zone ``rest``.

Speed: follow, lead and strength go through :class:`CardTable`, so an
expression that reads only ``card``, ``led`` and round values is evaluated
once per (round values, led card, card) and then looked up.
"""

from __future__ import annotations

import itertools
from typing import Any

from interpreter.dsl.compiler import RUNTIME_ERRORS
from interpreter.dsl.types import CARD, CARDS, SEAT
from interpreter.engine.card_tables import CardTable, allowed, as_bool, as_tuple
from interpreter.engine.steps.base import Decision, Step, StepContext, register

_PLAY, _CLAIM, _TAKE, _KEEP, _EXCHANGE = "play", "claim", "take", "keep", "exchange"


@register
class Tricks(Step):
    kind = "tricks"

    def declare(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        self.counter = spec.get("count", "tricks")
        if self.counter not in ctx.counters:
            ctx.counters.append(self.counter)

    def build(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        self.leader = ctx.expr(path + ("leader",), expect="seat")
        card_env = {"card": CARD, "led": CARD, "seat": SEAT, "trick": CARDS}
        self.follow = ctx.expr(path + ("follow",), card_env) if spec.get("follow") else None
        self.lead = ctx.expr(path + ("lead",), {"card": CARD, "seat": SEAT}) if spec.get("lead") else None
        self.play_if = ctx.expr(path + ("play_if",), card_env) if spec.get("play_if") else None
        self.stuck_zone = ctx.zone(path + ("stuck", "to"), per_seat=False) if spec.get("stuck") else None
        if self.play_if is not None and self.stuck_zone is None:
            raise ctx.error("play_if needs stuck: {to: ZONE}: where the trick and the hands go when a seat "
                            "cannot play", path + ("play_if",))
        strength_env = {"card": CARD, "led": CARD, "seat": SEAT}
        self.strength = [ctx.expr(path + ("strength", i), strength_env) for i in range(len(spec["strength"]))]
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
        self._build_claim(ctx, spec, path)
        self._build_exchange(ctx, spec, path)
        self._build_split(ctx, spec, path)
        self._build_keep(ctx, spec, path)
        kinds = ctx.card_kinds
        self._follow = CardTable([self.follow], kinds, as_bool, True) if self.follow else None
        self._follow_static = self._follow is not None and self._follow.static
        self._lead = CardTable([self.lead], kinds, as_bool, False) if self.lead else None
        self._strength = CardTable(self.strength, kinds, as_tuple, True, lazy=True)
        self._capture_fn = self.capture.fn if self.capture else None
        # fast paths for the plain trick (no claims, no play_if; nothing to do after collecting)
        self._plain_play = self.claim_label is None and self.play_if is None
        self._plain_close = self.keep_by is None and self.exchange_match is None

    def _build_claim(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        claim = spec.get("claim")
        self.claim_label = claim["label"] if claim else None
        self.claim_may = ctx.expr(path + ("claim", "may"), {"seat": SEAT}) if claim and "may" in claim else None

    def _build_exchange(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        exchange = spec.get("exchange")
        self.exchange_match = None
        if exchange:
            self.exchange_match = ctx.expr(path + ("exchange", "match"), {"card": CARD, "taken": CARD, "seat": SEAT})
            self.exchange_may = ctx.expr(path + ("exchange", "may"), {"seat": SEAT}) if "may" in exchange else None

    def _build_split(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        split = spec.get("split")
        self.split_takes = None
        if not split:
            return
        spath = path + ("split",)
        self.split_takes = ctx.constant(spath + ("takes",))
        if not isinstance(self.split_takes, int) or not 1 <= self.split_takes < ctx.players:
            raise ctx.error(f"takes must be a number of cards from 1 to {ctx.players - 1}", spath + ("takes",))
        env = {"card": CARD, "led": CARD, "seat": SEAT}
        second = split["second"]
        self.second_strength = [ctx.expr(spath + ("second", "strength", i), env)
                                for i in range(len(second["strength"]))]
        self.second_eligible = ctx.expr(spath + ("second", "eligible"), env) if "eligible" in second else None
        self.second_later_wins = second.get("equal_cards", "later_wins") == "later_wins"
        self.unclaimed = ctx.zone(spath + ("unclaimed",), per_seat=False)
        self.second_leads = split.get("leads", "first") == "second"

    def _build_keep(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        keep = spec.get("keep")
        self.keep_by = None
        if not keep:
            return
        kpath = path + ("keep",)
        attr = keep["by"]
        if attr not in ctx.compiler.g.card_attrs:
            raise ctx.error(f"cards have no attribute {attr!r}", kpath + ("by",))
        self.keep_by = ctx.compiler.g.card_attrs[attr]
        self.keep_choose = ctx.constant(kpath + ("choose",))
        self.keep_once = ctx.constant(kpath + ("once",))
        if not (isinstance(self.keep_choose, int) and isinstance(self.keep_once, int)
                and 1 <= self.keep_choose < self.keep_once):
            raise ctx.error("keep needs 1 <= choose < once", kpath)
        self.keep_rest = ctx.zone(kpath + ("rest",), per_seat=True)

    # ------------------------------------------------------------------ flow

    def begin(self, game: Any, state: Any) -> None:
        leader = self.leader({"$s": state})
        state.step_data = {"leader": leader, "turn": leader, "plays": [], "number": 0, "last": None,
                           "answers": None, "stage": _PLAY, "over": False, "claimed": None, "queue": [],
                           "take": None, "kept": [None] * game.players}
        self._settle(game, state)

    def _settle(self, game: Any, state: Any) -> None:
        """Before a card is asked for: end trick play when a trick cannot start or a seat is stuck."""
        data = state.step_data
        if data["stage"] != _PLAY or data["over"]:
            return
        hands = state.per_seat[self.hand]
        if not data["plays"] and not all(hands):
            data["over"] = True
            return
        seat = data["turn"]
        if not hands[seat]:
            data["over"] = True
            return
        if self.play_if is not None and not self._playable(game, state, seat):
            names = game.seat_names
            state.note(f"{names[seat]} cannot play: the trick and all hands are out of play")
            dead = state.shared[self.stuck_zone]
            dead.extend(state.shared[self.trick_zone])
            state.shared[self.trick_zone].clear()
            for cards in hands:
                dead.extend(cards)
                cards.clear()
            data["plays"] = []
            data["over"] = True

    def _trick_env(self, state: Any, seat: int) -> dict[str, Any]:
        plays = state.step_data["plays"]
        return {"$s": state, "seat": seat, "led": plays[0][1] if plays else None,
                "trick": [c for _, c in plays]}

    def _playable(self, game: Any, state: Any, seat: int) -> list[int]:
        env = self._trick_env(state, seat)
        allowed = self.play_if.run
        out = []
        for c in state.per_seat[self.hand][seat]:
            env["card"] = c
            if allowed(env):
                out.append(c)
        return out

    def decision(self, game: Any, state: Any) -> Decision | None:
        data = state.step_data
        if data["over"]:
            return None
        stage = data["stage"]
        if stage != _PLAY:
            return self._sub_decision(game, state, stage)
        seat = data["turn"]
        hand = state.per_seat[self.hand][seat]
        plays = data["plays"]
        if self.play_if is not None:
            hand = self._playable(game, state, seat)
        if plays:
            ok = data["answers"]  # fixed for the whole trick: round values and led card do not change
            if ok is not None:
                cands = [c for c in hand if ok[c]] or hand
                if len(cands) == 1:
                    return Decision(seat, cands, self, "play a card")
            elif self._follow is not None:
                cands = allowed(self._follow, state, seat, hand, plays[0][1], [c for _, c in plays])
            else:
                cands = hand
        elif self._lead is not None:
            cands = allowed(self._lead, state, seat, hand, None, [])
        else:
            cands = hand
        kinds = game.cards.kinds
        return Decision(seat, list({kinds[c]: c for c in cands}.values()), self, "play a card")

    def _sub_decision(self, game: Any, state: Any, stage: str) -> Decision:
        data = state.step_data
        kinds = game.cards.kinds
        if stage == _CLAIM:
            return Decision(data["queue"][0], [(_CLAIM, False), (_CLAIM, True)], self,
                            f"call {self.claim_label}?")
        if stage == _TAKE:
            take = data["take"]
            cards = list({kinds[c]: c for c in state.shared[self.trick_zone]}.values())
            return Decision(take["seat"], [(_TAKE, c) for c in cards], self,
                            f"take a card from the trick ({take['left']} to go)")
        if stage == _KEEP:
            seat = data["queue"][0]
            values = sorted({self.keep_by[c] for c in state.per_seat[self.won][seat]}, key=str)
            combos = itertools.combinations(values, self.keep_choose)
            return Decision(seat, [(_KEEP, combo) for combo in combos], self, "choose what to keep")
        seat = data["exchange"]
        return Decision(seat, [(_EXCHANGE, None)] + self._swaps(game, state, seat), self, "exchange a card?")

    def _swaps(self, game: Any, state: Any, seat: int) -> list[tuple[str, tuple[int, int]]]:
        kinds = game.cards.kinds
        won = state.per_seat[self.won][seat]
        trick_cards = [c for _, c in state.step_data["last"]["plays"] if c in won]
        match = self.exchange_match.run
        env: dict[str, Any] = {"$s": state, "seat": seat}
        seen: dict[tuple[int, int], tuple[int, int]] = {}
        for h in state.per_seat[self.hand][seat]:
            env["card"] = h
            for t in trick_cards:
                env["taken"] = t
                if match(env):
                    seen.setdefault((kinds[h], kinds[t]), (h, t))
        return [(_EXCHANGE, pair) for pair in seen.values()]

    # ------------------------------------------------------------------ strengths

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

    def _winner(self, game: Any, state: Any, plays: list[tuple[int, int]]) -> int:
        keys = self._strengths(state, plays)
        eligible = None
        if self.can_win is not None:
            eligible = {s for s, _ in plays if self.can_win({"$s": state, "seat": s})}
        return _best(plays, keys, self.later_wins, eligible) if eligible != set() else plays[0][0]

    def _second(self, game: Any, state: Any, plays: list[tuple[int, int]]) -> int | None:
        env: dict[str, Any] = {"$s": state, "led": plays[0][1]}
        keys, eligible = [], set()
        for seat, c in plays:
            env["card"], env["seat"] = c, seat
            keys.append(tuple(e(env) for e in self.second_strength))
            if self.second_eligible is None or self.second_eligible(env):
                eligible.add(seat)
        return _best(plays, keys, self.second_later_wins, eligible) if eligible else None

    # ------------------------------------------------------------------ moves

    def apply(self, game: Any, state: Any, action: Any) -> Decision | None:
        data = state.step_data
        if data["stage"] != _PLAY:
            self._apply_sub(game, state, action)
            self._settle(game, state)
            return None
        card = action
        seat = data["turn"]
        state.per_seat[self.hand][seat].remove(card)
        state.shared[self.trick_zone].append(card)
        plays = data["plays"]
        plays.append((seat, card))
        n = game.players
        if len(plays) == 1 and self._follow_static:
            data["answers"] = self._follow.table(state, card)  # shared, never changed
        if len(plays) < n:
            data["turn"] = (seat + 1) % n
            if self._plain_play:
                return self.decision(game, state)
            if self.claim_label is not None and data["claimed"] is None:
                self._offer_claims(state, plays)
            if data["stage"] == _PLAY:
                if self.play_if is not None:
                    self._settle(game, state)
                    return None
                return self.decision(game, state)
            return None
        self._resolve(game, state, plays)
        self._settle(game, state)
        return None if data["stage"] != _PLAY or data["over"] else self.decision(game, state)

    def _offer_claims(self, state: Any, plays: list[tuple[int, int]]) -> None:
        """After the k-th card: the seat that just played may claim first, then the earlier ones in order."""
        order = [plays[-1][0]] + [s for s, _ in plays[:-1]]
        if self.claim_may is not None:
            order = [s for s in order if self.claim_may({"$s": state, "seat": s})]
        if order:
            state.step_data["queue"] = order
            state.step_data["stage"] = _CLAIM

    def _resolve(self, game: Any, state: Any, plays: list[tuple[int, int]]) -> None:
        data = state.step_data
        winner = data["claimed"] if data["claimed"] is not None else self._winner(game, state, plays)
        state.counters[self.counter][winner] += 1
        data["last"] = {"plays": plays, "winner": winner}  # a new list is started when the trick closes
        names, labels = game.seat_names, game.cards.labels
        if state.notes is not None:
            shown = ", ".join(f"{names[s]} {labels[c]}" for s, c in plays)
            claimed = f" ({self.claim_label})" if data["claimed"] is not None else ""
            state.note(f"Trick {data['number'] + 1}: {shown} -> {names[winner]} wins{claimed}")
        if self.split_takes is not None:
            second = self._second(game, state, plays)
            data["take"] = {"seat": winner, "second": second, "left": self.split_takes}
            data["stage"] = _TAKE
            if second is not None and state.notes is not None:
                state.note(f"{names[winner]} chooses {self.split_takes} cards, {names[second]} takes the rest")
            return
        self._collect(game, state, plays, winner)
        if self._plain_close:
            self._close(state)
        else:
            self._after_intake(game, state, [winner])

    def _collect(self, game: Any, state: Any, plays: list[tuple[int, int]], winner: int) -> None:
        trick = state.shared[self.trick_zone]
        if self.capture is not None:
            won = state.per_seat[self.won][winner]
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
            self._intake(state, winner, list(trick))
        trick.clear()

    def _intake(self, state: Any, seat: int, cards: list[int]) -> None:
        """Cards won by ``seat``: to its won zone, or to ``keep.rest`` when of a value it dropped."""
        won = state.per_seat[self.won][seat]
        kept = state.step_data["kept"][seat] if self.keep_by is not None else None
        if kept is None:
            won.extend(cards)
            return
        rest = state.per_seat[self.keep_rest][seat]
        for c in cards:
            (won if self.keep_by[c] in kept else rest).append(c)

    def _after_intake(self, game: Any, state: Any, seats: list[int]) -> None:
        """Queue the keep choices now due, then the exchange, then close the trick."""
        data = state.step_data
        if self.keep_by is not None:
            due = []
            for s in seats:
                if s is not None and data["kept"][s] is None and s not in due:
                    values = {self.keep_by[c] for c in state.per_seat[self.won][s]}
                    if len(values) >= self.keep_once:
                        due.append(s)
            if due:
                data["queue"] = due
                data["stage"] = _KEEP
                return
        self._exchange_or_close(game, state)

    def _exchange_or_close(self, game: Any, state: Any) -> None:
        data = state.step_data
        winner = data["last"]["winner"]
        if (self.exchange_match is not None and state.per_seat[self.hand][winner]
                and (self.exchange_may is None or self.exchange_may({"$s": state, "seat": winner}))
                and self._swaps(game, state, winner)):
            data["exchange"] = winner
            data["stage"] = _EXCHANGE
            return
        self._close(state)

    def _next_leader(self, state: Any) -> int:
        data = state.step_data
        take = data["take"]
        if take is not None and self.second_leads and take["second"] is not None:
            return take["second"]
        return data["last"]["winner"]

    def _close(self, state: Any) -> None:
        data = state.step_data
        leader = self._next_leader(state)
        data["plays"] = []
        data["answers"] = None
        data["claimed"] = None
        data["take"] = None
        data["queue"] = []
        data["stage"] = _PLAY
        data["number"] += 1
        data["leader"] = data["turn"] = leader

    def _apply_sub(self, game: Any, state: Any, action: tuple[str, Any]) -> None:
        data = state.step_data
        what, value = action
        labels = game.cards.labels
        if what == _CLAIM:
            seat = data["queue"].pop(0)
            if value:
                data["claimed"] = seat
                data["queue"] = []
            if not data["queue"]:
                data["stage"] = _PLAY
        elif what == _TAKE:
            take = data["take"]
            state.shared[self.trick_zone].remove(value)
            self._intake(state, take["seat"], [value])
            take["left"] -= 1
            trick = state.shared[self.trick_zone]
            if take["left"] == 0 or not trick:
                rest = list(trick)
                trick.clear()
                if take["second"] is not None:
                    self._intake(state, take["second"], rest)
                else:
                    state.shared[self.unclaimed].extend(rest)
                    if rest and state.notes is not None:
                        state.note(f"Nobody takes {', '.join(labels[c] for c in rest)}: out of play")
                self._after_intake(game, state, [take["seat"], take["second"]])
        elif what == _KEEP:
            seat = data["queue"].pop(0)
            data["kept"][seat] = value
            won = state.per_seat[self.won][seat]
            dropped = [c for c in won if self.keep_by[c] not in value]
            won[:] = [c for c in won if self.keep_by[c] in value]
            state.per_seat[self.keep_rest][seat].extend(dropped)
            if not data["queue"]:
                self._exchange_or_close(game, state)
        else:  # exchange
            seat = data["exchange"]
            if value is not None:
                given, taken = value
                hand, won = state.per_seat[self.hand][seat], state.per_seat[self.won][seat]
                hand.remove(given)
                won.remove(taken)
                hand.append(taken)
                won.append(given)
                data["last"]["swap"] = (seat, given, taken)  # shown to everyone
            data["exchange"] = None
            self._close(state)

    # ------------------------------------------------------------------ text

    def public(self, game: Any, state: Any) -> dict[str, Any]:
        data = state.step_data
        names, labels = game.seat_names, game.cards.labels
        out: dict[str, Any] = {"trick": [[names[s], labels[c]] for s, c in data["plays"]],
                               "tricks_played": data["number"]}
        if data["last"]:
            out["last_trick"] = {"cards": [[names[s], labels[c]] for s, c in data["last"]["plays"]],
                                 "winner": names[data["last"]["winner"]]}
            swap = data["last"].get("swap")
            if swap:
                out["last_trick"]["swap"] = {"seat": names[swap[0]], "gave": labels[swap[1]], "took": labels[swap[2]]}
        if data["claimed"] is not None:
            out["claimed_by"] = names[data["claimed"]]
        if self.keep_by is not None:
            out["kept"] = {names[s]: list(k) for s, k in enumerate(data["kept"]) if k is not None}
        return out

    def describe(self, game: Any, state: Any, action: Any, viewer: int | None = None) -> str | None:
        labels = game.cards.labels
        if not isinstance(action, tuple):
            return f"plays {labels[action]}"
        what, value = action
        if what == _CLAIM:
            return f"calls {self.claim_label}!" if value else None
        if what == _TAKE:
            return f"takes {labels[value]}"
        if what == _KEEP:
            return "keeps " + " and ".join(map(str, value))
        if value is None:
            return None
        return f"swaps {labels[value[0]]} from the hand for {labels[value[1]]} from the trick"

    def label(self, game: Any, state: Any, action: Any) -> str:
        labels = game.cards.labels
        if not isinstance(action, tuple):
            return labels[action]
        what, value = action
        if what == _CLAIM:
            return self.claim_label if value else f"no {self.claim_label}"
        if what == _TAKE:
            return f"take {labels[value]}"
        if what == _KEEP:
            return "keep " + " + ".join(map(str, value))
        if value is None:
            return "no exchange"
        return f"swap {labels[value[0]]} for {labels[value[1]]}"


def _best(plays: list[tuple[int, int]], keys: list[tuple], later_wins: bool, eligible: set[int] | None) -> int:
    best = None
    winner = plays[0][0]
    for (seat, _card), key in zip(plays, keys):
        if eligible is not None and seat not in eligible:
            continue
        if best is None or key > best or (later_wins and key == best):
            best, winner = key, seat
    return winner

