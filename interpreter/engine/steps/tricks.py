"""``tricks``: play tricks until a trick cannot start, from parts that compose.

A trick: the leader plays, then each seat clockwise. What may be played is a
list of obligations (``lead``, ``follow``; each ``must``, optionally bound to
``holding`` a card, with ``otherwise: any`` or ``end``). Cards come from one or
more zones (``from``). ``led`` says which card sets the suit (default the first).
The winner is the best card by ``strength`` among the seats ``can_win`` allows,
unless ``won_by`` names a seat (a claim). ``takers`` share the cards (the winner
first, choosing ``takes`` cards; then further takers by their own orderings);
``route`` sends single cards elsewhere (captures, dropped colours), the rest go
to the taker's ``to`` zone. Steps in ``between_plays`` run after every card but
the last, steps in ``after_trick`` after the cards are taken. ``next_leader``
says who leads next (default the winner).
"""

from __future__ import annotations

from typing import Any, cast

from interpreter.dsl.compiler import ExpressionFailed
from interpreter.dsl.types import CARD, CARDS, SEAT, SEATS, Type, list_of
from interpreter.engine.card_values import card_kinds
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.base import (
    COMMON,
    Opt,
    Play,
    Running,
    Step,
    StepContext,
    Take,
    bind_nested,
    build_steps,
    finish_steps,
    pending,
    register,
)
from interpreter.engine.steps.trick_parts import (
    ROUTE_FIELDS,
    RULE_FIELDS,
    STUCK,
    TAKER_FIELDS,
    Ordering,
    Taker,
    apply_rules,
    refusal_text,
    refusing_rule,
    routes,
    rules,
)
from interpreter.errors import GameError

BETWEEN_NAMES: dict[str, Type] = {"player": SEAT, "trick": CARDS, "trick_seats": SEATS, "led": CARD}
AFTER_NAMES: dict[str, Type] = {"winner": SEAT, "takers": SEATS, "last_trick": CARDS, "trick_seats": SEATS}


class _Tricks:
    __slots__ = ("leader", "turn", "plays", "number", "answers", "over", "hook", "winner", "takers", "taking",
                 "left", "last", "active")

    def __init__(self, leader: int):
        self.leader = self.turn = leader
        self.plays: list[tuple[int, int]] = []
        self.number = 0
        self.answers: list[Any] | None = None  # the follow table of this trick (fixed once the card is led)
        self.over = False
        self.hook: Running | None = None  # the nested steps running (between plays, after the trick)
        self.winner: int | None = None
        self.takers: list[int | None] = []
        self.taking = -1  # index of the taker choosing cards, or -1
        self.left = 0  # cards that taker still chooses
        self.last: list[tuple[int, int]] = []  # the plays of the last finished trick
        self.active: list[int] | None = None  # the seats that play, when not every seat does

    def copy(self) -> _Tricks:
        other = _Tricks.__new__(_Tricks)
        other.leader, other.turn, other.number = self.leader, self.turn, self.number
        other.plays = list(self.plays)
        other.answers = self.answers  # shared, never changed
        other.over, other.winner, other.taking, other.left = self.over, self.winner, self.taking, self.left
        other.hook = None if self.hook is None else self.hook.copy()
        other.takers = list(self.takers)
        other.last = self.last  # replaced, never changed
        other.active = self.active  # never changed
        return other


