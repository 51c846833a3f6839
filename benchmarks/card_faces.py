"""Every bundled deck's card faces on one HTML page, to look at them (the web table's faces, interpreter/web/cards.py).

    python benchmarks/card_faces.py faces.html                 # every game in games/
    python benchmarks/card_faces.py faces.html --png faces.png # and a picture of it, by headless Chromium
    python benchmarks/card_faces.py faces.html --games tichu my-rules.yaml

Each deck is shown twice: at a phone's hand size (44 px wide) and at a desktop's (88 px). The picture needs
Chromium (`apt-get install chromium`, docs/web.md "Testing in a browser") and Playwright for Python.
"""

from __future__ import annotations

import argparse
import html
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import interpreter as tb  # noqa: E402
from interpreter.web.cards import card_faces  # noqa: E402
from tests.browser import ARGS, chromium  # noqa: E402

STYLE = """
body { font-family: sans-serif; margin: 12px; background: #2f5d3a; color: #fff; }
h2 { font-size: 15px; margin: 14px 0 4px; }
.row { display: flex; flex-wrap: wrap; gap: 3px; margin-bottom: 6px; }
.phone svg { width: 44px; height: auto; display: block; }
.desktop svg { width: 88px; height: auto; display: block; }
"""


def page(games: list[str]) -> str:
    """The HTML page: each game's faces in deck order, phone size then desktop size."""
    out = [f"<!doctype html><meta charset='utf-8'><title>Card faces</title><style>{STYLE}</style>"]
    for name in games:
        game = tb.load(name)
        faces = card_faces(game)
        order = sorted(faces, key=lambda lab: game.engine.hand_order[game.engine.cards.labels.index(lab)])
        out.append(f"<h2>{html.escape(game.title)} ({len(faces)} faces)</h2>")
        for size in ("phone", "desktop"):
            out.append(f"<div class='row {size}'>" + "".join(faces[lab] for lab in order) + "</div>")
    return "\n".join(out)


def screenshot(html_file: Path, png: Path, width: int = 1100) -> None:
    """A full-page PNG of the page, by headless Chromium from the system's packages."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        browser = p.chromium.launch_persistent_context(profile, executable_path=chromium(), args=ARGS,
                                                       viewport={"width": width, "height": 800})
        view = browser.new_page()
        view.goto(html_file.resolve().as_uri())
        view.screenshot(path=str(png), full_page=True)
        browser.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", type=Path)
    parser.add_argument("--png", type=Path, help="also a picture of the page (headless Chromium)")
    parser.add_argument("--games", nargs="*", help="bundled names or rule files (default: every game in games/)")
    args = parser.parse_args(argv)
    games = args.games or [p.stem for p in sorted((ROOT / "games").glob("*.yaml"))]
    args.html.write_text(page(games), encoding="utf-8")
    if args.png:
        screenshot(args.html, args.png)


if __name__ == "__main__":
    main()
