"""The progress slots of a ``tricks`` step written for the compiled backend (trick_template.py), from the step's
base: ``ASK`` the seat to act (the seat ``decided_by`` names for the seat to play, the taker choosing cards, or the
seat a step the trick runs asks), ``TURN`` the seat to play, ``LEADER``, ``PLAYED`` the cards played to this trick,
``NUMBER`` the tricks finished, ``OVER`` 1 once trick play is over, ``WINNER`` the last trick's winner, ``TAKING``
the taker choosing cards (its index among the takers, -1: none) and ``LEFT`` the cards it still chooses (-1: the
rest), ``SIZE`` the seats that play; then regions of slots (``Regions``): the trick's plays, their seats and their
cards (so that the plays' cards are one slice, the ``trick`` the rules read), which of them a taker has taken, the
takers, which seats play, two strength keys (the best so far and the card's) and a mark per card kind, scratch
that every function leaves cleared, and the last trick's plays (their seats and cards, copied when a trick is closed:
what an observation shows of the last trick once the next one is led, ``Shown``). A trick that runs steps of its
own has slots after the regions for them (trick_template_hooks.py: which of them runs, then each one's own).
"""

from __future__ import annotations

from dataclasses import dataclass

ASK, TURN, LEADER, PLAYED, NUMBER, OVER, WINNER, TAKING, LEFT, SIZE = range(10)
_HEAD = 10  # the slots before the regions


@dataclass(frozen=True)
class Regions:
    """Where each region of the step's progress starts, from its base (see the module's docstring)."""

    seats: int  # the seat of each play of the trick
    cards: int  # the card of each play
    taken: int  # 1 for a play whose card a taker has taken
    takers: int  # the takers of the last trick (NONE: not found)
    active: int  # 1 for a seat that plays
    best: int  # the best card's strength key so far
    key: int  # the strength key of the card looked at
    marks: int  # one mark per card kind (0 between calls)
    last_seats: int  # the seat of each play of the last trick closed
    last_cards: int  # the card of each play of the last trick closed
    size: int  # the slots in all

    @classmethod
    def of(cls, players: int, takers: int, keys: int, deck: int) -> Regions:
        at = [_HEAD]
        for length in (players, players, players, takers, players, keys, keys, deck, players, players):
            at.append(at[-1] + length)
        return cls(*at)


@dataclass(frozen=True)
class Shown:
    """Where a tricks step's progress holds what the Python backend's trick step shows (its ``public``: the trick on
    the table, the last trick and its winner), as slots of the progress array: for a reader outside the step (an
    observation, compiled/observe_template.py). While ``played`` < ``size`` the trick's plays so far are the first
    ``played`` of ``seats`` and ``cards``, and the last trick (once ``number`` > 0) is in ``last_seats`` and
    ``last_cards``; when ``played`` == ``size`` the trick is won and not yet closed (a taker chooses, a step after the
    trick runs): the table is empty and the last trick is the plays in ``seats`` and ``cards``."""

    played: int
    size: int
    number: int
    winner: int
    seats: int
    cards: int
    last_seats: int
    last_cards: int

    @classmethod
    def of(cls, base: int, regions: Regions) -> Shown:
        return cls(base + PLAYED, base + SIZE, base + NUMBER, base + WINNER, base + regions.seats, base + regions.cards,
                   base + regions.last_seats, base + regions.last_cards)
