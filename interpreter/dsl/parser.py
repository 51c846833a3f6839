"""Text → AST with Lark (LALR); syntax errors become positioned messages."""

from __future__ import annotations

import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Collection
from functools import lru_cache
from importlib import resources
from typing import cast

from lark import Lark, Token, Transformer, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken, v_args
from lark import __version__ as lark_version
from lark.exceptions import VisitError

from interpreter.cache import cache_folder
from interpreter.dsl import ast, tree_cache
from interpreter.limits import MAX_DIGITS, MAX_EXPRESSION_CHARS, MAX_EXPRESSION_TOKENS, TOKEN

_TOKEN_NAMES = {
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COMMA": "','", "DOT": "'.'",
    "NAME": "a name", "INT": "a number", "STRING": "a string", "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'", "MINUS": "'-'", "$END": "the end",
    "ELSE": "'else'", "IF": "'if'", "IN": "'in'", "FOR": "'for'", "NOT": "'not'", "AND": "'and'",
    "OR": "'or'", "TRUE": "'true'", "FALSE": "'false'", "NONE": "'none'", "LET": "'let'", "SLICE": "':'",
    "EQUAL": "'='",
}

_HINTS = {
    "/": "use // for whole-number division",
    "=": "use == to compare",
    "&": "use 'and'",
    "|": "use 'or'",
    "!": "use 'not' or !=",
    "*": "powers are not supported",
    "'": "a string ends with the same quote on the same line",
    '"': "a string ends with the same quote on the same line",
}
_CHAINED = "comparisons do not chain; write a < b and b < c"
# a let's value is a sum: what would go on past it (a comparison, and/or, if) needs brackets
_LET_VALUE_ENDS = ("COMP_OP", "AND", "OR", "IF", "NOT")
_LET_VALUE = ("a let's value ends before its 'in': put a comparison or a condition in brackets, "
              "as in let x = (a == b and c) in ...")


MAX_NESTING = 100  # deepest expression tree accepted (keeps compiling and evaluation off Python's stack limit)


class DslSyntaxError(Exception):
    """Raised with the 0-based offset of the problem; the caller adds the file position."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message = message
        self.offset = offset


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = _grammar()
    # building the LALR tables takes a noticeable part of a cold start; Lark keeps them in a file checked
    # against the grammar's digest, so a changed grammar rebuilds them
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True,
                cache=_cache_file() or False)


def _cache_file() -> str | None:
    """Where the parse tables are kept: the user's own cache folder, or nowhere."""
    folder = cache_folder()
    if folder is None:
        return None
    return os.path.join(folder, f"dsl-lark{lark_version}-py{sys.version_info[0]}{sys.version_info[1]}.tables")


def _off(item: Tree | Token) -> int:
    if isinstance(item, Token):
        return item.start_pos or 0
    return item.meta.start_pos if not item.meta.empty else 0


