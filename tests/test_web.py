"""The web table (interpreter/web/, ``trickbook serve``) through Starlette's TestClient: the lobby, a whole game
played by a person and a bot over the WebSocket, each seat seeing only its own cards, refused messages changing
nothing, reconnecting, a restart picking the tables up from their records, and the record replaying.

No browser here (tests/test_web_e2e.py drives the pages in one); no timings: the bots' pause between moves is 0,
and a test waits for the table's own task to finish its work, never for a time."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from interpreter.engine.compile import rule_file_problems  # noqa: E402
from interpreter.harness.players import agent_factory  # noqa: E402
from interpreter.harness.runner import play_game  # noqa: E402
from interpreter.match.record_reader import TOLD  # noqa: E402
from interpreter.match.records import replay  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402
from interpreter.web.cards import card_faces  # noqa: E402
from interpreter.web.guard import allowed_hosts  # noqa: E402
from interpreter.web.lobby import MAX_RULES  # noqa: E402
from interpreter.web.seat_view import seat_view  # noqa: E402

from .conftest import ROOT  # noqa: E402

DUEL = (ROOT / "docs" / "examples" / "tiny-duel.yaml").read_text(encoding="utf-8")


HOSTS = allowed_hosts(more=["testserver"])  # TestClient's host name, which the server answers to only when told


def serving(folder: Path, **more: Any) -> TestClient:
    """A client of the web table keeping its tables in ``folder`` (bots without a pause)."""
    return TestClient(create_app(folder, pace=0, **{"hosts": HOSTS, **more}))


@pytest.fixture
def client(tmp_path: Path):
    with serving(tmp_path) as c:
        yield c


def _server(client: TestClient) -> Any:
    return client.app.state.server  # type: ignore[attr-defined]


def settle(client: TestClient, table_id: str) -> None:
    """Wait until the table's bots and deals have done what they can (its task has ended)."""
    task = _server(client).runners.get(table_id)
    if task is not None:
        async def done() -> None:
            await task
        client.portal.call(done)


def make(client: TestClient, rules: str, players: int, kinds: list[str], **more: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"rules": rules, "players": players, "kinds": kinds, **more})
    assert answer.status_code == 200, answer.text
    made = answer.json()
    settle(client, made["table"])
    return made


def duel_rules(client: TestClient) -> str:
    info = client.post("/api/rules", json={"text": DUEL})
    assert info.status_code == 200, info.text
    return info.json()["rules"]


def token(made: dict[str, Any], seat: int) -> str:
    (href,) = [link["href"] for link in made["links"] if link["seat"] == seat]
    return href.split("token=")[1]


def ws_path(made: dict[str, Any], seat: int, as_seat: int | None = None) -> str:
    return f"/ws/{made['table']}/{seat if as_seat is None else as_seat}?token={token(made, seat)}"


def table_of(client: TestClient, made: dict[str, Any]) -> Any:
    return _server(client).lobby.tables[made["table"]]


def choices(view: dict[str, Any]) -> list[str]:
    """What the seat may click: its legal cards, the actions beside the hand, the spaces of a board it may cover."""
    board = [s["action"] for row in view["board"] or [] for s in row["spaces"] if s["action"]]
    return [c["label"] for c in view["hand"] if c["legal"]] + view["actions"] + board


def play_to_the_end(client: TestClient, made: dict[str, Any], seat: int, until: str = "over") -> dict[str, Any]:
    """The person at ``seat`` takes its first choice at every turn until the game is over (``until``: or the view
    says another thing, such as "stopped"); the last view."""
    with client.websocket_connect(ws_path(made, seat)) as ws:
        view = ws.receive_json()
        for _ in range(10_000):
            if view[until]:
                return view
            if view["your_turn"]:
                ws.send_json({"type": "act", "seq": view["seq"], "label": choices(view)[0]})
            view = ws.receive_json()
            assert view["type"] == "view", view
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------------------------------------------- the lobby


