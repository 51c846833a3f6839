"""The common shapes of a rule, as a rulebook writes them (:mod:`interpreter.dsl.words` says everything else).

Each is a general rule over the expression tree, never a game's:

- a list made, counted, summed or searched (a comprehension) is said by what it goes over: "the number of cards
  in the player's won whose colour is red", "there is a card in the player's hand that is the two of clubs",
  "the sum, over every player of the player's team, of that player's tricks"; its name is never shown;
- a count times a number, and sums of them: "1 for each card in the player's won whose colour is red, plus 13
  for each one that is the top trump";
- the highest (lowest) of the players' values compared with a number: "a player's total is 100 or more";
- a condition on a card or a player said as what it picks: "whose colour is red", "that is the top
  trump", "with a card in their hand that ...";
- (lists looked up, gone round, sliced, and lets: :mod:`interpreter.dsl.words_lists`);
- a number compared: "100 or more", "empty" for a list of none.
"""

from __future__ import annotations

from interpreter.dsl import ast
from interpreter.dsl.vocabulary import SEAT, SEATS, children
from interpreter.dsl.words_base import (
    ARITHMETIC,
    COMPARE,
    NOUNS,
    OF_LIST,
    VERBS,
    Phrase,
    and_list,
    name_words,
    term_name,
)
from interpreter.dsl.words_base import Saying as Speaker
from interpreter.dsl.words_lists import numbers


def article(noun: str) -> str:
    """"a" or "an", for ``noun``."""
    return "an" if noun[:1] in "aeiou" else "a"


def mentions(node: ast.Node | None, name: str) -> int:
    """How many times ``node`` reads the name ``name`` (not counting where a comprehension binds it again)."""
    if node is None:
        return 0
    if isinstance(node, ast.Name):
        return int(node.name == name)
    if isinstance(node, ast.Comprehension) and node.var == name:
        return mentions(node.source, name)
    return sum(mentions(child, name) for child in children(node))


def _is(node: ast.Node, name: str) -> bool:
    return isinstance(node, ast.Name) and node.name == name


def _comprehension(node: ast.Node, *functions: str | None) -> ast.Comprehension | None:
    """``node`` as a comprehension of one of ``functions`` (``f(x for ...)`` or ``f([x for ...])``), or None."""
    if isinstance(node, ast.Comprehension) and node.function in functions:
        return node
    if isinstance(node, ast.Call) and node.name in functions and len(node.args) == 1:
        inner = node.args[0]
        if isinstance(inner, ast.Comprehension) and inner.function is None:
            return inner.replace(function=node.name)  # type: ignore[return-value]
    return None


# ---------------------------------------------------------------- what a comprehension goes over


class Over:
    """A comprehension's items: the noun for one ("card"), where they are ("in the player's won"), and the
    condition that picks them, if any."""

    def __init__(self, speaker: Speaker, node: ast.Comprehension):
        self.speaker, self.node, self.var = speaker, node, node.var
        self.kind = speaker.vocabulary.item_kind(node, speaker.kinds())
        source = node.source
        self.noun = NOUNS.get(self.kind, "item")
        if isinstance(source, ast.Call) and source.name == "range":
            self.noun = "number"
        self.place = _place(speaker, source)
        self.picked = self._picked(False)

    def _picked(self, plural: bool) -> str:
        cond = self.node.condition
        return "" if cond is None else " " + relative(self.speaker, cond, self.var, self.kind, plural)

    def every(self, word: str = "every") -> str:
        return f"{article(self.noun) if word == 'a' else word} {self.noun}{self.place}{self.picked}"

    def plural(self, the: str = "the ") -> str:
        return f"{the}{self.noun}s{self.place}{self._picked(True)}"

    def that(self) -> Speaker:
        """The speaker with the comprehension's name said as "that card" ("that other card" inside another's)."""
        taken = sum(p.text.startswith("that ") and p.text.endswith(f" {self.noun}")
                    for p in self.speaker.bound.values())
        which = ("", "other ", "third ", "fourth ")[min(taken, 3)]
        return self.speaker.binding(**{self.var: Phrase(f"that {which}{self.noun}", self.kind)})

    def standing(self, phrase: str) -> Speaker:
        return self.speaker.binding(**{self.var: Phrase(phrase, self.kind)})


