"""Deal files: start a game from a given deal instead of a shuffled one.

A deal file is PBN (version 2.1, Tis Veugen and others, 2007), the portable deal notation: tag pairs such as
``[Board "1"]``, ``[Dealer "N"]`` and ``[Deal "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4
KQT2.AT.J6542.85"]``, one board after another, boards parted by an empty line. The game's ``deck.notation``
(engine/notation.py) says what the letters and the dot-separated groups of a hand are, and which seats the
directions N, E, S and W are; nothing here knows a game. The board number starts the game at that round and
the dealer deals it; the first deal of the game gives each seat the hand written for it. Everything else in
the file (auction, play, notes, other tags) is skipped. As PBN's import format allows (section 3.11), a
direction or a card letter may be written in lower case.

A deal file is untrusted input: every mistake is a :class:`DealFileError` naming file, line and column.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.notation import DIRECTIONS
from interpreter.engine.state import CHANCE, State
from interpreter.errors import DealFileError, Position, TrickbookError
from interpreter.limits import MAX_DEAL_FILE, MAX_ROUNDS, whole_number

_TAG = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t\r\n]+"((?:[^"\\\n]|\\.)*)"[ \t\r\n]*\]')


@dataclass(frozen=True)
class Tag:
    value: str
    position: Position  # of the value's first character


@dataclass(frozen=True)
class Board:
    """One game of a deal file: its tags (the first of each name; PBN ignores a repeated tag)."""

    tags: dict[str, Tag]
    position: Position  # of its first tag


@dataclass(frozen=True)
class FixedDeal:
    """A game's start read from a deal file: the round (board) it starts at, the dealer, each seat's hand."""

    hand: int
    dealer: int | None  # a seat index; None: the game's own rotation for that round
    hands: tuple[tuple[int, ...], ...]  # per seat index, the card ids written for it
    where: tuple[Position, ...]  # per seat index, where its hand is written

    def outcome(self, game: Game, state: State, rng: Any) -> Any:
        """The pending chance event (the game's first deal) with these hands: a deal file's mistake that only the
        deal shows (a hand of the wrong size, a card this deal does not deal) names the hand in the file."""
        d = state.pending
        if d is None or d.actor != CHANCE or not hasattr(d.step.chance, "fixed_outcome"):
            raise TrickbookError(f"{game.name}: the game's first decision is not a deal, so a deal file cannot "
                                 "give it")
        deal: Any = d.step.chance  # a deal step's chance (engine/steps/deal_chance.py)
        problem = deal.hands_problem(game, state, self.hands)
        if problem is not None:
            seat, text = problem
            raise DealFileError(f"{game.seat_names[seat]}'s hand: {text}", self.where[seat])
        return deal.fixed_outcome(game, state, self.hands, rng)


def read_boards(path: str | Path) -> list[Board]:
    """Every board of the deal file at ``path``."""
    name = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_DEAL_FILE + 1)
    except OSError as exc:
        raise TrickbookError(f"cannot read the deal file {name}: {exc.strerror or exc}") from None
    if len(data) > MAX_DEAL_FILE:
        raise DealFileError(f"a deal file may have at most {MAX_DEAL_FILE:,} bytes", Position(name, 1, 1))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = data[:exc.start].decode("utf-8", "replace")
        line = text.count("\n") + 1
        raise DealFileError("not UTF-8 text", Position(name, line, len(text) - text.rfind("\n"))) from None
    return parse_boards(text, name)


def parse_boards(text: str, file: str) -> list[Board]:
    """The boards of a deal file's text: tag pairs, with ``;`` and ``{...}`` comments and ``%`` lines skipped and
    every other token (calls, cards played) passed over; an empty line ends a board."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def at(index: int) -> Position:
        line = bisect.bisect_right(starts, index)
        return Position(file, line, index - starts[line - 1] + 1)

    boards: list[Board] = []
    tags: dict[str, Tag] = {}
    first = 0
    pos, n = 0, len(text)
    while pos < n:
        ch = text[pos]
        if ch == "\n":
            j = pos + 1
            while j < n and text[j] in " \t\r":
                j += 1
            if (j >= n or text[j] == "\n") and tags:
                boards.append(Board(tags, at(first)))
                tags = {}
            pos += 1
        elif ch == ";" or ch == "%" and (pos == 0 or text[pos - 1] == "\n"):
            end = text.find("\n", pos)
            pos = n if end < 0 else end
        elif ch == "{":
            end = text.find("}", pos)
            if end < 0:
                raise DealFileError("this comment is not closed with }", at(pos))
            pos = end + 1
        elif ch == "[":
            m = _TAG.match(text, pos)
            if m is None:
                raise DealFileError('a tag pair is written [Name "value"]', at(pos))
            if not tags:
                first = pos
            value = re.sub(r"\\(.)", r"\1", m.group(2))
            tags.setdefault(m.group(1), Tag(value, at(m.start(2))))
            pos = m.end()
        else:
            pos += 1
    if tags:
        boards.append(Board(tags, at(first)))
    return boards


def fixed_deal(game: Game, path: str | Path, board: str | None = None) -> FixedDeal:
    """The start that board ``board`` (its Board tag; default: the file's first board) of the deal file at
    ``path`` gives ``game``."""
    notation = game.notation
    if notation is None:
        raise TrickbookError(f"{game.name} cannot read deal files: its deck has no notation (deck.notation, see "
                             "docs/rule-files.md)")
    boards = read_boards(path)
    if not boards:
        raise TrickbookError(f"{path}: the deal file holds no board (no [Deal \"...\"] tag)")
    if board is None:
        chosen = boards[0]
    else:
        found = [b for b in boards if "Board" in b.tags and b.tags["Board"].value.strip() == str(board).strip()]
        if not found:
            names = [b.tags["Board"].value for b in boards if "Board" in b.tags]
            raise TrickbookError(f"{path}: no board {board!r} (its boards: {', '.join(names[:30]) or 'none numbered'}"
                                 + (" ..." if len(names) > 30 else "") + ")")
        chosen = found[0]
    tags = chosen.tags
    if "Deal" not in tags:
        raise DealFileError("this board has no [Deal \"...\"] tag", chosen.position)

    seat_of = []  # the seat index of each direction N, E, S, W
    for name in notation.seats:
        if name not in game.seat_names:
            raise TrickbookError(f"{game.name} with {game.player_count} players has no seat {name!r}, which deal "
                                 f"files give a hand (seats: {', '.join(game.seat_names)})")
        seat_of.append(game.seat_names.index(name))
    if game.players != len(DIRECTIONS):
        raise TrickbookError(f"a deal file gives {len(DIRECTIONS)} hands; {game.name} with {game.player_count} "
                             f"players has {game.players} seats")

    hand = 1
    if "Board" in tags:
        number = whole_number(tags["Board"].value.strip())
        if number is None or not 1 <= number <= MAX_ROUNDS:
            raise DealFileError(f"the board number must be a whole number from 1 to {MAX_ROUNDS}, not "
                                f"{tags['Board'].value!r}", tags["Board"].position)
        hand = number
    dealer = None
    if "Dealer" in tags:
        dealer = seat_of[_direction(tags["Dealer"].value.strip(), tags["Dealer"].position)]
    hands, where = _hands(game, tags["Deal"], seat_of)
    return FixedDeal(hand, dealer, hands, where)


def _direction(text: str, position: Position) -> int:
    if len(text) != 1 or text.upper() not in DIRECTIONS:
        raise DealFileError(f"a direction is N, E, S or W, not {text!r}", position)
    return DIRECTIONS.index(text.upper())


def _hands(game: Game, tag: Tag, seat_of: list[int]) -> tuple[tuple[tuple[int, ...], ...], tuple[Position, ...]]:
    """Each seat's cards from a Deal tag ``D:hand hand hand hand`` (the hands clockwise from direction D)."""
    notation = game.notation
    assert notation is not None, "fixed_deal checks that the game has a notation"
    value, start = tag.value, tag.position

    def at(offset: int) -> Position:  # a tag's value is on one line
        return Position(start.file, start.line, start.column + offset)

    if len(value) < 2 or value[1] != ":":
        raise DealFileError("a deal is written D:HAND HAND HAND HAND, D the direction of the first hand", start)
    first = _direction(value[0], start)
    written = [(m.group(), m.start()) for m in re.finditer(r"\S+", value[2:])]
    if len(written) != len(DIRECTIONS):
        raise DealFileError(f"a deal has {len(DIRECTIONS)} hands, parted by spaces; this one has {len(written)}",
                            at(2 + (written[len(DIRECTIONS)][1] if len(written) > len(DIRECTIONS) else 0)))
    left = game.cards_by_label()  # the ids of each card of the deck, not yet written in a hand
    hands: list[tuple[int, ...]] = [()] * game.players
    where: list[Position] = [start] * game.players
    labels = game.cards.labels
    for i, (text, offset) in enumerate(written):
        seat = seat_of[(first + i) % len(DIRECTIONS)]
        offset += 2
        where[seat] = at(offset)
        if text == "-":
            raise DealFileError("an unknown hand (-) cannot be dealt: write every hand", at(offset))
        groups = text.split(".")
        if len(groups) != len(notation.groups):
            raise DealFileError(f"a hand has {len(notation.groups)} groups parted by dots "
                                f"({', '.join(map(str, notation.groups))}); this one has {len(groups)}", at(offset))
        cards: list[int] = []
        k = offset
        for g, group in enumerate(groups):
            for ch in group:
                kind = notation.cards.get((g, ch), notation.cards.get((g, ch.upper())))  # lower case: import format
                if kind is None:
                    known = "".join(sorted({c for (gi, c) in notation.cards if gi == g}))
                    raise DealFileError(f"{ch!r} is not a card of {notation.groups[g]} (its letters: {known})", at(k))
                if not left.get(labels[kind]):
                    raise DealFileError(f"the {labels[kind]} is dealt more often than the deck has it", at(k))
                cards.append(left[labels[kind]].pop(0))
                k += 1
            k += 1  # the dot
        hands[seat] = tuple(cards)
    return tuple(hands), tuple(where)