def test_the_lobby_offers_every_bundled_game_with_its_players_seats_and_options(client):
    games = {g["name"] for g in client.get("/api/games").json()}
    assert games == {p.stem for p in (ROOT / "games").glob("*.yaml")}
    hearts = client.post("/api/rules", json={"game": "hearts"}).json()
    assert hearts["players"] == [4] and hearts["seats"]["4"]["names"] == ["North", "East", "South", "West"]
    assert hearts["options"]["moon"]["choices"] == ["shooter chooses", "shooter -26", "others +26"]
    meinz = client.post("/api/rules", json={"game": "meinz"}).json()
    assert meinz["seats"]["3"]["automatic"] == [3]  # the card monster plays by the rules: no agent, no person
    assert client.post("/api/rules", json={"game": "../../etc/passwd"}).status_code == 400


def test_the_lobby_offers_the_built_in_bots_and_gives_a_seat_the_bot_trickbook_play_gives(client):
    from interpreter.commands.arguments import parser
    from interpreter.harness.players import AGENTS

    hearts = client.post("/api/rules", json={"game": "hearts"}).json()
    assert hearts["agents"] == AGENTS and hearts["default_agent"] in AGENTS
    assert parser().parse_args(["play", "hearts"]).agents == hearts["default_agent"]  # the command line's too
    assert parser().parse_args(["simulate", "hearts", "-n", "2"]).agents == "random"  # a run's baseline


def test_a_pasted_rule_file_s_errors_come_with_line_column_source_line_and_caret(client, tmp_path):
    broken = DUEL.replace("leader: left(round.dealer)", "leader: left(round.dealr)")
    answer = client.post("/api/rules", json={"text": broken})
    assert answer.status_code == 422
    (error,) = answer.json()["errors"]
    (path := tmp_path / "same.yaml").write_text(broken, encoding="utf-8")
    (expected,) = rule_file_problems(str(path))  # what `trickbook validate` finds
    assert (error["line"], error["col"]) == (expected.position.line, expected.position.column)
    assert error["message"] == expected.message and "dealr" in error["message"]
    assert error["source"] == broken.splitlines()[error["line"] - 1]
    assert error["caret"].index("^") == error["col"] - 1
    assert error["source"][error["col"] - 1:].startswith("dealr")  # the caret under the unknown name


