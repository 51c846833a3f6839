"""Game records as JSON Lines: write, read, and replay with verification.

A record is fully determined by the rules, options, chance outcomes and
actions; ``replay`` re-executes it and stops at the first difference.
See docs/records.md for the format.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, TextIO

from interpreter.engine.compile import compile_game
from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE
from interpreter.errors import IllegalAction, RecordError, TrickbookError
from interpreter.harness.runner import RECORD_FORMAT, RECORD_VERSION, Outcome, result_event, round_event
from interpreter.limits import MAX_DIGITS
from interpreter.rules.catalog import resolve_reference
from interpreter.rules.loader import load_rules

TOLD = ("trick", "automatic")  # events that say what the rules made happen (tricks won, automatic decisions)


def write_record(path: str | Path | TextIO, events: list[dict[str, Any]]) -> None:
    """Write the events as JSON Lines to a path, or to a text file already open for writing."""
    if not isinstance(path, (str, Path)):
        path.write(record_text(events))
        return
    with open(path, "w", encoding="utf-8") as f:
        write_record(f, events)


MAX_LINE = 100_000  # bytes in one line of a record: a deal of every card is a few kilobytes
MAX_DEPTH = 16  # nesting of brackets in one line: events are shallow
MAX_EVENTS = 1_000_000


class _TooLong(ValueError):
    pass


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _TooLong(text)
    return int(text)


def _depth(line: str) -> int:
    """The deepest nesting of [ and { in a JSON line (outside strings), found without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in line:
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
                if deepest > MAX_DEPTH:
                    break
        elif ch in "]}":
            depth -= 1
    return deepest


def read_record(path: str | Path) -> list[tuple[int, dict[str, Any]]]:
    """Events with their line numbers; blank lines and lines starting with # are skipped.

    The file is read line by line, each line at most MAX_LINE bytes and MAX_DEPTH brackets deep, numbers
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
        if _depth(line) > MAX_DEPTH:
            raise RecordError(f"{where}:{n}: brackets nested more than {MAX_DEPTH} deep")
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


def game_for_record(head: dict[str, Any], where: str, rules: str | None = None,
                    folder: Path | None = None, allow: tuple[Path, ...] = ()) -> Game:
    """Compile the rules a record names (or ``rules``, given by the user), checking their identity.

    A record is untrusted: the rule file it names is a bundled game or a rule file under the record's
    folder (or an ``allow`` folder), never a path that leads elsewhere.
    """
    if head.get("type") != "game":
        raise RecordError(f"{where}: the first line must be the game header ({{\"type\": \"game\", ...}})")
    if head.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise RecordError(f"{where}: not a Trickbook record (format {head.get('format')!r})")
    if head.get("version", RECORD_VERSION) != RECORD_VERSION:
        raise RecordError(f"{where}: record version {head.get('version')!r}; this Trickbook reads version "
                          f"{RECORD_VERSION}")
    name = rules or head.get("rules_file") or head.get("rules")
    if not isinstance(name, str):
        raise RecordError(f"{where}: the header must name the rules (\"rules\": a bundled game name or a file)")
    players = head.get("players")
    if not isinstance(players, int):
        raise RecordError(f"{where}: the header must give \"players\" as a number")
    options = head.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError(f"{where}: \"options\" must be an object")
    try:
        path = name if rules else resolve_reference(name, folder or Path("."), allow)
        source = load_rules(path, allow)
        game = compile_game(source, players, options)
    except TrickbookError as exc:
        raise RecordError(f"{where}: cannot set up the game: {exc}") from None
    want = head.get("rules_id")
    if want is not None and want != game.identity:
        raise RecordError(f"{where}: the record was made with other rules (rules_id {want}); "
                          f"{name} now has rules_id {game.identity}")
    seats = head.get("seats")
    if seats is not None and seats != game.seat_names:
        raise RecordError(f"{where}: seats {seats} differ from the game's seats {game.seat_names}")
    return game


def replay(path: str | Path, rules: str | None = None, game: Game | None = None,
           allow: tuple[Path, ...] = ()) -> Outcome:
    """Re-execute a record; raise :class:`RecordError` naming the first difference.

    ``game``: an already compiled game to replay on (its player count, options and seats must
    be the record's), instead of the rules the record names.
    """
    events = read_record(path)
    n0, head = events[0]
    if game is None:
        game = game_for_record(head, f"{path}:{n0}", rules, Path(path).parent, allow)
    elif (head.get("players"), head.get("options") or {}, head.get("seats", game.seat_names)) != \
            (game.player_count, game.options, game.seat_names):
        raise RecordError(f"{path}:{n0}: the record is for other players, options or seats than the game given")
    state = game.new_state(**start_of(game, head, f"{path}:{n0}"))
    play_events(game, state, head, events[1:], str(path))
    if not state.finished:
        d = state.pending
        assert d is not None, "a game not finished waits for a decision"
        who = "chance" if d.actor == CHANCE else game.seat_names[d.actor]
        raise RecordError(f"{path}: the record ends before the game does (round {state.round_number}, "
                          f"step {d.step.name}, {who} to act)")
    return Outcome(list(state.totals), game.winners(state), state.round_number,
                   [list(r) for r in state.round_results])


def start_of(game: Game, head: dict[str, Any], where: str) -> dict[str, Any]:
    """``Game.new_state``'s arguments for a game picked up in the middle, from the header's ``start`` (the
    round, the dealer's name and the running totals by seat name); {} for a game from its start."""
    start = head.get("start")
    if start is None:
        return {}
    names = game.seat_names
    if not isinstance(start, dict) or not isinstance(start.get("hand"), int) or start["hand"] < 1 \
            or start.get("dealer") not in names or not isinstance(start.get("totals"), dict) \
            or sorted(start["totals"]) != sorted(names) \
            or any(type(v) is not int or len(str(v)) > MAX_DIGITS for v in start["totals"].values()):
        raise RecordError(f"{where}: \"start\" must give the round (\"hand\": 1 or more), the \"dealer\" (a "
                          "seat's name) and the \"totals\" (a whole number for each seat's name)")
    return {"hand": start["hand"], "dealer": names.index(start["dealer"]),
            "totals": [start["totals"][s] for s in names]}


def play_events(game: Game, state: Any, head: dict[str, Any], events: list[tuple[int, dict[str, Any]]],
                path: str) -> None:
    """Re-execute the events of a record after its header (``head``) on ``state`` (made by ``Game.new_state``
    as ``start_of`` says), checking each; the record may end before the game does."""
    first = head["start"]["hand"] if isinstance(head.get("start"), dict) else 1
    names = game.seat_names
    checked_result = False
    for n, event in events:
        where = f"{path}:{n}"
        kind = event["type"]
        if kind == "round":
            _expect_round(game, state, event, where, first)
            continue
        if kind == "result":
            _expect_equal(where, "result", result_event(game, state), event, ("rounds", "totals", "winners"))
            checked_result = True
            continue
        if kind in TOLD:  # what happened by the rules, written by the public API: not needed to replay
            continue
        if checked_result:
            raise RecordError(f"{where}: events after the result line")
        if state.finished:
            raise RecordError(f"{where}: the game is already over, but the record goes on ({kind})")
        d = state.pending
        assert d is not None, "a game not finished waits for a decision"
        if event.get("round", state.round_number) != state.round_number:
            raise RecordError(f"{where}: the record says round {event.get('round')!r}, the game is in round "
                              f"{state.round_number} (step {d.step.name})")
        if d.step.name != event.get("step", d.step.name):
            raise RecordError(f"{where}: the record has step {event.get('step')!r}, "
                              f"the game is at step {d.step.name!r}")
        if kind == "chance":
            if d.actor != CHANCE:
                raise RecordError(f"{where}: the record has a chance event, but {names[d.actor]} must act "
                                  f"({d.step.name})")
            data = event.get("outcome")
            if not isinstance(data, dict):
                raise RecordError(f"{where}: a chance event needs an \"outcome\" object")
            try:
                outcome = d.step.outcome_from_record(game, state, data)
            except RecordError as exc:
                raise RecordError(f"{where}: {exc}") from None
            game.apply_chance(state, outcome)
        elif kind == "action":
            if d.actor == CHANCE:
                raise RecordError(f"{where}: the record has an action, but a chance event "
                                  f"({d.step.name}) comes now")
            seat = event.get("seat")
            if seat is not None and seat != names[d.actor]:
                raise RecordError(f"{where}: the record has {seat!r} acting, but it is {names[d.actor]}'s turn "
                                  f"({d.step.name})")
            label = event.get("action")
            if not isinstance(label, str):
                raise RecordError(f"{where}: an action event needs \"action\": the action's label")
            try:
                action = game.action_for_label(state, label)
            except IllegalAction as exc:
                raise RecordError(f"{where}: {exc}") from None
            game.apply(state, action)
        else:
            raise RecordError(f"{where}: unknown event type {kind!r} (game, chance, action, round, result, trick, "
                              "automatic)")


def _expect_round(game: Game, state: Any, event: dict[str, Any], where: str, first: int) -> None:
    n = event.get("round")
    if not isinstance(n, int) or not 1 <= n - first + 1 <= len(state.round_results):
        raise RecordError(f"{where}: round {n!r} has not been scored at this point of the game")
    _expect_equal(where, f"round {n}", round_event(game, state, n - first + 1, first), event, ("scores", "totals"))


def _expect_equal(where: str, what: str, actual: dict[str, Any], written: dict[str, Any], keys: tuple) -> None:
    for key in keys:
        if key in written and written[key] != actual[key]:
            raise RecordError(f"{where}: {what} {key} differ: the record says {written[key]}, "
                              f"the replay gives {actual[key]}")
