"""The web table in a real browser: headless Chromium (the system's, tests/browser.py) driven by Playwright
through the lobby and the table pages, as people use them, by the DOM the pages promise (docs/web.md).

At every decision of a person the page is checked against the game itself: the server's record of the table,
read back and replayed with the public API, says what the seat may see (its hand, in the terminal's order), what
it may do (the legal cards and the others' refusals), the trick and who leads it, and which cards it must not
see (the other seats' hidden cards). The server runs in this process, its bots without a pause between moves;
the tests count decisions, never time.
"""

from __future__ import annotations

import collections
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

import interpreter as tb
from interpreter.api.together import seats_together

from .browser import ARGS, chromium, missing, web_server
from .test_web_cards import hostile_rules

REASON = missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
WAIT = 20_000  # ms Playwright waits for one page change at most (a failure, not a measure)

# what the page shows, read from the DOM contract of docs/web.md
VIEW = """() => {
  const all = (s) => Array.from(document.querySelectorAll(s));
  const text = (id) => { const e = document.getElementById(id); return e ? e.textContent : null; };
  const over = document.getElementById("game-over");
  return {
    hand: all("#hand .card").map((c) => ({label: c.dataset.label, legal: c.classList.contains("legal"),
                                          dimmed: c.classList.contains("dimmed"), idle: c.classList.contains("idle"),
                                          title: c.getAttribute("title")})),
    actions: all("#actions button.action, #board button.action").map((b) => b.dataset.label),
    trick: all("#trick .card").map((c) => [c.dataset.seat, c.dataset.label]),
    cards: all(".card[data-label]").map((c) => c.dataset.label),
    leader: text("leader"), turn: text("turn") || "", connection: text("connection"),
    log: all("#log .log-line").map((l) => l.textContent),
    status: all("#status .status-line").map((l) => l.textContent),
    scores: text("scores") || "", tricksWon: text("tricks-won") || "",
    over: !!over && !over.hidden && over.getClientRects().length > 0,
  };
}"""
# a decision is shown: the game is over, or it is this seat's turn with something to click
READY = f"""() => {{
  const v = ({VIEW})();
  return v.over || (v.turn.includes("Your turn") && (v.hand.some((c) => c.legal) || v.actions.length > 0));
}}"""
# what changes when the page shows anything new
SIGNATURE = f"""() => {{
  const v = ({VIEW})();
  return JSON.stringify([v.hand, v.actions, v.trick, v.log.length, v.turn, v.over]);
}}"""
# the page's HTML without what happened before (the narration, the scores and the last trick, which name
# the cards of earlier rounds, dealt again since)
NOW_HTML = """() => {
  const copy = document.documentElement.cloneNode(true);
  for (const id of ["log", "scores", "last-trick"]) { const e = copy.querySelector("#" + id); if (e) e.remove(); }
  return copy.outerHTML;
}"""


# ---------------------------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The real web server on a free port, its bots without a pause: (its address, the folder of its tables'
    records)."""
    pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")
    pytest.importorskip("interpreter.web.app", reason="the web server (interpreter.web.app) is missing")
    folder = tmp_path_factory.mktemp("tables")
    with web_server(folder) as address:
        yield address, folder


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium from the system's packages (a new empty profile of its own)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium(), args=ARGS, headless=True)
        yield launched
        launched.close()


# ---------------------------------------------------------------------------------------------- the pages


def create_table(page: Any, base: str, game: str, players: int, kinds: list[str], seed: int,
                 options: dict[str, str] | None = None) -> dict[int, str]:
    """Make a table in the lobby as a person does; each person seat's private link."""
    page.goto(base + "/")
    page.select_option("select#game", game)
    page.wait_for_selector("select#players option", state="attached")
    page.select_option("select#players", str(players))
    for name, value in (options or {}).items():
        page.select_option(f'#options [data-option="{name}"]', value)
    for seat, kind in enumerate(kinds):
        page.select_option(f'select.seat-kind[data-seat="{seat}"]', kind)
    page.fill("input#seed", str(seed))
    page.click("button#create")
    page.wait_for_selector("#links a.join", state="attached")
    links = {int(a.get_attribute("data-seat")): a.get_attribute("href")
             for a in page.query_selector_all("#links a.join")}
    assert sorted(links) == [s for s, k in enumerate(kinds) if k == "person"]
    return links


