"""The errors a game's written code raises in play, when the rules give a step what it cannot use: each made here,
from plain data the writer writes into the code (an expression's position or the step's, the step's name, the
values at fault), so that the code calls no step for them and each message is written once.

A position is given as its text (``FILE:LINE:COL``, as ``str`` of the rule file's Position gives it). Checks the
compiled game makes of a constant before play use the same rule where a message says the same (``teams_problem``,
``deal_problem``).
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.compiler import ExpressionFailed
from interpreter.errors import GameError

MAX_TIMES = 1000  # a repetition that runs longer than this is a mistake in the rules


# ------------------------------------------------------------------ choose


def bad_who(at: str, who: Any) -> ExpressionFailed:
    return ExpressionFailed(f"{at}: error: who must give seats, got {who!r}")


def not_a_list(at: str, options: Any) -> ExpressionFailed:
    return ExpressionFailed(f"{at}: error: options must give a list, got {options!r}")


def unfinished(where: str, name: str, seat: str, picks: list[str]) -> GameError:
    """``seat`` (its name) has picked ``picks`` (as people read them), may not stop yet (may_stop) and has nothing
    left it may pick: allowed and may_stop of the rules disagree."""
    return GameError(f"{where}: error: step {name!r}: {seat} picked {' + '.join(picks)}, may not stop there "
                     "(may_stop) and has nothing allowed left to pick")


def round_and_round(where: str, name: str) -> GameError:
    """Going round every seat of who twice asking nobody never ends."""
    return GameError(f"{where}: error: step {name!r} goes round and round: no seat can pick anything and until does "
                     "not hold")


# ------------------------------------------------------------------ move, teams, reveal


def no_seat(at: str, zone: str, owner: Any) -> ExpressionFailed:
    return ExpressionFailed(f"{at}: error: a move to {zone!r} needs a seat, got {owner!r}")


def no_route_seat(at: str, zone: str, owner: Any) -> ExpressionFailed:
    return ExpressionFailed(f"{at}: error: a route to {zone!r} needs a seat, got {owner!r}")


def cards_of(at: str, value: Any, deck_size: int, kinds: bool) -> list[int]:
    """The cards a move's ``cards`` expression gave (a card, a list of cards, or none), checked (``kinds``: cards
    held as kinds, which identical cards share)."""
    if value is None:
        return []
    cards = list(value) if isinstance(value, (list, tuple)) else [value]
    for c in cards:
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < deck_size:
            raise ExpressionFailed(f"{at}: error: cards must give cards, got {value!r}")
    if not kinds and len(set(cards)) != len(cards):
        raise ExpressionFailed(f"{at}: error: a card is named twice in {value!r}")
    return cards


def teams_problem(members: list[Any], players: int) -> str | None:
    """What is wrong with teams whose members are ``members`` (every team's, in turn) for ``players`` seats, or
    None: every seat must be in exactly one team."""
    try:
        ok = len(members) == players and sorted(members) == list(range(players)) and all(type(m) is int
                                                                                         for m in members)
    except TypeError:  # something that is not a seat
        ok = False
    return None if ok else "every seat must be in exactly one team"


def check_teams(at: str, teams: Any, players: int) -> None:
    """Teams worked out in play must be a list of lists of seats, every seat in exactly one."""
    members: list[Any] = []
    lists = isinstance(teams, (list, tuple))
    if lists:
        for t in teams:
            if not isinstance(t, (list, tuple)):
                lists = False
                break
            members.extend(t)
    problem = teams_problem(members, players) if lists else "teams must be a list of lists of seats"
    if problem is not None:
        raise ExpressionFailed(f"{at}: error: {problem}, got {teams!r}")


def revealed(at: str, value: Any, players: int) -> list[int]:
    """The seats a reveal names (of ``players`` seats): one seat, a list of them, or none."""
    if value is None:
        return []
    seats = [value] if value.__class__ is int else value
    if not isinstance(seats, (list, tuple)) or any(s.__class__ is not int or not 0 <= s < players for s in seats):
        raise ExpressionFailed(f"{at}: error: reveal's seats must be seats, got {value!r}")
    return list(seats)


# ------------------------------------------------------------------ deal, repeat


def deal_problem(count: Any, players: int, have: int, some: bool, rest: bool) -> str | None:
    """Why ``count`` cards per seat (or each seat's, a tuple in seat order) cannot be dealt to ``players`` seats
    from a pack of ``have`` cards (``some``: the deal's cards are some of the deck; ``rest``: a zone takes the cards
    left over), or None."""
    for one in (count if isinstance(count, tuple) else (count,)):
        if not isinstance(one, int) or isinstance(one, bool) or one < 0:
            return f"hand must be a whole number of cards, got {one!r}"
    need = sum(count) if isinstance(count, tuple) else count * players
    if need > have:
        cards = "this deal's cards are" if some else "the deck has"
        many = ", ".join(map(str, count)) if isinstance(count, tuple) else count
        return f"dealing {many} cards to {players} seats needs {need} cards, {cards} {have}"
    if need < have and not rest:
        return f"{have - need} cards are left after the deal; say where they go with rest: ZONE"
    return None


def cannot_deal(at: str, problem: str, number: int) -> ExpressionFailed:
    """A number of cards worked out in round ``number`` that the deal cannot give (``deal_problem``)."""
    return ExpressionFailed(f"{at}: error: {problem} (round {number})")


def times_problem(times: Any) -> str | None:
    """What is wrong with ``times`` as a repeat's number of times, or None."""
    if not isinstance(times, int) or isinstance(times, bool) or not 0 <= times <= MAX_TIMES:
        return f"times must be a whole number from 0 to {MAX_TIMES}, got {times!r}"
    return None


def bad_times(at: str, times: Any) -> ExpressionFailed:
    """A number of times worked out in play that ``times_problem`` refuses."""
    return ExpressionFailed(f"{at}: error: {times_problem(times)}")


def too_many(where: str, name: str) -> GameError:
    return GameError(f"{where}: error: step {name!r} ran {MAX_TIMES} times; its until never held")


# ------------------------------------------------------------------ board, the round


def bad_next(at: str, nxt: Any) -> ExpressionFailed:
    return ExpressionFailed(f"{at}: error: next must give a seat, got {nxt!r}")


def bad_dealer(at: str | None, dealer: Any) -> ExpressionFailed:
    """A ``next_dealer`` that gave no seat (``at``: its position, None when it has none)."""
    return ExpressionFailed(f"{at + ': ' if at else ''}error: next_dealer must give a seat, got {dealer!r}")


# ------------------------------------------------------------------ tricks


def bad_seats(at: str, active: Any) -> ExpressionFailed:
    return ExpressionFailed(f"{at}: error: seats must give seats that include the leader, got {active!r}")


def bad_leader(at: str, leader: Any) -> ExpressionFailed:
    return ExpressionFailed(f"{at}: error: next_leader must give a seat that plays (or none for the winner), got "
                            f"{leader!r}")


def deciding(state: Any, seat: int, decided_by: Any) -> int:
    """The seat that decides which card ``seat`` plays (``decided_by``: the compiled expression, written for the
    state's shape)."""
    actor = decided_by({"$s": state, "seat": seat})
    if type(actor) is not int or not 0 <= actor < state.players:
        raise ExpressionFailed(f"{decided_by.position}: error: decided_by must give a seat, got "
                               f"{'none' if actor is None else repr(actor)}")
    return actor


def no_card(where: str, seat: str, zones: list[str]) -> GameError:
    """``seat`` (its name), to play in the middle of a trick, holds no card in ``zones`` (a trick starts only when
    every seat has one): the rules took its cards away between plays."""
    return GameError(f"{where}: error: {seat} has to play a card to the trick but its {' and '.join(zones)} "
                     f"{'is' if len(zones) == 1 else 'are'} empty (did a step between plays move its cards away?)")
