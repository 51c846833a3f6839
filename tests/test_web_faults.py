"""The web table under load and faults (interpreter/web/): searching bots in worker processes, a rule that fails in
play, malformed frames and bodies, host names and origins, damaged table files, limits and expiry, text UTF-8
cannot write.

Through Starlette's TestClient, as tests/test_web.py; no timings: a test counts decisions, waits for a table's
own task, or moves the lobby's clock."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from starlette.websockets import WebSocketDisconnect  # noqa: E402

from interpreter.harness.players import agent_factory  # noqa: E402
from interpreter.harness.runner import play_game  # noqa: E402
from interpreter.match.record_reader import TOLD  # noqa: E402
from interpreter.match.records import replay  # noqa: E402
from interpreter.web.bots import BotPool  # noqa: E402
from interpreter.web.guard import MAX_DEPTH, allowed_hosts  # noqa: E402
from interpreter.web.lobby import Limits, Lobby, LobbyError  # noqa: E402

from . import web_bots_for_tests  # noqa: E402
from .test_web import (  # noqa: E402
    DUEL,
    _server,
    choices,
    make,
    play_to_the_end,
    serving,
    settle,
    table_of,
    ws_path,
)

# a rule file that fails in play: the round's score divides by zero once the last card is played
DIVIDING = DUEL.replace("points: seat.tricks}", 'points: "seat.tricks // (seat.tricks - seat.tricks)"}')
_PLACE_LINE = next(n for n, line in enumerate(DIVIDING.splitlines(), 1) if "seat.tricks //" in line)


def rules_of(client: Any, text: str) -> str:
    answer = client.post("/api/rules", json={"text": text})
    assert answer.status_code == 200, answer.text
    return answer.json()["rules"]


def tracebacks(caplog: Any) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]


@pytest.fixture
def client(tmp_path: Path):
    with serving(tmp_path) as c:
        yield c


# ---------------------------------------------------------------------------------------------------- a failing rule


def _assert_stopped_by_the_rule(view: dict[str, Any], rules: str) -> None:
    head, source, caret = view["stopped"].splitlines()
    assert re.match(rf"{re.escape(rules)}:{_PLACE_LINE}:\d+: error: expression .* failed: .*division", head), head
    column = int(head.split(":")[2])
    assert source.strip() == DIVIDING.splitlines()[_PLACE_LINE - 1].strip()
    assert caret.index("^") - (len(source) - len(source.lstrip())) == column - 1 - (
        len(DIVIDING.splitlines()[_PLACE_LINE - 1]) - len(DIVIDING.splitlines()[_PLACE_LINE - 1].lstrip()))
    assert not view["your_turn"] and view["actions"] == [] and view["status"] == []
    assert all(not c["legal"] and c["why"] == "the table has stopped" for c in view["hand"])


def test_a_rule_that_fails_on_a_person_s_card_stops_the_table_shows_every_seat_why_and_changes_nothing(
        client, caplog):
    rules = rules_of(client, DIVIDING)
    made = make(client, rules, 2, ["person", "person"], seed=1)
    table = table_of(client, made)
    with client.websocket_connect(ws_path(made, 0)) as a, client.websocket_connect(ws_path(made, 1)) as b:
        sockets = {0: a, 1: b}
        views = {0: a.receive_json(), 1: b.receive_json()}
        for _ in range(4):
            seat = table.state.current_player
            before = (table.state.serialize(), table.record_text())
            played = choices(views[seat])[0]
            sockets[seat].send_json({"type": "act", "seq": views[seat]["seq"], "label": played})
            views = {0: a.receive_json(), 1: b.receive_json()}
            if views[0]["stopped"]:
                break
        else:
            raise AssertionError("the rule never failed")
        for view in views.values():
            _assert_stopped_by_the_rule(view, rules)
        assert views[0]["stopped"] == views[1]["stopped"]
        assert (table.state.serialize(), table.record_text()) == before  # the card is not taken: as before it
        assert played in [c["label"] for c in views[seat]["hand"]] and table.state.current_player == seat
        sockets[seat].send_json({"type": "act", "seq": views[seat]["seq"], "label": played})
        assert sockets[seat].receive_json() == {"type": "refused", "reason": "the table has stopped",
                                                "seq": views[seat]["seq"]}
    with client.websocket_connect(ws_path(made, seat)) as again:  # a reconnect gets the same view, no traceback
        back = again.receive_json()
    assert back["stopped"] == views[0]["stopped"] and back["hand"] == views[seat]["hand"]
    assert not tracebacks(caplog)
    assert [r.getMessage() for r in caplog.records if "stopped" in r.getMessage()] == [
        f"table {made['table']} stopped: {views[0]['stopped'].splitlines()[0]}"]


def test_a_rule_that_fails_on_a_bot_s_move_stops_the_table_and_a_restart_keeps_it_stopped(tmp_path, caplog):
    with serving(tmp_path) as first:
        rules = rules_of(first, DIVIDING)
        made = make(first, rules, 2, ["person", "random"], seed=2)
        table = table_of(first, made)
        with first.websocket_connect(ws_path(made, 0)) as ws:
            view = ws.receive_json()
            while not view["stopped"]:
                if view["your_turn"]:
                    ws.send_json({"type": "act", "seq": view["seq"], "label": choices(view)[0]})
                view = ws.receive_json()
        settle(first, made["table"])
        _assert_stopped_by_the_rule(view, rules)
        kept = (table.state.serialize(), view["stopped"])
        assert not table.over and len(table.state.legal_actions()) == 1  # the last card, not played
    with serving(tmp_path) as second:
        settle(second, made["table"])
        table = table_of(second, made)
        assert (table.state.serialize(), table.stopped) == kept  # still stopped, its bot does not try again
        with second.websocket_connect(ws_path(made, 0)) as ws:
            assert ws.receive_json()["stopped"] == kept[1]
    assert not tracebacks(caplog)


def test_a_status_line_that_fails_stops_the_table_and_the_seats_still_get_a_view(client, caplog):
    odd = 'table:\n  - {title: odd, show: "len(seat.hand) // (len(seat.hand) - 2)"}\n\nzones:'
    failing = DUEL.replace("zones:", odd, 1)
    rules = rules_of(client, failing)
    made = make(client, rules, 2, ["person", "random"], seed=3)
    with client.websocket_connect(ws_path(made, 0)) as ws:
        view = ws.receive_json()
    assert "division" in view["stopped"] and [c["label"] for c in view["hand"]]
    assert table_of(client, made).stopped == view["stopped"] and not tracebacks(caplog)


# ---------------------------------------------------------------------------------------------------- frames and bodies


@pytest.mark.parametrize("frame,code,said", [
    (b"\x00\x01binary", 1003, "a binary frame"),
    ("[" * 3000, 1007, f"nested more than {MAX_DEPTH} deep"),
    ('{"type": "act", "seq": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}", 1007, "nested more"),
    ("{act", 1007, "not JSON"),
    ("\ud800", 1007, "not JSON"),
    (json.dumps({"type": "act", "seq": 1, "label": "x" * 5000}), 1009, "characters (at most 4,096)"),
])
def test_a_malformed_frame_closes_its_socket_with_a_code_and_one_log_line(client, caplog, frame, code, said):
    made = make(client, "hearts", 4, ["person"] + ["random"] * 3, seed=5)
    table = table_of(client, made)
    before = (table.seq, table.state.serialize())
    with client.websocket_connect(ws_path(made, 0)) as ws:
        ws.receive_json()
        ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_text(frame)
        closed = ws.receive()
    assert closed["type"] == "websocket.close" and closed["code"] == code and said in closed["reason"]
    assert (table.seq, table.state.serialize()) == before
    lines = [r.getMessage() for r in caplog.records if r.name == "trickbook.web"]
    assert len(lines) == 1 and f"closed a WebSocket (code {code})" in lines[0] and said in lines[0]
    assert not tracebacks(caplog)
    with client.websocket_connect(ws_path(made, 0)) as ws:  # the seat is still there
        assert ws.receive_json()["seq"] == before[0]


@pytest.mark.parametrize("body,said", [
    (b"[" * 900_000, f"nested more than {MAX_DEPTH} deep"),
    (b'{"text": ' + b"[" * 50 + b"]" * 50 + b"}", f"nested more than {MAX_DEPTH} deep"),
    (b"\xff\xfe", "not JSON"),
    (b'{"text": "' + b"1" * 10 + b'", "x": ' + b"9" * 5000 + b"}", "not JSON"),
])
def test_a_malformed_body_is_a_400_saying_why(client, caplog, body, said):
    for route in ("/api/rules", "/api/tables"):
        answer = client.post(route, content=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400 and said in answer.json()["error"], (route, answer.text)
    assert not _server(client).lobby.tables and not tracebacks(caplog)


# ---------------------------------------------------------------------------------------------------- hosts and origins


def test_the_server_answers_only_to_the_hosts_it_serves(tmp_path, caplog):
    from starlette.testclient import TestClient

    from interpreter.web.app import create_app

    request = {"rules": "hearts", "players": 4, "kinds": ["random"] * 4}
    with TestClient(create_app(tmp_path, pace=0), base_url="http://127.0.0.1:8000") as c:
        for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", "[::1]", "", "a b"):
            answer = c.get("/api/games", headers={"Host": host})
            assert answer.status_code == 400 and "--allowed-host" in answer.text, host
            assert c.post("/api/tables", json=request, headers={"Host": host}).status_code == 400
        assert not _server(c).lobby.tables  # a page using DNS rebinding makes no table
        for host in ("127.0.0.1:8000", "localhost", "LOCALHOST:80"):
            assert c.get("/api/games", headers={"Host": host}).status_code == 200, host
    assert not tracebacks(caplog)
    with TestClient(create_app(tmp_path / "b", pace=0, hosts=allowed_hosts("0.0.0.0", ["cards.lan", "10.0.0.5"])),
                    base_url="http://cards.lan:8000") as c:
        assert c.get("/").status_code == 200
        assert c.get("/", headers={"Host": "10.0.0.5:8000"}).status_code == 200
        assert c.get("/", headers={"Host": "0.0.0.0:8000"}).status_code == 400


def test_a_websocket_is_opened_only_from_a_page_of_a_host_it_serves(client, caplog):
    made = make(client, "hearts", 4, ["person"] + ["random"] * 3, seed=5)
    path = ws_path(made, 0)
    for origin in ("http://evil.example", "https://evil.example:8000", "null", "file://", "http://testserver.evil"):
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(path, headers={"Origin": origin}):
            pass
        assert refused.value.code == 4403, origin
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect("ws://evil.example" + path):
        pass
    assert refused.value.code == 4403
    for origin in ("http://testserver", "http://127.0.0.1:8000", "https://localhost", None):
        with client.websocket_connect(path, headers={"Origin": origin} if origin else {}) as ws:
            assert ws.receive_json()["seat"] == 0
    assert not tracebacks(caplog)


def test_serve_answers_to_its_host_and_each_allowed_host(monkeypatch, capsys, tmp_path):
    import uvicorn
    from starlette.testclient import TestClient

    from interpreter.cli import main

    ran: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.append(app))
    assert main(["serve", "--host", "0.0.0.0", "--allowed-host", "cards.lan", "--allowed-host", "[fe80::1]",
                 "--records", str(tmp_path / "a"), "--bot-workers", "1"]) == 0
    assert "cards.lan" in capsys.readouterr().err
    with TestClient(ran[-1]) as c:
        for host, status in (("cards.lan:8000", 200), ("[fe80::1]:8000", 200), ("localhost", 200),
                             ("0.0.0.0", 400), ("other.lan", 400)):
            assert c.get("/", headers={"Host": host}).status_code == status, host
        assert _server(c).bots.size == 1
    for wrong in (["--allowed-host", "a/b"], ["--bot-workers", "0"], ["--bot-timeout", "-1"]):
        with pytest.raises(SystemExit) as usage:
            main(["serve", *wrong, "--records", str(tmp_path / "b")])
        assert usage.value.code == 2


# ---------------------------------------------------------------------------------------------------- damaged files


def test_a_damaged_table_file_is_skipped_with_a_line_naming_it_and_restored_settings_obey_the_limits(tmp_path,
                                                                                                      caplog):
    with serving(tmp_path) as first:
        good = make(first, "hearts", 4, ["person", "ismcts", "random", "random"], seed=9, iterations=[50] * 4)
        _server(first).runners[good["table"]].cancel()
    setup = json.loads((tmp_path / f"{good['table']}.table.json").read_text())
    record = (tmp_path / f"{good['table']}.jsonl").read_text()
    damaged = {
        "tokens-list": json.dumps({**setup, "tokens": []}),
        "deep": "[" * 100_000 + "]" * 100_000,
        "not-json": "{rules",
        "a-list": "[]",
        "iterations": json.dumps({**setup, "iterations": [10**9] * 4}),
        "a-kind": json.dumps({**setup, "kinds": ["person", "oracle", "random", "random"]}),
        "a-path": json.dumps({**setup, "rules": "../../etc/passwd"}),
        "players": json.dumps({**setup, "players": 99}),
        "a-seed": json.dumps({**setup, "seed": [1]}),
        "a-token": json.dumps({**setup, "tokens": {"0": "x"}}),
        "huge": json.dumps({**setup, "pad": "x" * 200_000}),
        "binary": b"\xff\xfe\x00",
    }
    for n, (name, text) in enumerate(damaged.items()):
        table_id = f"damaged{n:02d}-{name}"
        path = tmp_path / f"{table_id}.table.json"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        (tmp_path / f"{table_id}.jsonl").write_text(record)
    (tmp_path / "damaged-norecord.table.json").write_text(json.dumps(setup))
    caplog.clear()
    with serving(tmp_path) as second:
        lobby = _server(second).lobby
        assert set(lobby.tables) == {good["table"]}
        lines = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
        for n, name in enumerate(damaged):
            (line,) = [x for x in lines if f"damaged{n:02d}-{name}.table.json" in x]
            assert "cannot be picked up" in line and "\n" not in line
        assert "iterations must be a whole number from 1 to 5000" in next(x for x in lines if "-iterations" in x)
        assert len(lines) == len(damaged) + 1
        _server(second).runners[good["table"]].cancel()
    assert not tracebacks(caplog)


# ---------------------------------------------------------------------------------------------------- limits, expiry


class Clock:
    """The lobby's clock, standing still but where the test moves it on (so a slow machine moves no table past a
    limit the test did not reach)."""

    def __init__(self) -> None:
        self.start = time.time()
        self.offset = 0.0

    def __call__(self) -> float:
        return self.start + self.offset


def _expire(client: Any) -> None:
    client.portal.call(_server(client).expire)


def test_tables_expire_their_records_are_kept_and_an_expired_table_is_never_picked_up_again(tmp_path, caplog):
    clock = Clock()
    limits = Limits(finished=100, idle=1000)
    with serving(tmp_path, limits=limits, clock=clock) as c:
        done = make(c, "hearts", 4, ["random"] * 4, seed=1)
        waiting = make(c, "hearts", 4, ["person"] + ["random"] * 3, seed=2)
        rules = rules_of(c, DUEL)
        duel = make(c, rules, 2, ["random", "random"], seed=3)
        clock.offset = 99
        _expire(c)
        assert set(_server(c).lobby.tables) == {done["table"], waiting["table"], duel["table"]}
        clock.offset = 101
        with c.websocket_connect(ws_path(waiting, 0)) as page:
            page.receive_json()
            _expire(c)  # the finished games go, the one waiting for its person stays
            assert set(_server(c).lobby.tables) == {waiting["table"]}
            clock.offset = 1001
            _expire(c)
            closed = page.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 4410
        assert not _server(c).lobby.tables
        for made in (done, waiting, duel):
            assert c.get(f"/table/{made['table']}/0?token=x").status_code == 404
            assert not (tmp_path / f"{made['table']}.table.json").exists()
            assert not (tmp_path / f"{made['table']}.jsonl").exists()
            assert (tmp_path / "expired" / f"{made['table']}.jsonl").exists()
        with pytest.raises(WebSocketDisconnect) as gone, c.websocket_connect(ws_path(waiting, 0)):
            pass
        assert gone.value.code == 4404
    assert replay(tmp_path / "expired" / f"{duel['table']}.jsonl").totals  # its rule file kept beside it
    assert replay(tmp_path / "expired" / f"{done['table']}.jsonl").totals
    with serving(tmp_path, limits=limits, clock=clock) as again:
        assert not _server(again).lobby.tables
    assert not tracebacks(caplog)


def test_a_table_whose_time_is_up_while_the_server_is_down_is_taken_away_when_it_starts(tmp_path, caplog):
    clock = Clock()
    limits = Limits(finished=100, idle=1000)
    with serving(tmp_path, limits=limits, clock=clock) as c:
        waiting = make(c, "hearts", 4, ["person"] + ["random"] * 3, seed=2)
    clock.offset = 999
    with serving(tmp_path, limits=limits, clock=clock) as c:
        assert set(_server(c).lobby.tables) == {waiting["table"]}
    clock.offset = 2000  # the record's time counts, not the restart's
    with serving(tmp_path, limits=limits, clock=clock) as c:
        assert not _server(c).lobby.tables
    assert (tmp_path / "expired" / f"{waiting['table']}.jsonl").exists()
    assert any("its time is up" in r.getMessage() and waiting["table"] in r.getMessage() for r in caplog.records)


def test_a_client_has_a_share_of_the_tables_and_it_survives_a_restart(tmp_path):
    clock = Clock()
    limits = Limits(tables=3, tables_per_client=2, idle=1000)
    # people only: no bot moves a table on after the clock is moved (a late bot's move would make it busy again)
    asked = {"rules": "hearts", "players": 4, "kinds": ["person"] * 4}
    with serving(tmp_path, limits=limits, clock=clock) as c:
        make(c, "hearts", 4, asked["kinds"])
        make(c, "hearts", 4, asked["kinds"])
        refused = c.post("/api/tables", json=asked)
        assert refused.status_code == 400 and "from your address" in refused.json()["error"]
        assert "24 hours" not in refused.json()["error"] and "16.7 minutes" in refused.json()["error"]
    with serving(tmp_path, limits=limits, clock=clock) as c:
        assert "from your address" in c.post("/api/tables", json=asked).json()["error"]  # still counted
        lobby = _server(c).lobby
        lobby.create(asked, "10.0.0.2")  # another address has its own share
        with pytest.raises(LobbyError, match="holds 3 tables already"):
            lobby.create(asked, "10.0.0.3")  # and the server its own limit
        clock.offset = 1001
        assert c.post("/api/tables", json=asked).status_code == 200  # the old ones' time was up: room again


def test_only_valid_rule_files_are_kept_within_a_client_s_share_and_unused_ones_expire(tmp_path):
    clock = Clock()
    limits = Limits(rule_files=3, rule_files_per_client=2, unused_rules=50, idle=100)
    stored = tmp_path / "rules"
    with serving(tmp_path, limits=limits, clock=clock) as c:
        for n in range(10):  # refused files count for nothing, and are not kept
            broken = DUEL.replace("leader: left(round.dealer)", f"leader: left(round.dealr{n})")
            assert c.post("/api/rules", json={"text": broken}).status_code == 422
        assert not list(stored.iterdir())
        first = rules_of(c, DUEL)
        second = rules_of(c, DUEL.replace("Tiny duel", "Tiny duel again"))
        assert rules_of(c, DUEL) == first  # the same file again is the same file
        refused = c.post("/api/rules", json={"text": DUEL.replace("Tiny duel", "A third")})
        assert refused.status_code == 400 and "from your address" in refused.json()["error"]
        assert sorted(p.name for p in stored.glob("*.yaml")) == sorted(Path(r).name for r in (first, second))
        played = make(c, first, 2, ["person", "random"], seed=1)
        clock.offset = 51
        _expire(c)  # the unused one goes; the one a table uses stays
        assert [p.name for p in stored.glob("*.yaml")] == [Path(first).name]
        assert c.post("/api/rules", json={"text": DUEL.replace("Tiny duel", "A third")}).status_code == 200
    with serving(tmp_path, limits=limits, clock=clock) as c:  # who sent them is kept: still two of two
        refused = c.post("/api/rules", json={"text": DUEL.replace("Tiny duel", "A fourth")})
        assert "from your address" in refused.json()["error"]
        clock.offset = 200
        _expire(c)
        assert not list(stored.glob("*.yaml")) and played["table"] not in _server(c).lobby.tables


def test_the_lobby_holds_at_most_its_limits_of_tables_and_rule_files(tmp_path):
    lobby = Lobby(tmp_path, Limits(tables=2, tables_per_client=5, rule_files=2, rule_files_per_client=5))
    asked = {"rules": "hearts", "players": 4, "kinds": ["random"] * 4}
    lobby.create(asked, "a")
    lobby.create(asked, "b")
    with pytest.raises(LobbyError, match="holds 2 tables already"):
        lobby.create(asked, "c")
    lobby.check_rules(DUEL, "a")
    lobby.check_rules(DUEL.replace("Tiny duel", "B"), "b")
    with pytest.raises(LobbyError, match="keeps 2 rule files already"):
        lobby.check_rules(DUEL.replace("Tiny duel", "C"), "c")
    assert len(list((tmp_path / "rules").glob("*.yaml"))) == 2


# ---------------------------------------------------------------------------------------------------- unwritable text


def test_text_utf8_cannot_write_never_fails_the_server(client, caplog):
    odd = DUEL.replace('title: Tiny duel (2 players, 4 cards)', 'title: "Tiny \\ud800 duel"')
    answer = client.post("/api/rules", json={"text": odd})
    assert answer.status_code in (200, 422) and json.loads(answer.text)  # a game, or the loader's refusal
    made = make(client, "hearts", 4, ["person"] + ["random"] * 3, seed=5)
    table = table_of(client, made)
    table.logs[0].append("told \ud800 here")
    with client.websocket_connect(ws_path(made, 0)) as ws:
        view = ws.receive_json()
        assert view["log"][-1] == "told \ud800 here"
        while not view["your_turn"]:
            view = ws.receive_json()
        ws.send_json({"type": "act", "seq": view["seq"], "label": choices(view)[0]})  # the told file is written
        assert ws.receive_json()["seq"] == view["seq"] + 1
    assert "told \\ud800 here" in (Path(_server(client).lobby.folder) / f"{made['table']}.told.jsonl").read_text()
    assert not tracebacks(caplog)


# ---------------------------------------------------------------------------------------------------- searching bots


def test_searching_bots_search_in_worker_processes_and_play_the_game_trickbook_play_plays(tmp_path, monkeypatch):
    from interpreter.harness.search import IsmctsAgent

    rules_text = (Path(__file__).resolve().parents[1] / "docs" / "examples" / "tiny-duel.yaml").read_text()
    with serving(tmp_path) as c:
        rules = rules_of(c, rules_text)
        searched = IsmctsAgent.act

        def not_here(self: Any, turn: Any) -> Any:
            raise AssertionError("a bot searched in the server's process")

        monkeypatch.setattr(IsmctsAgent, "act", not_here)
        made = make(c, rules, 2, ["ismcts", "ismcts"], seed=7, iterations=[30, 30])
        table = table_of(c, made)
        assert table.over and not table.stopped
        monkeypatch.setattr(IsmctsAgent, "act", searched)
        out = play_game(table.game.engine, agent_factory(["ismcts", "ismcts"], 30)(7), 7, record=True)
        written = [json.loads(line) for line in table.record_text().splitlines()]
        assert [e for e in written if e["type"] not in TOLD][1:] == out.record[1:]
        assert _server(c).bots.decisions == sum(e["type"] == "action" for e in written) == 4


def test_a_person_is_answered_while_eight_tables_of_searching_bots_play(tmp_path):
    """One worker, eight tables of four ismcts bots at the allowed 5,000 iterations (each decision over a second of
    CPU): a person's card on another table, and the lobby, are answered before the worker has finished a third
    decision (counted, not timed; when the bots searched in the server's threads, the card waited for a round of
    the tables' decisions)."""
    with serving(tmp_path, bots=BotPool(1)) as c:
        server = _server(c)
        searching = [c.post("/api/tables", json={"rules": "hearts", "players": 4, "kinds": ["ismcts"] * 4,
                                                 "iterations": [5000] * 4, "seed": n}).json() for n in range(8)]
        made = make(c, "hearts", 4, ["person"] + ["random"] * 3, seed=3)
        with c.websocket_connect(ws_path(made, 0)) as ws:
            view = ws.receive_json()
            while not view["your_turn"]:
                view = ws.receive_json()
            ws.send_json({"type": "act", "seq": view["seq"], "label": choices(view)[0]})
            assert ws.receive_json()["seq"] == view["seq"] + 1
            assert c.get("/api/games").status_code == 200
            assert server.bots.decisions <= 2
        assert all(not table_of(c, t).over for t in searching)
        for t in searching:
            server.runners[t["table"]].cancel()


def test_a_bot_s_worker_that_dies_or_hangs_is_replaced_and_its_table_told(tmp_path, caplog):
    pool = BotPool(1, timeout=3, work=web_bots_for_tests.faulty)
    with serving(tmp_path, bots=pool) as c:
        rules = rules_of(c, DUEL)
        dies = make(c, rules, 2, ["person", "ismcts"], seed=1, iterations=[50, web_bots_for_tests.DIES])
        hangs = make(c, rules, 2, ["person", "ismcts"], seed=1, iterations=[50, web_bots_for_tests.HANGS])
        plays = make(c, rules, 2, ["person", "ismcts"], seed=1, iterations=[50, 5])
        views = {}
        for name, made in (("dies", dies), ("hangs", hangs), ("plays", plays)):
            views[name] = play_to_the_end(c, made, 0, "over" if name == "plays" else "stopped")
        assert "worker process ended (exit code 3)" in views["dies"]["stopped"]
        assert "took longer than 3 s" in views["hangs"]["stopped"]
        assert views["plays"]["over"] and not views["plays"]["stopped"]
        assert pool.replaced == 2
    assert not tracebacks(caplog)




def test_the_table_page_shows_why_a_table_stopped_and_that_its_time_is_up(client):
    made = make(client, "hearts", 4, ["person"] + ["random"] * 3, seed=3)
    page = client.get(made["links"][0]["href"]).text
    assert '<section id="stopped" hidden>' in page and 'id="stopped-why"' in page
    script = client.get("/static/table.js").text
    assert '$("stopped-why").textContent = v.stopped' in script and "event.code === 4410" in script


def test_a_seed_a_record_cannot_hold_is_refused_before_the_table_is_made(tmp_path):
    """The lobby took seeds up to 10^18 - 1; a game's record holds 15 digits, so such a table could not be
    restored (its setup file was written before the game refused the seed)."""
    from interpreter.web.lobby import Lobby, LobbyError

    lobby = Lobby(tmp_path)
    with pytest.raises(LobbyError, match="the seed must be a whole number from 0 to 999,999,999,999,999"):
        lobby.create({"rules": "hearts", "players": 4, "kinds": ["random"] * 4, "seed": 10**17})
    assert not list(tmp_path.glob("*.table.json"))


def test_a_worker_ended_by_two_threads_at_once_closes_its_pipe_once():
    """The pool's close and the thread waiting on a worker may end it at the same time: its pipe is closed once (a
    second close of the same number failed with 'Bad file descriptor', or closed a file opened meanwhile)."""
    import threading

    from interpreter.web.bots import _Worker

    worker = _Worker(web_bots_for_tests.faulty, threading.Event())
    closes = []
    real = worker.conn._close

    def slow_close():
        closes.append(1)
        time.sleep(0.05)  # wide enough for the other thread to come in
        real()

    worker.conn._close = slow_close
    start = threading.Barrier(2)
    failed = []

    def end():
        start.wait()
        try:
            worker.end()
        except OSError as exc:
            failed.append(exc)

    threads = [threading.Thread(target=end) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failed == [] and closes == [1] and worker.conn.closed
