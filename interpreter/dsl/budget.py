"""The evaluation budget: how much work expressions may do between two decisions of a game.

Loops (``for ... in``), lists built by ``+`` and builtins that go through a list charge the number of
items they go through; the game resets the budget at every action. A rule file whose expressions would
run for minutes (nested loops over long lists, lists that double) stops with an error naming the
expression after about a second of work at most. Expressions without loops are bounded by their size
and by the define call count checked at validate (``MAX_CALLS``).

Numbers are bounded too: every computed number stays within ``MAX_NUMBER`` (15 digits, what a record
and a rule file may write), so no power tower grows past that.
"""

from __future__ import annotations

from interpreter.limits import MAX_LIST, MAX_NUMBER, WORK_LIMIT

left = [WORK_LIMIT]  # what is left until the next reset (a list: the hot paths change it in place)


class OutOfWork(ValueError):
    """The expressions did more work than the budget allows (a ValueError: reported like a failed expression)."""


def reset() -> None:
    left[0] = WORK_LIMIT


def charge(items: int) -> None:
    left[0] -= items
    if left[0] < 0:
        raise OutOfWork(f"the rules' expressions went through more than {WORK_LIMIT:,} items before one "
                        "decision (a loop over a long list inside another, or a list that doubles)")


def list_size(items: int) -> None:
    """Refuse a list longer than MAX_LIST before it is built, and charge for it."""
    if items > MAX_LIST:
        raise OutOfWork(f"a list of {items:,} items; lists have at most {MAX_LIST:,}")
    charge(items)


def number(value: int) -> int:
    """``value`` when it is within the bounds of numbers, else an error."""
    if -MAX_NUMBER <= value <= MAX_NUMBER:
        return value
    raise OverflowError(f"a number past {MAX_NUMBER:,} (numbers have at most 15 digits)")
