"""Headless Chromium for the browser tests, driven by Playwright for Python.

The browser is the operating system's (Debian: `apt-get install -y chromium chromium-driver`, docs/web.md
"Testing in a browser"): Playwright's own installer cannot download one here. Each launch starts from a new,
empty profile (Playwright makes one per launch), with the background traffic turned off, since a closed network
refuses it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

# without the background-networking flags Chromium keeps trying to reach Google's services
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
INSTALL = "apt-get install -y chromium chromium-driver"


def chromium() -> str | None:
    """The Chromium to drive: $TRICKBOOK_CHROMIUM, else the system's (Debian's /usr/bin/chromium first)."""
    named = os.environ.get("TRICKBOOK_CHROMIUM")
    if named:
        return named if Path(named).is_file() else None
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def missing() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[test]')"
    if chromium() is None:
        return f"no Chromium found (install the system's: {INSTALL}; or set TRICKBOOK_CHROMIUM)"
    return None


@contextlib.contextmanager
def web_server(folder: Path, pace: float = 0.0) -> Iterator[str]:
    """The real web table (``interpreter.web.app`` under uvicorn, in a thread of this process) on a free port,
    keeping its tables' records in ``folder``; its address."""
    import uvicorn

    from interpreter.web.app import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    served = uvicorn.Server(uvicorn.Config(create_app(folder, pace=pace), log_level="warning"))
    thread = threading.Thread(target=served.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(3000):  # until it listens
            if served.started or not thread.is_alive():
                break
            thread.join(0.01)
        if not served.started:
            raise RuntimeError("the web server did not start")
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        served.should_exit = True
        thread.join(10)
        sock.close()