@v_args(tree=True)
class _ToAst(Transformer):
    def integer(self, t):
        digits = str(t.children[0])
        if len(digits) > MAX_DIGITS:
            raise DslSyntaxError(f"a number of {len(digits)} digits; numbers have at most {MAX_DIGITS}", _off(t))
        return ast.Const(_off(t), int(digits))

    def string(self, t):
        return ast.Const(_off(t), str(t.children[0])[1:-1])

    def true(self, t):
        return ast.Const(_off(t), True)

    def false(self, t):
        return ast.Const(_off(t), False)

    def none(self, t):
        return ast.Const(_off(t), None)

    def name(self, t):
        return ast.Name(_off(t), str(t.children[0]))

    def attribute(self, t):
        base, name = t.children
        return ast.Attribute(_off(t), base, str(name), name.start_pos)

    def index(self, t):
        base, idx = t.children
        return ast.Index(_off(t), base, idx)

    def call(self, t):
        name, args = t.children
        return ast.Call(_off(t), str(name), tuple(args.children) if args is not None else ())

    def comp_for(self, t):
        var, source, cond = t.children
        return str(var), source, cond

    def call_generator(self, t):
        fn, body, *fors = t.children
        if len(fors) == 1:
            return ast.Comprehension(_off(t), str(fn), body, *fors[0])
        return ast.Call(_off(t), str(fn), (_nested(_off(t), body, fors),))

    def list_comprehension(self, t):
        body, *fors = t.children
        if len(fors) == 1:
            return ast.Comprehension(_off(t), None, body, *fors[0])
        return _nested(_off(t), body, fors)

    def let_(self, t):
        """``let x = value in body``: the body with x bound to the value (a one-item comprehension's item)."""
        name, value, body = t.children
        off = _off(t)
        one = ast.Comprehension(off, None, body, str(name), ast.ListExpr(value.offset, (value,)), None)
        return ast.Index(off, one, ast.Const(off, 0))

    def slice_(self, t):
        """``xs[a:b]``, either bound left out: the builtin ``slice(xs, a, b)``."""
        base, start, colon, end = t.children
        none = ast.Const(colon.start_pos, None)
        return ast.Call(_off(t), "slice", (base, start if start is not None else none,
                                           end if end is not None else none))

    def list_(self, t):
        (args,) = t.children
        return ast.ListExpr(_off(t), tuple(args.children) if args is not None else ())

    def conditional(self, t):
        then, test, otherwise = t.children
        return ast.Conditional(_off(t), then, test, otherwise)

    def or_(self, t):
        return ast.Binary(_off(t), "or", *t.children)

    def and_(self, t):
        return ast.Binary(_off(t), "and", *t.children)

    def not_(self, t):
        return ast.Unary(_off(t), "not", t.children[0])

    def negate(self, t):
        return ast.Unary(_off(t), "-", t.children[0])

    def compare(self, t):
        left, op, right = t.children
        return ast.Binary(op.start_pos, str(op), left, right)

    def binary(self, t):
        left, op, right = t.children
        return ast.Binary(op.start_pos, str(op), left, right)

    def contains(self, t):
        left, right = t.children
        return ast.Binary(_off(t), "in", left, right)

    def not_contains(self, t):
        left, right = t.children
        return ast.Binary(_off(t), "not in", left, right)


def _nested(off: int, body: ast.Node, fors: list[tuple[str, ast.Node, ast.Node | None]]) -> ast.Node:
    """``[body for a in xs if p for b in ys if q]``: the innermost loop a comprehension of its own, each outer one
    the ``concat`` of the lists the loop inside it makes, each with its own condition (so an outer one keeps the
    loops inside it from running for the items it leaves out)."""
    node: ast.Node = ast.Comprehension(off, None, body, *fors[-1])
    for var, source, cond in reversed(fors[:-1]):
        node = ast.Call(off, "concat", (ast.Comprehension(off, None, node, var, source, cond),))
    return node


def parse(text: str) -> ast.Node:
    """Parse one expression; raise :class:`DslSyntaxError` on bad text."""
    if not isinstance(text, str) or not text.strip():
        raise DslSyntaxError("expected an expression, found nothing", 0)
    return _parse(text)


def check_size(text: str) -> int:
    """The tokens of an expression; refuse one too long to parse cheaply, before it is parsed (Lark takes
    about 12 µs and 70 bytes a token: a list of 485,000 items took 30 s and 500 MB)."""
    if len(text) > MAX_EXPRESSION_CHARS:
        raise DslSyntaxError(f"the expression is {len(text):,} characters long; expressions have at most "
                             f"{MAX_EXPRESSION_CHARS:,}", 0)
    tokens = len(TOKEN.findall(text))
    if tokens > MAX_EXPRESSION_TOKENS:
        raise DslSyntaxError(f"the expression has {tokens:,} tokens (names, numbers, strings, operators and "
                             f"brackets); expressions have at most {MAX_EXPRESSION_TOKENS:,}", 0)
    return tokens


# The trees of texts parsed before, most recently used last (a game compiled for each player count, or a
# variant, parses its rules once). Every text of one rule file fits (validate compiles each file once for each
# of its player counts, and a file has at most MAX_YAML_NODES values), and their size is bounded too, so a long
# run over many files keeps little.
KEEP_TEXTS = 16_384
KEEP_TOKENS = 500_000  # about 35 MB of trees
_trees: OrderedDict[str, tuple[ast.Node, int]] = OrderedDict()
_kept = [0]  # tokens of the trees in _trees
_trees_lock = threading.Lock()


