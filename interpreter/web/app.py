"""The web table's server: a Starlette app (HTTP and WebSockets) over the lobby and its tables.

Every change to a table happens under that table's lock, in a thread (the engine never holds up the event loop);
after each change every connected seat is sent its own view. Bots play on by themselves, a move at a time (with a
short pause between moves when a person sits at the table, so people can follow them), until a person is to act
or the game is over; a bot that searches does so in a worker process of the bots' pool (bots.py), never in the
server's threads. A table whose time is up is taken away (lobby.py, "expiry"); a rule that fails in play stops its
table, every seat shown why.

``Server`` keeps the running tables (their locks, the bots playing on, the views sent, the WebSockets); ``Pages``
gives the HTTP answers.

Routes (``T`` a table's id, ``S`` a seat's number from 0, ``K`` that seat's token):

- ``GET /``: the lobby page; ``GET /static/...``: its scripts and styles (package data, no build step).
- ``GET /api/games``: the bundled games; ``POST /api/rules``: ``{"game": NAME}`` or ``{"text": RULE FILE}`` gives
  the players, seats and options (or the rule file's errors); ``POST /api/tables`` makes a table and gives each
  person seat's link.
- ``GET /table/T/S?token=K``: the seat's table page; ``GET /table/T/S/record?token=K``: the record, once the
  game is over.
- ``WS /ws/T/S?token=K``: the seat's view after every change; it sends ``{"type": "act", "seq": N, "label": L}``.
- The watch link, ``S`` being ``watch`` and ``K`` the table's watch token, in each of these: the table's public view
  only (seat_view.watch_view), which cannot act.

A wrong token, a wrong seat and an unknown table are the same 404 (a table's id alone gives nothing). The server
answers only to the host names it serves, and a WebSocket only to pages of them (guard.py); a frame that is not
text, not JSON, nested too deeply or too long closes its socket, with one log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

import interpreter as tb
from interpreter.errors import TrickbookError
from interpreter.web.bots import BotFailed, BotPool
from interpreter.web.cards import card_faces
from interpreter.web.guard import HostGuard, Malformed, allowed_hosts, read_json
from interpreter.web.lobby import MAX_RULES, Limits, Lobby, LobbyError
from interpreter.web.seat_view import seat_view, watch_view
from interpreter.web.tables import Refused, Table

STATIC = Path(__file__).parent / "static"
MAX_PAGES = 4  # pages open at once on one seat (each is sent a view after every change)
MAX_WATCHING = 50  # pages open at once on a table's watch link (a link shared with the onlookers)
WATCH = "watch"  # the watch link's place of a seat's number in its paths: /table/T/watch, /ws/T/watch
MAX_MESSAGE = 4096  # characters of one message from a page (an action is a few dozen)
MAX_BODY = MAX_RULES + 10_000  # bytes of a request to the lobby (a rule file, as JSON)
PACE = 0.6  # seconds between two bots' moves when a person sits at the table
EXPIRE_EVERY = 60.0  # seconds between two looks for tables and rule files whose time is up
# WebSocket close codes: a frame that is not text (1003), not JSON or nested too deeply (1007), too long (1009); a
# seat opened in too many pages (4409), a table taken away (4410), no such seat (4404)
NOT_TEXT, NOT_JSON, TOO_LONG, GONE = 1003, 1007, 1009, 4410
log = logging.getLogger("trickbook.web")
_COMPILING = threading.Lock()  # one thread loads and compiles rules at a time (the parser is shared)


async def _compiling(work: Callable[..., Any], *args: Any) -> Any:
    """The lobby's ``work(*args)`` (it loads and compiles rules) in a thread, alone among the lobby's. A failure
    that is no TrickbookError (a rule file the checks let through that breaks the compiler) is one log line and
    a LobbyError, never a traceback."""

    def locked() -> Any:
        with _COMPILING:
            try:
                return work(*args)
            except TrickbookError:
                raise
            except Exception as exc:
                log.error("the lobby failed (%s: %s)", type(exc).__name__, exc)
                raise LobbyError(f"the server could not do this ({type(exc).__name__}: {exc})") from None

    return await asyncio.to_thread(locked)


class Server:
    """The running tables: their locks, their connections, the tasks that let their bots play, and the pool their
    searching bots search in."""

    def __init__(self, lobby: Lobby, pace: float = PACE, bots: BotPool | None = None):
        self.lobby, self.pace = lobby, pace
        self.bots = bots or BotPool()
        self.locks: dict[str, asyncio.Lock] = {}
        # table -> socket -> the seat (None: the watch link, which is no seat), the narration's lines sent
        self.watchers: dict[str, dict[WebSocket, tuple[int | None, list[int]]]] = {}
        self.runners: dict[str, asyncio.Task[None]] = {}
        self._faces: dict[str, dict[str, str]] = {}

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    async def run(self, table: Table, work: Callable[[], Any]) -> Any:
        """``work`` on the table, under its lock, in a thread; None when the table has been taken away."""
        async with self.lock(table):  # each table its own compiled game: tables share nothing mutable
            if self.lobby.table(table.id) is not table:
                return None
            return await asyncio.to_thread(work)

    def play_on(self, table: Table) -> None:
        """Let the table's bots (and deals) go on, in a task of their own, unless they are going on already."""
        task = self.runners.get(table.id)
        if task is None or task.done():
            self.runners[table.id] = asyncio.create_task(self._play_on(table))

    async def _play_on(self, table: Table) -> None:
        while True:
            moved = await self.run(table, table.step)  # a deal, a quick bot's move, or the table stopped
            if not moved:
                moved = await self._search(table)
                if not moved:
                    return
            await self.broadcast(table)
            if table.people and self.pace and not table.waiting_for_person() and not table.over:
                await asyncio.sleep(self.pace)

    async def _search(self, table: Table) -> bool:
        """The move of a searching bot, worked out in the bots' pool; False when no searching bot is to act (or
        the table moved on meanwhile). A worker that died or hung stops the table, every seat told."""
        job = await self.run(table, table.search)
        if job is None:
            return False
        try:
            answer = await self.bots.decide(table.id, job)
        except BotFailed as exc:
            why = str(exc)
            await self.run(table, lambda: table.stop(why))
            return True
        return bool(await self.run(table, lambda: table.searched(job, answer)))

    async def broadcast(self, table: Table) -> None:
        """Send every connected seat its own view."""
        for ws, (seat, sent) in list(self.watchers.get(table.id, {}).items()):
            await self.send_view(table, ws, seat, sent)

    async def send_view(self, table: Table, ws: WebSocket, seat: int | None, sent: list[int],
                        first: bool = False) -> None:
        """Send the seat's view (None: the watch link's, the public view; the narration it has not been sent yet),
        under the table's lock so that views go out in the order of the changes; ``first``: with the cards' faces,
        and the socket then watches."""

        def work() -> dict[str, Any]:
            view = watch_view(table, sent[0]) if seat is None else seat_view(table, seat, sent[0])
            sent[0] += len(view["log"])
            return view

        async with self.lock(table):
            stopped = table.stopped
            view = await asyncio.to_thread(work)
            if first:
                view["faces"] = self.faces(table)
            if not await _send(ws, view):
                self.watchers.get(table.id, {}).pop(ws, None)
                return
            if first:
                watching = self.watchers.setdefault(table.id, {})
                same = [w for w, (s, _) in watching.items() if s == seat]
                if len(same) >= (MAX_WATCHING if seat is None else MAX_PAGES):  # the link's oldest page gives way
                    watching.pop(same[0], None)
                    await _close(same[0], 4409)
                watching[ws] = (seat, sent)
        if table.stopped != stopped:  # a rule failed while the view was made: every seat is told
            asyncio.create_task(self.broadcast(table))

    def faces(self, table: Table) -> dict[str, str]:
        key = table.game.engine.identity
        if key not in self._faces:
            self._faces[key] = card_faces(table.game)  # the deck's faces, sent once to each page
        return self._faces[key]

    # ------------------------------------------------------------------ expiry

    async def expire(self) -> None:
        """Take away the tables whose time is up (their pages are closed with code 4410) and delete the rule files
        whose time is up."""
        for table in await _compiling(self.lobby.due):
            async with self.lock(table):  # no change of the table is under way as it goes
                await _compiling(self.lobby.retire, table)
            task = self.runners.pop(table.id, None)
            if task is not None:
                task.cancel()
            for ws in self.watchers.pop(table.id, {}):
                await _close(ws, GONE)
            self.locks.pop(table.id, None)
            self.bots.forget(table.id)
        await _compiling(self.lobby.expire_rules)

    async def expire_now_and_then(self) -> None:
        while True:
            await asyncio.sleep(EXPIRE_EVERY)
            try:
                await self.expire()
            except Exception as exc:  # a folder that cannot be written: said, and tried again later
                log.error("cannot take away the tables whose time is up (%s: %s)", type(exc).__name__, exc)

    def seat_at(self, table_id: Any, seat: Any, token: Any) -> tuple[Table, int | None] | None:
        """The table and seat a link names, when ``token`` is that seat's; the seat None: the table's watch link
        (``seat`` is WATCH and ``token`` the watch token). None: no such table, seat or link."""
        table = self.lobby.table(table_id)
        if table is None:
            return None
        if seat == WATCH:
            return (table, None) if table.setup.watched_with(token) else None
        number = int(seat) if isinstance(seat, str) and seat.isascii() and seat.isdigit() and len(seat) < 4 \
            and str(int(seat)) == seat else None  # one way to write each seat
        found = table.seat_of(number, token)
        return None if found is None else (table, found)

    # ------------------------------------------------------------------ WebSocket

    async def socket(self, ws: WebSocket) -> None:
        found = self.seat_at(ws.path_params["table"], ws.path_params["seat"], ws.query_params.get("token"))
        if found is None:
            await ws.close(code=4404)
            return
        table, seat = found
        await ws.accept()
        sent = [0]
        try:
            await self.send_view(table, ws, seat, sent, first=True)
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                text = frame.get("text")
                try:
                    if text is None:
                        raise _Closing(NOT_TEXT, "a binary frame (the table takes JSON text)")
                    if len(text) > MAX_MESSAGE:
                        raise _Closing(TOO_LONG, f"a message of {len(text):,} characters (at most {MAX_MESSAGE:,})")
                    try:
                        message = read_json(text, "message")
                    except Malformed as exc:
                        raise _Closing(NOT_JSON, str(exc)) from None
                except _Closing as closing:
                    log.warning("table %s %s: closed a WebSocket (code %d): %s", table.id,
                                WATCH if seat is None else f"seat {seat}", closing.code, closing.why)
                    await _close(ws, closing.code, closing.why)
                    return
                await self.message(table, seat, ws, message)
        finally:
            self.watchers.get(table.id, {}).pop(ws, None)

    async def message(self, table: Table, seat: int | None, ws: WebSocket, message: Any) -> None:
        """One message from a seat's page (JSON read): an action taken (then the bots play on) or refused, with the
        reason told to that page only. The watch link's page (``seat`` None) acts on nothing: refused."""
        try:
            if seat is None:
                raise Refused("this is the table's watch link: it shows the table and cannot act (each person plays "
                              "from their own seat's link)")
            if self.lobby.table(table.id) is not table:
                raise Refused("the table's time is up: it has been taken away")
            await self.run(table, lambda: table.act(seat, message))
        except Refused as exc:
            await _send(ws, {"type": "refused", "reason": str(exc), "seq": table.seq})
            return
        await self.broadcast(table)
        self.play_on(table)


