"""Game records as JSON Lines: write, read, and replay with verification.

A record is fully determined by the rules, options, chance outcomes and
actions; ``replay`` re-executes it and stops at the first difference.
This module reads the lines (JSON within limits); match/record_reader.py
checks what they say, for records and saved states alike.
See docs/records.md for the format.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, TextIO

from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE
from interpreter.errors import RecordError
from interpreter.limits import MAX_DIGITS, MAX_JSON_DEPTH, json_nesting
from interpreter.match.driver import Match
from interpreter.match.record_reader import open_record, play_events
from interpreter.match.writer import Outcome, outcome_of


def write_record(path: str | Path | TextIO, events: list[dict[str, Any]]) -> None:
    """Write the events as JSON Lines to a path, or to a text file already open for writing."""
    if not isinstance(path, (str, Path)):
        path.write(record_text(events))
        return
    with open(path, "w", encoding="utf-8") as f:
        write_record(f, events)


MAX_LINE = 100_000  # bytes in one line of a record: a deal of every card is a few kilobytes
MAX_EVENTS = 1_000_000


class _TooLong(ValueError):
    pass


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _TooLong(text)
    return int(text)


def read_record(path: str | Path) -> list[tuple[int, dict[str, Any]]]:
    """Events with their line numbers; blank lines and lines starting with # are skipped.

    The file is read line by line, each line at most MAX_LINE bytes and MAX_JSON_DEPTH brackets deep, numbers
    at most MAX_DIGITS digits long; nothing may follow the result line.
    """
    try:
        with open(path, "rb") as handle:
            return _read(handle, str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot read record: {exc}") from None


def parse_record(text: str, where: str) -> list[tuple[int, dict[str, Any]]]:
    """``read_record`` of a record given as text (errors name ``where`` and the line)."""
    try:
        return _read(io.BytesIO(text.encode("utf-8")), where)
    except UnicodeEncodeError as exc:
        raise RecordError(f"{where}: cannot read record: {exc}") from None


def record_text(events: list[dict[str, Any]]) -> str:
    """The events as the text of a record: one JSON line each."""
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)


def _read(handle: Any, where: str) -> list[tuple[int, dict[str, Any]]]:
    events: list[tuple[int, dict[str, Any]]] = []
    ended = None
    n = 0
    while True:
        raw = handle.readline(MAX_LINE + 1)
        if not raw:
            break
        n += 1
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            raise RecordError(f"{where}:{n}: the line is longer than {MAX_LINE} bytes")
        line = raw.decode("utf-8")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if ended is not None:
            raise RecordError(f"{where}:{n}: nothing may follow the result line (line {ended})")
        if json_nesting(line) > MAX_JSON_DEPTH:
            raise RecordError(f"{where}:{n}: brackets nested more than {MAX_JSON_DEPTH} deep")
        try:
            event = json.loads(line, parse_int=_whole)
        except _TooLong:
            raise RecordError(f"{where}:{n}: a number of more than {MAX_DIGITS} digits") from None
        except json.JSONDecodeError as exc:
            raise RecordError(f"{where}:{n}: not valid JSON: {exc.msg} (column {exc.colno})") from None
        if not isinstance(event, dict) or "type" not in event:
            raise RecordError(f"{where}:{n}: each line must be a JSON object with a \"type\"")
        if event["type"] == "result":
            ended = n
        events.append((n, event))
        if len(events) > MAX_EVENTS:
            raise RecordError(f"{where}:{n}: more than {MAX_EVENTS} events")
    if not events:
        raise RecordError(f"{where}: the record is empty")
    return events


def replay(path: str | Path, rules: str | None = None, game: Game | None = None,
           allow: tuple[Path, ...] = ()) -> Outcome:
    """Re-execute a record; raise :class:`RecordError` naming the first difference.

    ``game``: an already compiled game to replay on (the record's header must fit it: its rules_id, player
    count, options and seats), instead of the rules the record names. The record is read as a saved state is
    (match/record_reader.py), but must go on to the end of the game.
    """
    events = read_record(path)
    opened = open_record(events, str(path), game=game, rules=rules, folder=Path(path).parent, allow=allow)
    game = opened.game
    match = Match(game, **opened.start)
    play_events(match, events[0][1], events[1:], str(path))
    state = match.state
    if not state.finished:
        d = state.pending
        assert d is not None, "a game not finished waits for a decision"
        who = "chance" if d.actor == CHANCE else game.seat_names[d.actor]
        raise RecordError(f"{path}: the record ends before the game does (round {state.round_number}, "
                          f"step {d.step.name}, {who} to act)")
    return outcome_of(game, state)
