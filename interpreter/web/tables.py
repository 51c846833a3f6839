"""The web table's games: seats, tokens, bots, each seat's view, and records written as the game goes.

Nothing here knows HTTP: the server (app.py) calls these under one lock a table. A table keeps the game's state
(the public API's ``GameState``) and gives each seat only its own view (seat_view.py): its observation, its own
legal actions and the narration as that seat is told it. A person's action is taken only when it names the decision now
pending (the table's sequence number), is the seat's to take and is one of its legal labels.

A step whose choices are made together (``simultaneous``) asks every person of it at once (together.py): their
answers are taken in the game in the engine's order, each when its turn comes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import interpreter as tb
from interpreter.api.builtin_agents import AGENTS
from interpreter.api.builtin_agents import DEFAULT_ITERATIONS as ITERATIONS
from interpreter.errors import Position, RuleError, TrickbookError
from interpreter.web.bots import SEARCHING
from interpreter.web.together import Together

KINDS = ("person", *AGENTS)  # a person, or one of the built-in agents
MAX_ITERATIONS = 5000  # ismcts iterations a move a table may ask for (each is a sampled playout)
MAX_LABEL = 1000  # characters of an action's label a message may carry
# a text of a rule file UTF-8 cannot write (a lone surrogate, "\\ud800") is written as its JSON escape: in the
# JSON lines of the table's files it reads back as the same text
UNENCODABLE = "backslashreplace"
_PLACE = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+): error: (?P<message>[^\n]*)$")  # one line


log = logging.getLogger("trickbook.web")


class Refused(TrickbookError):
    """A message the table does not act on (malformed, stale, out of turn, not legal); nothing changed."""


def token_hash(token: str) -> str:
    """What a table keeps of a seat's token (on disk too): its SHA-256, never the token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Tokens(dict[int, str]):
    """The tokens of a new table, given out once (the table keeps only their hashes): each person seat's, by seat,
    and ``watch``, the watch link's (the table's public view only)."""

    def __init__(self, seats: dict[int, str], watch: str):
        super().__init__(seats)
        self.watch = watch


def new_token() -> str:
    """A token of a link: 32 characters from ``secrets.token_urlsafe``."""
    return secrets.token_urlsafe(24)


@dataclass
class Setup:
    """What a table was made with: enough to make it again after a restart (with its record)."""

    rules: str  # a bundled game's name, or the rule file's path relative to the records folder
    players: int
    options: dict[str, Any]
    kinds: list[str]  # one a seat, automatic seats too ("automatic")
    iterations: list[int]
    seed: Any
    tokens: dict[int, str] = field(default_factory=dict)  # person seat -> its token's hash
    client: str | None = None  # the address that made the table (for the limits a client has)
    watch: str | None = None  # the watch link's token's hash (None: a table made before there were watch links)

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules, "players": self.players, "options": self.options, "kinds": self.kinds,
                "iterations": self.iterations, "seed": self.seed,
                "tokens": {str(s): h for s, h in self.tokens.items()}, "client": self.client, "watch": self.watch}

    def watched_with(self, token: Any) -> bool:
        """Whether ``token`` is the table's watch token (which is no seat's: it shows the public view only)."""
        return isinstance(token, str) and self.watch is not None and \
            secrets.compare_digest(token_hash(token), self.watch)