class Pages:
    """The HTTP answers of the lobby and the tables: the pages, the games, a rule file checked, a table made, a
    finished game's record. The running tables are ``server``'s."""

    def __init__(self, server: Server):
        self.server = server

    async def lobby_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html", headers=_PAGE)

    async def games(self, request: Request) -> Response:
        return _json(await _compiling(self.server.lobby.games))

    async def rules(self, request: Request) -> Response:
        asked = await _json_body(request)
        if isinstance(asked, Response):
            return asked
        if not isinstance(asked, dict) or not ({"game", "text"} & asked.keys()):
            return _error("send {\"game\": NAME} or {\"text\": RULE FILE}")
        try:
            if "text" in asked:
                await self.server.expire()  # the rule files whose time is up make room first
                info = await _compiling(self.server.lobby.check_rules, asked["text"], _client(request))
            else:
                info = await _compiling(self.server.lobby.rules_info, self._game_name(asked["game"]))
        except TrickbookError as exc:
            return _error(str(exc))
        return _json(info, status=422 if "errors" in info else 200)

    def _game_name(self, name: Any) -> str:
        if not isinstance(name, str) or name not in tb.games():
            raise LobbyError("no such game")
        return name

    async def create(self, request: Request) -> Response:
        asked = await _json_body(request)
        if isinstance(asked, Response):
            return asked
        try:
            await self.server.expire()  # the tables whose time is up make room first
            table, tokens = await _compiling(self.server.lobby.create, asked, _client(request))
        except TrickbookError as exc:
            return _error(str(exc))
        self.server.play_on(table)
        names = table.game.seat_names
        links = [{"seat": s, "name": names[s], "href": f"/table/{table.id}/{s}?token={t}"} for s, t in tokens.items()]
        return _json({"table": table.id, "title": table.game.title, "links": links,
                      "watch": f"/table/{table.id}/{WATCH}?token={tokens.watch}",
                      "kinds": table.setup.kinds, "seats": names})

    async def table_page(self, request: Request) -> Response:
        if self.server.seat_at(request.path_params["table"], request.path_params["seat"],
                      request.query_params.get("token")) is None:
            return _NOT_FOUND()
        return FileResponse(STATIC / "table.html", headers=_PAGE)

    async def record(self, request: Request) -> Response:
        found = self.server.seat_at(request.path_params["table"], request.path_params["seat"],
                           request.query_params.get("token"))
        if found is None:
            return _NOT_FOUND()
        table = found[0]
        text = await self.server.run(table, lambda: table.record_text() if table.over else None)
        if text is None:
            return PlainTextResponse("the record is given once the game is over", status_code=409)
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", table.game.name)[:60] or "game"  # a header says it in ASCII only
        return Response(text, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{name}-{table.id}.jsonl"', **_NO_STORE})


class _Closing(Exception):
    """A frame that closes its socket: the close code and why."""

    def __init__(self, code: int, why: str):
        super().__init__(why)
        self.code, self.why = code, why


async def _send(ws: WebSocket, data: Any) -> bool:
    """Send ``data`` as JSON text (any text: what UTF-8 cannot write is escaped); False when the page is gone."""
    try:
        await ws.send_text(json.dumps(data))
    except Exception:  # the page went away (closed, reset): it is no longer watching
        return False
    return True


async def _close(ws: WebSocket, code: int, reason: str = "") -> None:
    with contextlib.suppress(Exception):  # closed already
        await ws.close(code=code, reason=reason[:120])


def _client(request: Request) -> str | None:
    """The client's address (behind a reverse proxy on this machine, the one it forwards; see uvicorn)."""
    return request.client.host if request.client is not None else None


_NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"}
# the pages run their own scripts only (no inline script, none from elsewhere, not framed by another site);
# eval stays allowed for browser drivers (Playwright's wait_for_function), as the pages' own code uses none
_PAGE = {**_NO_STORE, "X-Frame-Options": "DENY", "Content-Security-Policy": (
    "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")}


def _NOT_FOUND() -> Response:
    return PlainTextResponse("no such table or seat (check the link)", status_code=404, headers=_NO_STORE)


def _json(data: Any, status: int = 200) -> Response:
    """A JSON answer. Every text of a rule file goes as it is: what UTF-8 cannot write (a lone surrogate) is
    escaped, as JSON allows."""
    return Response(json.dumps(data), status_code=status, media_type="application/json")


def _error(text: str) -> Response:
    return _json({"error": text}, status=400)


async def _json_body(request: Request) -> Any:
    """The request's JSON (at most MAX_BODY bytes), or the Response refusing it. Only as application/json: a page
    of another site cannot send that without the browser asking this server first (CORS), which it never
    allows, so no other site can make tables or store rule files here through a visitor's browser."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return _error("send JSON (Content-Type: application/json)")
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        return _error(f"the request is larger than {MAX_BODY:,} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return _error(f"the request is larger than {MAX_BODY:,} bytes")
    try:
        return read_json(body, "request")
    except Malformed as exc:
        return _error(str(exc))


def create_app(folder: str | Path, pace: float = PACE, restore: bool = True, hosts: Iterable[str] | None = None,
               bots: BotPool | None = None, limits: Limits | None = None,
               clock: Callable[[], float] = time.time) -> Starlette:
    """The web table's app, keeping records (and people's rule files) in ``folder``; with ``restore``, the tables
    found there are picked up again (their links work as before). ``hosts``: the host names it answers to (by
    default 127.0.0.1 and localhost, guard.allowed_hosts); ``bots``: the pool searching bots search in (by default
    a worker process a core); ``limits``: what it keeps and for how long."""
    lobby = Lobby(folder, limits, clock)
    if restore:
        for problem in lobby.restore():
            log.warning(problem)
    server = Server(lobby, pace, bots)
    pages = Pages(server)
    routes = [
        Route("/", pages.lobby_page),
        Route("/api/games", pages.games),
        Route("/api/rules", pages.rules, methods=["POST"]),
        Route("/api/tables", pages.create, methods=["POST"]),
        Route("/table/{table}/{seat}", pages.table_page),
        Route("/table/{table}/{seat}/record", pages.record),
        WebSocketRoute("/ws/{table}/{seat}", server.socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for table in lobby.tables.values():  # the tables picked up whose bots are to act play on
            server.play_on(table)
        expiring = asyncio.create_task(server.expire_now_and_then())
        try:
            yield
        finally:
            expiring.cancel()
            for task in server.runners.values():
                task.cancel()
            server.bots.close()

    served = frozenset(hosts) if hosts is not None else allowed_hosts()
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(HostGuard, hosts=served)])
    app.state.server = server
    return app