def test_rule_files_and_requests_beyond_the_size_limits_are_refused(client):
    assert "larger than" in client.post("/api/rules", json={"text": "#" * (MAX_RULES + 1)}).json()["error"]
    huge = b'{"text": "' + b"x" * (MAX_RULES + 20_000) + b'"}'
    answer = client.post("/api/rules", content=huge, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400 and "larger than" in answer.json()["error"]
    assert client.post("/api/rules", content=b"not json", headers={"Content-Type": "application/json"}).json() == {
        "error": "the request is not JSON"}
    # what a page of another site may send without asking (a "simple" request) is refused: no table, no file
    simple = client.post("/api/rules", content=json.dumps({"text": DUEL}), headers={"Content-Type": "text/plain"})
    assert simple.status_code == 400 and "application/json" in simple.json()["error"]
    assert not list((Path(_server(client).lobby.folder) / "rules").iterdir())


def test_a_table_refuses_what_its_game_does_not_offer(client):
    rules = duel_rules(client)
    for wrong, why in (({"players": 3}, "is for 2 players"), ({"kinds": ["person"]}, "one kind for each"),
                       ({"kinds": ["person", "oracle"]}, "kind must be one of"),
                       ({"options": {"cheat": True}}, "unknown option"),
                       ({"iterations": [50, 10**9]}, "iterations must be"), ({"seed": "x"}, "seed must be")):
        asked = {"rules": rules, "players": 2, "kinds": ["person", "random"], **wrong}
        answer = client.post("/api/tables", json=asked)
        assert answer.status_code == 400 and why in answer.json()["error"], (wrong, answer.text)


# ---------------------------------------------------------------------------------------------------- playing


def test_a_person_and_a_bot_play_a_whole_game_and_the_record_replays(client, tmp_path):
    rules = duel_rules(client)
    made = make(client, rules, 2, ["person", "greedy"], seed=3)
    assert [link["seat"] for link in made["links"]] == [0]  # a link for the person only
    record_url = f"/table/{made['table']}/0/record?token={token(made, 0)}"
    assert client.get(record_url).status_code == 409  # not before the game is over
    last = play_to_the_end(client, made, 0)
    assert last["over"] and last["winners"] and last["scores"][0]["round"] == 1
    table = table_of(client, made)
    assert last["winners"] == [table.game.seat_names[s] for s in table.state.winners()]
    record = client.get(record_url)
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    (tmp_path / "downloaded.jsonl").write_text(record.text, encoding="utf-8")  # rules/ beside it: the pasted file
    out = replay(tmp_path / "downloaded.jsonl")
    assert out.totals == table.state.returns()
    assert record.text == (tmp_path / f"{made['table']}.jsonl").read_text()  # the file written as it went
    told = table.logs[0]
    assert told[:2] == ["Round 1, dealer Ann", "(deal)"] and told.count("Ann plays") == 0
    assert sum(line.startswith(("Ann plays", "Bob plays")) for line in told) == 4  # two tricks of two cards


def test_a_table_of_bots_plays_the_game_trickbook_play_plays_with_the_same_seed(client):
    made = make(client, "hearts", 4, ["random", "greedy", "random", "random"], seed=11)
    table = table_of(client, made)
    assert table.over and made["links"] == []
    lineup = ["random", "greedy", "random", "random"]
    out = play_game(table.game.engine, agent_factory(lineup)(11), 11, record=True)
    written = [json.loads(line) for line in table.record_text().splitlines()]
    assert [e for e in written if e["type"] not in TOLD] == out.record  # the API also writes the tricks won
    assert sum(e["type"] == "trick" for e in written) == 13 * len(table.state.round_returns())


def test_the_hand_is_in_the_terminal_s_order_and_refused_cards_carry_the_rule(client):
    made = make(client, "hearts", 4, ["person"] * 4, seed=2)
    table = table_of(client, made)
    state = table.state
    while not (state.step == "tricks" and len(state.observation(None)["trick"]) == 1):
        table.act(state.current_player, {"type": "act", "seq": table.seq, "label": state.labels()[0]})
    seat = state.current_player
    view = seat_view(table, seat)
    name = table.game.seat_names[seat]
    assert [c["label"] for c in view["hand"]] == state.observation(seat)["zones"]["hand"][name]
    dimmed = [c for c in view["hand"] if not c["legal"]]
    assert dimmed and all(c["why"] == state.refusal(c["label"]) == "you must follow suit" for c in dimmed)
    assert {c["label"] for c in view["hand"] if c["legal"]} == set(state.labels())
    assert view["trick"] == state.observation(seat)["trick"] and view["leader"] == view["trick"][0][0]
    waiting = seat_view(table, (seat + 1) % 4)
    assert not any(c["legal"] for c in waiting["hand"]) and waiting["hand"][0]["why"] == f"{name} is to act"


def test_a_person_is_told_the_cards_passed_to_them_as_the_terminal_tells_them(client):
    made = make(client, "hearts", 4, ["person"] * 4, seed=5)
    table = table_of(client, made)
    state = table.state
    names = table.game.seat_names
    hands = {s: set(state.observation(s)["zones"]["hand"][names[s]]) for s in range(4)}
    while state.step != "tricks":                       # everyone passes the first cards offered
        table.act(state.current_player, {"type": "act", "seq": table.seq, "label": state.labels()[0]})
    for s in range(4):
        now = set(state.observation(s)["zones"]["hand"][names[s]])
        (line,) = [t for t in seat_view(table, s)["log"] if t.startswith("you receive: ")]
        assert set(line.removeprefix("you receive: ").split(", ")) == now - hands[s] and len(now - hands[s]) == 3


def test_bids_and_other_choices_are_actions_beside_the_hand(client):
    made = make(client, "oh-hell", 4, ["person", "random", "random", "random"], seed=5)
    with client.websocket_connect(ws_path(made, 0)) as ws:
        view = ws.receive_json()
        while not view["your_turn"]:
            view = ws.receive_json()
    assert view["actions"] and all(a.startswith("bid ") for a in view["actions"])
    assert not any(c["legal"] for c in view["hand"])
    assert all(c["why"] == "not one of your choices now" for c in view["hand"])
    table = table_of(client, made)
    assert view["status"] == [list(line) for line in table.state.status(0)] and view["status"][0][0] == "trump"


# ---------------------------------------------------------------------------------------------------- privacy


def _others_cards(table: Any, seat: int) -> set[str]:
    names = table.game.seat_names
    full = table.state.observation(None)  # a spectator sees no hand: ask each seat for its own
    assert isinstance(full, dict)
    out: set[str] = set()
    for s in range(table.game.players):
        if s != seat:
            out.update(table.state.observation(s)["zones"]["hand"][names[s]])
    return out


def test_no_endpoint_or_message_gives_a_seat_another_seat_s_hand(client):
    made = make(client, "hearts", 4, ["person", "person", "random", "random"], seed=4)
    table, tid = table_of(client, made), made["table"]
    theirs = _others_cards(table, 0)
    assert len(theirs) == 39
    mine, other = token(made, 0), token(made, 1)

    def leaks(text: str) -> set[str]:
        data = json.loads(text) if text.startswith("{") else text
        if isinstance(data, dict):
            data.pop("faces", None)  # every card of the deck, the same for everyone: not a hand
            text = json.dumps(data)
        return {c for c in theirs if re.search(rf'"{re.escape(c)}"', text)}

    # pages and records: another seat's, with this seat's token, without a token, with the table's id alone
    for url in (f"/table/{tid}/1?token={mine}", f"/table/{tid}/1", f"/table/{tid}", f"/table/{tid}/0",
                f"/table/{tid}/1/record?token={mine}", f"/table/{tid}/0/record", f"/table/{tid}/0/record?token=",
                f"/table/{tid}/00?token={mine}", f"/table/{tid}/-1?token={mine}", f"/ws/{tid}/0?token={mine}",
                f"/api/tables/{tid}", f"/table/{tid}/0/record?token={other}"):
        answer = client.get(url)
        assert answer.status_code in (404, 405, 409), url
        assert not leaks(answer.text), url
    # sockets: another seat's with this seat's token, none, a wrong one
    for path in (f"/ws/{tid}/1?token={mine}", f"/ws/{tid}/1", f"/ws/{tid}/2?token={mine}", f"/ws/x/0?token={mine}",
                 f"/ws/{tid}/0?token={mine[:-1]}"):
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(path) as ws:
            ws.receive_json()
        assert refused.value.code == 4404, path
    # every message this seat is sent, whatever it sends
    with client.websocket_connect(ws_path(made, 0)) as ws:
        first = ws.receive_text()
        assert not leaks(first) and json.loads(first)["faces"] is not None
        view = json.loads(first)
        probes: list[Any] = [{"type": "act", "seq": view["seq"], "label": c} for c in sorted(theirs)[:5]]
        probes += [{"type": "view", "seat": 1}, {"type": "act", "seq": view["seq"], "label": "East"},
                   {"type": "state"}, "observation", {"type": "act", "seq": view["seq"], "label": None, "seat": 1}]
        for probe in probes:
            ws.send_text(json.dumps(probe))
            answer = ws.receive_text()
            assert json.loads(answer)["type"] == "refused"
            shown = {c for c in leaks(answer) if not (isinstance(probe, dict) and probe.get("label") == c)}
            assert not shown, (probe, answer)  # at most the label this seat sent itself, said back
    assert seat_view(table, 0)["hand"] and not leaks(json.dumps(seat_view(table, 0)))
    created = client.post("/api/tables", json={"rules": "hearts", "players": 4, "kinds": ["person"] + ["random"] * 3})
    assert not leaks(created.text) and set(created.json()) == {"table", "title", "links", "watch", "kinds", "seats"}


def test_tokens_are_unguessable_and_only_their_hashes_are_kept(client, tmp_path):
    made = make(client, "hearts", 4, ["person"] * 4)
    tokens = [token(made, s) for s in range(4)]
    assert len(set(tokens)) == 4 and all(len(t) >= 32 for t in tokens)
    kept = (tmp_path / f"{made['table']}.table.json").read_text()
    assert not any(t in kept for t in tokens)


# ---------------------------------------------------------------------------------------------------- messages


def test_wrong_stale_replayed_and_out_of_turn_messages_are_refused_and_change_nothing(client):
    rules = duel_rules(client)
    made = make(client, rules, 2, ["person", "person"], seed=1)
    table = table_of(client, made)
    first = table.state.current_player
    other = 1 - first
    with client.websocket_connect(ws_path(made, first)) as ws, \
            client.websocket_connect(ws_path(made, other)) as them:
        view, their_view = ws.receive_json(), them.receive_json()
        label = choices(view)[0]
        before = (table.seq, table.state.serialize(), table.record_text())

        def refused(sock: Any, text: str) -> str:
            sock.send_text(text)
            answer = sock.receive_json()
            assert answer["type"] == "refused", (text, answer)
            assert (table.seq, table.state.serialize(), table.record_text()) == before, text
            return answer["reason"]

        assert "not an action" in refused(ws, json.dumps(["act", view["seq"], label]))
        assert "needs seq" in refused(ws, json.dumps({"type": "act", "label": label}))
        assert "needs seq" in refused(ws, json.dumps({"type": "act", "seq": str(view["seq"]), "label": label}))
        assert "past" in refused(ws, json.dumps({"type": "act", "seq": view["seq"] - 1, "label": label}))
        assert "past" in refused(ws, json.dumps({"type": "act", "seq": view["seq"] + 1, "label": label}))
        assert "not one of your choices" in refused(ws, json.dumps({"type": "act", "seq": view["seq"],
                                                                    "label": "green 9"}))
        assert "needs seq" in refused(ws, json.dumps({"type": "act", "seq": view["seq"], "label": "x" * 2000}))
        theirs = their_view["hand"][0]["label"]
        assert "not your turn" in refused(them, json.dumps({"type": "act", "seq": their_view["seq"], "label": theirs}))
        # taken once; the same message again is stale
        message = json.dumps({"type": "act", "seq": view["seq"], "label": label})
        ws.send_text(message)
        after = ws.receive_json()
        assert after["seq"] == view["seq"] + 1 and label not in [c["label"] for c in after["hand"]]
        before = (table.seq, table.state.serialize(), table.record_text())
        assert "past" in refused(ws, message)


def test_a_reconnecting_browser_gets_its_seat_and_whole_view_back(client):
    rules = duel_rules(client)
    made = make(client, rules, 2, ["person", "random"], seed=2)
    with client.websocket_connect(ws_path(made, 0)) as ws:
        view = ws.receive_json()
        if view["your_turn"]:
            ws.send_json({"type": "act", "seq": view["seq"], "label": choices(view)[0]})
            view = ws.receive_json()
    settle(client, made["table"])
    table = table_of(client, made)
    with client.websocket_connect(ws_path(made, 0)) as again:
        back = again.receive_json()
    assert back["seat"] == 0 and back["log_from"] == 0
    assert back["faces"] == card_faces(table.game) and {c["label"] for c in back["hand"]} <= back["faces"].keys()
    assert back["log"] == table.logs[0] and len(back["log"]) >= 3
    expected = seat_view(table, 0)
    assert {k: v for k, v in back.items() if k != "faces"} == expected


def test_a_restart_picks_unfinished_tables_up_with_the_same_links_and_keeps_finished_ones(tmp_path):
    with serving(tmp_path) as first:
        rules = duel_rules(first)
        unfinished = make(first, rules, 2, ["person", "random"], seed=6)
        finished = make(first, "hearts", 4, ["random"] * 4, seed=6)
        with first.websocket_connect(ws_path(unfinished, 0)) as ws:
            view = ws.receive_json()
        old = table_of(first, unfinished)
        written, told = old.record_text(), list(old.logs[0])
        done = table_of(first, finished).record_text()
    with serving(tmp_path) as second:  # the same folder: the server started again
        settle(second, unfinished["table"])
        table = table_of(second, unfinished)
        assert table.record_text().startswith(written) and table.seq > view["seq"]
        with second.websocket_connect(ws_path(unfinished, 0)) as ws:
            back = ws.receive_json()
            assert back["your_turn"] and back["seat"] == 0
            assert back["log"] == told and len(told) >= 2  # the narration told before the restart, whole
            assert [c["label"] for c in back["hand"]] == [c["label"] for c in view["hand"]]
            ws.send_json({"type": "act", "seq": view["seq"], "label": choices(back)[0]})  # stale: before restart
            assert ws.receive_json()["type"] == "refused"
        last = play_to_the_end(second, unfinished, 0)
        assert last["over"]
        assert table_of(second, finished).record_text() == done and table_of(second, finished).over
    replay(tmp_path / f"{unfinished['table']}.jsonl")  # the game played across the restart, checked


def test_a_record_cut_in_the_middle_of_a_line_is_picked_up_from_its_last_whole_line(tmp_path):
    with serving(tmp_path) as first:
        made = make(first, "hearts", 4, ["person"] * 4, seed=8)
    path = tmp_path / f"{made['table']}.jsonl"
    whole = path.read_text()
    path.write_text(whole + '{"type": "action", "rou')
    told = tmp_path / f"{made['table']}.told.jsonl"
    told.write_text(told.read_text() + '{"logs": {"0": ["North plays')
    with serving(tmp_path) as second:
        table = table_of(second, made)
        assert table.record_text() == whole and not table.over
        assert table.logs[0][:2] == ["Round 1, dealer North", "(deal)"] and "North plays" not in table.logs[0]


# ---------------------------------------------------------------------------------------------------- pages


def test_the_pages_carry_the_dom_contract_the_browser_tests_use(client):
    lobby = client.get("/").text
    for needle in ('<select id="game"', '<textarea id="rules"', '<input id="rules-file" type="file"',
                   '<select id="players"', 'id="options"', '<button id="create"', 'id="links"', 'id="errors"'):
        assert needle in lobby, needle
    script = client.get("/static/lobby.js").text
    for needle in ('"__file__"', '"seat-kind"', '"seat-iterations"', '"join"', '"data-line"', '"data-col"',
                   '"error"', 'dataset: {option: name}'):
        assert needle in script, needle
    made = make(client, "hearts", 4, ["person"] + ["random"] * 3)
    page = client.get(made["links"][0]["href"]).text
    for needle in ('id="hand"', 'id="actions"', 'id="trick"', 'id="leader"', 'id="tricks-won"', 'id="status"',
                   'id="log"', 'id="scores"', 'id="turn"', 'id="game-over" hidden', '<a id="record"',
                   'id="connection"'):
        assert needle in page, needle
    table = client.get("/static/table.js").text
    for needle in ('"data-label": label', '"legal"', '"dimmed"', "title: c.why", '"data-seat": seat',
                   '"status-line"', '"log-line"', '`Your turn', '"connected"', '"reconnecting"', 'class: "action"'):
        assert needle in table, needle
    for text in (lobby, page, script, table, client.get("/static/style.css").text):
        assert "://" not in text and "<img" not in text  # nothing from elsewhere (no CDN), no image files
    for html in (lobby, page):  # scripts from files only: the pages' policy refuses inline ones
        assert not re.search(r"<script(?![^>]*\bsrc=)", html) and not re.search(r"\son[a-z]+=", html)
    policy = client.get("/").headers["content-security-policy"]
    assert "script-src 'self' 'unsafe-eval';" in policy and "frame-ancestors 'none'" in policy
    assert client.get(made["links"][0]["href"]).headers["x-frame-options"] == "DENY"


def test_serve_listens_on_this_machine_unless_told_and_says_so(monkeypatch, capsys, tmp_path):
    import uvicorn

    from interpreter.cli import _parser, main

    ran: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.append(kw))
    assert _parser().parse_args(["serve"]).host == "127.0.0.1"
    assert main(["serve", "--records", str(tmp_path / "a")]) == 0
    assert ran[-1]["host"] == "127.0.0.1" and ran[-1]["port"] == 8000
    assert "other machines" not in capsys.readouterr().err
    assert main(["serve", "--host", "0.0.0.0", "--port", "8123", "--records", str(tmp_path / "b")]) == 0
    assert ran[-1]["host"] == "0.0.0.0" and ran[-1]["port"] == 8123
    assert "other machines" in capsys.readouterr().err


