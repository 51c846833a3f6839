"""The screenshots of docs/web.md: the lobby, a table and a board, at a phone's width and a desktop's, taken in headless
Chromium from a real server (the same one the browser tests start).

    python benchmarks/web_screenshots.py                  # writes docs/images/web-*.png
    python benchmarks/web_screenshots.py --out /tmp/shots

The table is a Hearts game of one person (North) and three greedy bots, seeded, played by the person's
first legal choices into the second round, until a trick is under way at the person's turn, so the picture
shows the trick, who leads, the cards that may be played and the dimmed ones, and the first round's score. The
board is NJET's (one person, the dealer, and three greedy bots) at the person's third cover: who covered what, what
each row has left, the spaces to cover as buttons, the hand readable. Needs the web extra, Playwright and the
system's Chromium.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser import ARGS, chromium, web_server  # noqa: E402

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}
READY = """() => { const t = document.querySelector("#turn"); return t && t.textContent.includes("Your turn")
  && document.querySelectorAll("#hand .card.legal, button.action").length > 0; }"""


def lobby(page, base: str) -> str:
    """The lobby with Hearts chosen and its seats set: one person, three bots; the person's link."""
    page.goto(base + "/")
    page.select_option("select#game", "hearts")
    page.wait_for_selector("select.seat-kind[data-seat='3']", state="attached")
    for seat in (1, 2, 3):
        page.select_option(f"select.seat-kind[data-seat='{seat}']", "greedy")
    page.fill("input#seed", "7")
    page.locator("input#seed").blur()
    page.evaluate("window.scrollTo(0, 0)")
    return page


def table(page, link: str, plays: int) -> None:
    """The table after the person's first ``plays`` decisions, at a decision with a trick under way."""
    page.goto(link)
    done = 0
    while True:
        page.wait_for_function(READY)
        under_way = page.locator("#trick .card").count() > 0 and page.locator("#hand .card.dimmed").count() > 0
        if done >= plays and under_way:
            return
        before = page.locator("#log .log-line").count()
        page.locator("#hand .card.legal, #actions button.action").first.click()
        page.wait_for_function(f"() => document.querySelectorAll('#log .log-line').length > {before}")
        done += 1


def board(page, base: str, covers: int) -> None:
    """An NJET table of one person (the dealer, who covers first) and three greedy bots, after the person's first
    ``covers`` covers of the board, at its next one: the board drawn with who covered what."""
    page.goto(base + "/")
    page.select_option("select#game", "njet-riogrande")
    page.wait_for_function("() => Array.from(document.querySelectorAll('select#players option'))"
                           ".map((o) => o.value).join() === '2,3,4,5'")  # NJET's counts are there
    page.select_option("select#players", "4")
    page.wait_for_selector("select.seat-kind[data-seat='3']", state="attached")
    for seat in (1, 2, 3):
        page.select_option(f"select.seat-kind[data-seat='{seat}']", "greedy")
    page.fill("input#seed", "7")
    page.click("button#create")
    page.wait_for_selector("#links a.join", state="attached")
    page.goto(page.locator("#links a.join").first.get_attribute("href"))
    for done in range(covers + 1):
        page.wait_for_function(READY)
        if done == covers:
            return
        before = page.locator("#log .log-line").count()
        page.locator("#board button.action").nth(done * 3 + 1).click()
        page.wait_for_function(f"() => document.querySelectorAll('#log .log-line').length > {before}")


def main(argv: list[str] | None = None) -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, web_server(Path(folder), pace=0) as base, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=ARGS)
        for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page = browser.new_page(viewport=size, device_scale_factor=1)
            lobby(page, base)
            page.screenshot(path=str(args.out / f"web-lobby-{name}.png"), full_page=name == "phone")
            page.click("button#create")
            page.wait_for_selector("#links a.join", state="attached")
            link = page.locator("#links a.join").first.get_attribute("href")
            table(page, link, plays=21)  # into the second round: the first one's score is explained
            page.screenshot(path=str(args.out / f"web-table-{name}.png"), full_page=True)
            page.close()
            page = browser.new_page(viewport=size, device_scale_factor=1)
            board(page, base, covers=2)
            page.screenshot(path=str(args.out / f"web-board-{name}.png"), full_page=name == "desktop")
            page.close()
        browser.close()
    for png in sorted(args.out.glob("web-*.png")):
        print(png)


if __name__ == "__main__":
    main()