def _place(speaker: Speaker, source: ast.Node) -> str:
    """Where a comprehension's items are, said after their noun ("" for every player)."""
    vocab = speaker.vocabulary
    if isinstance(source, ast.Name) and source.name not in speaker.bound:
        if source.name == "seats":
            return ""
        if source.name == "trick" or source.name in vocab.shared_zones:
            return f" in the {name_words(source.name)}"
    if isinstance(source, ast.Attribute) and source.name in vocab.seat_zones:
        return f" in {speaker.say(source, False)}"
    if isinstance(source, ast.Call) and source.name == "range" and len(source.args) == 2:
        return " " + numbers(speaker, *source.args)
    if isinstance(source, ast.Call) and source.name == "seats_from" and len(source.args) == 1:
        return f" from {speaker.say(source.args[0], False)} on"
    if speaker.vocabulary.kind_of_list(source, speaker.kinds()) == SEATS and not isinstance(source, ast.Call):
        return f" among {speaker.say(source, False)}"
    if isinstance(source, ast.ListExpr):
        return f" among {and_list([speaker.value(i) for i in source.items])}" if source.items else " of nothing"
    return f" of {speaker.say(source, False)}"


def comprehension(speaker: Speaker, function: str | None, node: ast.Comprehension) -> str:
    """A list made from another, or a builtin over it, in words (see the module's doc)."""
    over = Over(speaker, node)
    body, var = node.body, node.var
    if function == "count":
        return f"the number of {over.noun}s{over.place} " + relative(speaker, _both(body, node.condition), var,
                                                                        over.kind, plural=True)
    if function in ("any", "all"):
        return _quantified(over, function, body)
    if function in ("first", "last") and _is(body, var):
        return f"the {function} {over.noun}{over.place}{over.picked}"
    if function in ("sum", "max", "min", None) and isinstance(body, ast.Attribute) and _is(body.base, var):
        what = name_words(body.name)
        if function is None:
            return f"the {what} of {over.every()}"
        total = {"sum": "the total", "max": "the highest", "min": "the lowest"}[function]
        return f"{total} {what} of {over.plural()}"
    if function is None and _is(body, var):
        return over.plural()
    said = {"sum": "the sum", "max": "the highest", "min": "the lowest", None: "the list", "first": "the first",
            "last": "the last"}.get(function)
    text = f"{said}, over {over.every()}, of {over.that().say(body, False)}"
    if said is None:  # another builtin over a list made: the list, then the builtin
        made = f"the list, over {over.every()}, of {over.that().say(body, False)}"
        return OF_LIST.get(function or "", name_words(function or "") + " of {0}").format(made)
    return text


def _both(body: ast.Node, condition: ast.Node | None) -> ast.Node:
    if condition is None:
        return body
    if isinstance(body, ast.Const) and body.value is True:
        return condition
    return ast.Binary(body.offset, "and", condition, body)


def _quantified(over: Over, function: str, body: ast.Node) -> str:
    """``any`` / ``all`` over a comprehension: "there is a card in ... that ...", "every player's won is empty"."""
    var = over.var
    if function == "any":
        clause = _clause(over.speaker, body, var, over.kind, False)
        if clause is not None:
            return f"there is {article(over.noun)} {over.noun}{over.place}{over.picked} {clause}"
    word = "some" if function == "any" else "every"
    if mentions(body, var) == 1 and _simple(body):
        return over.standing(over.every(word)).say(body)
    return f"for {over.every(word)}: {over.that().say(body)}"


def _simple(node: ast.Node) -> bool:
    """A condition one quantified thing can stand in without changing its meaning (no and, or, not, if)."""
    if isinstance(node, ast.Binary):
        return node.op not in ("and", "or")
    return isinstance(node, (ast.Call, ast.Attribute, ast.Name))


# ---------------------------------------------------------------- a condition as what it picks


def relative(speaker: Speaker, cond: ast.Node, var: str, kind: str | None, plural: bool = False) -> str:
    """A condition on ``var`` as a relative clause of its noun: "whose colour is red", "that is the top
    trump" (or "such that ..." where it has no such shape); ``plural``: of a noun said in the plural ("cards
    that are ...")."""
    clause = _clause(speaker, cond, var, kind, plural)
    return clause if clause is not None else _such(speaker, cond, var, kind)


def _such(speaker: Speaker, cond: ast.Node, var: str, kind: str | None) -> str:
    """A condition on ``var`` with no relative clause's shape: "such that their hand has ..."."""
    if _owner_only(cond, var):  # each mention is whose thing
        phrase = "they" if kind == SEAT else "it"
    else:
        phrase = "that player" if kind == SEAT else "it"
    return "such that " + speaker.binding(**{var: Phrase(phrase, kind)}).say(cond)