def view(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(VIEW))


def wait_ready(page: Any) -> dict[str, Any]:
    page.wait_for_function(READY, timeout=WAIT)
    return view(page)


def is_ready(page: Any) -> bool:
    return bool(page.evaluate(READY))


def act(page: Any, label: str, card: bool) -> None:
    """Click a legal card of the hand or an action's button, and wait until the page shows the change."""
    before = page.evaluate(SIGNATURE)
    quoted = json.dumps(label)  # a CSS string: JSON's escapes are CSS's for these labels
    target = f"#hand .card.legal[data-label={quoted}]" if card else f"button.action[data-label={quoted}]"
    page.locator(target).first.click()
    page.wait_for_function(f"(before) => ({SIGNATURE})() !== before", arg=before, timeout=WAIT)


def choose(v: dict[str, Any], rng: random.Random) -> tuple[str, bool]:
    """A legal choice at random: a card of the hand or another action."""
    choices = [(c["label"], True) for c in v["hand"] if c["legal"]] + [(a, False) for a in v["actions"]]
    return rng.choice(choices)


# ---------------------------------------------------------------------------------------------- the truth


def table_of(link: str) -> tuple[str, int]:
    """(table id, seat) of a seat's link /table/T/S?token=K."""
    parts = urlparse(link).path.strip("/").split("/")
    return parts[1], int(parts[2])


def truth(folder: Path, table: str) -> tb.GameState:
    """The table's game as the server recorded it so far, replayed (the record is written after every change)."""
    (record,) = folder.rglob(f"{table}.jsonl")
    text = record.read_text(encoding="utf-8")
    head = json.loads(text.partition("\n")[0])
    if "rules_file" not in head:  # a bundled game
        return tb.load_serialized(text)
    # a rule file of the lobby's, kept beside the records (the record names it from there)
    return tb.load(record.parent / head["rules_file"], head["players"], head.get("options")).deserialize(text)


def truth_at(page: Any, folder: Path, table: str, seat: int) -> tb.GameState:
    """The table's game once ``seat`` is to act in it: a page asks a person ahead of its turn in a step whose
    choices are made together, and the bots before it (which act at once) may not have acted yet."""
    for _ in range(2000):
        state = truth(folder, table)
        if state.current_player == seat or state.is_over():
            break
        page.wait_for_timeout(10)
    return state


def hidden_from(state: tb.GameState, seat: int) -> set[str]:
    """Labels ``seat`` must not see now: cards the other seats hold face down (in zones of theirs it sees only
    the size of), less every label it may know: its own cards, the cards it sees anywhere, the cards it was
    dealt this round (a card it passed on) and the cards played to this round's tricks."""
    names = state.game.seat_names
    mine = state.observation(seat)
    hidden: set[str] = set()
    for s, name in enumerate(names):
        if s == seat:
            continue
        theirs = state.observation(s)["zones"]
        for zone, content in mine["zones"].items():
            if isinstance(content, dict) and isinstance(content.get(name), dict) and "count" in content[name]:
                hidden.update(theirs[zone][name])
    known: set[str] = set()
    for content in mine["zones"].values():
        for cards in (content.values() if isinstance(content, dict) else [content]):
            if isinstance(cards, list):
                known.update(cards)
    plays = {step.name for step in state.game.engine.every_step() if step.kind == "tricks"}
    for event in state.events:
        if event.get("round") != state.round:
            continue
        if event["type"] == "chance":
            known.update(event["outcome"].get("hand", {}).get(names[seat], []))
        if event["type"] == "action" and event["step"] in plays:
            known.add(event["action"])
    return hidden - known


