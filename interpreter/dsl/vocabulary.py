"""What a rule file's names are, for its expressions in words (:mod:`interpreter.dsl.words`).

An expression reads ``c.suit`` or ``s.won`` with names the rule file chose; to say it as a rulebook does ("the
cards in the player's won", "a card whose colour is red"), the words need to know which names are a card's
attributes, which a seat's zones or values, and what each define is: its parameters and what kind of thing each
is (told from how the define's body uses it), whether it is a condition, and its ``says:``. Nothing here knows a
game: everything is read from the file's own sections."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from interpreter.dsl import ast
from interpreter.dsl.parser import DslSyntaxError, parse

CARD, SEAT, CARDS, SEATS, NUMBER = "card", "seat", "cards", "seats", "number"
# builtins whose arguments are seats, and what they give
SEAT_ARGUMENTS = frozenset({"left", "right", "team", "opponents", "same_team", "seats_from", "known_team",
                            "known_opponents", "knows_team"})
GIVES = {"left": SEAT, "right": SEAT, "team": SEATS, "opponents": SEATS, "seats_from": SEATS, "known_team": SEATS,
         "known_opponents": SEATS}
# names the engine binds, by kind
BOUND_KINDS = {"card": CARD, "led": CARD, "seat": SEAT, "player": SEAT, "winner": SEAT, "seats": SEATS,
               "trick_seats": SEATS, "takers": SEATS, "trick": CARDS, "last_trick": CARDS, "deck": CARDS}
SEAT_ATTRIBUTES = ("total", "name", "index", "role", "tricks")
CONDITIONS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"})


class Term(NamedTuple):
    """One define: its name, its parameters with the kind of each (CARD, SEAT, CARDS, SEATS or None), its parsed
    body (None when it does not parse), its ``says:`` words (or None) and whether it is a condition."""

    name: str
    params: tuple[str, ...]
    kinds: tuple[str | None, ...]
    body: ast.Node | None
    says: str | None
    condition: bool
    gives: str | None = None  # CARDS or SEATS when it gives a list of cards or of seats


class Vocabulary(NamedTuple):
    """The names of a rule file, as its expressions' words need them."""

    card_attributes: frozenset[str] = frozenset()
    seat_attributes: frozenset[str] = frozenset(SEAT_ATTRIBUTES)
    seat_zones: frozenset[str] = frozenset()
    shared_zones: frozenset[str] = frozenset()
    terms: dict[str, Term] = {}

    def kind_of_list(self, node: ast.Node, bound: dict[str, str | None]) -> str | None:
        """CARDS or SEATS when ``node`` gives a list of cards or of seats, else None."""
        if isinstance(node, ast.Attribute) and node.name in self.seat_zones:
            return CARDS
        term = self.terms.get(node.name) if isinstance(node, (ast.Name, ast.Call)) else None
        if term is not None and not (isinstance(node, ast.Name) and node.name in bound):
            return term.gives
        if isinstance(node, ast.Name):
            kind = bound.get(node.name, BOUND_KINDS.get(node.name))
            if node.name in self.shared_zones and node.name not in bound:
                return CARDS
            return kind if kind in (CARDS, SEATS) else None
        if isinstance(node, ast.Call):
            if GIVES.get(node.name) == SEATS:
                return SEATS
            if node.name in ("concat", "sort", "reverse", "distinct", "slice") and node.args:
                inner = node.args[0]
                if isinstance(inner, ast.Comprehension) and inner.function is None and node.name == "concat":
                    return self.kind_of_list(inner.body, {**bound, inner.var: self.item_kind(inner, bound)})
                return self.kind_of_list(inner, bound)
        if isinstance(node, ast.Binary) and node.op == "+":
            return self.kind_of_list(node.left, bound) or self.kind_of_list(node.right, bound)
        if isinstance(node, ast.Comprehension) and node.function is None and isinstance(node.body, ast.Name) \
                and node.body.name == node.var:
            item = self.item_kind(node, bound)
            return {CARD: CARDS, SEAT: SEATS}.get(item or "")
        return None

    def item_kind(self, node: ast.Comprehension, bound: dict[str, str | None]) -> str | None:
        """CARD or SEAT: what the items a comprehension goes over are (from its source, else from how its body
        uses its name)."""
        source = self.kind_of_list(node.source, bound)
        if source is not None:
            return {CARDS: CARD, SEATS: SEAT}[source]
        parts = [node.body] + ([node.condition] if node.condition is not None else [])
        return self.kind_by_use(node.var, parts)

    def kind_by_use(self, name: str, nodes: list[ast.Node]) -> str | None:
        """What the name ``name`` stands for, told by how ``nodes`` use it: its attributes (a card's or a seat's),
        the seat builtins it is given to, the defines it is passed to, the comprehensions that go over it."""
        votes: dict[str, int] = {}
        for node in nodes:
            for kind in self._uses(name, node):
                votes[kind] = votes.get(kind, 0) + 1
        return max(votes, key=lambda k: votes[k]) if votes else None

    def _uses(self, name: str, node: ast.Node) -> Iterator[str]:
        if isinstance(node, ast.Attribute) and isinstance(node.base, ast.Name) and node.base.name == name:
            if node.name in self.seat_zones or node.name in self.seat_attributes - self.card_attributes:
                yield SEAT
            elif node.name in self.card_attributes - self.seat_attributes:  # (a name of both tells nothing)
                yield CARD
        if isinstance(node, ast.Binary) and _numeric(node) \
                and any(isinstance(side, ast.Name) and side.name == name for side in (node.left, node.right)):
            yield NUMBER  # a number: reckoned with, or compared with one
        if isinstance(node, ast.Call):
            term = self.terms.get(node.name)
            for i, arg in enumerate(node.args):
                if isinstance(arg, ast.Name) and arg.name == name:
                    if node.name in SEAT_ARGUMENTS:
                        yield SEAT
                    elif term is not None and i < len(term.kinds) and term.kinds[i] is not None:
                        yield term.kinds[i]  # type: ignore[misc]
        if isinstance(node, ast.Comprehension) and isinstance(node.source, ast.Name) and node.source.name == name:
            item = self.kind_by_use(node.var, [node.body] + ([node.condition] if node.condition else []))
            if item is not None:
                yield {CARD: CARDS, SEAT: SEATS}[item]
        if isinstance(node, ast.Comprehension) and node.var == name:
            yield from self._uses(name, node.source)  # inside, the name is another thing
            return
        for child in _children(node):
            yield from self._uses(name, child)

    def is_condition(self, node: ast.Node | None) -> bool:
        """Whether an expression is a yes/no condition (told from its shape)."""
        if node is None:
            return False
        if isinstance(node, ast.Binary):
            return node.op in CONDITIONS
        if isinstance(node, ast.Unary):
            return node.op == "not"
        if isinstance(node, ast.Const):
            return isinstance(node.value, bool)
        if isinstance(node, ast.Conditional):
            return self.is_condition(node.then) and self.is_condition(node.otherwise)
        if isinstance(node, ast.Comprehension):
            return node.function in ("any", "all")
        if isinstance(node, ast.Call):
            if node.name in ("any", "all", "same_team", "knows_team", "is_play", "must_play"):
                return True
            term = self.terms.get(node.name)
            return term is not None and term.condition
        if isinstance(node, ast.Name):
            term = self.terms.get(node.name)
            return term is not None and term.condition
        return False