def test_the_event_loop_stays_free_while_a_bot_searches(client):
    """A searching bot's move is worked out in a worker process: while a table of searching bots plays, the server
    answers another request (counted, not timed: the lobby answers before the bots' game is over)."""
    made = client.post("/api/tables", json={"rules": "hearts", "players": 4, "kinds": ["ismcts"] * 4,
                                            "iterations": [200] * 4}).json()
    table = table_of(client, made)
    assert client.get("/api/games").status_code == 200
    assert not table.over  # the bots were still playing when the lobby answered
    _server(client).runners[made["table"]].cancel()


def _labels_in(value: Any) -> set[str]:
    """Every text inside ``value`` (an observation: what the seat may see)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_labels_in(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_labels_in(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize("name,players", [("hearts", 4), ("bridge", 4), ("meinz", 3),
                                          ("doppelkopf", 4)])
def test_a_seat_s_view_never_names_a_card_it_was_never_shown(tmp_path, name, players):
    """A whole game with a person at seat 0 (the last of its choices each time) and random bots: every view of
    seat 0 names no card seat 0's observations never showed it, nor any trick (the hand passed to it, the dummy,
    the cards played are shown to it; the others' hands never), and the game ends."""
    from interpreter.web.lobby import Lobby

    lobby = Lobby(tmp_path)
    info = lobby.rules_info(name)
    kinds = ["person"] + ["random"] * (players + len(info["seats"][str(players)]["automatic"]) - 1)
    table, _ = lobby.create({"rules": name, "players": players, "kinds": kinds, "seed": 1})
    deck = set(table.game.engine.cards.labels)
    shown: set[str] = set()
    views = 0
    seen = [0]

    def look() -> None:  # what seat 0 is shown now, and every trick played (its cards lie face up to all)
        shown.update(_labels_in(table.state.observation(0)) & deck)
        new = table.state.events_since(seen[0])
        seen[0] += len(new)
        shown.update(c for e in new if e["type"] == "trick" for _, c in e["cards"])

    while not table.over:
        while table.step():
            look()
        if table.over:
            break
        look()
        view = seat_view(table, 0)
        text = json.dumps(view)
        named = {c for c in deck - shown if re.search(rf"(?<![\w]){re.escape(c)}(?![\w])", text)}
        assert not named, (views, named)
        table.act(0, {"type": "act", "seq": table.seq, "label": choices(view)[-1]})
        views += 1
    assert views > 10 and seat_view(table, 0)["over"]


