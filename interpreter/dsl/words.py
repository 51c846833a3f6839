"""An expression in words, for people reading a rule file as a rulebook (``trickbook explain``).

The words follow the expression's structure, and the common shapes of a rule read as a rulebook writes them
(:mod:`interpreter.dsl.words_shapes`): ``count(c.colour == 'red' for c in s.won)`` is "the number of cards in
the player's won whose colour is red", ``max(s.total for s in seats) >= 100`` is "some player's total is 100 or
more". No name an expression binds (a comprehension's, a define's parameter, a let's) is shown: each is said as
what it stands for ("the card", "every player of the player's team", "that player"). Names the rule file chose
(defines, values, attributes, zones) keep their names, with ``_`` read as a space, or a define's ``says:``; the
language's own names and builtins get their meaning. What the file's names are comes from its
:class:`~interpreter.dsl.vocabulary.Vocabulary`; without one, the words know only the language's names. Text that
does not parse is given back as it is."""

from __future__ import annotations

from typing import Any

from interpreter.dsl import ast
from interpreter.dsl import words_lists as lists
from interpreter.dsl import words_shapes as shapes
from interpreter.dsl.parser import DslSyntaxError, parse
from interpreter.dsl.vocabulary import CARD, CARDS, NUMBER, SEAT, SEATS, Term, Vocabulary
from interpreter.dsl.words_base import (
    BARE,
    MANY_ARGS,
    NAMES,
    NEGATED,
    NOUNS,
    OF_LIST,
    OWNED,
    VERBS,
    Phrase,
    and_list,
    name_words,
    possessive,
    term_name,
)


def in_words(text: Any, vocabulary: Vocabulary | None = None) -> str:
    """The expression ``text`` (or a plain value of a rule file) in words."""
    if isinstance(text, bool):
        return "yes" if text else "no"
    if not isinstance(text, str):
        return str(text)
    try:
        return Speaker(vocabulary or Vocabulary()).say(parse(text))
    except DslSyntaxError:
        return text


def condition_words(text: str, subject: str, vocabulary: Vocabulary | None = None, noun: str | None = None) -> str:
    """A condition on the name ``subject`` (``card``, ``value``) as the thing it picks: "a card whose suit is the
    led card's suit", "a card that is the top trump" (or "a card such that ..." where it has no such
    shape)."""
    speaker = Speaker(vocabulary or Vocabulary())
    try:
        node = parse(text)
    except DslSyntaxError:
        return f"a {subject} such that {text}"
    kind = CARD if subject in ("card", "led") or noun == "card" else None
    noun = noun or NOUNS.get(kind, subject)
    return f"{shapes.article(noun)} {noun} " + shapes.relative(speaker, node, subject, kind)


LONG_BRANCH = 40  # a branch of a conditional longer than this is said after its condition

THE = {CARD: "the card", SEAT: "the player", CARDS: "the cards", SEATS: "the players", NUMBER: "the number"}
A = {CARD: "a card", SEAT: "a player", CARDS: "some cards", SEATS: "some players", NUMBER: "a number"}
OTHER = ("", "other ", "third ", "fourth ", "fifth ", "sixth ", "seventh ", "eighth ", "ninth ", "tenth ")


def definition(term: Term, vocabulary: Vocabulary) -> tuple[str, str]:
    """A define as the terms of a rulebook give it: what it is of ("of a player", or "" for a define without
    parameters) and what it is, its parameters said as what they stand for ("the player"); a condition on one
    card or player reads as the ones it picks ("a card whose rank is Q and whose colour is red")."""
    if term.body is None:
        return "", "?"
    phrases: dict[str, Phrase] = {}
    seen: dict[str, int] = {}
    for param, kind in zip(term.params, term.kinds):
        label = THE.get(kind or "", "the value")
        n = seen[label] = seen.get(label, -1) + 1
        phrases[param] = Phrase(label.replace("the ", "the " + OTHER[min(n, len(OTHER) - 1)], 1) if n else label, kind)
    speaker = Speaker(vocabulary, phrases)
    if len(term.params) == 1 and term.kinds[0] is not None:
        of = f" of {A[term.kinds[0]]}"
    else:
        of = f", given {and_list([p.text for p in phrases.values()])}" if phrases else ""
    if term.condition and len(term.params) == 1 and term.kinds[0] in (CARD, SEAT):
        clause = shapes.clause(Speaker(vocabulary), term.body, term.params[0], term.kinds[0])
        if clause is not None:
            return "", f"{A[term.kinds[0]]} {clause}"
        name = term_name(term)  # "a card is a trump when ...", "a player may score honours when ..."
        said = f"{A[term.kinds[0]]} {name}" if name.split()[0] in VERBS else f"{A[term.kinds[0]]} is {name}"
        return "", f"{said} when {speaker.say(term.body)}"
    return of, speaker.say(term.body)