def _parse(text: str) -> ast.Node:
    """The tree of a text (the nodes are frozen, and offsets are relative to the text, so a tree serves every
    place the text is; kept between runs too, see tree_cache)."""
    with _trees_lock:
        known = _trees.get(text)
        if known is not None:
            _trees.move_to_end(text)
            return known[0]
    tokens = check_size(text)
    _open_trees()
    tree = tree_cache.lookup(text)
    if tree is None:
        tree = _parse_with_lark(text)
        tree_cache.remember(text, tree)
    with _trees_lock:
        if text not in _trees:
            _trees[text] = (tree, tokens)
            _kept[0] += tokens
            while len(_trees) > KEEP_TEXTS or _kept[0] > KEEP_TOKENS:
                _kept[0] -= _trees.popitem(last=False)[1][1]
    return tree


@lru_cache(maxsize=1)
def _open_trees() -> None:
    tree_cache.open_cache(cache_folder(), _grammar())


@lru_cache(maxsize=1)
def _grammar() -> str:
    return resources.files("interpreter.dsl").joinpath("grammar.lark").read_text(encoding="utf-8")


def _parse_with_lark(text: str) -> ast.Node:
    try:
        tree = _lark().parse(text)
    except UnexpectedCharacters as exc:
        pos = cast(int, exc.pos_in_stream)  # the lexer's position: Lark declares it None on the base class
        char = text[pos]
        hint = _HINTS.get(char)
        msg = f"unexpected character {char!r}" + (f" ({hint})" if hint else "")
        raise DslSyntaxError(msg, pos) from None
    except UnexpectedEOF as exc:
        raise DslSyntaxError(f"the expression ends too early; expected {_expected(exc.expected)}", len(text)) from None
    except UnexpectedToken as exc:
        tok = exc.token
        dot = tok.start_pos - 1 if tok.start_pos else 0
        if str(tok)[:1].isdigit() and dot > 0 and text[dot] == "." and text[dot - 1].isdigit():
            start = dot - 1
            while start > 0 and text[start - 1].isdigit():
                start -= 1
            raise DslSyntaxError("numbers are whole numbers: no decimal point", start) from None
        if str(tok) == "*" and tok.start_pos and text[tok.start_pos - 1] == "*":
            raise DslSyntaxError(f"unexpected '**' ({_HINTS['*']})", tok.start_pos - 1) from None
        if tok.type == "EQUAL" and "EQUAL" not in exc.expected:  # '=' is only the let's
            raise DslSyntaxError(f"unexpected character '=' ({_HINTS['=']})", tok.start_pos) from None
        if tok.type in _LET_VALUE_ENDS and "IN" in exc.expected and tok.type not in exc.expected:
            raise DslSyntaxError(f"unexpected {str(tok)!r} ({_LET_VALUE})", tok.start_pos) from None
        if tok.type == "COMP_OP" and "COMP_OP" not in exc.expected:
            raise DslSyntaxError(f"unexpected {str(tok)!r} ({_CHAINED})", tok.start_pos) from None
        if tok.type == "$END":
            raise DslSyntaxError(f"the expression ends too early; expected {_expected(exc.expected)}",
                                 len(text)) from None
        raise DslSyntaxError(f"unexpected {str(tok)!r}; expected {_expected(exc.expected)}", tok.start_pos) from None
    if isinstance(tree, Token):  # pragma: no cover - grammar always builds trees
        tree = Tree("name", [tree])
    _check_nesting(tree)
    try:
        return _ToAst().transform(tree)
    except VisitError as exc:  # Lark wraps what the transformer raises, e.g. RecursionError deep in defines
        raise exc.orig_exc from None


def _check_nesting(tree: Tree) -> None:
    """Reject absurdly deep expressions before anything recurses over them."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            raise DslSyntaxError(f"the expression is nested too deeply (more than {MAX_NESTING} levels)", _off(node))
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def _expected(names: Collection[str]) -> str:
    shown = sorted({_TOKEN_NAMES.get(n, n.lower()) for n in names})
    if len(shown) > 6:
        return "a value" if "NAME" in names else "an operator or the end"
    return ", ".join(shown)