def test_a_seat_opened_in_too_many_pages_closes_its_oldest(client):
    from contextlib import ExitStack

    from interpreter.web.app import MAX_PAGES

    made = make(client, "hearts", 4, ["person"] * 4, seed=3)
    with ExitStack() as pages:
        oldest = pages.enter_context(client.websocket_connect(ws_path(made, 0)))
        oldest.receive_json()
        for _ in range(MAX_PAGES):
            pages.enter_context(client.websocket_connect(ws_path(made, 0))).receive_json()
        message = oldest.receive()
        assert message["type"] == "websocket.close" and message["code"] == 4409
        watching = _server(client).watchers[made["table"]]
        assert sum(seat == 0 for seat, _ in watching.values()) == MAX_PAGES


# ---------------------------------------------------------------------------------------------------- together


def test_the_people_of_a_step_made_together_are_asked_at_once_and_the_record_keeps_the_engine_s_order(tmp_path):
    """Hearts' pass with two people: both are asked at once; the later seat of the engine's order chooses first and
    then waits for the others, seeing its own choices only; its answers, given ahead, are taken in its turn."""
    from interpreter.web.lobby import Lobby
    from interpreter.web.tables import Refused

    table, _ = Lobby(tmp_path).create({"rules": "hearts", "players": 4, "kinds": ["person", "person", "random",
                                                                                  "random"], "seed": 3})
    while table.step():
        pass
    names = table.game.seat_names
    order = table.together.gathering.seats  # the pass begins left of the dealer: East, South, West, North
    first, last = sorted((0, 1), key=order.index)
    views = {s: seat_view(table, s) for s in (first, last)}
    for v in views.values():
        assert v["your_turn"] and v["together"] and v["prompt"] == "pass (3 to go)" and len(choices(v)) == 13
        assert v["waiting"] == [names[s] for s in order]
    stale = views[last]["seq"]
    theirs = set(table.state.observation(first)["zones"]["hand"][names[first]])
    picked = []
    for _ in range(3):  # the later seat chooses first, on views older than the table's changes
        label = choices(seat_view(table, last))[0]
        table.act(last, {"type": "act", "seq": stale, "label": label})
        picked.append(label)
    view = seat_view(table, last)
    assert not view["your_turn"] and view["chosen"] == picked and not set(picked) & {c["label"] for c in view["hand"]}
    assert view["waiting"] == [names[s] for s in order if s != last]
    assert not _labels_in(view) & theirs  # nothing of the other person's hand
    with pytest.raises(Refused, match="you have chosen: waiting for"):
        table.act(last, {"type": "act", "seq": table.seq, "label": choices(views[last])[5]})
    assert [e for e in table.state.events if e.get("step") == "pass"] == []  # nothing taken before its turn
    first_view = seat_view(table, first)
    assert first_view["your_turn"] and not _labels_in(first_view) & set(picked)  # never the other's picks
    for seq in (table.seq + 1, -1):  # a decision to come, or one before the step: refused
        with pytest.raises(Refused, match="that decision is past"):
            table.act(first, {"type": "act", "seq": seq, "label": choices(first_view)[0]})
    for _ in range(3):
        table.act(first, {"type": "act", "seq": table.seq, "label": choices(seat_view(table, first))[0]})
    while table.step():
        pass
    passes = [(e["seat"], e["action"]) for e in table.state.events if e.get("step") == "pass"]
    assert [s for s, _ in passes] == [names[s] for s in order for _ in range(3)]
    assert [a for s, a in passes if s == names[last]] == picked and table.together.gathering is None
    assert table.game.deserialize(table.record_text()).events == table.state.events  # the record plays again
