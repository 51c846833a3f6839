"""``trickbook serve``: the web table (the web extra), its limits checked and its addresses told."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from interpreter.commands.common import UsageError
from interpreter.errors import TrickbookError


def serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise UsageError("--port must be from 1 to 65535")
    if args.bot_workers is not None and not 1 <= args.bot_workers <= 256:
        raise UsageError("--bot-workers must be from 1 to 256")
    if args.bot_timeout is not None and not 0 < args.bot_timeout <= 86400:
        raise UsageError("--bot-timeout must be more than 0 and at most 86400 seconds")
    try:
        import uvicorn

        from interpreter.web.app import create_app
        from interpreter.web.bots import TIMEOUT, BotPool
        from interpreter.web.guard import allowed_hosts, host_name
    except ImportError as exc:
        raise TrickbookError(f"the web table needs the web extra: pip install 'trickbook[web]' ({exc})") from None
    for name in args.allowed_host:
        if name != "*" and host_name(name) is None:
            raise UsageError(f"--allowed-host {name!r} is not a host name or address")
    hosts = allowed_hosts(args.host, args.allowed_host)
    app = create_app(args.records, hosts=hosts, bots=BotPool(args.bot_workers, args.bot_timeout or TIMEOUT))
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"listening on {args.host}: other machines that reach it can open the lobby and make tables "
              "(each seat's link still needs its token)", file=sys.stderr)
    print(f"answering to the host names {', '.join(sorted(hosts))} (add one with --allowed-host NAME)",
          file=sys.stderr)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Trickbook web table: http://{shown}:{args.port}/ (records in {Path(args.records).resolve()}; Ctrl-C "
          "stops it)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=65536)
    return 0
