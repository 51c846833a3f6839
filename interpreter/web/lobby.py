"""The web table's lobby: the games offered, rule files of people's own (checked as ``trickbook validate`` checks
them), making tables, what one server keeps and for how long, and picking tables up again from the records folder
after a restart.

Nothing here knows HTTP; the server (app.py) calls it. A rule file sent to the lobby is untrusted text: it is
loaded by the same loader as every rule file (YAML limits, extends, the schema, the compiler's checks), its errors
given with line, column, the source line and a caret; only a valid one is kept, in the records folder's ``rules/``
under the hash of its text (with who sent it beside it, ``HASH.json``). A table's setup (``TABLE.table.json``) is
read back after a restart by the same checks as a new table's request.

Limits (``Limits``, docs/web.md): tables and rule files a server keeps, and those of one client address; a finished
(or stopped) table is kept for a while after its last change, an unfinished one for longer, then taken away (its
record moved to ``expired/``, with the rule file it names); a rule file no table uses is deleted some time after
it was last sent.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import secrets
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import interpreter as tb
from interpreter.api.builtin_agents import AGENTS, PLAY_AGENT
from interpreter.errors import RuleError, RuleWarning, TrickbookError, show_file_as
from interpreter.limits import MAX_NUMBER
from interpreter.web.guard import read_json
from interpreter.web.tables import Setup, Table, Tokens, check_setup, mtime, new_token, token_hash

MAX_RULES = 1_000_000  # bytes of a rule file sent to the lobby (the loader's own limit for any rule file)
MAX_SETUP = 100_000  # bytes of a table's setup file (a few hundred are written)
_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_UPLOADED = re.compile(r"^rules/[0-9a-f]{32}\.yaml$")
_HASH = re.compile(r"^[0-9a-f]{64}$")
log = logging.getLogger("trickbook.web")


@dataclass(frozen=True)
class Limits:
    """What one server keeps, and for how long (seconds). docs/web.md, "Limits and expiry", says each."""

    tables: int = 1000  # tables kept at once
    tables_per_client: int = 20  # of them, made from one client address
    rule_files: int = 1000  # rule files sent to the lobby, kept in the records folder
    rule_files_per_client: int = 100  # of them, sent from one client address
    finished: float = 3600.0  # a finished or stopped table is kept this long after its last change
    idle: float = 86400.0  # an unfinished table is kept this long after its last change
    unused_rules: float = 3600.0  # a rule file no table uses is kept this long after it was last sent or used


@dataclass
class _RuleFile:
    client: str | None  # who sent it first
    used: float  # when it was last sent or a table was made of it
    warnings: tuple[dict[str, Any], ...] = ()  # what validate warns of, for the page (problem_json)


class LobbyError(TrickbookError):
    """A request the lobby refuses: its message says why (never a traceback)."""


def problem_json(e: RuleError) -> dict[str, Any]:
    """A rule file's error for the page: line, column, message, the source line and a caret under the column."""
    pos = e.position
    line = e.source_line if e.source_line is not None or pos is None else None
    if pos is not None and line is None:
        from interpreter.errors import read_source_line

        line = read_source_line(pos.file, pos.line)
    line = (line or "").rstrip()
    col = pos.column if pos is not None else 1
    return {"line": pos.line if pos is not None else 1, "col": col, "message": e.message,
            "source": line, "caret": (" " * max(col - 1, 0) + "^") if line.strip() else ""}


