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