def _owner_only(node: ast.Node, var: str) -> bool:
    """Whether every mention of ``var`` in ``node`` is the owner of an attribute (``var.NAME``)."""
    if isinstance(node, ast.Attribute) and _is(node.base, var):
        return True
    if _is(node, var):
        return False
    if isinstance(node, ast.Comprehension) and node.var == var:
        return _owner_only(node.source, var)
    return all(_owner_only(child, var) for child in children(node))


def clause(speaker: Speaker, cond: ast.Node, var: str, kind: str | None) -> str | None:
    """A condition on ``var`` as a relative clause, or None where it has no such shape."""
    return _clause(speaker, cond, var, kind, False)


def _clause(speaker: Speaker, cond: ast.Node, var: str, kind: str | None, plural: bool) -> str | None:
    who = ("who" if kind == SEAT else "that") + (" are" if plural else " is")
    if isinstance(cond, ast.Binary) and cond.op == "and" and len(_chain(cond, "and")) > 2:
        parts = _chain(cond, "and")
        on = [p for p in parts if mentions(p, var)]
        clauses = [_clause(speaker, p, var, kind, plural) for p in on]
        if sum(c is not None for c in clauses) * 2 <= len(on):  # mostly not clauses: said as a whole
            return None
        joined = " and ".join(c if c is not None else _such(speaker, p, var, kind) for c, p in zip(clauses, on))
        rest = [speaker.say(p) for p in parts if not mentions(p, var)]
        return joined + (f" (only when {' and '.join(rest)})" if rest else "")
    if isinstance(cond, ast.Binary) and cond.op in ("and", "or"):
        left = _clause(speaker, cond.left, var, kind, plural)
        right = _clause(speaker, cond.right, var, kind, plural)
        if left is not None and right is not None:
            return f"{left} {cond.op} {right}"
        return _apart(speaker, cond, var, left, right)
    if isinstance(cond, ast.Binary) and cond.op in COMPARE:
        return _compared(speaker, cond, var, who, plural)
    if isinstance(cond, ast.Attribute) and _is(cond.base, var):
        return f"with {name_words(cond.name)}"
    if isinstance(cond, ast.Unary) and cond.op == "not":
        inner = cond.operand
        if isinstance(inner, ast.Attribute) and _is(inner.base, var):
            return f"without {name_words(inner.name)}"
        said = _termed(speaker, inner, var, who, negated=True)
        return said
    said = _termed(speaker, cond, var, who)
    if said is not None:
        return said
    inside = _comprehension(cond, "any")
    if inside is not None and isinstance(inside.source, ast.Attribute) and _is(inside.source.base, var) \
            and mentions(inside.body, var) == 0 and inside.condition is None:
        items = Over(speaker, inside)
        their = "their" if kind == SEAT else "its"
        return (f"with {article(items.noun)} {items.noun} in {their} {name_words(inside.source.name)} "
                + relative(speaker, inside.body, inside.var, items.kind))
    return None


def _apart(speaker: Speaker, cond: ast.Binary, var: str, left: str | None, right: str | None) -> str | None:
    """``and`` / ``or`` of a condition on ``var`` and one that does not read it: "that is the two of clubs, when
    first trick" (``not x or c``), "... or any, when x", "..., and only when x"."""
    if right is not None and not mentions(cond.left, var):
        other, clause = cond.left, right
    elif left is not None and not mentions(cond.right, var):
        other, clause = cond.right, left
    else:
        return None
    if cond.op == "and":
        return f"{clause} (only when {speaker.say(other)})"
    if isinstance(other, ast.Unary) and other.op == "not":
        return f"{clause}, when {speaker.say(other.operand)}"
    return f"{clause}, or any when {speaker.say(other)}"


def _compared(speaker: Speaker, cond: ast.Binary, var: str, who: str, plural: bool) -> str | None:
    left, right, op = cond.left, cond.right, cond.op
    if mentions(right, var) and not mentions(left, var) and op in ("==", "!="):
        left, right = right, left
    if mentions(right, var):
        return None
    if isinstance(left, ast.Attribute) and _is(left.base, var):
        return f"whose {name_words(left.name)} {compared(speaker, op, right)}"
    term = speaker.vocabulary.terms.get(left.name) if isinstance(left, ast.Call) else None
    if term is not None and not term.condition and len(left.args) == 1:  # type: ignore[attr-defined]
        arg = left.args[0]  # type: ignore[attr-defined]
        if _is(arg, var):  # "whose penalty points is 26"
            return f"whose {term_name(term)} {compared(speaker, op, right)}"
        if isinstance(arg, ast.Attribute) and _is(arg.base, var):  # "whose suit's colour is ..."
            return f"whose {name_words(arg.name)}'s {term_name(term)} {compared(speaker, op, right)}"
    if _is(left, var):
        said = speaker.value(right)
        return {"==": f"{who} {said}", "!=": f"other than {said}", "in": f"{who} one of {said}",
                "not in": f"{who} not one of {said}"}.get(op)
    return None


