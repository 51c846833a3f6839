"""The one reader of game records and saved states (a saved state is a record of a game, perhaps not over).

``replay`` (match/records.py), ``TrickGame.deserialize`` and ``load_serialized`` (api.py) all read through
here, so each check is written once: the header (format, version, rules, players, seats, options, seed, start),
whether the header fits the game it is played on, and every line after it, field by field, each re-executed
and compared. What is wrong is a :class:`RecordError` naming the line, the field and what was expected.
docs/records.md describes the format.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.engine.compile import compile_game
from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE
from interpreter.errors import IllegalAction, RecordError, TrickbookError
from interpreter.limits import MAX_DIGITS, MAX_NUMBER
from interpreter.match.driver import Handler, Match
from interpreter.match.events import Action, Automatic, Chance, Trick
from interpreter.match.writer import RECORD_FORMAT, RECORD_VERSION, result_event, round_event
from interpreter.rules.catalog import resolve_reference
from interpreter.rules.loader import load_rules

MAX_SEED_CHARS = 1000  # characters of a seed given as text (a record's header line must stay readable)


def shown(value: Any) -> str:
    """A value of a record, as a message names it: JSON's words for JSON's kinds, text quoted (and cut)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the text {quoted(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, float):
        return f"the fraction {value!r}"
    if isinstance(value, int):
        return str(value)
    return f"a Python {type(value).__name__}"


def quoted(text: str) -> str:
    """``text`` quoted for a message (as Python writes it, so nothing unprintable), cut after 60 characters."""
    return repr(text[:60]) + ("..." if len(text) > 60 else "")


def seed_problem(seed: Any) -> str | None:
    """What is wrong with ``seed`` as the seed of a game (None: nothing). A seed is what a record's header can
    hold and read back as it was: a whole number of at most MAX_DIGITS digits, or text of at most MAX_SEED_CHARS
    characters (valid Unicode). The API's ``new_state`` and ``play``, ``trickbook --seed`` and the reader of
    records and saved states all ask this."""
    if type(seed) is int:
        if abs(seed) > MAX_NUMBER:
            return f"must be a whole number of at most {MAX_DIGITS} digits, or text (not a longer number)"
        return None
    if type(seed) is str:
        if len(seed) > MAX_SEED_CHARS:
            return f"must be text of at most {MAX_SEED_CHARS} characters, not {len(seed)}"
        try:
            seed.encode("utf-8")
        except UnicodeEncodeError:
            return "must be valid Unicode text (it holds a lone surrogate, a byte that was not text)"
        return None
    return f"must be a whole number or text, not {shown(seed)}"


# ---------------------------------------------------------------------------------------------- the header

HEADER_KEYS = ("type", "format", "version", "rules", "rules_file", "rules_id", "players", "seats", "options",
               "seed", "start", "engine", "stream")


@dataclass(frozen=True)
class Header:
    """A record's first line, every field checked for its kind (None: not given)."""

    players: int
    rules: str | None = None
    rules_file: str | None = None
    rules_id: str | None = None
    seats: list[str] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | str | None = None  # its "start" is read with the game (start_of)


def read_header(head: dict[str, Any], where: str) -> Header:
    """The header line ``head`` checked: each key known, each value of its kind (``where``: "FILE:LINE")."""
    if head.get("type") != "game":
        raise RecordError(f"{where}: the first line must be the game header ({{\"type\": \"game\", ...}})")
    unknown = [k for k in head if k not in HEADER_KEYS]
    if unknown:
        raise RecordError(f"{where}: unknown key {quoted(unknown[0])} in the header (a header has "
                          f"{', '.join(HEADER_KEYS)})")
    if "format" in head and not same(head["format"], RECORD_FORMAT):
        raise RecordError(f"{where}: not a Trickbook record (\"format\" is {shown(head['format'])}, a record's is "
                          f"{RECORD_FORMAT!r})")
    version = head.get("version", RECORD_VERSION)
    if type(version) is not int:
        raise RecordError(f"{where}: \"version\" must be a whole number (this Trickbook reads version "
                          f"{RECORD_VERSION}), not {shown(version)}")
    if version != RECORD_VERSION:
        raise RecordError(f"{where}: record version {version} is not supported: this Trickbook reads version "
                          f"{RECORD_VERSION}")
    for key in ("rules", "rules_file", "rules_id", "engine", "stream"):
        if key in head and type(head[key]) is not str:
            raise RecordError(f"{where}: \"{key}\" must be text, not {shown(head[key])}")
    players = head.get("players")
    if type(players) is not int or players < 1:
        got = "nothing" if "players" not in head else shown(players)
        raise RecordError(f"{where}: the header must give \"players\": the player count, a whole number from 1 "
                          f"(not {got})")
    seats = head.get("seats")
    if "seats" in head and (type(seats) is not list or any(type(s) is not str for s in seats)):
        raise RecordError(f"{where}: \"seats\" must be a list of the seats' names (text), not {shown(seats)}")
    options = head.get("options", {})
    if type(options) is not dict:
        raise RecordError(f"{where}: \"options\" must be an object (an option's name: its value), not "
                          f"{shown(options)}")
    for name, value in options.items():
        if type(value) not in (bool, int, str):
            raise RecordError(f"{where}: option {quoted(name)} must be true, false, a whole number or text, not "
                              f"{shown(value)}")
    seed = head.get("seed")
    if "seed" in head:
        problem = seed_problem(seed)
        if problem:
            raise RecordError(f"{where}: \"seed\" {problem}" + (" (leave \"seed\" out for none)" if seed is None
                                                                  else ""))
    return Header(players, head.get("rules"), head.get("rules_file"), head.get("rules_id"), seats, dict(options),
                  seed)


def fits(header: Header, game: Game, where: str, name: str | None = None) -> None:
    """``game`` is the game ``header`` describes: the same rules (``rules_id``, when given), players, options (those
    the header gives; the others are the game's) and seats (when given). ``name``: how the rules are named."""
    if header.rules_id is not None and header.rules_id != game.identity:
        raise RecordError(f"{where}: the record was made with other rules (rules_id {quoted(header.rules_id)}); "
                          f"{name or game.name} now has rules_id {game.identity}")
    if header.players != game.player_count:
        raise RecordError(f"{where}: the record is for {header.players} players, the game for {game.player_count}")
    for option, value in header.options.items():
        if option not in game.options:
            raise RecordError(f"{where}: unknown option {quoted(option)} (options of this game: "
                              f"{', '.join(game.options) or 'none'})")
        if not same(value, game.options[option]):
            raise RecordError(f"{where}: option {option}: the record has {shown(value)}, the game "
                              f"{shown(game.options[option])}")
    if header.seats is not None and header.seats != game.seat_names:
        raise RecordError(f"{where}: seats {_cut(header.seats)} differ from the game's seats {game.seat_names}")


def game_for_record(header: Header, where: str, rules: str | None = None, folder: Path | None = None,
                    allow: tuple[Path, ...] = ()) -> Game:
    """The rules a record names (or ``rules``, given by the user), compiled for its players and options.

    A record is untrusted: the rule file it names is a bundled game or a rule file under the record's
    folder (or an ``allow`` folder), never a path that leads elsewhere.
    """
    name = rules or header.rules_file or header.rules
    if name is None:
        raise RecordError(f"{where}: the header must name the rules (\"rules\": a bundled game name or a file)")
    try:
        path = name if rules else resolve_reference(name, folder or Path("."), allow)
        game = compile_game(load_rules(path, allow), header.players, header.options)
    except TrickbookError as exc:
        raise RecordError(f"{where}: cannot set up the game: {exc}") from None
    fits(header, game, where, name)
    return game


def start_of(game: Game, head: dict[str, Any], where: str) -> dict[str, Any]:
    """``Game.new_state``'s arguments for a game picked up in the middle, from the header's ``start`` (the
    round, the dealer's name and the running totals by seat name); {} for a game from its start."""
    if "start" not in head:
        return {}
    start = head["start"]
    names = game.seat_names
    if type(start) is not dict or type(start.get("hand")) is not int or start["hand"] < 1 \
            or start["hand"] > MAX_NUMBER or start.get("dealer") not in names \
            or type(start.get("totals")) is not dict or sorted(start["totals"]) != sorted(names) \
            or any(type(v) is not int or abs(v) > MAX_NUMBER for v in start["totals"].values()) \
            or set(start) != {"hand", "dealer", "totals"}:
        raise RecordError(f"{where}: \"start\" must give the round (\"hand\": 1 or more), the \"dealer\" (a "
                          "seat's name) and the \"totals\" (a whole number for each seat's name), and nothing else")
    return {"hand": start["hand"], "dealer": names.index(start["dealer"]),
            "totals": [start["totals"][s] for s in names]}


@dataclass(frozen=True)
class Opened:
    """A record's header read and its game found: what playing its lines needs."""

    game: Game
    header: Header
    start: dict[str, Any]  # Game.new_state's arguments


def open_record(events: list[tuple[int, dict[str, Any]]], where: str, *, game: Game | None = None,
                rules: str | None = None, folder: Path | None = None, allow: tuple[Path, ...] = ()) -> Opened:
    """Read the header of ``events`` (a record's lines with their numbers; ``where`` names the record) and find
    its game: ``game`` when given (the header must fit it), else the rules the header names (or ``rules``)."""
    n, head = events[0]
    at = f"{where}:{n}"
    header = read_header(head, at)
    if game is None:
        game = game_for_record(header, at, rules, folder, allow)
    else:
        fits(header, game, at)
    return Opened(game, header, start_of(game, head, at))


# ---------------------------------------------------------------------------------------------- the lines

_INT = (lambda v: type(v) is int, "a whole number")
_TEXT = (lambda v: type(v) is str, "text")
_OBJECT = (lambda v: type(v) is dict, "an object")
_LIST = (lambda v: type(v) is list, "a list")
_BOOL = (lambda v: type(v) is bool, "true or false")
Kind = tuple[Callable[[Any], bool], str]

# each line's keys besides "type": (its kind, what it is when it must be given, else None)
LINES: dict[str, dict[str, tuple[Kind, str | None]]] = {
    "chance": {"round": (_INT, None), "step": (_TEXT, None), "outcome": (_OBJECT, "the deal")},
    "action": {"round": (_INT, None), "step": (_TEXT, None), "seat": (_TEXT, None),
               "action": (_TEXT, "the action's label")},
    "round": {"round": (_INT, "the round's number"), "scores": (_OBJECT, None), "totals": (_OBJECT, None)},
    "result": {"rounds": (_INT, None), "totals": (_OBJECT, None), "winners": (_LIST, None)},
    "trick": {"round": (_INT, None), "trick": (_INT, None), "cards": (_LIST, None), "winner": (_TEXT, None),
              "claimed": (_BOOL, None), "takers": (_LIST, None)},
    "automatic": {"round": (_INT, None), "step": (_TEXT, None), "seat": (_TEXT, None), "action": (_TEXT, None)},
}
TOLD = ("trick", "automatic")  # lines that say what the rules made happen (tricks won, automatic decisions)


def check_line(event: dict[str, Any], where: str) -> str:
    """The kind of the line ``event`` (after the header), each of its keys known and of its kind."""
    kind = event.get("type")
    if kind == "game":
        raise RecordError(f"{where}: a second header: the game header comes once, on the first line")
    if type(kind) is not str or kind not in LINES:
        raise RecordError(f"{where}: unknown line type {shown(kind)} (a line after the header is one of "
                          f"{', '.join(LINES)})")
    keys = LINES[kind]
    for key, value in event.items():
        if key == "type":
            continue
        if key not in keys:
            raise RecordError(f"{where}: unknown key {quoted(key)} in {_a(kind)} line (it has {', '.join(keys)})")
        (ok, what), _ = keys[key]
        if not ok(value):
            raise RecordError(f"{where}: \"{key}\" of {_a(kind)} line must be {what}, not {shown(value)}")
    for key, ((_, what), needed) in keys.items():
        if needed and key not in event:
            raise RecordError(f"{where}: {_a(kind)} line needs \"{key}\": {needed} ({what})")
    return kind


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


class _ToldSince:
    """What the rules told (tricks won, automatic decisions) since the last chance event or action."""

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self.hears: dict[type, Handler] = {Chance: self.changed, Action: self.changed, Trick: self.told,
                                           Automatic: self.told}

    def changed(self, match: Match, event: Chance | Action) -> None:
        self.lines.clear()

    def told(self, match: Match, event: Trick | Automatic) -> None:
        self.lines.append(event.line)


def play_events(match: Match, head: dict[str, Any], events: list[tuple[int, dict[str, Any]]], path: str) -> None:
    """Re-execute the lines of a record after its header (``head``) on ``match`` (made as ``start_of`` says),
    checking each; the record may end before the game does."""
    told = _ToldSince()
    if not any(e.get("type") in TOLD for _, e in events):
        _play_lines(match, told, events, path)
        return
    match.listen(told)  # the rules tell what they make happen: the record's lines say it too
    try:
        _play_lines(match, told, events, path)
    finally:
        match.forget(told)


def _play_lines(match: Match, told: _ToldSince, events: list[tuple[int, dict[str, Any]]], path: str) -> None:
    game = match.game
    names = game.seat_names
    checked_result = False
    for n, event in events:
        where = f"{path}:{n}"
        kind = check_line(event, where)
        state = match.state
        if kind == "round":
            _expect_round(game, state, event, where, match.first)
            continue
        if kind == "result":
            _expect_equal(where, "result", result_event(game, state), event, ("rounds", "totals", "winners"))
            checked_result = True
            continue
        if kind in TOLD:
            at = next((i for i, e in enumerate(told.lines) if same(e, event)), None)
            if at is None:
                raise RecordError(f"{where}: this {kind} line is not what the rules made happen since the last "
                                  f"chance or action line" + (f" ({_told_list(told.lines)})" if told.lines
                                                                else " (nothing)"))
            del told.lines[:at + 1]
            continue
        if checked_result:
            raise RecordError(f"{where}: events after the result line")
        if state.finished:
            raise RecordError(f"{where}: the game is already over, but the record goes on ({kind})")
        d = state.pending
        assert d is not None, "a game not finished waits for a decision"
        if event.get("round", state.round_number) != state.round_number:
            raise RecordError(f"{where}: the record says round {event['round']}, the game is in round "
                              f"{state.round_number} (step {d.step.name})")
        if d.step.name != event.get("step", d.step.name):
            raise RecordError(f"{where}: the record has step {quoted(event['step'])}, the game is at step "
                              f"{d.step.name!r}")
        if kind == "chance":
            if d.actor != CHANCE:
                raise RecordError(f"{where}: the record has a chance event, but {names[d.actor]} must act "
                                  f"({d.step.name})")
            try:
                outcome = d.step.chance.outcome_from_record(game, state, event["outcome"])
            except RecordError as exc:
                raise RecordError(f"{where}: {exc}") from None
            match.chance(outcome)
        else:
            if d.actor == CHANCE:
                raise RecordError(f"{where}: the record has an action, but a chance event ({d.step.name}) comes now")
            seat = event.get("seat")
            if seat is not None and seat != names[d.actor]:
                raise RecordError(f"{where}: the record has {quoted(seat)} acting, but it is {names[d.actor]}'s turn "
                                  f"({d.step.name})")
            try:
                action = game.action_for_label(state, event["action"])
            except IllegalAction as exc:
                raise RecordError(f"{where}: {exc}") from None
            match.act(action)


def _told_list(told: list[dict[str, Any]]) -> str:
    return "the rules told: " + "; ".join(
        f"trick {e['trick']} won by {e['winner']}" if e["type"] == "trick" else f"{e['seat']} {e['action']}"
        for e in told)


def same(a: Any, b: Any) -> bool:
    """``a`` and ``b`` are the same JSON value: of the same kinds all through (true is not 1)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())
    if type(a) is list:
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _expect_round(game: Game, state: Any, event: dict[str, Any], where: str, first: int) -> None:
    n = event["round"]
    if not 1 <= n - first + 1 <= len(state.round_results):
        raise RecordError(f"{where}: round {n} has not been scored at this point of the game")
    _expect_equal(where, f"round {n}", round_event(game, state, n - first + 1, first), event, ("scores", "totals"))


def _expect_equal(where: str, what: str, actual: dict[str, Any], written: dict[str, Any], keys: tuple) -> None:
    for key in keys:
        if key in written and not same(written[key], actual[key]):
            raise RecordError(f"{where}: {what} {key} differ: the record says {_cut(written[key])}, "
                              f"the replay gives {actual[key]}")


def _cut(value: Any) -> str:
    """A value of a record as a message shows it: at most 200 characters."""
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 200 else text[:200] + "..."
