"""Limits on what untrusted input may ask for, shared by the loader, the expression language and the CLI."""

import re

MAX_DIGITS = 15  # the longest whole number a rule file, an expression, a record or a prompt answer may write


def whole_number(text: str) -> int | None:
    """``text`` as a whole number when it is one written in ASCII digits (``-`` allowed), else None.

    Unicode digits such as ``²`` are not numbers here, and at most MAX_DIGITS digits are read (Python's
    own conversion would refuse, with an error of its own, past 4,300).
    """
    digits = text[1:] if text.startswith("-") else text
    if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > MAX_DIGITS:
        return None
    return int(text)


MAX_JSON_DEPTH = 16  # nesting of arrays and objects in a record's line or a web message (events are shallow)


def json_nesting(text: str, stop: int = MAX_JSON_DEPTH) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON ``text`` (outside strings), found without recursion and
    before the text is parsed (Python's parser recurses); it stops counting once past ``stop``."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop:
                    break
        elif ch in "]}":
            depth -= 1
    return deepest


MAX_CARDS = 10_000  # cards in a deck (the largest bundled deck has 75)
MAX_NUMBER = 10**MAX_DIGITS - 1  # the largest number an expression may compute (a record can hold it)
MAX_LIST = 100_000  # items in one list an expression builds
MAX_CALLS = 100_000  # calls of other defines that one call of a define may make, counted at validate
WORK_LIMIT = 1_000_000  # items expressions may go through between two decisions (see interpreter.dsl.budget)
MAX_DEAL_FILE = 10_000_000  # bytes of a deal file (a PBN file of many boards: about 1 kB a board)
MAX_ROUNDS = 1000  # rounds of one game: a game that has not ended by then is stopped with an error
MAX_ACTIONS = 1_000_000  # actions of one game, likewise
# agents of one's own (harness/remote.py), each in processes of its own: see docs/agents.md, "Limits"
AGENT_SECONDS = 10.0  # seconds an agent may take for one decision, by the clock (--agent-timeout)
AGENT_LOAD_SECONDS = 60.0  # seconds its module may take to load, at least (a library of models loads slowly)
AGENT_MEMORY_MB = 4096  # megabytes of address space of an agent's processes (--agent-memory; 0: no limit)
AGENT_MESSAGE = 1 << 20  # bytes of one message an agent's process writes (an answer takes a few)
# Rule files are read within these, each counted before the work it bounds (see docs/testing.md, "The limits
# that keep a run short"): the largest bundled game has 304 YAML nodes, expressions of 433 characters and 124
# tokens, 955 tokens of text in all (times its player counts: 3,820) and at most 5 player counts.
MAX_YAML_NODES = 5_000  # keys, values and list items of one rule file, counted on the parser's events
MAX_KEY_CHARS = 100  # characters of a mapping key (a name; the longest bundled one has 24)
MAX_EXPRESSION_CHARS = 10_000  # characters of one expression, checked before it is parsed
MAX_EXPRESSION_TOKENS = 2_000  # names, numbers, strings, operators and brackets of one expression, likewise
MAX_RULE_TOKENS = 20_000  # tokens of all the text values of a rule file (extends merged), counted before compiling
MAX_CHECKED_TOKENS = 50_000  # those tokens times the player counts validate compiles them for
# cards times (1 + attributes + label fields), times the player counts validate builds the deck for: building
# costs about 2 µs a cell (the bundled games need at most 1,560 in all)
MAX_CHECKED_DECK = 500_000
# the deck's cards times the tokens of the rules times the player counts: validate judges rules card by card (a
# strength level, a follow rule: about 0.5 µs a card and token); the bundled games need at most 230,000
MAX_CARD_TOKENS = 2_500_000
MAX_SIGNATURES = 4  # kinds of arguments one define is called with: each compiles its body again (bundled: 1)

# what the token limits count, cheaply (one regular expression, before anything is parsed): a quoted string, a
# name or number, a two-character operator, or any other character but a space
TOKEN = re.compile(r"""'[^'\n]*'?|"[^"\n]*"?|\w+|//|[=!<>]=|\S""")