def _numeric(node: ast.Binary) -> bool:
    """Whether the operator reckons with numbers, or compares with (or adds) a whole number written out (a + of
    two names may join lists)."""
    if node.op in ("-", "*", "//", "%", "<", "<=", ">", ">="):
        return True
    return node.op in ("==", "!=", "+") and any(isinstance(side, ast.Const) and type(side.value) is int
                                           for side in (node.left, node.right))


def _children(node: ast.Node) -> Iterator[ast.Node]:
    for value in node.values()[1:]:
        if isinstance(value, ast.Node):
            yield value
        elif isinstance(value, tuple):
            yield from (v for v in value if isinstance(v, ast.Node))


def children(node: ast.Node) -> Iterator[ast.Node]:
    """The nodes directly inside ``node``."""
    return _children(node)


def vocabulary_of(data: dict[str, Any]) -> Vocabulary:
    """The vocabulary of a rule file's (merged) data."""
    deck: dict[str, Any] = data["deck"] if isinstance(data.get("deck"), dict) else {}
    cards = frozenset(k for entry in (deck.get("cards") or []) if isinstance(entry, dict) for k in entry)
    zones = data.get("zones") or {}
    seat_zones = frozenset(n for n, z in zones.items() if isinstance(z, dict) and z.get("per_seat"))
    shared = frozenset(n for n in zones if n not in seat_zones)
    seat_values = set(SEAT_ATTRIBUTES) | set((data.get("game") or {}).get("seat_values") or {})
    seat_values |= set(_seat_keys(data.get("round") or {}))
    vocab = Vocabulary(cards, frozenset(seat_values), seat_zones, shared, {})
    written = [(str(k), v) for k, v in (data.get("define") or {}).items()]
    for _ in range(3):  # kinds flow from define to define through their calls: a few rounds settle them
        vocab = vocab._replace(terms={t.name: t for t in (_term(key, value, vocab) for key, value in written)})
    given = _given(data, vocab)  # a parameter its body does not tell: what the calls give it (score's seat, ...)
    terms = {name: t._replace(kinds=tuple(k if k is not None else given.get((name, i)) for i, k in enumerate(t.kinds)))
             for name, t in vocab.terms.items()}
    return vocab._replace(terms=terms)


