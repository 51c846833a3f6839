"""The parts a trick is built from: play obligations, winner orderings, takers and routing rules.

Each part is compiled once from its keys and evaluated through card tables
where its expressions read only cards and round values (see card_tables), so
a standard trick costs a few list lookups per card.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from interpreter.dsl.compiler import RUNTIME_ERRORS, Compiled, ExpressionFailed
from interpreter.dsl.types import CARD, CARDS, SEAT, SEATS, Type
from interpreter.engine.card_tables import CardTable, as_bool, as_tuple
from interpreter.engine.game_view import GameView
from interpreter.engine.state import State
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.errors import RuleError
from interpreter.plan.declaration import Opt

Path_ = tuple[Any, ...]

CARD_NAMES: dict[str, Type] = {"card": CARD, "led": CARD, "seat": SEAT, "trick": CARDS, "trick_seats": SEATS}

RULE_FIELDS = (
    Opt("must", "condition", "The cards that may be played: card, led, seat, trick (the cards played so far) and "
        "trick_seats (who played them, in the same order) are bound.",
        binds=tuple(CARD_NAMES), required=True),
    Opt("holding", "condition", "The obligation binds only a seat holding a card this holds for "
        "(default: a card that meets must), e.g. \"card.colour == led.colour\".",
        binds=tuple(CARD_NAMES)),
    Opt("otherwise", "enum", "When the seat has no card that meets must: any (default: it may play any "
        "card) or end (trick play ends at once, the trick stays on the table).", choices=("any", "end"),
        default="any"),
    Opt("says", "text", "What a player is told when this obligation refuses a card, in the rulebook's words, "
        "e.g. \"you must follow suit\" (default: the obligation's expression in words)."),
)

TAKER_FIELDS = (
    Opt("takes", "number", "How many cards of the trick this taker chooses, one decision each, or rest "
        "(default): every card not yet taken.", default="rest"),
    Opt("strength", "ordering", "For every taker after the first (the winner): the ordering that finds it, "
        "like the trick's strength.", binds=tuple(CARD_NAMES)),
    Opt("eligible", "condition", "Only the cards this holds for can make their player this taker "
        "(default: every card).", binds=tuple(CARD_NAMES)),
    Opt("equal_cards", "enum", "Of equal cards by this ordering: later_wins (default) or first_wins.",
        choices=("later_wins", "first_wins"), default="later_wins"),
)

ROUTE_FIELDS = (
    Opt("when", "condition", "Which cards this rule sends elsewhere: card, player (who played it), taker "
        "(who takes it) and winner are bound.", binds=("card", "player", "taker", "winner"), required=True),
    Opt("to", "zone", "Where those cards go (the taker's, for a per-seat zone, unless owner says whose).",
        required=True),
    Opt("owner", "seat", "Whose zone, when to is a per-seat zone: a seat expression (default: taker), e.g. "
        "player: the card goes back to the side of the seat that played it.",
        binds=("card", "player", "taker", "winner")),
)


class Rule:
    """One play obligation: ``must``, binding when the seat holds a ``holding`` card; ``otherwise`` any or end."""

    def __init__(self, ctx: StepContext, rule: Options):
        if rule.is_mapping:
            self.says: str | None = rule.need("says")  # for people (refusal_text)
            self.must = rule.need("must", CARD_NAMES, per="card")
            self.holding = rule.need("holding", CARD_NAMES, per="card")
            self.end = rule.need("otherwise") == "end"
        else:  # a condition alone: its must
            self.says = None
            self.must = rule.itself("must", CARD_NAMES, per="card")
            self.holding = None
            self.end = False
        kinds = ctx.card_kinds
        self.must_table = CardTable([self.must], kinds, as_bool, True, led_classes=ctx.led_classes([self.must]))
        self.hold_table = CardTable([self.holding], kinds, as_bool, True, led_classes=ctx.led_classes(
            [self.holding])) if self.holding else None
        self.static = self.must_table.static and (self.hold_table is None or self.hold_table.static)
        # compiled with per="card", so both have their list forms: the rule judged over a seat's cards
        assert self.must.select is not None
        self.select = self.must.select
        self.exists: Callable[[dict[str, Any], Any], bool] | None = None
        if self.holding is not None:
            assert self.holding.exists is not None
            self.exists = self.holding.exists

    def written_for(self, shape: Any) -> Rule:
        """This rule over a state held as ``shape`` says (engine/state_shape.py): its conditions and tables written
        for it (today's: itself)."""
        if shape.compiled(self.must) is self.must:
            return self
        other = copy.copy(self)
        other.must = shape.compiled(self.must)
        other.must_table = shape.table(self.must_table)
        other.select = other.must.select
        if self.holding is not None:
            assert self.hold_table is not None  # made with the holding
            other.holding = shape.compiled(self.holding)
            other.hold_table = shape.table(self.hold_table)
            other.exists = other.holding.exists
        return other


def rules(ctx: StepContext, opts: Options, key: str) -> list[Rule]:
    """A condition, a rule mapping, or a list of them (applied in order), written at ``key`` of ``opts``; a rule
    with a mistake is left out, the mistake collected. A rule whose ``must`` is true of every card whatever happens
    (an option the game is not played with: ``not (options.x and ...) or ...``) allows every card: it is left out,
    so the rules after it count as if it were not written."""
    written = opts.plain(key)
    if written is None:
        return []
    readers = [opts.within(key, i) for i in range(len(written))] if isinstance(written, list) else [opts.within(key)]
    made = []
    for reader in readers:
        rule = opts.attempt(partial(Rule, ctx, reader), key)
        if rule is not None and not (rule.must.part is not None and rule.must.part.const and rule.must.part.value):
            made.append(rule)
    return made


STUCK = None  # what ``narrowing`` gives when an ``otherwise: end`` rule finds no card


def refusing_rule(rule_list: list[Rule], state: State, seat: int, cards: list[int], led: int | None,
                  plays: list[tuple[int, int]], card: int) -> Rule | None:
    """The first rule that takes ``card`` (one of ``cards``) out of what the seat may play after ``plays`` (the
    trick so far: seat and card), or None."""
    for rule, left in narrowing(rule_list, state, seat, cards, led, plays):
        if left is STUCK or card not in left:
            return rule
    return None


def refusal_text(rule: Rule) -> str:
    """What a player is told when ``rule`` refuses a card: its ``says``, or the obligation in words."""
    if rule.says:
        return rule.says
    from interpreter.dsl.words import condition_words

    if rule.holding is None:
        return f"you must play {condition_words(rule.must.text, 'card')} (you hold one)"
    return (f"you must play {condition_words(rule.must.text, 'card')}, since you hold "
            f"{condition_words(rule.holding.text, 'card')}")


def narrowing(rule_list: list[Rule], state: State, seat: int, cards: list[int], led: int | None,
              plays: list[tuple[int, int]]) -> Iterator[tuple[Rule, list[int] | None]]:
    """Each rule that binds, in order, with the cards it leaves of those the rules before it left (STUCK for an
    ``end`` rule that leaves nothing; a rule that would leave nothing otherwise does not bind)."""
    env: dict[str, Any] | None = None
    for rule in rule_list:
        if rule.static:
            ok = rule.must_table.table(state, led)
            if rule.hold_table is not None:
                hold = rule.hold_table.table(state, led)
                if not any(hold[c] for c in cards):
                    continue
            allowed = [c for c in cards if ok[c]]
        else:
            if env is None:  # one batch: parts that do not read the card are worked out once
                env = {"$s": state, "seat": seat, "led": led, "trick": [c for _, c in plays],
                       "trick_seats": [s for s, _ in plays], "$batch": object()}
            if rule.exists is not None and not rule.exists(env, cards):
                continue
            allowed = rule.select(env, cards)
        if allowed:
            cards = allowed
            yield rule, cards
        elif rule.end:
            yield rule, STUCK
            return


class Ordering:
    """Strength expressions compared in order (highest wins), with eligibility and a tie rule."""

    def __init__(self, ctx: StepContext, opts: Options, eligible: bool = False):
        """The ordering written at ``opts``'s strength (with its equal_cards and, for a taker, its ``eligible``),
        its first mistake raised."""
        # every expression of the list binds what the ordering's declaration does
        self.exprs = [opts.entry("strength", i, CARD_NAMES) for i in range(len(opts.plain("strength")))]
        # one table per expression, keyed only by what it reads: few tables, filled once each
        self.tables = [CardTable([e], ctx.card_kinds, _first, "ctx:led" in e.deps, lazy=True,
                                 led_classes=ctx.led_classes([e])) for e in self.exprs]
        self.static = all(t.static for t in self.tables)
        # the strength of a card under the current round values and led card, filled lazily from the tables
        self.combined = CardTable(self.exprs, ctx.card_kinds, as_tuple, True, lazy=True,
                                  led_classes=ctx.led_classes(self.exprs))
        self.eligible = opts.need("eligible", CARD_NAMES) if eligible else None
        self.later_wins = opts.need("equal_cards") == "later_wins"
        self.position = self.exprs[0].position if self.exprs else None

    def written_for(self, shape: Any) -> Ordering:
        """This ordering over a state held as ``shape`` says (engine/state_shape.py): its expressions and tables
        written for it (today's: itself)."""
        if not self.exprs or shape.compiled(self.exprs[0]) is self.exprs[0]:
            return self
        other = copy.copy(self)
        other.exprs = [shape.compiled(e) for e in self.exprs]
        other.tables = [shape.table(t) for t in self.tables]
        other.combined = shape.table(self.combined)
        other.eligible = None if self.eligible is None else shape.compiled(self.eligible)
        return other

    def check(self, game: GameView) -> list[RuleError]:
        """The strengths that read only the card and fail or give none for some card, refused before play: each
        with the first card it fails for."""
        return [e for e in map(partial(self._strength_problem, game), self.exprs) if e is not None]

    def _strength_problem(self, game: GameView, expr: Compiled) -> RuleError | None:
        from interpreter.errors import SchemaError

        if expr.deps - {"ctx:card"}:
            return None
        seen: dict[bool, int] = {}  # is text -> a card that gave such a value
        for c in game.deck:
            try:
                value = expr.fn({"card": c})
            except RUNTIME_ERRORS as exc:
                return SchemaError(f"this strength fails for the card {game.cards.labels[c]!r} ({exc}); every "
                                   "card needs the attributes a strength reads (test for a missing attribute, "
                                   "e.g. \"card.number if card.number != none else 0\")", expr.position)
            if value is None or not isinstance(value, (int, str)):
                return SchemaError(f"this strength gives {value!r} for the card {game.cards.labels[c]!r}; "
                                   "a strength must give a number or true/false for every card (test for a "
                                   "missing attribute, e.g. \"card.number if card.number != none else 0\")",
                                   expr.position)
            seen.setdefault(isinstance(value, str), c)
            if len(seen) == 2:  # text cannot be ranked against numbers
                labels = game.cards.labels
                return SchemaError(f"this strength gives text for some cards and numbers for others "
                                   f"({labels[seen[True]]!r} and {labels[seen[False]]!r}); every part of a "
                                   "strength must give the same kind of value", expr.position)
        return None

    def keys(self, state: State, plays: list[tuple[int, int]], led: int | None) -> list[tuple]:
        if self.static:
            values = self.combined.table(state, led)
            out = []
            for _, c in plays:
                v = values[c]
                if v is None:
                    v = self.fill(values, state, led, c)
                out.append(v)
            return out
        env = {"$s": state, "led": led, "trick": [c for _, c in plays], "trick_seats": [s for s, _ in plays]}
        out = []
        for seat, c in plays:
            env["card"] = c
            env["seat"] = seat
            v = self.combined.value(env)
            self._check(v, c, state)
            out.append(v)
        return out

    def fill(self, values: list[Any], state: State, led: int | None, card: int) -> tuple:
        """One card's strength from the per-expression tables, shared with identical cards."""
        parts = []
        for t in self.tables:
            at = led if t.uses_led else None
            column = t.table(state, at)
            v = column[card]
            if v is None:
                v = t.fill(column, state, at, card)
            parts.append(v)
        key = tuple(parts)
        if None in key:
            self._check(key, card, state)
        for c in self.combined.copies[card]:
            values[c] = key
        return key

    def _check(self, key: tuple, card: int, state: State) -> None:
        for expr, v in zip(self.exprs, key):
            if v is None or not isinstance(v, (int, str)):
                raise ExpressionFailed(f"{expr.position}: error: this strength gives {v!r} for the card "
                                       f"{state.game.cards.labels[card]!r}; it must give a number or true/false")

    def best(self, state: State, plays: list[tuple[int, int]], led: int | None, can_win: Compiled | None = None,
             skip: set[int] | None = None) -> int | None:
        """The seat of the best eligible card, or None when no card is eligible."""
        keys = self.keys(state, plays, led)
        if self.eligible is None and can_win is None and not skip:
            try:
                return _plain_best(plays, keys, self.later_wins)
            except TypeError as exc:
                raise ExpressionFailed(f"{self.position}: error: these strengths cannot be compared ({exc}); "
                                       "every part of a strength must give the same kind of value") from None
        env: dict[str, Any] = {"$s": state, "led": led, "trick": [c for _, c in plays],
                               "trick_seats": [s for s, _ in plays]}
        best = None
        winner = None
        later = self.later_wins
        try:
            for (seat, card), key in zip(plays, keys):
                if skip and seat in skip:
                    continue
                if self.eligible is not None:
                    env["card"], env["seat"] = card, seat
                    if not self.eligible(env):
                        continue
                if can_win is not None:
                    env["seat"] = seat
                    if not can_win(env):
                        continue
                if best is None or key > best or (later and key == best):
                    best, winner = key, seat
        except TypeError as exc:
            raise ExpressionFailed(f"{self.position}: error: these strengths cannot be compared ({exc}); "
                                   "every part of a strength must give the same kind of value") from None
        return winner


def _plain_best(plays: list[tuple[int, int]], keys: list[tuple], later: bool) -> int:
    best = keys[0]
    winner = plays[0][0]
    for i in range(1, len(keys)):
        key = keys[i]
        if key > best or (later and key == best):
            best, winner = key, plays[i][0]
    return winner


def _first(values: list[Any]) -> Any:
    return values[0]


class Taker:
    """Who takes a share of the trick, and how many cards it chooses (None: the rest)."""

    def __init__(self, ordering: Ordering | None, takes: Compiled | None):
        self.ordering = ordering
        self.takes = takes


class Route:
    """A routing rule: the cards for which ``when`` holds go to ``zone``, of the seat ``owner`` gives for a per-seat
    zone (None: the taker's; see trick_code.py, which writes it)."""

    def __init__(self, when: Compiled, zone: str, per_seat: bool, owner: Compiled | None = None):
        self.when = when
        self.zone = zone
        self.per_seat = per_seat
        self.owner = owner


def routes(ctx: StepContext, opts: Options) -> list[Route]:
    """The routing rules of ``opts``'s route, each read by the route's fields (a rule with a mistake is left out,
    the mistake collected)."""
    out = []
    names = {"card": CARD, "player": SEAT, "taker": SEAT, "winner": SEAT}
    for i in range(len(opts.plain("route") or [])):
        route = opts.within("route", i)
        zone, when = route.get("to"), route.get("when", names)
        owner = route.get("owner", names, expect="seat")
        if zone is not None and zone not in ctx.seat_zones and route.given("owner"):
            route.mistake(f"zone {zone!r} is shared; owner: is only for per-seat zones", "owner")
        elif zone is not None and when is not None and (owner is not None or not route.given("owner")):
            out.append(Route(when, zone, zone in ctx.seat_zones, owner))
    return out