def _termed(speaker: Speaker, cond: ast.Node, var: str, who: str, negated: bool = False) -> str | None:
    """A condition define given ``var`` first: "that is the top trump", "who fulfils the card"."""
    if not isinstance(cond, ast.Call) or not cond.args or not _is(cond.args[0], var):
        return None
    term = speaker.vocabulary.terms.get(cond.name)
    if term is None or not term.condition or any(mentions(a, var) for a in cond.args[1:]):
        return None
    rest = [speaker.say(a, False) for a in cond.args[1:]]
    name, word = term_name(term), who.split()[0]
    if name.split()[0] in VERBS:  # "who sits out"; "except one who sits out"
        text = f"{word} {name}" + (f" {and_list(rest)}" if rest else "")
        return f"except one {text}" if negated else text
    if not rest:
        return f"{who}{' not' if negated else ''} {name}"
    return None


def compared(speaker: Speaker, op: str, right: ast.Node) -> str:
    """A comparison's verb and right side: "is red", "is 100 or more"."""
    said = speaker.value(right)
    if isinstance(right, ast.Const) and isinstance(right.value, int) and not isinstance(right.value, bool):
        if op == ">=":
            return f"is {said} or more"
        if op == "<=":
            return f"is {said} or less"
    if op in ("in", "not in") and isinstance(right, ast.ListExpr):
        return ("is " if op == "in" else "is neither ") + (said if op == "in" else said.replace(" or ", " nor "))
    return f"{COMPARE[op]} {said}"


# ---------------------------------------------------------------- operators


def binary(speaker: Speaker, node: ast.Binary, top: bool) -> str:
    if node.op in ("and", "or"):  # a chain of one operator reads without brackets
        parts = _chain(node, node.op)
        text = f" {node.op} ".join(speaker.say(p, False) if isinstance(p, ast.Binary) and p.op in ("and", "or")
                                   else speaker.say(p) for p in parts)
        return text if top else f"({text})"
    if node.op in COMPARE:
        return _comparison(speaker, node)
    if node.op in ("+", "-"):
        return _sum(speaker, node, top)
    if node.op == "*":
        per = _per_item(speaker, node)
        if per is not None:
            return per
        left = speaker.say(node.left, isinstance(node.left, ast.Binary) and node.left.op == "*")
    else:
        left = speaker.say(node.left, False)
    text = f"{left} {ARITHMETIC.get(node.op, node.op)} {speaker.say(node.right, False)}"
    return text if top else f"({text})"


def _chain(node: ast.Node, op: str) -> list[ast.Node]:
    if isinstance(node, ast.Binary) and node.op == op:
        return _chain(node.left, op) + _chain(node.right, op)
    return [node]


def _comparison(speaker: Speaker, node: ast.Binary) -> str:
    extreme = _extreme(speaker, node)
    if extreme is not None:
        return extreme
    left, right = node.left, node.right
    if isinstance(left, ast.Call) and left.name == "len" and len(left.args) == 1 and isinstance(right, ast.Const) \
            and right.value == 0 and node.op in ("==", "!=", ">"):
        return f"{_listed(speaker, left.args[0])} is {'empty' if node.op == '==' else 'not empty'}"
    return f"{speaker.say(left, False)} {compared(speaker, node.op, right)}"


def _extreme(speaker: Speaker, node: ast.Binary) -> str | None:
    """The highest (lowest) of the items' values compared: "a player's total is 100 or more"."""
    made = _comprehension(node.left, "max", "min")
    if made is None or node.op not in ("<", "<=", ">", ">=") or mentions(node.right, made.var) \
            or mentions(made.body, made.var) != 1 or not _simple(made.body):
        return None
    over = Over(speaker, made)
    some = (made.function == "max") == (node.op in (">", ">="))
    subject = over.standing(over.every("a" if some else "every")).say(made.body, False)
    return f"{subject} {compared(speaker, node.op, node.right)}"