def _given(value: Any, vocab: Vocabulary, out: dict[tuple[str, int], str] | None = None) -> dict[tuple[str, int], str]:
    """For each define's parameter (name, place), the kind of what its calls give it, where they all give one kind
    (an engine name, a seat builtin): every expression of the file's data is read."""
    out = {} if out is None else out
    if isinstance(value, dict):
        for v in value.values():
            _given(v, vocab, out)
    elif isinstance(value, list):
        for v in value:
            _given(v, vocab, out)
    elif isinstance(value, str):
        try:
            node = parse(value)
        except DslSyntaxError:
            return out
        for call in _calls(node):
            if call.name in vocab.terms:
                for i, arg in enumerate(call.args):
                    kind = BOUND_KINDS.get(arg.name) if isinstance(arg, ast.Name) else \
                        GIVES.get(arg.name) if isinstance(arg, ast.Call) else None
                    if kind is not None:
                        out[(call.name, i)] = kind if out.get((call.name, i), kind) == kind else "?"
    return {k: v for k, v in out.items() if v != "?"}


def _calls(node: ast.Node) -> Iterator[ast.Call]:
    if isinstance(node, ast.Call):
        yield node
    for child in _children(node):
        yield from _calls(child)


def _seat_keys(steps: Any) -> Iterator[str]:
    """The names of the per-seat values the steps set (a ``seat:`` mapping anywhere in a step)."""
    if isinstance(steps, dict):
        for key, value in steps.items():
            if key in ("seat", "seats") and isinstance(value, dict):
                yield from map(str, value)
            elif key == "set_seat" and isinstance(value, str):
                yield value
            else:
                yield from _seat_keys(value)
    elif isinstance(steps, list):
        for value in steps:
            yield from _seat_keys(value)


def _term(key: str, value: Any, vocab: Vocabulary) -> Term:
    name, _, rest = key.partition("(")
    params = tuple(p.strip() for p in rest.rstrip(") ").split(",") if p.strip())
    text, says = (value.get("value"), value.get("says")) if isinstance(value, dict) else (value, None)
    try:
        body: ast.Node | None = parse(str(text))
    except DslSyntaxError:
        body = None
    kinds = tuple(vocab.kind_by_use(p, [body]) if body is not None else None for p in params)
    gives = None if body is None else vocab.kind_of_list(body, dict(zip(params, kinds)))
    return Term(name.strip(), params, kinds, body, says, vocab.is_condition(body), gives)
