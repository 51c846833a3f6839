"""The web table's lobby: the games offered, rule files of people's own (checked as ``trickbook validate`` checks
them), making tables, and picking tables up again from the records folder after a restart.

Nothing here knows HTTP; the server (app.py) calls it. A rule file sent to the lobby is untrusted text: it is
kept in the records folder's ``rules/`` under the hash of its text, and loaded by the same loader as every rule
file (YAML limits, extends, the schema, the compiler's checks), its errors given with line, column, the source
line and a caret.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from pathlib import Path
from typing import Any

import interpreter as tb
from interpreter.engine.compile import rule_file_problems, supported_players
from interpreter.errors import RuleError, TrickbookError
from interpreter.rules.catalog import bundled_games
from interpreter.rules.loader import load_rules
from interpreter.web.tables import Setup, Table, check_setup, token_hash

MAX_RULES = 1_000_000  # bytes of a rule file sent to the lobby (the loader's own limit for any rule file)
MAX_TABLES = 1000  # tables kept at once
MAX_RULE_FILES = 1000  # rule files sent to the lobby, kept in the records folder
_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_UPLOADED = re.compile(r"^rules/[0-9a-f]{32}\.yaml$")


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


class Lobby:
    """The tables of one server, and the folder their records (and people's rule files) are kept in."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        (self.folder / "rules").mkdir(parents=True, exist_ok=True)
        self.tables: dict[str, Table] = {}
        self._info: dict[str, dict[str, Any]] = {}
        self._games: list[dict[str, str]] | None = None

    # ------------------------------------------------------------------ games

    def games(self) -> list[dict[str, str]]:
        """The bundled games, by name and title."""
        if self._games is None:
            self._games = [{"name": name, "title": load_rules(name).data.get("title", name)}
                           for name in bundled_games()]
        return self._games

    def rules_info(self, rules: str) -> dict[str, Any]:
        """What the lobby offers for a game (a bundled name or a stored rule file): its player counts, the seats
        of each (automatic ones marked) and its options with their defaults, choices and descriptions."""
        if rules in self._info:
            return self._info[rules]
        path = self._rules_path(rules)
        source = load_rules(path)
        counts = supported_players(source)
        seats: dict[str, Any] = {}
        for n in counts:
            game = tb.load(path, players=n)
            seats[str(n)] = {"names": game.seat_names, "automatic": game.automatic}
        options = {k: {"default": v.get("default"), "choices": v.get("choices"),
                       "description": v.get("description", "")}
                   for k, v in (source.data.get("options") or {}).items()}
        info = {"rules": rules, "title": source.data.get("title", rules), "players": counts, "seats": seats,
                "options": options}
        self._info[rules] = info
        return info

    def _rules_path(self, rules: Any) -> str:
        """The file or bundled name to load ``rules`` (untrusted) from: a bundled game or a stored rule file."""
        if isinstance(rules, str) and rules in bundled_games():
            return rules
        if isinstance(rules, str) and _UPLOADED.match(rules) and (self.folder / rules).is_file():
            return str(self.folder / rules)
        raise LobbyError("no such game: choose a bundled game or send the rule file again")

    def check_rules(self, text: Any) -> dict[str, Any]:
        """A rule file's text (untrusted), checked: ``{"errors": [...]}`` with each problem's place, or the game's
        lobby information (``rules`` names the stored file)."""
        if not isinstance(text, str) or not text.strip():
            raise LobbyError("the rule file is empty")
        data = text.encode("utf-8", "replace")
        if len(data) > MAX_RULES:
            raise LobbyError(f"the rule file is larger than {MAX_RULES:,} bytes")
        name = f"rules/{hashlib.sha256(data).hexdigest()[:32]}.yaml"
        path = self.folder / name
        if not path.is_file():
            if sum(1 for _ in (self.folder / "rules").glob("*.yaml")) >= MAX_RULE_FILES:
                raise LobbyError(f"this server keeps {MAX_RULE_FILES} rule files already")
            path.write_bytes(data)
        problems = rule_file_problems(str(path))
        if problems:
            return {"errors": [problem_json(e) for e in problems[:50]]}
        return self.rules_info(name)

    # ------------------------------------------------------------------ tables

    def create(self, request: Any) -> tuple[Table, dict[int, str]]:
        """A new table from the lobby's request (untrusted JSON): ``rules``, ``players``, ``options``, ``kinds``,
        ``iterations``, ``seed``. Returns the table and each person seat's token (given out once: the table
        keeps only their hashes)."""
        if not isinstance(request, dict):
            raise LobbyError("the request must be a JSON object")
        if len(self.tables) >= MAX_TABLES:
            raise LobbyError(f"this server holds {MAX_TABLES} tables already")
        rules = str(request.get("rules"))  # checked by _rules_path: a bundled game or a stored file
        path = self._rules_path(rules)
        info = self.rules_info(rules)
        players = request.get("players")
        if type(players) is not int or players not in info["players"]:
            raise LobbyError(f"{info['title']} is for {', '.join(map(str, info['players']))} players")
        options = request.get("options") or {}
        if not isinstance(options, dict) or any(k not in info["options"] for k in options):
            raise LobbyError(f"unknown option (options of this game: {', '.join(info['options']) or 'none'})")
        game = tb.load(path, players=players, options=options)
        kinds, iterations = check_setup(game, request.get("kinds"), request.get("iterations"))
        seed = request.get("seed")
        if seed in (None, ""):
            seed = secrets.randbelow(10**9)
        elif type(seed) is not int or not 0 <= seed < 10**18:
            raise LobbyError("the seed must be a whole number from 0 to 10^18 - 1")
        tokens = {s: secrets.token_urlsafe(24) for s, k in enumerate(kinds) if k == "person"}
        setup = Setup(rules, players, game.options, kinds, iterations, seed,
                      {s: token_hash(t) for s, t in tokens.items()})
        table_id = secrets.token_urlsafe(12)
        game.rules_file = rules if rules not in bundled_games() else None  # the record names it beside itself
        (self.folder / f"{table_id}.table.json").write_text(json.dumps(setup.to_json()), encoding="utf-8")
        table = Table(table_id, game, setup, self.folder)
        self.tables[table_id] = table
        return table, tokens

    def table(self, table_id: Any) -> Table | None:
        return self.tables.get(table_id) if isinstance(table_id, str) else None

    def restore(self) -> list[str]:
        """Pick up the tables of the records folder (after a restart): each from its setup and its record, the
        same links working again; a finished game is there to look at and download. Returns what could not be
        picked up, one line each."""
        problems = []
        for path in sorted(self.folder.glob("*.table.json")):
            table_id = path.name[:-len(".table.json")]
            if not _ID.match(table_id) or table_id in self.tables:
                continue
            try:
                setup = Setup.from_json(json.loads(path.read_text(encoding="utf-8")))
                record = (self.folder / f"{table_id}.jsonl").read_text(encoding="utf-8")
                if not record.endswith("\n"):  # stopped in the middle of a line: that event was not taken
                    record = record[:record.rfind("\n") + 1]
                    (self.folder / f"{table_id}.jsonl").write_text(record, encoding="utf-8")
                game = tb.load(self._rules_path(setup.rules), players=setup.players, options=setup.options)
                game.rules_file = setup.rules if setup.rules not in bundled_games() else None
                self.tables[table_id] = Table(table_id, game, setup, self.folder, record=record)
            except (OSError, ValueError, KeyError, TypeError, TrickbookError) as exc:
                problems.append(f"{path}: cannot pick this table up: {exc}")
        return problems