def in_terminal_order(state: tb.GameState, labels: list[str]) -> list[str]:
    engine = state.game.engine
    first = {lab: cid for cid, lab in reversed(list(enumerate(engine.cards.labels)))}
    return sorted(labels, key=lambda lab: engine.hand_order[first[lab]])


def seat_name(state: tb.GameState, shown: str | None) -> str | None:
    """A data-seat as a seat's name (the page may write the seat's number or its name)."""
    names = state.game.seat_names
    if shown is not None and shown.isdigit() and int(shown) < len(names):
        return names[int(shown)]
    return shown


def check_shown(v: dict[str, Any]) -> None:
    """What every decision's page shows, by the page alone: the turn, each card either clickable, dimmed with
    the rule that forbids it, who leads a trick under way, the connection."""
    assert "Your turn" in v["turn"] and v["connection"] == "connected"
    cards = any(c["legal"] for c in v["hand"])  # a choice of cards: the others dimmed; else all idle (readable)
    for c in v["hand"]:
        assert [c["legal"], c["dimmed"], c["idle"]].count(True) == 1 and (c["legal"] or c["title"]), c
        assert c["legal"] or c["dimmed"] == cards, c
    assert not v["trick"] or v["leader"]


def assert_no_secret(page: Any, v: dict[str, Any], state: tb.GameState, seat: int) -> None:
    """No card of the seat's page, and no text of its HTML, names a card the other seats hold face down (in
    later rounds, the HTML less the narration, scores and last trick, which name earlier rounds' cards)."""
    me = state.game.seat_names[seat]
    secret = hidden_from(state, seat)
    assert not secret & set(v["cards"]), f"{me}'s page shows others' cards {secret & set(v['cards'])}"
    html = page.content() if state.round == 1 else page.evaluate(NOW_HTML)
    seen = sorted(label for label in secret if label in html)
    assert not seen, f"{me}'s page names cards other seats hold: {seen}"


def check_decision(page: Any, v: dict[str, Any], state: tb.GameState, seat: int, status: bool = False,
                   tap: bool = False) -> bool:
    """The page of ``seat``, at its decision, against the game: hand, choices, refusals, trick, leader, no card
    it must not see, and (``status``) as many status lines as the game gives the seat; with ``tap``, a card the
    rules refuse tapped shows why (True when one was)."""
    check_shown(v)
    names = state.game.seat_names
    me = names[seat]
    assert state.current_player == seat, f"the page says it is {me}'s turn; the game says {state.current_player}"
    obs = state.observation(seat)
    hand = [c["label"] for c in v["hand"]]
    own = next(content[me] for content in obs["zones"].values()
               if isinstance(content, dict) and isinstance(content.get(me), list))
    assert collections.Counter(hand) == collections.Counter(own), "the hand shown is not the seat's hand"
    assert hand == in_terminal_order(state, hand), "the hand is not in the terminal's order"
    legal = set(state.labels())
    assert {c["label"] for c in v["hand"] if c["legal"]} | set(v["actions"]) == legal
    for c in v["hand"]:
        if not c["legal"]:  # the rule that refuses it; a card no rule refuses is no choice now (another decision)
            why = state.refusal(c["label"])
            assert c["title"] == why if why else c["title"], (c, why)
    refused = [i for i, c in enumerate(v["hand"]) if not c["legal"] and state.refusal(c["label"])] if tap else []
    if refused:  # a tap (a phone has no hover title) shows the reason on the page
        page.locator("#hand .card").nth(refused[0]).click()
        c = v["hand"][refused[0]]
        assert page.inner_text("#refused") == f"Not now: {c['label']}: {state.refusal(c['label'])}"
    trick = obs.get("trick") or []
    assert [(seat_name(state, s), lab) for s, lab in v["trick"]] == [tuple(p) for p in trick]
    if obs.get("decision") == "play":
        leader = trick[0][0] if trick else me
        assert v["leader"] and (leader in v["leader"] or leader == me and "You" in v["leader"]), (v["leader"], leader)
    assert_no_secret(page, v, state, seat)
    assert all(name in v["tricksWon"] for name in names), "tricks won are shown per seat"
    if status:  # worked out on a sample of what the seat knows: a replay of the game, so not at every decision
        lines = state.status(seat)
        assert len(v["status"]) == len(lines)
        for shown, (title, text) in zip(v["status"], lines):
            assert title in shown and text in shown, (shown, title, text)
    return bool(refused)


