"""The reading of a ``tricks`` step: its declaration, and its options read from the rule file, checked and compiled
into a trick's parts (trick_parts.py): the resolved options that its play (tricks.py), its words, its search, its
takers' sharing and its written code (trick_code.py) read; and its progress, ``_Tricks``.

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

from functools import partial
from typing import Any, cast

from interpreter.dsl.types import CARD, CARDS, SEAT, SEATS, Type, list_of
from interpreter.engine.game_view import GameView
from interpreter.engine.state import State
from interpreter.engine.steps.action_types import Play, Take
from interpreter.engine.steps.base import COMMON, Step, bind_nested, build_steps, finish_steps
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.engine.steps.running import Running
from interpreter.engine.steps.trick_parts import (
    CARD_NAMES,
    ROUTE_FIELDS,
    RULE_FIELDS,
    TAKER_FIELDS,
    Ordering,
    Taker,
    routes,
    rules,
)
from interpreter.errors import RuleError
from interpreter.plan.declaration import Opt

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


class TrickReading(Step):
    """A tricks step as its rule file says it: each option read, checked and compiled into the trick's parts."""

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
            "card of the trick, in playing order, and trick_seats who played each.", binds=tuple(CARD_NAMES),
            required=True),
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

    def declare(self, ctx: StepContext, opts: Options) -> None:
        self.counter = opts.get("count")
        if self.counter not in ctx.counters:
            ctx.counters.append(self.counter)
        self.between = build_steps(ctx, opts.plain("between_plays") or {}, self.path + ("between_plays",), True)
        self.after = build_steps(ctx, opts.plain("after_trick") or {}, self.path + ("after_trick",), True)
        bind_nested(self.between, BETWEEN_NAMES)
        bind_nested(self.after, AFTER_NAMES)
        for step in self.between:
            step.outer = self._between_env
        for step in self.after:
            step.outer = self._after_env

    def inner_steps(self) -> list[Step]:
        return self.between + self.after

    def build(self, ctx: StepContext, opts: Options) -> None:
        self.leader = opts.get("leader", expect="seat")
        self.active = opts.get("seats")
        self.zones = (opts.get("from", per_seat=True) or []) if opts.given("from") else ["hand"]
        if "hand" in self.zones and "hand" not in ctx.seat_zones:
            opts.mistake("trick play needs a per-seat zone named 'hand' (or say from: ZONE)")
        self.led = opts.get("led", {"trick": CARDS})  # a card or none
        self.lead_rules = rules(ctx, opts, "lead")
        self.follow_rules = rules(ctx, opts, "follow")
        self.ordering = opts.part(partial(Ordering, ctx, opts), "strength", "equal_cards")
        self.can_win = opts.get("can_win", {"seat": SEAT})
        self.won_by = opts.get("won_by", expect="seat or none")
        self.decided_by = opts.get("decided_by", {"seat": SEAT}, expect="seat")
        found = len(opts.found)
        self.takers = self._takers(ctx, opts)
        # every taker after the winner has its own ordering (see _takers)
        self.later_orderings = [t.ordering for t in self.takers[1:] if t.ordering is not None]
        self.unclaimed = opts.get("unclaimed", per_seat=False)
        if not opts.given("unclaimed") and len(opts.found) == found:  # (takers with mistakes are not judged)
            if any(t.ordering is not None for t in self.takers[1:]):
                opts.mistake("a taker found by an ordering may be missing: say where its cards go with "
                             "unclaimed: ZONE", "takers")
            elif self.takers[-1].takes is not None:
                opts.mistake("the last taker chooses a number of cards, so some may be left: take the rest "
                             "with a later taker or say where they go with unclaimed: ZONE", "takers")
        self.routes = routes(ctx, opts)
        self.won = opts.get("to", per_seat=True)
        self.trick_zone = opts.get("trick", per_seat=False)
        if opts.ok("trick") and self.trick_zone not in ctx.shared_zones:  # (a zone written is checked as it is read)
            opts.mistake("trick play needs a shared zone named 'trick' (or say trick: ZONE)")
        self.next_leader = opts.get("next_leader", {"winner": SEAT, "takers": SEATS}, expect="seat")
        self.per_trick = list(opts.plain("per_trick") or [])
        for i, name in enumerate(self.per_trick):
            if name not in ctx.round_fields:
                opts.mistake(f"unknown round value {name!r}", "per_trick", i)
        opts.attempt(partial(finish_steps, ctx, self.between))
        opts.attempt(partial(finish_steps, ctx, self.after))
        kinds = ctx.card_kinds
        self.kinds = kinds
        self.play_actions = [[Play(c, z) for c in range(len(kinds))] for z in range(len(self.zones))]
        self.take_actions = [Take(c) for c in range(len(kinds))]
        self.single_zone = len(self.zones) == 1

    def _takers(self, ctx: StepContext, opts: Options) -> list[Taker]:
        """Who shares the trick: the winner, then each later taker found by its own ordering (a taker with a
        mistake is left out, the mistake collected)."""
        out = []
        for i in range(len(opts.plain("takers") or [])):
            item = opts.within("takers", i)
            if i == 0 and (item.given("strength") or item.given("eligible")):
                item.mistake("the first taker is the trick's winner (found by the trick's strength); give strength "
                             "only to later takers")
                continue
            if i > 0 and not item.given("strength"):
                item.mistake("a taker after the winner needs its own strength")
                continue
            ordering = item.attempt(partial(Ordering, ctx, item, True), "strength", "eligible", "equal_cards") \
                if i > 0 else None
            takes = None if item.plain("takes") == "rest" else item.get("takes")
            if (i == 0 or ordering is not None) and item.ok("takes"):
                out.append(Taker(ordering, takes))
        return out or [Taker(None, None)]

    def check(self, game: GameView) -> list[RuleError]:
        return self.ordering.check(game) + [e for t in self.takers if t.ordering is not None
                                            for e in t.ordering.check(game)]

    progress_class = _Tricks  # what the written start makes (its code: trick_code.py)

    def policy_binds(self) -> dict[str, Type]:
        return {"seat": SEAT, "led": CARD, "trick": CARDS, "legal": list_of(CARD)}

    # ------------------------------------------------------------------ what play, words and search all read

    def _between_env(self, state: State) -> dict[str, Any]:
        """The names the steps run between plays see (every one: for what reads them through Step.env)."""
        return cast(dict[str, Any], self.code(state.game).between_names(state, state.progress))

    def _after_env(self, state: State) -> dict[str, Any]:
        """The names the steps run after a trick see."""
        return cast(dict[str, Any], self.code(state.game).after_names(state, state.progress))

    def led_card(self, state: State, plays: list[tuple[int, int]]) -> int | None:
        """The card of ``plays`` that sets the suit (the first, or as ``led`` says; none before a card)."""
        return cast(int | None, self.code(state.game).led_of(state, plays))

    def cards_of(self, state: State, seat: int) -> list[int]:
        """The cards ``seat`` may play from, every zone the trick is played from taken together."""
        if self.single_zone:
            return state.per_seat[self.zones[0]][seat]
        out: list[int] = []
        for z in self.zones:
            out.extend(state.per_seat[z][seat])
        return out