class Speaker:
    """Says expressions in words: the vocabulary of the file, and what each bound name is said as."""

    def __init__(self, vocabulary: Vocabulary, bound: dict[str, Phrase] | None = None):
        self.vocabulary = vocabulary
        self.bound = bound or {}

    def binding(self, **names: Phrase) -> Speaker:
        """This speaker with more names bound."""
        return Speaker(self.vocabulary, {**self.bound, **names})

    def kinds(self) -> dict[str, str | None]:
        return {name: phrase.kind for name, phrase in self.bound.items()}

    def say(self, node: ast.Node, top: bool = True) -> str:
        if isinstance(node, ast.Const):
            return self.constant(node, bare=False)
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.Index):
            return lists.index(self, node)
        if isinstance(node, ast.ListExpr):
            return "an empty list" if not node.items else ", ".join(self.value(i) for i in node.items)
        if isinstance(node, ast.Unary):
            return self.unary(node, top)
        if isinstance(node, ast.Binary):
            return shapes.binary(self, node, top)
        if isinstance(node, ast.Conditional):
            return self.conditional(node, top)
        if isinstance(node, ast.Comprehension):
            return shapes.comprehension(self, node.function, node)
        if isinstance(node, ast.Call):
            return self.call(node, top)
        return "?"  # pragma: no cover - every node kind is above

    def constant(self, node: ast.Const, bare: bool) -> str:
        if node.value is None:
            return "nothing"
        if isinstance(node.value, bool):
            return "true" if node.value else "false"
        if isinstance(node.value, str):
            return node.value if bare and BARE.match(node.value) else f"'{node.value}'"
        return str(node.value)

    def value(self, node: ast.Node) -> str:
        """A value compared with or listed: a one-word text without its quotes."""
        if isinstance(node, ast.Const):
            return self.constant(node, bare=True)
        if isinstance(node, ast.ListExpr) and node.items:
            said = [self.value(i) for i in node.items]
            return ", ".join(said[:-1]) + " or " + said[-1] if len(said) > 1 else said[0]
        return self.say(node, False)

    def name(self, node: ast.Name) -> str:
        if node.name in self.bound:
            return self.bound[node.name].text
        term = self.vocabulary.terms.get(node.name)
        if term is not None and not term.params:  # (a define with parameters is only called: the name is another)
            return self.term(term, [])
        if node.name in self.vocabulary.shared_zones:
            return f"the {name_words(node.name)}"
        return NAMES.get(node.name, name_words(node.name))

    def attribute(self, node: ast.Attribute) -> str:
        base = node.base
        if isinstance(base, ast.Name) and base.name in OWNED and base.name not in self.bound:
            return f"{OWNED[base.name]} {name_words(node.name)}"
        return possessive(self.say(base, False), name_words(node.name))

    def unary(self, node: ast.Unary, top: bool) -> str:
        if node.op == "-":
            return f"minus {self.say(node.operand, False)}"
        inner = node.operand
        if isinstance(inner, ast.Binary) and inner.op in NEGATED:
            return self.say(inner.replace(op=NEGATED[inner.op]), top)
        if isinstance(inner, (ast.Call, ast.Name)):
            term = self.vocabulary.terms.get(inner.name)
            if term is not None and term.condition:
                return self.term(term, list(inner.args) if isinstance(inner, ast.Call) else [], negated=True)
        if isinstance(inner, (ast.Name, ast.Attribute)):
            return f"not {self.say(inner, False)}"
        return f"not ({self.say(inner)})"

    def conditional(self, node: ast.Conditional, top: bool) -> str:
        """``a if x else b if y else c``: "a if x; b if y; otherwise c" ("if x: a; ..." where a branch is long)."""
        parts = []
        while isinstance(node, ast.Conditional):
            then, test = self.say(node.then, False), self.say(node.test)
            nested = isinstance(node.then, ast.Conditional)  # (bracketed: its own ; would read as this one's)
            long = f"if {test}: {self.say(node.then, not nested)}"
            parts.append(long if len(then) > LONG_BRANCH else f"{then} if {test}")
            node = node.otherwise  # type: ignore[assignment]
        text = "; ".join(parts) + f"; otherwise {self.say(node, False)}"
        return text if top else f"({text})"

    def call(self, node: ast.Call, top: bool) -> str:
        term = self.vocabulary.terms.get(node.name)
        if term is not None:
            return self.term(term, list(node.args))
        args = node.args
        if len(args) == 1 and node.name == "len":
            return shapes.how_many(self, args[0])
        if len(args) == 1 and isinstance(args[0], ast.Comprehension) and args[0].function is None:
            return shapes.comprehension(self, node.name, args[0])
        if node.name == "slice" and len(args) == 3:
            return lists.sliced(self, args)
        if node.name == "range" and len(args) == 2:
            return "the numbers " + lists.numbers(self, *args)
        said = [self.say(a, False) for a in args]
        if len(args) == 1 and node.name in OF_LIST:
            return OF_LIST[node.name].format(said[0])
        if node.name in MANY_ARGS and len(args) >= 2:
            return MANY_ARGS[node.name].format(*said, all=", ".join(said))
        if not args:
            return name_words(node.name)
        return f"{name_words(node.name)}({', '.join(said)})"

    def term(self, term: Term, args: list[ast.Node], negated: bool = False) -> str:
        """A define used: its ``says:`` (or name) with what it is given; a condition on one thing reads "the card
        is the top trump", a value of one thing "the player's points"."""
        name = term_name(term)
        said = [self.say(a, False) for a in args]
        if not said:
            return f"not {name}" if negated else name
        if term.condition:
            verb = "is not" if negated else "is"
            if name.split()[0] in VERBS:  # a name that is a verb phrase: "the player may score honours"
                text = f"{said[0]} {name}" + (f" {and_list(said[1:])}" if len(said) > 1 else "")
                return f"not ({text})" if negated else text
            if len(said) == 1:
                return f"{said[0]} {verb} {name}"
            return ("not: " if negated else "") + f"{said[0]} {name} {and_list(said[1:])}"
        if len(said) == 1:  # "the player's points"; a name ending in "of" before its argument: "the suit of the card"
            if name.endswith(" of"):
                text = f"the {name} {said[0]}"
            elif term.kinds[0] in (CARD, SEAT):
                text = possessive(said[0], name)
            elif term.kinds[0] in (CARDS, SEATS):  # "the eyes of the other players"
                text = f"the {name} of {said[0]}"
            else:  # of a number or a value: "the hand size for the round's number"
                text = f"the {name} for {said[0]}"
        else:
            text = f"the {name.removesuffix(' of')} of {and_list(said)}"
        return f"not {text}" if negated else text