class Table:
    """One game at the web table. Not thread-safe: the server calls it under the table's lock."""

    def __init__(self, table_id: str, game: tb.TrickGame, setup: Setup, folder: Path,
                 record: str | None = None, rules_path: str | None = None, clock: Callable[[], float] = time.time):
        self.id, self.game, self.setup, self.folder = table_id, game, setup, folder
        self.rules_path = rules_path or setup.rules  # what loads the rules (a bundled name or the stored file)
        self.clock = clock
        self.changed = clock()  # when the table last changed (it expires some time after, docs/web.md)
        self.stopped: str | None = None  # why the table stopped (a rule that failed, a bot's worker that died)
        self.record_path = folder / f"{table_id}.jsonl"
        if record is None:
            self.state = game.new_state(setup.seed)
            self.written = 0
        else:  # picked up after a restart: the record's game, played again and checked
            self.state = game.deserialize(record)
            self.written = len(self.state.events_since(0))
        self.rng = random.Random(secrets.randbits(64) if record is not None else setup.seed)  # the deals
        self.agents: dict[int, Any] = {}
        bots = [k if k in KINDS[1:] else "random" for k in setup.kinds]
        for s, kind in enumerate(setup.kinds):
            if kind in KINDS[1:]:
                self.agents[s] = tb.agents(bots, setup.seed, setup.iterations[s])[s]
        # the number of the decision pending: one more after every change; a table picked up again goes on from
        # the number of its record's events, more than any number it gave before (every change adds an event)
        self.seq = 0 if record is None else self.written
        self.people = sorted(setup.tokens)
        self.logs: dict[int, list[str]] = {s: [] for s in self.people}
        self.public_log: list[str] = []  # the narration as everyone is told it: the watch link's
        self.scores: list[dict[str, Any]] = []
        self.notes_seen = len(self.state.notes())
        self.round_told = 0
        self.told_path = folder / f"{table_id}.told.jsonl"  # what each person was told, kept for a restart
        self.together = Together()  # the people of a step whose choices are made together, asked at once
        if record is not None:
            self._read_told()
        self.kept = ({s: len(log) for s, log in self.logs.items()}, len(self.scores), len(self.public_log))
        self._write()
        self._tell_round()
        self._keep()
        self.together.follow(self.state, self.logs, self.seq, self.stopped is None)
        if record is not None:
            self.changed = max((mtime(p) for p in (self.record_path, self.told_path)), default=self.changed)

    # ------------------------------------------------------------------ who may do what

    def seat_of(self, seat: Any, token: Any) -> int | None:
        """``seat`` when ``token`` is that person seat's token, else None (a wrong seat looks like a wrong
        token)."""
        if type(seat) is not int or not isinstance(token, str) or seat not in self.setup.tokens:
            return None
        return seat if secrets.compare_digest(token_hash(token), self.setup.tokens[seat]) else None

    @property
    def over(self) -> bool:
        return self.state.is_over()

    def to_act(self) -> int | None:
        """The seat to act (None at a deal or when the game is over)."""
        p = self.state.current_player
        return None if p is None or p == tb.CHANCE else p

    def waiting_for_person(self) -> bool:
        p = self.to_act()
        return p is not None and p in self.logs

    # ------------------------------------------------------------------ changes

    def step(self) -> bool:
        """Deal, or let the bot to act take its move unless it searches (a searching bot's move is worked out in a
        worker process: ``search``). False when nothing changed: a person or a searching bot is to act, the game is
        over or the table has stopped."""
        state = self.state
        if self.stopped is not None or state.is_over():
            return False
        if state.is_chance():
            return self._change(self._deal)
        if self.together.ready():  # answers given ahead whose turn has come
            return self._change(lambda: self.together.take_due(self._take))
        seat = state.current_player
        agent = self.agents.get(seat) if seat is not None else None
        if agent is None or seat is None or self.setup.kinds[seat] in SEARCHING:
            return False
        return self._change(lambda: self._take(state.agent_choice(agent)))

    def _deal(self) -> None:
        told = f"({self.state.step})"
        self.state.apply_chance(self.rng)
        self._changed({s: [told] for s in self.people}, told)

    def search(self) -> dict[str, Any] | None:
        """The decision of the searching bot to act, as plain data for a worker process (``bots.decide``): the game,
        the state, the agent and its random source's state; None when no searching bot is to act."""
        seat = self.to_act()
        if self.stopped is not None or seat is None or self.setup.kinds[seat] not in SEARCHING:
            return None
        stored = self.rules_path != self.setup.rules  # a rule file of the lobby's, named as the table names it
        return {"rules": self.rules_path, "shown": self.setup.rules if stored else None,
                "players": self.setup.players, "options": self.setup.options, "identity": self.game.engine.identity,
                "state": self.state.serialize(), "agent": self.setup.kinds[seat],
                "iterations": self.setup.iterations[seat], "rng": self.agents[seat].rng.getstate(),
                "seq": self.seq, "seat": seat}

    def searched(self, job: dict[str, Any], answer: dict[str, Any]) -> bool:
        """A worker's ``answer`` to ``job`` (``search``): the bot's move taken, its random source where the search left
        it. False when the table moved on or stopped meanwhile (the answer is not taken)."""
        if self.stopped is not None or job["seq"] != self.seq:
            return False

        def take() -> None:
            action = answer.get("action")
            if type(action) is not int or action not in self.state.legal_actions():
                raise TrickbookError(f"the bot answered {action!r}, which is not a legal action now")
            self.agents[job["seat"]].rng.setstate(answer["rng"])
            self._take(action)

        return self._change(take)

    def act(self, seat: int, message: Any) -> None:
        """A person's message ``{"type": "act", "seq": N, "label": L}``: taken when N is the decision pending, the
        seat is to act and L one of its legal labels; else Refused, and nothing changes."""
        if not isinstance(message, dict) or message.get("type") != "act":
            raise Refused("not an action message")
        seq, label = message.get("seq"), message.get("label")
        if type(seq) is not int or not isinstance(label, str) or len(label) > MAX_LABEL:
            raise Refused("an action needs seq (a number) and label (a text)")
        if self.stopped is not None:
            raise Refused("the table has stopped")
        if self.state.is_over():
            raise Refused("the game is over")
        if self.together.asks(seat):  # a step whose choices are made together: an answer, perhaps ahead of its turn
            why = self.together.refusal(seat, seq, label, self.seq, self.to_act() == seat)
            if why is not None:
                raise Refused(why)

            def answer() -> None:
                self.changed = self.clock()
                self.together.answer(seat, label, self._take)

            self._change(answer)
            return
        if seq != self.seq:
            raise Refused("that decision is past (the table has moved on)")
        if self.to_act() != seat:
            raise Refused("it is not your turn")

        def take() -> None:
            labels = self.state.labels()
            if label not in labels:
                raise Refused(f"{label} is not one of your choices now")
            self._take(self.state.legal_actions()[labels.index(label)])

        self._change(take)

    def _change(self, change: Callable[[], None]) -> bool:
        """Make ``change``; a rule that fails on the way (or any other failure) stops the table there, the game as it
        was before the change (the API's apply changes all or nothing). True: the table changed or stopped."""
        try:
            change()
        except Refused:
            raise
        except Exception as exc:  # whatever fails, the table stops with it said, and the server goes on
            self.stop(exc)
        return True

    def stop(self, error: BaseException | str) -> None:
        """Stop the table: nothing changes it any more, and every seat is shown why (a rule's error with its place,
        the source line and a caret under the column, as ``trickbook validate`` shows one). Kept for a restart."""
        if self.stopped is not None:
            return
        self.stopped = self._shown(error)
        self.together.follow(self.state, self.logs, self.seq, False)
        self.seq += 1  # every page's view changes
        self.changed = self.clock()
        log.warning("table %s stopped: %s", self.id, self.stopped.splitlines()[0])
        try:
            with open(self.told_path, "a", encoding="utf-8", errors=UNENCODABLE) as f:
                f.write(json.dumps({"stopped": self.stopped}, ensure_ascii=False) + "\n")
        except OSError as exc:
            log.warning("table %s: cannot keep why it stopped in %s: %s", self.id, self.told_path, exc)

    def _shown(self, error: BaseException | str) -> str:
        """The error as the seats are shown it: a rule file's error with the source line and a caret."""
        if isinstance(error, str):
            text = error
        elif isinstance(error, TrickbookError):
            text = str(error)
        elif isinstance(error, OSError):
            text = f"the server cannot write the table's files: {error}"
        else:
            text = f"the server could not go on ({type(error).__name__}: {error})"
        found = _PLACE.match(text)
        if found is None:
            return text
        name = found["file"]
        if name == self.setup.rules:  # the rule file of the table (a stored one is shown by its name in the folder)
            path = self.rules_path
        elif name in tb.games():
            path = str(tb.games()[name])
        else:
            path = name
        return RuleError(found["message"], Position(path, int(found["line"]), int(found["col"]))).render()

    def _take(self, action: int) -> None:
        state = self.state
        told = {s: [state.describe(action, s)] for s in self.people}
        public = state.describe_public(action)
        before = {s: state.held(s) for s in self.people}
        state.apply(action)
        for s in self.people:  # cards that came to a person face down (a pass), as the terminal tells them
            got = state.received(s, before[s])
            if got:
                told[s].append(f"you receive: {', '.join(got)}")
        self._changed(told, public)

    def _changed(self, told: dict[int, list[str | None]], public: str | None) -> None:
        """After a change (``told``: how each person was told it; ``public``: how everyone is, the watch link's
        narration): the new sequence number, the narrations, the round scores, the record."""
        self.seq += 1
        state = self.state
        notes = state.notes(self.notes_seen)
        self.notes_seen += len(notes)
        for s, log in self.logs.items():
            log.extend(text for text in told.get(s, []) if text)
            log.extend(notes)
        if public:
            self.public_log.append(public)
        self.public_log.extend(notes)
        new = self._write()
        for event in new:
            if event["type"] == "round":
                head = f"Round {event['round']} scores"
                lines = notes[next((i for i, n in enumerate(notes) if n.startswith(head)), len(notes)):]
                self.scores.append({"round": event["round"], "scores": event["scores"], "totals": event["totals"],
                                    "lines": [n.strip() for n in lines[1:]]})
        self._tell_round()
        self._keep()
        self.together.follow(self.state, self.logs, self.seq, self.stopped is None)

    def _tell_round(self) -> None:
        state = self.state
        if state.is_over() or state.round == self.round_told:
            return
        self.round_told = state.round
        for log in (*self.logs.values(), self.public_log):
            log.append(f"Round {state.round}, dealer {self.game.seat_names[state.dealer]}")

    def _keep(self) -> None:
        """Append what the people were told since the last change (narration, scores explained) to the table's
        told file, so that a restart gives each page its whole log back."""
        logs, scores, public = self.kept
        line: dict[str, Any] = {"logs": {str(s): log[logs[s]:] for s, log in self.logs.items() if len(log) > logs[s]},
                                "scores": self.scores[scores:], "public": self.public_log[public:]}
        if line["logs"] or line["scores"] or line["public"]:
            with open(self.told_path, "a", encoding="utf-8", errors=UNENCODABLE) as f:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
            self.kept = ({s: len(log) for s, log in self.logs.items()}, len(self.scores), len(self.public_log))

    def _read_told(self) -> None:
        """The narration and scores kept before a restart (a line cut short, the server stopped while writing
        it, is left out); the round told is the one the game is in."""
        self.round_told = self.state.round
        try:
            text = self.told_path.read_text(encoding="utf-8")
        except OSError:
            return
        for raw in text.splitlines(keepends=True):
            try:
                line = json.loads(raw) if raw.endswith("\n") else None
            except ValueError:
                line = None
            if not isinstance(line, dict):
                continue
            for s, lines in (line.get("logs") or {}).items():
                if s.isdigit() and int(s) in self.logs and isinstance(lines, list):
                    self.logs[int(s)].extend(str(x) for x in lines)
            self.scores.extend(x for x in line.get("scores") or [] if isinstance(x, dict))
            if isinstance(line.get("public"), list):
                self.public_log.extend(str(x) for x in line["public"])
            if isinstance(line.get("stopped"), str):
                self.stopped = line["stopped"]

    def _write(self) -> list[dict[str, Any]]:
        """Append the events not yet written to the record (one JSON line each, flushed): a game the server
        stops in loses nothing it had played."""
        new = self.state.events_since(self.written)
        if new:
            with open(self.record_path, "a", encoding="utf-8", errors=UNENCODABLE) as f:
                f.write("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in new))
            self.written += len(new)
        return new

    def record_text(self) -> str:
        """The whole record (for a finished game: the file as written)."""
        return self.record_path.read_text(encoding="utf-8")


def mtime(path: Path) -> float:
    """When the file was last written (0 when it cannot be read)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def check_setup(game: tb.TrickGame, kinds: Any, iterations: Any) -> tuple[list[str], list[int]]:
    """The seats' kinds and ismcts iterations as asked for (untrusted), checked: one a seat, automatic seats
    playing by their rules."""
    auto = set(game.automatic)
    if not isinstance(kinds, list) or len(kinds) != game.players:
        raise TrickbookError(f"give one kind for each of the {game.players} seats")
    if iterations is None:
        iterations = [ITERATIONS] * game.players
    if not isinstance(iterations, list) or len(iterations) != game.players:
        raise TrickbookError("give the iterations of each seat")
    out_kinds, out_its = [], []
    for s, (kind, its) in enumerate(zip(kinds, iterations)):
        if s in auto:
            out_kinds.append("automatic")
        elif kind in KINDS:
            out_kinds.append(kind)
        else:
            raise TrickbookError(f"seat {s + 1}: the kind must be one of {', '.join(KINDS)}")
        if its is None:
            its = ITERATIONS
        if type(its) is not int or not 1 <= its <= MAX_ITERATIONS:
            raise TrickbookError(f"seat {s + 1}: iterations must be a whole number from 1 to {MAX_ITERATIONS}")
        out_its.append(its)
    return out_kinds, out_its