# ---------------------------------------------------------------------------------------------- the games


def test_a_whole_hearts_game_one_person_three_bots(browser, server, tmp_path):
    """A person plays Hearts to the end (to 50, an option chosen in the lobby) against three random bots, clicking
    legal cards (the passes too); every decision's page is checked against the game; the game-over panel gives the
    record, which replays."""
    base, folder = server
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    links = create_table(page, base, "hearts", 4, ["person", "random", "random", "random"], seed=2,
                         options={"target": "50"})
    table, seat = table_of(links[0])
    page.goto(links[0])
    rng = random.Random(2)  # (seed 2: a game of 3 hands, passing left, right and across; 48 decisions)
    decisions = checked = 0
    tapped = False  # a card the rules refuse tapped once: its reason shown
    for _ in range(400):  # a game of Hearts asks a person fewer than 400 decisions
        v = wait_ready(page)
        if v["over"]:
            break
        # against the game (a replay of its record): every decision of the first round (3 passes, 13 cards),
        # then each round's first of passing and of play (13 cards in hand), and every choice that is not a card
        if decisions < 16 or len(v["hand"]) == 13 or v["actions"]:
            tapped = check_decision(page, v, truth_at(page, folder, table, seat), seat, status=len(v["hand"]) == 13,
                                    tap=not tapped) or tapped
            checked += 1
        else:
            check_shown(v)
        label, card = choose(v, rng)
        act(page, label, card)
        decisions += 1
    else:
        pytest.fail("the game did not end")
    state = truth(folder, table)
    assert state.is_over() and decisions >= 16 and checked >= 16  # a round at least: 3 passes and 13 cards
    assert 50 <= max(state.returns()) < 100, state.returns()  # the option chosen in the lobby ended it
    assert tapped  # a refused card was tapped, its reason shown
    over = page.inner_text("#game-over")
    assert all(state.game.seat_names[w] in over for w in state.winners())
    assert all(name in page.inner_text("#scores") for name in state.game.seat_names)
    with page.expect_download() as download:
        page.click("a#record")
    saved = tmp_path / "hearts.jsonl"
    download.value.save_as(saved)
    replayed = tb.load_serialized(saved.read_text(encoding="utf-8"))
    assert replayed.returns() == state.returns() and replayed.events == state.events
    done = subprocess.run([sys.executable, "-m", "interpreter", "replay", str(saved)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    context.close()


def test_two_people_play_njet_from_two_browsers(browser, server):
    """Two people (and a bot) play NJET, each in a browser context of their own: each page shows its own hand
    only, a card one plays shows in the other's trick or narration, and a page loaded again shows the same; the
    board is drawn as its rows of spaces with who covered each, and the hand stays readable while it is covered."""
    base, folder = server
    lobby = browser.new_context()
    links = create_table(lobby.new_page(), base, "njet-riogrande", 3, ["person", "person", "random"], seed=4)
    lobby.close()
    table, _ = table_of(links[0])
    contexts = [browser.new_context(), browser.new_context()]
    pages = [c.new_page() for c in contexts]
    for seat, page in enumerate(pages):
        page.goto(links[seat])
        page.wait_for_selector("#hand .card", state="attached", timeout=WAIT)
    rng = random.Random(4)
    seen_in_other = reloaded = boards = 0
    polls = 0
    for _ in range(300):  # decisions of the two people
        seat = None
        while seat is None and polls < 2000:  # a bot or the deal is on: look again a moment later
            ready = [s for s in (0, 1) if is_ready(pages[s])]
            state = truth(folder, table)
            # the seat to act (in a pass made together both pages ask at once: the other answers in its turn)
            seat = next((s for s in ready if state.current_player == s or view(pages[s])["over"]), None)
            if seat is None:
                pages[0].wait_for_timeout(10)
                polls += 1
        assert seat is not None, "neither person was asked to act"
        me, other = pages[seat], pages[1 - seat]
        v = view(me)
        if v["over"]:
            break
        check_decision(me, v, state, seat)
        if state.observation(seat).get("decision") == "cover":
            check_board(me, state, seat)
            boards += 1
        check_hand_only(other, state, 1 - seat)
        if reloaded == 0 and state.observation(seat).get("decision") == "play":
            before = view(me)
            me.reload()
            again = wait_ready(me)
            assert again == before, "the page loaded again shows another view"
            reloaded += 1
        label, card = choose(v, rng)
        others_log = len(view(other)["log"])
        act(me, label, card)
        if card and state.observation(seat).get("decision") == "play":
            name = state.game.seat_names[seat]
            other.wait_for_function(
                """([label, seat, name, count]) => {
                     const inTrick = Array.from(document.querySelectorAll("#trick .card")).some(
                       (c) => c.dataset.label === label && (c.dataset.seat === seat || c.dataset.seat === name));
                     const lines = Array.from(document.querySelectorAll("#log .log-line")).slice(count);
                     return inTrick || lines.some((l) => l.textContent.includes(label));
                   }""", arg=[label, str(seat), name, others_log], timeout=WAIT)
            seen_in_other += 1
            if seen_in_other >= 3 and reloaded:
                break
    assert seen_in_other >= 3 and reloaded == 1 and boards >= 2
    for c in contexts:
        c.close()


def test_the_watch_link_shows_the_trick_and_no_hand(browser, server):
    """Hearts, one person (North) and three bots, made in the lobby, which gives the watch link too. When North is to
    play into a trick, the watch link opened in another browser shows that trick, who played each card and whose
    turn it is, and has no hand and nothing to click; its HTML names no card any seat holds."""
    base, folder = server
    context = browser.new_context()
    page = context.new_page()
    links = create_table(page, base, "hearts", 4, ["person", "random", "random", "random"], seed=11)
    watch = page.get_attribute("#watch-link", "href")
    assert watch and "/watch?token=" in watch
    table, _ = table_of(links[0])
    page.goto(links[0])
    rng = random.Random(11)
    for _ in range(40):  # North's decisions until it is to play into a trick begun by others
        v = wait_ready(page)
        if v["trick"] and truth(folder, table).observation(0).get("decision") == "play":
            break
        act(page, *choose(v, rng))
    else:
        raise AssertionError("North never played into a trick")
    state = truth(folder, table)
    onlooker = browser.new_context()
    watching = onlooker.new_page()
    watching.goto(watch)
    watching.wait_for_function("(n) => document.querySelectorAll('#trick .card').length === n", arg=len(v["trick"]),
                               timeout=WAIT)
    seen = view(watching)
    assert seen["trick"] == v["trick"] and seen["turn"] == "North to act"
    assert not seen["hand"] and not seen["actions"] and watching.locator("#mine").is_hidden()
    assert "watching" in (watching.text_content("#title") or "")
    held = {c for s, name in enumerate(state.game.seat_names) for content in state.observation(s)["zones"].values()
            if isinstance(content, dict) and isinstance(content.get(name), list) for c in content[name]}
    html = watching.evaluate(NOW_HTML)
    assert held and not [c for c in held if c in html]
    onlooker.close()
    context.close()


# a board drawn: each row's key, title, spaces (a button to cover it, or its label and who covered it) and what it
# has left; and how readable each card of the hand is (its opacity as drawn)
BOARD = """() => ({
  rows: Array.from(document.querySelectorAll("#board .board-row")).map((r) => ({
    row: r.dataset.row, title: r.querySelector(".board-title").textContent,
    left: r.querySelector(".board-left").textContent,
    spaces: Array.from(r.querySelectorAll(".board-spaces > *")).map((s) => s.tagName === "BUTTON"
      ? {label: s.textContent, action: s.dataset.label, by: null, covered: false}
      : {label: s.querySelector(".space-label").textContent, action: null, covered: s.classList.contains("covered"),
         by: s.querySelector(".marker") ? s.querySelector(".marker").dataset.by || null : null}),
  })),
  opacity: Array.from(document.querySelectorAll("#hand .card")).map((c) => getComputedStyle(c).opacity),
  status: Array.from(document.querySelectorAll("#status .status-line")).map((l) => l.textContent),
})"""


def check_board(page: Any, state: tb.GameState, seat: int) -> None:
    """The page of ``seat`` choosing a board's space: every row of the board step drawn with its spaces, the
    covered ones marked with who covered them (as the game says), the legal covers as buttons, what each row has
    left, a status line for each row, and the hand at full contrast (no card is a choice now)."""
    drawn = page.evaluate(BOARD)
    board = state.observation(seat)["board"]
    legal = set(state.labels())
    assert [r["row"] for r in drawn["rows"]] == list(board)
    for r in drawn["rows"]:
        row = board[r["row"]]
        assert r["title"] == row["title"] and [s["label"] for s in r["spaces"]] == [s["label"] for s in row["spaces"]]
        for shown, space in zip(r["spaces"], row["spaces"]):
            assert shown["covered"] == (not space["open"]) and shown["by"] == space["by"], (shown, space)
            assert (shown["action"] in legal) if space["open"] and shown["action"] else shown["action"] is None
        assert r["left"] == f"{sum(s['open'] for s in row['spaces'])} left"
        assert any(line.startswith(row["title"] + ": ") for line in drawn["status"]), drawn["status"]
    assert {s["action"] for r in drawn["rows"] for s in r["spaces"] if s["action"]} == legal
    assert drawn["opacity"] and all(o == "1" for o in drawn["opacity"]), drawn["opacity"]


def check_hand_only(page: Any, state: tb.GameState, seat: int) -> None:
    """The page of a seat not to act: its own hand, and no card of the others it must not see."""
    me = state.game.seat_names[seat]
    own = next(content[me] for content in state.observation(seat)["zones"].values()
               if isinstance(content, dict) and isinstance(content.get(me), list))
    page.wait_for_function(  # its page may show the deal a moment after the page of the seat to act
        """(own) => JSON.stringify(Array.from(document.querySelectorAll("#hand .card"))
                      .map((c) => c.dataset.label).sort()) === own""",
        arg=json.dumps(sorted(own), separators=(",", ":"), ensure_ascii=False), timeout=WAIT)
    v = view(page)
    if seat not in seats_together(state):  # (else it is asked at once with the seat to act)
        assert not any(c["legal"] for c in v["hand"]) and "Your turn" not in v["turn"]
    assert_no_secret(page, v, state, seat)


HOSTILE = hostile_rules('"<img src=x onerror=window.pwned=1> title"', "{rank} {suit}",
                        "['</svg><script>window.pwned=1</script>', '<img src=x onerror=window.pwned=1>']",
                        """['"&amp;', "'1'"]""")


def test_a_pasted_rule_file_with_hostile_labels_plays_as_text(browser, server):
    """A rule file pasted in the lobby whose labels and title are markup: the cards, the trick and the log show
    them as text, and nothing of them runs (no script, no handler) from the lobby to the game's end."""
    base, folder = server
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + "/")
    page.select_option("select#game", "__file__")
    page.fill("textarea#rules", HOSTILE)
    # the pasted file checked: its two seats shown (not the seats of the game the lobby showed before, which a
    # busy machine may still show when the file's check has not come back)
    page.wait_for_function("() => document.querySelectorAll('select.seat-kind').length === 2", timeout=WAIT)
    page.select_option('select.seat-kind[data-seat="1"]', "random")
    page.click("button#create")
    page.wait_for_selector("#links a.join", state="attached", timeout=WAIT)
    link = page.locator("#links a.join").first.get_attribute("href")
    table, seat = table_of(link)
    page.goto(link)
    labels = {f"{r} {s}" for r in ['"&amp;', "'1'"]
              for s in ['</svg><script>window.pwned=1</script>', '<img src=x onerror=window.pwned=1>']}
    rng = random.Random(2)  # (seed 2: a game of 3 hands, passing left, right and across; 48 decisions)
    for _ in range(10):  # two cards each: two decisions of the person
        v = wait_ready(page)
        if v["over"]:
            break
        assert set(v["cards"]) <= labels and len(v["hand"]) >= 1
        check_decision(page, v, truth(folder, table), seat)
        assert page.evaluate("() => document.querySelectorAll('#hand script, #hand img, #trick img').length") == 0
        act(page, *choose(v, rng))
    else:
        pytest.fail("the game did not end")
    assert page.evaluate("() => window.pwned === undefined")
    shown = " ".join(view(page)["log"])
    assert any(label in shown for label in labels), "the narration names the cards as written"
    context.close()


def test_two_people_choose_hearts_pass_at_once(browser, server):
    """Hearts' pass, made together, from two browsers: both pages ask at once; the person last in the engine's
    order chooses first and then sees whom it waits for, never the other's picks; the other then chooses, and the
    record holds the picks in the engine's order."""
    base, folder = server
    contexts = [browser.new_context(), browser.new_context()]
    made = contexts[0].request.post(base + "/api/tables", data={  # (the lobby's page is another test's)
        "rules": "hearts", "players": 4, "kinds": ["person", "person", "random", "random"], "seed": 3}).json()
    links = {link["seat"]: base + link["href"] for link in made["links"]}
    table = made["table"]
    pages = [c.new_page() for c in contexts]
    for seat, page in enumerate(pages):
        page.goto(links[seat])
    shown = [wait_ready(page) for page in pages]
    for v in shown:  # (the pass begins left of the dealer, North: East first, North last)
        assert "everyone chooses at once: pass (3 to go)" in v["turn"] and sum(c["legal"] for c in v["hand"]) == 13
    north, east = pages
    picked = []
    for _ in range(3):  # North, last in the engine's order, chooses first
        label = next(c["label"] for c in view(north)["hand"] if c["legal"])
        act(north, label, True)
        picked.append(label)
    north.wait_for_function("() => document.getElementById('turn').textContent.includes('Waiting for')",
                            timeout=WAIT)
    v = view(north)
    assert v["turn"] == f"You chose {', '.join(picked)}. Waiting for East, South, West"
    assert not set(picked) & {c["label"] for c in v["hand"]} and not any(c["legal"] for c in v["hand"])
    e = view(east)
    assert "Your turn" in e["turn"] and not set(picked) & set(e["cards"])  # East sees nothing of North's picks
    assert "passes" not in " ".join(e["log"])
    for _ in range(3):
        act(east, next(c["label"] for c in view(east)["hand"] if c["legal"]), True)
    north.wait_for_function("() => !document.getElementById('turn').textContent.includes('You chose')",
                            timeout=WAIT)  # (its answers taken: the step is over)
    state = truth(folder, table)
    passes = [(ev["seat"], ev["action"]) for ev in state.events if ev.get("step") == "pass"]
    assert [s for s, _ in passes] == [s for s in ("East", "South", "West", "North") for _ in range(3)]
    assert [a for s, a in passes if s == "North"] == picked
    for c in contexts:
        c.close()
