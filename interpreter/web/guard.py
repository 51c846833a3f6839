"""What the web table lets in: the host names it answers to, the pages that may open its WebSockets, and JSON
bounded in size and nesting before anything reads it.

A page of another site can make a visitor's browser send requests to this server under that site's own name
(DNS rebinding: ``evil.example`` made to resolve to 127.0.0.1): the server answers only to the host names it
serves (``trickbook serve --host`` and each ``--allowed-host``, 127.0.0.1 and localhost always), so such a
request is refused (HTTP 400) before it reaches the lobby. A WebSocket is opened by a page of any site with the
visitor's browser's own address: its ``Origin`` must name one of those hosts too (a client that sends no Origin
is no browser page, and still needs a seat's token).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from interpreter.errors import TrickbookError
from interpreter.limits import MAX_JSON_DEPTH, json_nesting

LOCAL = ("127.0.0.1", "localhost")  # answered to whatever --host and --allowed-host say
WILDCARDS = ("0.0.0.0", "::", "")  # addresses to listen on that no client writes as a Host
MAX_DEPTH = MAX_JSON_DEPTH  # nesting in a request or a message (the lobby's and the pages' have 3)
ORIGIN_REFUSED = 4403  # the WebSocket close code for a page of another site (or a host this server does not serve)
log = logging.getLogger("trickbook.web")
_HOST = re.compile(r"^(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[^\s:\[\]/@]+))(?::\d{1,5})?$")


class Malformed(TrickbookError):
    """Text that is not the JSON asked for (not JSON, nested too deeply); the message says which."""


def host_name(value: str | None) -> str | None:
    """The host of a Host header or an address (``name``, ``name:port``, ``[v6]``, ``[v6]:port``), lower case and
    without brackets; None when it is none of these."""
    found = _HOST.match(value or "")
    if found is None:
        return None
    return (found["v6"] or found["name"]).lower()


def allowed_hosts(host: str = "127.0.0.1", more: Iterable[str] = ()) -> frozenset[str]:
    """The host names the server answers to: 127.0.0.1 and localhost, the address it listens on (unless one that
    stands for every address, such as 0.0.0.0), and ``more`` (``--allowed-host``; ``*`` is any)."""
    names = {*LOCAL, *(h.strip().strip("[]").lower() for h in more)}
    if host.strip("[]") not in WILDCARDS:
        names.add(host.strip("[]").lower())
    return frozenset(names)


class HostGuard:
    """ASGI middleware: a request whose Host is not one the server answers to gets a 400 (a WebSocket is closed
    before it is accepted, which the client sees as a 403), and a WebSocket whose Origin names another host is
    closed with code 4403. Each refusal is one log line."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]):
        self.app, self.hosts = app, hosts

    def _allowed(self, name: str | None) -> bool:
        return name is not None and ("*" in self.hosts or name in self.hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host")
        why = None
        if not self._allowed(host_name(host)):
            why = f"the host {host!r} is not one this server answers to"
        elif scope["type"] == "websocket" and "origin" in headers \
                and not self._allowed(_origin_host(headers["origin"])):
            why = f"a page of {headers['origin']!r} may not open this server's WebSockets"
        if why is None:
            await self.app(scope, receive, send)
            return
        log.warning("refused %s %s: %s (trickbook serve --allowed-host NAME adds a host name)",
                    "WebSocket" if scope["type"] == "websocket" else scope.get("method", "request"),
                    scope.get("path", ""), why)
        if scope["type"] == "websocket":
            await receive()  # the connect message, then the handshake is refused
            await send({"type": "websocket.close", "code": ORIGIN_REFUSED})
            return
        await PlainTextResponse(f"{why} (trickbook serve --allowed-host NAME adds a host name)",
                                status_code=400)(scope, receive, send)


def _origin_host(origin: str) -> str | None:
    try:
        parts = urlsplit(origin)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https"):
        return None
    return host_name(parts.netloc)


def read_json(text: str | bytes, what: str) -> Any:
    """``text`` as JSON at most MAX_DEPTH arrays and objects deep, else Malformed saying why (its nesting is measured
    on the text before it is parsed: never a RecursionError)."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        if json_nesting(text) > MAX_DEPTH:
            raise Malformed(f"the {what} is nested more than {MAX_DEPTH} deep")
        return json.loads(text)
    except ValueError:  # UnicodeDecodeError and a number of too many digits among them
        raise Malformed(f"the {what} is not JSON") from None