@register
class Tricks(Step):
    kind = "tricks"
    decides = True
    loops = True
    summary = ("Play tricks until one cannot start (some seat has no card left) or an obligation with "
               "otherwise: end leaves a seat nothing to play.")
    options = COMMON + (
        Opt("leader", "seat", "Who leads the first trick, e.g. left(round.dealer) or round.start.", required=True),
        Opt("from", "zones", "The per-seat zones cards are played from (default hand), e.g. [hand, revealed]."),
        Opt("seats", "seats", "The seats that play tricks this round; play goes clockwise among them (default "
            "every seat), "
            "e.g. \"[s for s in seats if s != round.partner_out]\" when a partner sits out."),
        Opt("led", "expr", "Which card of the trick so far sets the suit (default: the first card), e.g. "
            "\"first([c for c in trick if c.rank != 'jester'])\"; none until there is one.", binds=("trick",),
            gives="card or none"),
        Opt("lead", "rules", "Obligations on the card that leads a trick: a condition (must, if the seat can), "
            "a rule {must, holding, otherwise} or a list of rules applied in order.", fields=RULE_FIELDS),
        Opt("follow", "rules", "Obligations on every later card, e.g. \"card.colour == led.colour\" (follow "
            "colour if you can).", fields=RULE_FIELDS),
        Opt("strength", "ordering", "The winner: expressions compared in order, the highest wins, e.g. "
            "[\"card.colour == round.trump\", \"card.colour == led.colour\", \"card.number\"]; trick is every "
            "card of the trick, in playing order.", binds=("card", "led", "seat", "trick"), required=True),
        Opt("equal_cards", "enum", "Of equal cards: later_wins (default) or first_wins.",
            choices=("later_wins", "first_wins"), default="later_wins"),
        Opt("can_win", "condition", "Only seats for which this holds can win a trick (e.g. \"seat.tricks < "
            "2\"); when none can, the leader wins.", binds=("seat",)),
        Opt("won_by", "seat", "A seat that wins the trick whatever is played (a claim), or none: usually a "
            "round value set by a choice between plays, e.g. round.claimant."),
        Opt("takers", "list", "How the trick's cards are shared: the winner first, then more takers found by "
            "their own orderings. Default: the winner takes every card.", fields=TAKER_FIELDS),
        Opt("unclaimed", "zone", "The shared zone for cards no taker takes (a taker that is not found)."),
        Opt("route", "list", "Rules for single cards, tried in order for each card taken: the first whose "
            "when holds sends the card to its zone, e.g. captured 0s.", fields=ROUTE_FIELDS),
        Opt("to", "zone", "The per-seat zone a taker's cards go to (its won tricks).", required=True),
        Opt("next_leader", "seat", "Who leads the next trick (default: the winner).",
            binds=("winner", "takers")),
        Opt("decided_by", "seat", "The seat that decides which card a seat plays (default: the seat itself), "
            "e.g. \"round.declarer if seat == round.dummy else seat\": the declarer plays the dummy's cards. The "
            "deciding seat is the one asked (and named in records); give the cards it decides from a zone it "
            "sees.", binds=("seat",)),
        Opt("count", "name", "The counter of tricks won, read as seat.NAME (default tricks).", default="tricks"),
        Opt("trick", "zone", "The shared zone the trick is played to (default trick).", default="trick"),
        Opt("per_trick", "names", "Round values that go back to none when a trick starts (e.g. a claim)."),
        Opt("between_plays", "steps", "Steps run after every card but the last (choose, move, set, teams, "
            "reveal); they see player, trick, trick_seats and led.", binds=tuple(BETWEEN_NAMES)),
        Opt("after_trick", "steps", "Steps run after the trick is taken; they see winner, takers, last_trick "
            "and trick_seats.", binds=tuple(AFTER_NAMES)),
    )

    # ------------------------------------------------------------------ compile

    def declare(self, ctx: StepContext, spec: dict[str, Any]) -> None:
        self.counter = self.value(spec, "count")
        if self.counter not in ctx.counters:
            ctx.counters.append(self.counter)
        self.between = build_steps(ctx, spec.get("between_plays") or {}, self.path + ("between_plays",), True)
        self.after = build_steps(ctx, spec.get("after_trick") or {}, self.path + ("after_trick",), True)
        bind_nested(self.between, BETWEEN_NAMES)
        bind_nested(self.after, AFTER_NAMES)
        for step in self.between:
            step.outer = self._between_env
        for step in self.after:
            step.outer = self._after_env

    def inner_steps(self) -> list[Step]:
        return self.between + self.after

    def won_zones(self) -> tuple[str, ...]:
        return (self.won,)

    def build(self, ctx: StepContext, spec: dict[str, Any]) -> None:
        path = self.path
        self.leader = self.read(ctx, "leader", expect="seat")
        self.active = self.read(ctx, "seats") if "seats" in spec else None
        self.zones = ctx.zones(path + ("from",), per_seat=True) if "from" in spec else ["hand"]
        if "hand" in self.zones and "hand" not in ctx.seat_zones:
            raise ctx.error("trick play needs a per-seat zone named 'hand' (or say from: ZONE)", path)
        self.led = self.read(ctx, "led", {"trick": CARDS}) if "led" in spec else None  # a card or none
        self.lead_rules = rules(ctx, path + ("lead",), self.bound)
        self.follow_rules = rules(ctx, path + ("follow",), self.bound)
        self.ordering = Ordering(ctx, path + ("strength",), spec["strength"], self.bound, None,
                                 self.value(spec, "equal_cards") == "later_wins", self.declared("strength"))
        self.can_win = self.read(ctx, "can_win", {"seat": SEAT}) if "can_win" in spec else None
        self.won_by = self.read(ctx, "won_by", expect="seat or none") if "won_by" in spec else None
        self.decided_by = self.read(ctx, "decided_by", {"seat": SEAT}, expect="seat") if "decided_by" in spec \
            else None
        self.takers = self._takers(ctx, spec)
        # every taker after the winner has its own ordering (see _takers)
        self._later_orderings = [t.ordering for t in self.takers[1:] if t.ordering is not None]
        self.unclaimed = ctx.zone(path + ("unclaimed",), per_seat=False) if "unclaimed" in spec else None
        if self.unclaimed is None:
            if any(t.ordering is not None for t in self.takers[1:]):
                raise ctx.error("a taker found by an ordering may be missing: say where its cards go with "
                                "unclaimed: ZONE", path + ("takers",))
            if self.takers[-1].takes is not None:
                raise ctx.error("the last taker chooses a number of cards, so some may be left: take the rest "
                                "with a later taker or say where they go with unclaimed: ZONE", path + ("takers",))
        self.routes = routes(ctx, path + ("route",), self.bound)
        self.won = ctx.zone(path + ("to",), per_seat=True)
        self.trick_zone = ctx.zone(path + ("trick",), per_seat=False) if "trick" in spec else self.value(spec, "trick")
        if self.trick_zone not in ctx.shared_zones:
            raise ctx.error("trick play needs a shared zone named 'trick' (or say trick: ZONE)", path)
        self.next_leader = self.read(ctx, "next_leader", {"winner": SEAT, "takers": SEATS}, expect="seat") \
            if "next_leader" in spec else None
        self.per_trick = list(spec.get("per_trick") or [])
        for i, name in enumerate(self.per_trick):
            if name not in ctx.round_fields:
                raise ctx.error(f"unknown round value {name!r}", path + ("per_trick", i))
        finish_steps(ctx, self.between)
        finish_steps(ctx, self.after)
        kinds = ctx.card_kinds
        self._kinds = kinds
        self._plays = [[Play(c, z) for c in range(len(kinds))] for z in range(len(self.zones))]
        self._takes = [Take(c) for c in range(len(kinds))]
        self._single_zone = len(self.zones) == 1

    def _takers(self, ctx: StepContext, spec: dict[str, Any]) -> list[Taker]:
        items = spec.get("takers")
        if not items:
            return [Taker(None, None)]
        out = []
        tpath = self.path + ("takers",)
        part = {opt.key: opt for opt in TAKER_FIELDS}
        for i, item in enumerate(items):
            ipath = tpath + (i,)
            if i == 0 and ("strength" in item or "eligible" in item):
                raise ctx.error("the first taker is the trick's winner (found by the trick's strength); "
                                "give strength only to later takers", ipath)
            if i > 0 and "strength" not in item:
                raise ctx.error("a taker after the winner needs its own strength", ipath)
            ordering = None
            if i > 0:
                ordering = Ordering(ctx, ipath + ("strength",), item["strength"], self.bound,
                                    ipath + ("eligible",) if "eligible" in item else None,
                                    item.get("equal_cards", part["equal_cards"].default) == "later_wins",
                                    part["strength"], part["eligible"])
            takes = item.get("takes", part["takes"].default)
            out.append(Taker(ordering, None if takes == "rest" else
                             ctx.option(part["takes"], ipath + ("takes",), self.bound)))
        return out

    def check(self, game: GameView) -> None:
        self.ordering.check(game)
        for t in self.takers:
            if t.ordering is not None:
                t.ordering.check(game)

    progress_class = _Tricks  # what the written start makes (its code: trick_code.py)

    def policy_binds(self) -> dict[str, Type]:
        return {"seat": SEAT, "led": CARD, "trick": CARDS, "legal": list_of(CARD)}

    # ------------------------------------------------------------------ names for nested steps

    def _between_env(self, state: State) -> dict[str, Any]:
        """The names the steps run between plays see (every one: for what reads them through Step.env)."""
        return cast(dict[str, Any], self.code(state.game).between_names(state, state.progress))

    def _after_env(self, state: State) -> dict[str, Any]:
        """The names the steps run after a trick see."""
        return cast(dict[str, Any], self.code(state.game).after_names(state, state.progress))

    def _led(self, state: State, plays: list[tuple[int, int]]) -> int | None:
        """The card of ``plays`` that sets the suit (the first, or as ``led`` says; none before a card)."""
        return cast(int | None, self.code(state.game).led_of(state, plays))

    # ------------------------------------------------------------------ play

    def start(self, game: GameView, state: State) -> _Tricks:
        return cast(_Tricks, self.code(game).start(state))

    def _bad_seats(self, active: Any) -> ExpressionFailed:
        assert self.active is not None  # only a trick with seats checks them
        return ExpressionFailed(f"{self.active.position}: error: seats must give seats that include the leader, "
                                f"got {active!r}")

    def _cards(self, state: State, seat: int) -> list[int]:
        if self._single_zone:
            return state.per_seat[self.zones[0]][seat]
        out: list[int] = []
        for z in self.zones:
            out.extend(state.per_seat[z][seat])
        return out

    def decision(self, game: GameView, state: State, p: _Tricks) -> Decision | None:
        if p.hook is not None:
            d = self._hook_decision(game, state, p)
            if d is not None:
                return d
        if p.taking >= 0:
            return self._take_decision(game, state, p)
        if p.over:
            return None
        seat = p.turn
        actions = self.code(game).actions(state, p, seat)
        if actions is STUCK:
            self._stuck(game, state, p, seat)
            return None
        if not actions:
            self._no_card(game, state, seat)
        actor = seat if self.decided_by is None else self._decider(state, seat)
        return Decision(actor, actions, self, "play a card" if actor == seat else f"play a card for "
                        f"{game.seat_names[seat]}", "play")

    def _decider(self, state: State, seat: int) -> int:
        """The seat that decides which card ``seat`` plays (``decided_by``)."""
        assert self.decided_by is not None, "asked only of a trick whose plays another seat may decide"
        actor = self.decided_by({"$s": state, "seat": seat})
        if type(actor) is not int or not 0 <= actor < state.players:
            raise ExpressionFailed(f"{self.decided_by.position}: error: decided_by must give a seat, got "
                                   f"{'none' if actor is None else repr(actor)}")
        return actor

    def refusal(self, game: GameView, state: State, card: int) -> str | None:
        """Why the seat to play may not play ``card`` now, in the rule file's words (None: it may, or this is not
        a play of a card)."""
        p = state.progress
        if p is None or p.hook is not None or p.taking >= 0 or p.over:
            return None
        seat = p.turn
        cards = self._cards(state, seat)
        if card not in cards:  # an identical card the seat holds is the same card to the rules (one label)
            kinds = game.cards.kinds
            card = next((c for c in cards if kinds[c] == kinds[card]), card)
            if card not in cards:
                return f"{game.cards.labels[card]} is not in {game.seat_names[seat]}'s {' or '.join(self.zones)}"
        plays = p.plays
        trick = [c for _, c in plays]
        rule = refusing_rule(self.follow_rules if plays else self.lead_rules, state, seat, cards,
                             self._led(state, plays) if plays else None, trick, card)
        return None if rule is None else refusal_text(rule)

    def _allowed(self, state: State, p: _Tricks, seat: int, cards: list[int]) -> list[int] | None:
        plays = p.plays
        trick = [c for _, c in plays]
        if plays:
            return apply_rules(self.follow_rules, state, seat, cards, self._led(state, plays), trick)
        return apply_rules(self.lead_rules, state, seat, cards, None, trick)

    def _no_card(self, game: GameView, state: State, seat: int) -> None:
        """A seat to play in the middle of a trick holds no card (a trick starts only when every seat has one):
        the rules took its cards away between plays."""
        zones = " and ".join(self.zones)
        raise GameError(f"{self.where}: error: {game.seat_names[seat]} has to play a card to the trick but its "
                        f"{zones} {'is' if len(self.zones) == 1 else 'are'} empty (did a step between plays move "
                        "its cards away?)")

    def _stuck(self, game: GameView, state: State, p: _Tricks, seat: int) -> None:
        state.note(f"{game.seat_names[seat]} cannot play: trick play ends")
        p.over = True
        return None

    def apply(self, game: GameView, state: State, p: _Tricks, action: Any) -> Decision | None:
        if p.hook is not None:
            self._hook_apply(game, state, p, action)
            return None
        if p.taking >= 0:
            self._take_apply(game, state, p, action)
            return None
        self.code(game).play(state, p, action.card, action.zone)
        return None

    def _saw(self, game: GameView, state: State, p: _Tricks, seat: int, card: int) -> None:
        """For a Knowledge following the state: ``card`` (about to be played by ``seat``) is on the table; and
        what its play tells of the seat's other cards."""
        seen = state.seen
        assert seen is not None  # the written play calls it only then
        seen.cards.append((self.trick_zone, card))
        void = self._void(game, state, p, card) if self._bound(game, seat) else None
        if void is not None:
            seen.voids.append((seat, self.zones, void))

    def _bound(self, game: GameView, seat: int) -> bool:
        """Whether the play rules bound the card ``seat`` plays now: it chose among the legal actions (those
        the rules allow from its one zone). An automatic seat plays by its policy whatever the rules say (it
        may turn the top card of its stack): its play proves nothing of what it holds. Plays from several zones
        are not read either: only a choice from the seat's one zone is."""
        return seat not in game.automatic and self._single_zone

    def _void(self, game: GameView, state: State, p: _Tricks, card: int) -> list[bool] | None:
        """What playing ``card`` shows everyone of the seat's other cards: when it breaks the first obligation
        (a rule whose table reads only public round values), the seat held no card that the rule would have
        made it play (one its ``must`` and ``holding`` both mark). By card id, True for a card it cannot hold."""
        rule_list = self.follow_rules if p.plays else self.lead_rules
        if not rule_list:
            return None
        rule = rule_list[0]
        fields = rule.must_table.fields
        if not rule.static or any(game.visibility.get(f, "all") != "all" for f in fields or ()):
            return None
        led = self._led(state, p.plays)
        must = rule.must_table.table(state, led)
        if must[card]:
            return None
        if rule.hold_table is None:
            return list(must)
        hold = rule.hold_table.table(state, led)
        return [m and h for m, h in zip(must, hold)]

    # ------------------------------------------------------------------ after the last card (see trick_code.py)

    def _shares(self, game: GameView, state: State, p: _Tricks, plays: list[tuple[int, int]], led: int | None,
                winner: int, claimed: bool) -> None:
        """The winner has more takers after it: each found by its ordering, then the cards shared out."""
        takers: list[int | None] = [winner]
        for ordering in self._later_orderings:
            takers.append(ordering.best(state, plays, led))
        p.takers = takers
        if state.notes is not None:
            self._tell(game, state, p, plays, winner, claimed)
        p.last = list(plays)
        p.plays = []
        p.taking = 0
        p.left = self._share(state, p, 0)
        self._take_settle(game, state, p)

    @staticmethod
    def _tell(game: GameView, state: State, p: _Tricks, plays: list[tuple[int, int]], winner: int,
              claimed: bool) -> None:
        names, labels = game.seat_names, game.cards.labels
        if state.told is not None:
            state.told.append({"type": "trick", "round": state.round_number, "trick": p.number + 1,
                               "cards": [[names[s], labels[c]] for s, c in plays], "winner": names[winner],
                               "claimed": claimed, "takers": [names[t] for t in p.takers if t is not None]})
        shown = ", ".join(f"{names[s]} {labels[c]}" for s, c in plays)
        state.note(f"Trick {p.number + 1}: {shown} -> {names[winner]} wins" + (" (claimed)" if claimed else ""))
        if len(p.takers) > 1:
            state.note("Takers: " + ", ".join(names[t] for t in p.takers if t is not None))

    def _share(self, state: State, p: _Tricks, index: int) -> int:
        takes = self.takers[index].takes
        if takes is None:
            return -1  # the rest
        k = takes({"$s": state})
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise ExpressionFailed(f"{takes.position}: error: takes must be a whole number, got {k!r}")
        return k

    def _owner(self, p: _Tricks, card: int) -> int:
        for s, c in p.last:
            if c == card:
                return s
        assert p.winner is not None  # pragma: no cover - _resolve sets it before cards are taken
        return p.winner  # pragma: no cover - every card of the trick was played by someone

    def _take_settle(self, game: GameView, state: State, p: _Tricks) -> None:
        """Give cards to takers until one must choose; then close the trick."""
        trick = state.shared[self.trick_zone]
        winner = p.winner
        assert winner is not None  # _resolve found it before cards are taken
        while p.taking < len(self.takers):
            taker = p.takers[p.taking]
            if taker is not None and trick and p.left != 0:
                if p.left > 0:
                    return  # a choice: see _take_decision
                cards = [(self._owner(p, c), c) for c in trick]
                trick.clear()
                self.code(game).route(state, cards, taker, winner, state.per_seat[self.won][taker])
            p.taking += 1
            if p.taking < len(self.takers):
                p.left = self._share(state, p, p.taking)
        if trick:  # validate made sure unclaimed is given whenever cards can be left
            assert self.unclaimed is not None
            if state.notes is not None:
                state.note(f"Nobody takes {', '.join(game.cards.labels[c] for c in trick)}: to {self.unclaimed}")
            state.shared[self.unclaimed].extend(trick)
            trick.clear()
        p.taking = -1
        if self.after:
            p.hook = self.code(game).enter_after(game, state, p, 0)
            if p.hook is not None:
                return
        self.code(game).close(state, p)

    def _take_decision(self, game: GameView, state: State, p: _Tricks) -> Decision:
        kinds = self._kinds
        cards = list({kinds[c]: c for c in state.shared[self.trick_zone]}.values())
        taker = p.takers[p.taking]
        assert taker is not None  # _take_settle asks only a taker that was found
        return Decision(taker, [self._takes[c] for c in cards], self,
                        f"take a card from the trick ({p.left} to go)", "take")

    def _take_apply(self, game: GameView, state: State, p: _Tricks, action: Take) -> None:
        card = action.card
        state.shared[self.trick_zone].remove(card)
        taker, winner = p.takers[p.taking], p.winner
        assert taker is not None and winner is not None  # a taker chooses after _resolve found the winner
        self.code(game).route(state, [(self._owner(p, card), card)], taker, winner,
                    state.per_seat[self.won][taker])
        p.left -= 1
        if p.left == 0:
            p.taking += 1
            if p.taking < len(self.takers):
                p.left = self._share(state, p, p.taking)
        self._take_settle(game, state, p)

    def _bad_leader(self, leader: Any) -> ExpressionFailed:
        assert self.next_leader is not None  # only a written next_leader can give something else than a seat
        return ExpressionFailed(f"{self.next_leader.position}: error: next_leader must give a seat that plays (or "
                                f"none for the winner), got {leader!r}")

    # ------------------------------------------------------------------ nested steps

    def _hook_decision(self, game: GameView, state: State, p: _Tricks) -> Decision | None:
        assert p.hook is not None  # called only while nested steps run
        return pending(game, state, p.hook)

    def _hook_apply(self, game: GameView, state: State, p: _Tricks, action: Any) -> None:
        assert p.hook is not None  # called only while nested steps run
        self.code(game).hook(game, state, p, action)

    def inside(self, p: _Tricks) -> tuple[Step, Any] | None:
        return (p.hook.steps[p.hook.index], p.hook.p) if p.hook is not None and p.hook.p is not None else None

    def relabel(self, p: _Tricks, card: Any) -> None:
        p.plays = [(s, card(c)) for s, c in p.plays]
        p.last = [(s, card(c)) for s, c in p.last]

    def judge(self, game: GameView, state: State, p: _Tricks, action: Any) -> tuple[int | None, Any] | None:
        if not isinstance(action, Play) or p.hook is not None or p.taking >= 0:
            return None
        plays = [*p.plays, (p.turn, action.card)]
        led = self._led(state, plays)
        winner = self.ordering.best(state, plays, led, self.can_win)
        return winner, self.ordering.keys(state, plays[-1:], action.card if led is None else led)[0]

    # ------------------------------------------------------------------ text and policies

    def label(self, game: GameView, action: Any) -> str:
        labels = game.cards.labels
        if isinstance(action, Take):
            return f"take {labels[action.card]}"
        if action.zone:
            return f"{labels[action.card]} from {self.zones[action.zone]}"
        return labels[action.card]

    def action_entries(self, game: GameView) -> list[tuple[str, Any, Any, str]]:
        """A card played from each zone the trick is played from; a card taken, when a taker chooses cards."""
        kinds = card_kinds(game)
        out: list[tuple[str, Any, Any, str]] = [("card", ("play", z, k), k, self.label(game, self._plays[z][k]))
               for z in range(len(self.zones)) for k in kinds]
        if any(t.takes is not None for t in self.takers):
            out += [("card", ("take", k), k, self.label(game, self._takes[k])) for k in kinds]
        return out

    def action_key(self, game: GameView, action: Any) -> Any:
        kind = game.cards.kinds[action.card]
        return ("take", kind) if isinstance(action, Take) else ("play", action.zone, kind)

    def describe(self, game: GameView, state: State, d: Decision, action: Any, viewer: int | None = None) -> str | None:
        if isinstance(action, Take):
            return f"takes {game.cards.labels[action.card]}"
        turn = getattr(state.progress, "turn", d.actor)
        whose = f" for {game.seat_names[turn]}" if d.actor != turn else ""  # decided by another seat
        return f"plays {self.label(game, action)}{whose}"

    def public(self, game: GameView, state: State, p: _Tricks, viewer: int | None = None) -> dict[str, Any]:
        names, labels = game.seat_names, game.cards.labels
        out: dict[str, Any] = {"trick": [[names[s], labels[c]] for s, c in p.plays], "tricks_played": p.number}
        if p.last:
            out["last_trick"] = {"cards": [[names[s], labels[c]] for s, c in p.last],
                                 "winner": names[p.winner] if p.winner is not None else None}
        return out

    def value_of(self, game: GameView, state: State, p: Any, d: Decision, value: Any) -> Any:
        if d.kind == "take":
            return self._takes[value] if value in state.shared[self.trick_zone] else None
        for z, zone in enumerate(self.zones):
            if value in state.per_seat[zone][d.actor]:
                return self._plays[z][value]
        return None