def _sum(speaker: Speaker, node: ast.Binary, top: bool) -> str:
    """A sum: its terms in order; counts of cards said per card, a text made of pieces said as joined."""
    terms = _terms(node, "+")
    if any(isinstance(t, ast.Const) and isinstance(t.value, str) or isinstance(t, ast.Call) and t.name == "text"
           for _, t in terms) and all(sign == "+" for sign, _ in terms):
        return text_of(speaker, [t for _, t in terms])
    said: list[str] = []
    place = None
    for i, (sign, term) in enumerate(terms):
        per = _per_item(speaker, term, place)
        if per is None and _comprehension(term, "count") is not None:
            per = _per_item(speaker, ast.Binary(term.offset, "*", ast.Const(term.offset, 1), term), place)
        made = _counted(term)
        place = None if made is None else _place(speaker, made.source)
        text = per or speaker.say(term, isinstance(term, ast.Binary) and term.op == "+" and sign == "+")
        said.append(text if i == 0 and sign == "+" else f"{'plus' if sign == '+' else 'minus'} {text}")
    text = " ".join(said) if not said[0].startswith("plus ") else " ".join(said)[5:]
    return text if top else f"({text})"


def text_of(speaker: Speaker, pieces: list[ast.Node]) -> str:
    """A text made of pieces, as it reads: its written parts as they are, the others in brackets:
    "“side bid [the player's contract], took [the player's taken]”"."""
    said = []
    for piece in pieces:
        if isinstance(piece, ast.Const) and isinstance(piece.value, str):
            said.append(piece.value)
        elif isinstance(piece, ast.Call) and piece.name == "text" and len(piece.args) == 1:
            said.append(f"[{speaker.say(piece.args[0])}]")
        elif isinstance(piece, ast.Conditional) and _empty(piece.then) != _empty(piece.otherwise):
            shown, when = (piece.otherwise, "unless") if _empty(piece.then) else (piece.then, "if")
            said.append(f"[{speaker.say(shown, False)} {when} {speaker.say(piece.test)}]")
        else:
            said.append(f"[{speaker.say(piece)}]")
    return "“" + "".join(said) + "”"


def _empty(node: ast.Node) -> bool:
    return isinstance(node, ast.Const) and node.value == ""


def _terms(node: ast.Node, sign: str) -> list[tuple[str, ast.Node]]:
    """The terms of a chain of + and -, each with its sign."""
    if isinstance(node, ast.Binary) and node.op in ("+", "-"):
        flip = {"+": "-", "-": "+"}
        return _terms(node.left, sign) + _terms(node.right, sign if node.op == "+" else flip[sign])
    return [(sign, node)]


def _counted(node: ast.Node) -> ast.Comprehension | None:
    """The count in ``K * count(...)``, ``count(...) * K`` or ``count(...)``."""
    if isinstance(node, ast.Binary) and node.op == "*":
        return _comprehension(node.right, "count") or _comprehension(node.left, "count")
    return _comprehension(node, "count")


def _per_item(speaker: Speaker, node: ast.Node, after: str | None = None) -> str | None:
    """``K * count(cond for c in S)``: "K for each card in S whose ..." ("K for each one ..." when the term
    before it counted in the same place)."""
    if not isinstance(node, ast.Binary) or node.op != "*":
        return None
    made, k = _comprehension(node.right, "count"), node.left
    if made is None:
        made, k = _comprehension(node.left, "count"), node.right
    if made is None:
        return None
    over = Over(speaker, made)
    clause = relative(speaker, _both(made.body, made.condition), made.var, over.kind)
    if after is not None and after == over.place:
        return f"{speaker.say(k, False)} for each one {clause}"
    return f"{speaker.say(k, False)} for each {over.noun}{over.place} {clause}"


def how_many(speaker: Speaker, node: ast.Node) -> str:
    """``len(x)``: "the number of cards in the player's won", "the number of players who ..."."""
    return f"the number of {_listed(speaker, node, counted=True)}"


def _listed(speaker: Speaker, node: ast.Node, counted: bool = False) -> str:
    if isinstance(node, ast.Attribute) and node.name in speaker.vocabulary.seat_zones:
        said = speaker.say(node, False)
        return f"cards in {said}" if counted else said
    made = _comprehension(node, None)
    if made is not None and _is(made.body, made.var):
        over = Over(speaker, made)
        return over.plural("" if counted else "the ")
    return speaker.say(node, False)
