"""Limits on what untrusted input may ask for, shared by the loader, the expression language and the CLI."""

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
MAX_CARDS = 10_000  # cards in a deck (the largest bundled deck has 75)
MAX_NUMBER = 10**MAX_DIGITS - 1  # the largest number an expression may compute (a record can hold it)
MAX_LIST = 100_000  # items in one list an expression builds
MAX_CALLS = 100_000  # calls of other defines that one call of a define may make, counted at validate
WORK_LIMIT = 1_000_000  # items expressions may go through between two decisions (see interpreter.dsl.budget)
MAX_ROUNDS = 1000  # rounds of one game: a game that has not ended by then is stopped with an error
MAX_ACTIONS = 1_000_000  # actions of one game, likewise
