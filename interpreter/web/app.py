"""The web table's server: a Starlette app (HTTP and WebSockets) over the lobby and its tables.

Every change to a table happens under that table's lock, in a worker thread (the bots' search and the engine
never hold up the event loop); after each change every connected seat is sent its own view. Bots play on by
themselves, a move at a time (with a short pause between moves when a person sits at the table, so people can
follow them), until a person is to act or the game is over.

Routes (``T`` a table's id, ``S`` a seat's number from 0, ``K`` that seat's token):

- ``GET /``: the lobby page; ``GET /static/...``: its scripts and styles (package data, no build step).
- ``GET /api/games``: the bundled games; ``POST /api/rules``: ``{"game": NAME}`` or ``{"text": RULE FILE}`` gives
  the players, seats and options (or the rule file's errors); ``POST /api/tables`` makes a table and gives each
  person seat's link.
- ``GET /table/T/S?token=K``: the seat's table page; ``GET /table/T/S/record?token=K``: the record, once the
  game is over.
- ``WS /ws/T/S?token=K``: the seat's view after every change; it sends ``{"type": "act", "seq": N, "label": L}``.

A wrong token, a wrong seat and an unknown table are the same 404 (a table's id alone gives nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from interpreter.errors import TrickbookError
from interpreter.rules.catalog import bundled_games
from interpreter.web.cards import card_faces
from interpreter.web.lobby import MAX_RULES, Lobby, LobbyError
from interpreter.web.tables import Refused, Table

STATIC = Path(__file__).parent / "static"
MAX_PAGES = 4  # pages open at once on one seat (each is sent a view after every change)
MAX_MESSAGE = 4096  # characters of one message from a page (an action is a few dozen)
MAX_BODY = MAX_RULES + 10_000  # bytes of a request to the lobby (a rule file, as JSON)
PACE = 0.6  # seconds between two bots' moves when a person sits at the table
log = logging.getLogger("trickbook.web")
_COMPILING = threading.Lock()  # one thread loads and compiles rules at a time (the parser is shared)


async def _compiling(work: Callable[..., Any], *args: Any) -> Any:
    """The lobby's ``work(*args)`` (it loads and compiles rules) in a worker thread, alone among the lobby's."""

    def locked() -> Any:
        with _COMPILING:
            return work(*args)

    return await asyncio.to_thread(locked)


class Server:
    """The running tables: their locks, their connections, and the tasks that let their bots play."""

    def __init__(self, lobby: Lobby, pace: float = PACE):
        self.lobby, self.pace = lobby, pace
        self.locks: dict[str, asyncio.Lock] = {}
        self.watchers: dict[str, dict[WebSocket, tuple[int, list[int]]]] = {}  # table -> socket -> seat, sent
        self.runners: dict[str, asyncio.Task[None]] = {}
        self._faces: dict[str, dict[str, str]] = {}

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    async def run(self, table: Table, work: Callable[[], Any]) -> Any:
        """``work`` on the table, under its lock, in a worker thread."""
        async with self.lock(table):  # each table its own compiled game: tables share nothing mutable
            return await asyncio.to_thread(work)

    def play_on(self, table: Table) -> None:
        """Let the table's bots (and deals) go on, in a task of their own, unless they are going on already."""
        task = self.runners.get(table.id)
        if task is None or task.done():
            self.runners[table.id] = asyncio.create_task(self._play_on(table))

    async def _play_on(self, table: Table) -> None:
        while True:
            try:
                moved = await self.run(table, table.step)
            except TrickbookError as exc:  # the rules went wrong in play (a runaway game): the table stops there
                log.error("table %s stopped: %s", table.id, exc)
                return
            if not moved:
                return
            await self.broadcast(table)
            if table.people and self.pace and not table.waiting_for_person() and not table.over:
                await asyncio.sleep(self.pace)

    async def broadcast(self, table: Table) -> None:
        """Send every connected seat its own view."""
        for ws, (seat, sent) in list(self.watchers.get(table.id, {}).items()):
            await self.send_view(table, ws, seat, sent)

    async def send_view(self, table: Table, ws: WebSocket, seat: int, sent: list[int],
                        first: bool = False) -> None:
        """Send the seat's view (the narration it has not been sent yet), under the table's lock so that views
        go out in the order of the changes; ``first``: with the cards' faces, and the socket then watches."""

        def work() -> dict[str, Any]:
            view = table.view(seat, sent[0])
            sent[0] += len(view["log"])
            return view

        async with self.lock(table):
            view = await asyncio.to_thread(work)
            if first:
                view["faces"] = self.faces(table)
            try:
                await ws.send_text(json.dumps(view, ensure_ascii=False))
            except (RuntimeError, WebSocketDisconnect, OSError):
                self.watchers.get(table.id, {}).pop(ws, None)
                return
            if first:
                watching = self.watchers.setdefault(table.id, {})
                same = [w for w, (s, _) in watching.items() if s == seat]
                if len(same) >= MAX_PAGES:  # the seat's oldest page gives way (a link opened once too often)
                    watching.pop(same[0], None)
                    with contextlib.suppress(RuntimeError, OSError):
                        await same[0].close(code=4409)
                watching[ws] = (seat, sent)

    def faces(self, table: Table) -> dict[str, str]:
        key = table.game.engine.identity
        if key not in self._faces:
            self._faces[key] = card_faces(table.game)  # the deck's faces, sent once to each page
        return self._faces[key]

    # ------------------------------------------------------------------ HTTP

    async def lobby_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html", headers=_PAGE)

    async def games(self, request: Request) -> Response:
        return JSONResponse(await _compiling(self.lobby.games))

    async def rules(self, request: Request) -> Response:
        asked = await _json_body(request)
        if isinstance(asked, Response):
            return asked
        if not isinstance(asked, dict) or not ({"game", "text"} & asked.keys()):
            return _error("send {\"game\": NAME} or {\"text\": RULE FILE}")
        try:
            if "text" in asked:
                info = await _compiling(self.lobby.check_rules, asked["text"])
            else:
                info = await _compiling(self.lobby.rules_info, self._game_name(asked["game"]))
        except TrickbookError as exc:
            return _error(str(exc))
        return JSONResponse(info, status_code=422 if "errors" in info else 200)

    def _game_name(self, name: Any) -> str:
        if not isinstance(name, str) or name not in bundled_games():
            raise LobbyError("no such game")
        return name

    async def create(self, request: Request) -> Response:
        asked = await _json_body(request)
        if isinstance(asked, Response):
            return asked
        try:
            table, tokens = await _compiling(self.lobby.create, asked)
        except TrickbookError as exc:
            return _error(str(exc))
        self.play_on(table)
        names = table.game.seat_names
        links = [{"seat": s, "name": names[s], "href": f"/table/{table.id}/{s}?token={t}"} for s, t in tokens.items()]
        return JSONResponse({"table": table.id, "title": table.game.title, "links": links,
                             "kinds": table.setup.kinds, "seats": names})

    def _seat(self, table_id: Any, seat: Any, token: Any) -> tuple[Table, int] | None:
        table = self.lobby.table(table_id)
        if table is None:
            return None
        number = int(seat) if isinstance(seat, str) and seat.isascii() and seat.isdigit() and len(seat) < 4 \
            and str(int(seat)) == seat else None  # one way to write each seat
        found = table.seat_of(number, token)
        return None if found is None else (table, found)

    async def table_page(self, request: Request) -> Response:
        if self._seat(request.path_params["table"], request.path_params["seat"],
                      request.query_params.get("token")) is None:
            return _NOT_FOUND()
        return FileResponse(STATIC / "table.html", headers=_PAGE)

    async def record(self, request: Request) -> Response:
        found = self._seat(request.path_params["table"], request.path_params["seat"],
                           request.query_params.get("token"))
        if found is None:
            return _NOT_FOUND()
        table = found[0]
        text = await self.run(table, lambda: table.record_text() if table.over else None)
        if text is None:
            return PlainTextResponse("the record is given once the game is over", status_code=409)
        return Response(text, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{table.game.name}-{table.id}.jsonl"', **_NO_STORE})

    # ------------------------------------------------------------------ WebSocket

    async def socket(self, ws: WebSocket) -> None:
        found = self._seat(ws.path_params["table"], ws.path_params["seat"], ws.query_params.get("token"))
        if found is None:
            await ws.close(code=4404)
            return
        table, seat = found
        await ws.accept()
        sent = [0]
        try:
            await self.send_view(table, ws, seat, sent, first=True)
            while True:
                text = await ws.receive_text()
                await self.message(table, seat, ws, text)
        except WebSocketDisconnect:
            pass
        finally:
            self.watchers.get(table.id, {}).pop(ws, None)

    async def message(self, table: Table, seat: int, ws: WebSocket, text: str) -> None:
        """One message from a seat's page: an action taken (then the bots play on) or refused, with the reason
        told to that page only."""
        try:
            if len(text) > MAX_MESSAGE:
                raise Refused("the message is too long")
            try:
                message = json.loads(text)
            except ValueError:
                raise Refused("the message is not JSON") from None
            await self.run(table, lambda: table.act(seat, message))
        except Refused as exc:
            await ws.send_text(json.dumps({"type": "refused", "reason": str(exc), "seq": table.seq}))
            return
        await self.broadcast(table)
        self.play_on(table)


_NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"}
# the pages run their own scripts only (no inline script, none from elsewhere, not framed by another site);
# eval stays allowed for browser drivers (Playwright's wait_for_function), as the pages' own code uses none
_PAGE = {**_NO_STORE, "X-Frame-Options": "DENY", "Content-Security-Policy": (
    "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")}


def _NOT_FOUND() -> Response:
    return PlainTextResponse("no such table or seat (check the link)", status_code=404, headers=_NO_STORE)


def _error(text: str) -> Response:
    return JSONResponse({"error": text}, status_code=400)


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
        return json.loads(body)
    except ValueError:
        return _error("the request is not JSON")


def create_app(folder: str | Path, pace: float = PACE, restore: bool = True) -> Starlette:
    """The web table's app, keeping records (and people's rule files) in ``folder``; with ``restore``, the tables
    found there are picked up again (their links work as before)."""
    lobby = Lobby(folder)
    if restore:
        for problem in lobby.restore():
            log.warning(problem)
    server = Server(lobby, pace)
    routes = [
        Route("/", server.lobby_page),
        Route("/api/games", server.games),
        Route("/api/rules", server.rules, methods=["POST"]),
        Route("/api/tables", server.create, methods=["POST"]),
        Route("/table/{table}/{seat}", server.table_page),
        Route("/table/{table}/{seat}/record", server.record),
        WebSocketRoute("/ws/{table}/{seat}", server.socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for table in lobby.tables.values():  # the tables picked up whose bots are to act play on
            server.play_on(table)
        yield

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.server = server
    return app