def _warned(info: dict[str, Any], warnings: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """A rule file's lobby information with what validate warns of in it (``warnings``, as problem_json), if any."""
    return {**info, "warnings": list(warnings)} if warnings else info


def duration(seconds: float) -> str:
    """``seconds`` as people say it: "1 hour", "24 hours", "30 minutes"."""
    for size, unit in ((3600, "hour"), (60, "minute"), (1, "second")):
        if seconds >= size:
            n = round(seconds / size, 1)
            n = int(n) if n == int(n) else n
            return f"{n} {unit}{'' if n == 1 else 's'}"
    return f"{seconds:g} seconds"


class Lobby:
    """The tables of one server, and the folder their records (and people's rule files) are kept in. Not
    thread-safe: the server calls it from one thread at a time."""

    def __init__(self, folder: str | Path, limits: Limits | None = None, clock: Callable[[], float] = time.time):
        self.folder = Path(folder).resolve()
        (self.folder / "rules").mkdir(parents=True, exist_ok=True)
        self.limits = limits or Limits()
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.rule_files: dict[str, _RuleFile] = {}
        self._info: dict[str, dict[str, Any]] = {}
        self._games: list[dict[str, str]] | None = None
        self._read_rule_files()

    # ------------------------------------------------------------------ games

    def games(self) -> list[dict[str, str]]:
        """The bundled games, by name and title."""
        if self._games is None:
            self._games = [{"name": name, "title": tb.about(name).title} for name in tb.games()]
        return self._games

    def rules_info(self, rules: str) -> dict[str, Any]:
        """What the lobby offers for a game (a bundled name or a stored rule file): its player counts, the seats
        of each (automatic ones marked), its options with their defaults, choices and descriptions, and the bots a
        seat may be given (``agents``, each with what it does) with the one a seat is given unless a person changes it
        (``default_agent``: the same as ``trickbook play``'s)."""
        if rules in self._info:
            return self._info[rules]
        path = self._rules_path(rules)
        about = tb.about(path)
        seats: dict[str, Any] = {}
        for n in about.players:
            game = tb.load(path, players=n)
            seats[str(n)] = {"names": game.seat_names, "automatic": game.automatic}
        options = {k: {"default": o.default, "choices": o.choices, "description": o.description}
                   for k, o in about.options.items()}
        info = {"rules": rules, "title": about.title, "players": about.players, "seats": seats, "options": options,
                "agents": AGENTS, "default_agent": PLAY_AGENT}
        self._info[rules] = info
        return info

    def _rules_path(self, rules: Any) -> str:
        """The file or bundled name to load ``rules`` (untrusted) from: a bundled game or a stored rule file (whose
        errors name it as the table does, ``rules/HASH.yaml``)."""
        if isinstance(rules, str) and rules in tb.games():
            return rules
        if isinstance(rules, str) and _UPLOADED.match(rules) and (self.folder / rules).is_file():
            path = str(self.folder / rules)
            show_file_as(path, rules)
            return path
        raise LobbyError("no such game: choose a bundled game or send the rule file again")

    def check_rules(self, text: Any, client: str | None = None) -> dict[str, Any]:
        """A rule file's text (untrusted), checked: ``{"errors": [...]}`` with each problem's place, or the game's
        lobby information (``rules`` names the stored file). Only a valid file is kept (a refused one counts
        for nothing), within the limits of the server and of the ``client`` address."""
        if not isinstance(text, str) or not text.strip():
            raise LobbyError("the rule file is empty")
        data = text.encode("utf-8", "replace")
        if len(data) > MAX_RULES:
            raise LobbyError(f"the rule file is larger than {MAX_RULES:,} bytes")
        name = f"rules/{hashlib.sha256(data).hexdigest()[:32]}.yaml"
        path = self.folder / name
        kept = self.rule_files.get(name)
        if kept is not None and path.is_file():
            self._used(name)
            return _warned(self.rules_info(name), kept.warnings)
        path.write_bytes(data)
        try:
            problems = tb.check(self._rules_path(name), warnings=True)
            # the source lines are read before the file goes
            errors = [problem_json(e) for e in problems[:50] if not isinstance(e, RuleWarning)]
            warnings = tuple(problem_json(e) for e in problems[:50] if isinstance(e, RuleWarning))
            if not errors:
                self._room_for_rules(client)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        if errors:
            path.unlink(missing_ok=True)
            return {"errors": errors}
        self.rule_files[name] = _RuleFile(client, 0.0, warnings)
        self._used(name)
        try:
            path.with_suffix(".json").write_text(json.dumps({"client": client}), encoding="utf-8")
        except OSError as exc:
            log.warning("%s: cannot keep who sent it: %s", path, exc)
        return _warned(self.rules_info(name), warnings)

    def _room_for_rules(self, client: str | None) -> None:
        if len(self.rule_files) >= self.limits.rule_files:
            raise LobbyError(f"this server keeps {self.limits.rule_files:,} rule files already (each is kept "
                             f"{duration(self.limits.unused_rules)} after it was last sent or used): try again later")
        mine = sum(1 for f in self.rule_files.values() if f.client == client)
        if client is not None and mine >= self.limits.rule_files_per_client:
            raise LobbyError(f"this server keeps {mine} rule files sent from your address, the most it keeps for "
                             f"one (each is kept {duration(self.limits.unused_rules)} after it was last sent or used)")

    def _used(self, name: str) -> None:
        kept = self.rule_files.get(name)
        if kept is not None:
            kept.used = self.clock()
            with contextlib.suppress(OSError):
                os.utime(self.folder / name, (kept.used, kept.used))  # when it was last used, for a restart

    def _read_rule_files(self) -> None:
        """The rule files stored before a restart: who sent each (``HASH.json``), when it was last used (its time)."""
        for path in sorted((self.folder / "rules").glob("*.yaml")):
            name = f"rules/{path.name}"
            if not _UPLOADED.match(name):
                continue
            client = None
            with contextlib.suppress(OSError, TrickbookError):
                sent = read_json(path.with_suffix(".json").read_bytes()[:1000], "file")
                client = sent.get("client") if isinstance(sent, dict) and isinstance(sent.get("client"), str) \
                    else None
            self.rule_files[name] = _RuleFile(client, mtime(path))

    # ------------------------------------------------------------------ tables

    def create(self, request: Any, client: str | None = None) -> tuple[Table, Tokens]:
        """A new table from the lobby's request (untrusted JSON): ``rules``, ``players``, ``options``, ``kinds``,
        ``iterations``, ``seed``, made from the ``client`` address. Returns the table and each person seat's token
        and the watch link's (given out once: the table keeps only their hashes)."""
        if not isinstance(request, dict):
            raise LobbyError("the request must be a JSON object")
        self._room_for_table(client)
        rules: Any = request.get("rules")
        players: Any = request.get("players")
        seed = request.get("seed")
        if seed in (None, ""):
            seed = secrets.randbelow(10**9)
        path, game, kinds, iterations = self.check_table(rules, players, request.get("options") or {},
                                                         request.get("kinds"), request.get("iterations"), seed)
        tokens = Tokens({s: new_token() for s, k in enumerate(kinds) if k == "person"}, new_token())
        setup = Setup(str(rules), int(players), game.options, kinds, iterations, seed,  # checked: a name, a count
                      {s: token_hash(t) for s, t in tokens.items()}, client, token_hash(tokens.watch))
        table_id = secrets.token_urlsafe(12)
        (self.folder / f"{table_id}.table.json").write_text(json.dumps(setup.to_json()), encoding="utf-8")
        table = Table(table_id, game, setup, self.folder, rules_path=path, clock=self.clock)
        self.tables[table_id] = table
        self._used(setup.rules)
        return table, tokens

    def check_table(self, rules: Any, players: Any, options: Any, kinds: Any, iterations: Any,
                    seed: Any) -> tuple[str, tb.TrickGame, list[str], list[int]]:
        """A table's settings (untrusted: a request, or a setup file read back after a restart), checked by the
        same rules for both: the file to load the rules from, the game, and the seats' kinds and iterations."""
        path = self._rules_path(rules)  # a bundled game or a stored file
        info = self.rules_info(rules)
        if type(players) is not int or players not in info["players"]:
            raise LobbyError(f"{info['title']} is for {', '.join(map(str, info['players']))} players")
        if not isinstance(options, dict) or any(k not in info["options"] for k in options):
            raise LobbyError(f"unknown option (options of this game: {', '.join(info['options']) or 'none'})")
        if type(seed) is not int or not 0 <= seed <= MAX_NUMBER:  # what a record holds (record_reader.seed_problem)
            raise LobbyError(f"the seed must be a whole number from 0 to {MAX_NUMBER:,}")
        game = tb.load(path, players=players, options=options)
        game.rules_file = rules if rules not in tb.games() else None  # the record names it beside itself
        kinds, iterations = check_setup(game, kinds, iterations)
        return path, game, kinds, iterations

    def _room_for_table(self, client: str | None) -> None:
        kept = (f"a table is kept {duration(self.limits.finished)} after its game ends and "
                f"{duration(self.limits.idle)} after its last move")
        if len(self.tables) >= self.limits.tables:
            raise LobbyError(f"this server holds {self.limits.tables:,} tables already ({kept}): try again later")
        mine = sum(1 for t in self.tables.values() if t.setup.client == client)
        if client is not None and mine >= self.limits.tables_per_client:
            raise LobbyError(f"this server holds {mine} tables made from your address, the most it holds for one "
                             f"({kept})")

    def table(self, table_id: Any) -> Table | None:
        return self.tables.get(table_id) if isinstance(table_id, str) else None

    # ------------------------------------------------------------------ expiry

    def expires(self, table: Table) -> float:
        """When ``table`` is taken away: some time after its last change (less once its game is over or it stopped)."""
        done = table.stopped is not None or table.over
        return table.changed + (self.limits.finished if done else self.limits.idle)

    def due(self) -> list[Table]:
        """The tables whose time is up."""
        now = self.clock()
        return [t for t in self.tables.values() if self.expires(t) <= now]

    def retire(self, table: Table) -> None:
        """Take ``table`` away: its links stop working, it is not picked up again after a restart, and its record
        is moved to ``expired/`` (with the rule file it names, so that ``trickbook replay`` replays it there)."""
        self.tables.pop(table.id, None)
        expired = self.folder / "expired"
        try:
            (self.folder / f"{table.id}.table.json").unlink(missing_ok=True)  # first: never picked up again
            (expired / "rules").mkdir(parents=True, exist_ok=True)
            if table.record_path.exists():
                os.replace(table.record_path, expired / table.record_path.name)
            if table.setup.rules not in tb.games() and not (expired / table.setup.rules).exists():
                shutil.copyfile(self.folder / table.setup.rules, expired / table.setup.rules)
            table.told_path.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("table %s: taken away, but its files could not all be moved to %s: %s", table.id, expired, exc)

    def expire_rules(self) -> list[str]:
        """Delete the rule files no table uses whose time is up; their names."""
        now = self.clock()
        used = {t.setup.rules for t in self.tables.values()}
        gone = [name for name, kept in self.rule_files.items()
                if name not in used and kept.used + self.limits.unused_rules <= now]
        for name in gone:
            del self.rule_files[name]
            self._info.pop(name, None)
            for path in (self.folder / name, (self.folder / name).with_suffix(".json")):
                with contextlib.suppress(OSError):
                    path.unlink(missing_ok=True)
        return gone

    def expire(self) -> list[Table]:
        """Take the tables whose time is up away, and delete the rule files whose time is up; the tables."""
        gone = self.due()
        for table in gone:
            self.retire(table)
        self.expire_rules()
        return gone

    # ------------------------------------------------------------------ restarts

    def restore(self) -> list[str]:
        """Pick up the tables of the records folder (after a restart): each from its setup, checked as a new
        table's request is, and its record, the same links working again; a finished game is there to look at and
        download. A table whose time is up is taken away instead (as ``expire`` does). Returns what could not be
        picked up or was taken away, one line each naming the file."""
        said = []
        for path in sorted(self.folder.glob("*.table.json")):
            table_id = path.name[:-len(".table.json")]
            if not _ID.match(table_id) or table_id in self.tables:
                continue
            try:
                table = self._restored(table_id, path)
            except Exception as exc:  # whatever is wrong with the files, the server starts with the others
                what = str(exc) if isinstance(exc, TrickbookError) else f"{type(exc).__name__}: {exc}"
                said.append(f"{path}: skipped, this table cannot be picked up: {what.splitlines()[0]}")
                continue
            self.tables[table_id] = table
            if self.expires(table) <= self.clock():
                self.retire(table)
                said.append(f"{path}: its time is up ({'over' if table.over else 'idle'}): taken away, its record "
                            f"moved to {self.folder / 'expired'}")
        self.expire_rules()
        return said

    def _restored(self, table_id: str, path: Path) -> Table:
        with open(path, "rb") as f:
            raw = f.read(MAX_SETUP + 1)
        if len(raw) > MAX_SETUP:
            raise LobbyError(f"the setup is larger than {MAX_SETUP:,} bytes")
        data = read_json(raw, "setup")
        if not isinstance(data, dict):
            raise LobbyError("the setup is not a JSON object")
        rules: Any = data.get("rules")
        players: Any = data.get("players")
        rules_path, game, kinds, iterations = self.check_table(
            rules, players, data.get("options"), data.get("kinds"), data.get("iterations"), data.get("seed"))
        tokens, client = data.get("tokens"), data.get("client")
        people = {str(s) for s, k in enumerate(kinds) if k == "person"}
        if not isinstance(tokens, dict) or set(tokens) != people or \
                not all(isinstance(h, str) and _HASH.match(h) for h in tokens.values()):
            raise LobbyError("the tokens are not one hash for each person's seat")
        if client is not None and not (isinstance(client, str) and len(client) <= 100):
            raise LobbyError("the client is not an address")
        watch = data.get("watch")  # absent from a table made before there were watch links: it has none
        if watch is not None and not (isinstance(watch, str) and _HASH.match(watch)):
            raise LobbyError("the watch link's token is not a hash")
        record_path = self.folder / f"{table_id}.jsonl"
        record = record_path.read_text(encoding="utf-8")
        if not record.endswith("\n"):  # stopped in the middle of a line: that event was not taken
            record = record[:record.rfind("\n") + 1]
            record_path.write_text(record, encoding="utf-8")
        setup = Setup(str(rules), int(players), game.options, kinds, iterations, data["seed"],
                      {int(s): h for s, h in tokens.items()}, client, watch)
        return Table(table_id, game, setup, self.folder, record=record, rules_path=rules_path, clock=self.clock)

