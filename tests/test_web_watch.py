"""The web table's watch link: a table's public view, live, for onlookers. Over whole games of several bundled games
its view never holds a card of a hand nor anything hidden (it is the same view on every state a seat could not
tell from the real one); it is no seat's link, and it cannot act."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from interpreter.web.lobby import Lobby  # noqa: E402
from interpreter.web.seat_view import watch_view  # noqa: E402

from .test_web import _server, choices, make, serving, settle, token, ws_path  # noqa: E402


def _public_cards(table: Any) -> set[str]:
    """The labels of the cards lying where everyone sees them now (a zone visible to all), read from the state
    and the rule file's zones, not from any observation."""
    game = table.game.engine
    labels = game.cards.labels
    state = table.state._state
    out: set[str] = set()
    for name, spec in game.zones.items():
        if spec.visible != "all":
            continue
        places = state.per_seat[name] if spec.per_seat else [state.shared[name]]
        out.update(labels[c] for cards in places for c in cards)
    return out


def _hidden_cards(table: Any) -> set[str]:
    """The labels of the cards lying where not everyone sees them now (hands, cards passed face down, a stock)."""
    game = table.game.engine
    labels = game.cards.labels
    state = table.state._state
    out: set[str] = set()
    for name, spec in game.zones.items():
        if spec.visible == "all":
            continue
        places = state.per_seat[name] if spec.per_seat else [state.shared[name]]
        out.update(labels[c] for cards in places for c in cards)
    return out


@pytest.mark.parametrize("name,players", [("hearts", 4), ("njet-riogrande", 4), ("doppelkopf", 4), ("mue", 4),
                                          ("tichu", 4)])
def test_the_watch_view_holds_nothing_hidden_over_whole_games(tmp_path, name, players):
    """A whole game of random bots, watched after every change. The view names no card lying hidden now that
    never lay face up before (the others' hands, cards passed face down, a stock), anywhere: zones, trick, status
    lines, narration, scores. And at decisions (each of a choice made in secret, every sixth of the others), the
    view is the same on a sample of what the seat to act knows (its hidden cards dealt again, hidden values and
    teams worked out again, choices made in secret drawn again): the view depends on nothing hidden from a
    seat."""
    lobby = Lobby(tmp_path)
    info = lobby.rules_info(name)
    kinds = ["random"] * (players + len(info["seats"][str(players)]["automatic"]))
    table, tokens = lobby.create({"rules": name, "players": players, "kinds": kinds, "seed": 1})
    assert tokens.watch and not tokens  # a table of bots: no seat's link, a watch link
    rng = random.Random(0)
    deck = set(table.game.engine.cards.labels)
    # the steps whose choices a seat makes in secret (the others are told only that it chose): the cards any other
    # action names (a card played, a card revealed) lie face up to all from then on
    secret = {step.name: step.words.secret() for step in table.game.engine.steps if hasattr(step.words, "secret")}
    ever_public: set[str] = set()
    seen = [0]
    compared = face_up = decisions = 0
    while table.step():
        ever_public |= _public_cards(table)
        new = table.state.events_since(seen[0])
        seen[0] += len(new)
        ever_public.update(c for e in new if e["type"] == "trick" for _, c in e["cards"])
        ever_public.update(c for e in new if e["type"] == "action" and not secret.get(e["step"])
                           for c in deck if re.search(rf"(?<![\w]){re.escape(c)}(?![\w])", str(e["action"])))
        view = watch_view(table)
        assert view["seat"] is None and view["watching"] and not view["hand"] and not view["actions"]
        assert not view["your_turn"] and view["prompt"] is None
        text = json.dumps(view)
        named = {c for c in _hidden_cards(table) - ever_public
                 if re.search(rf"(?<![\w]){re.escape(c)}(?![\w])", text)}
        assert not named, (table.seq, named)
        face_up += bool(view["trick"] or any("cards" in z for z in view["zones"]))  # cards it shows
        seat = table.to_act()
        decisions += seat is not None
        if seat is not None and (secret.get(table.state.step) or decisions % 6 == 0):  # a sample costs: not each
            other = copy.copy(table)  # the same table, its game a state the seat to act cannot tell from it
            other.state = table.state.sample(seat, rng)
            assert watch_view(other) == view, table.seq
            compared += 1
    assert table.over and watch_view(table)["over"] and watch_view(table)["winners"]
    assert compared > 30 and face_up > 10
    assert table.public_log and all("you receive" not in line for line in table.public_log)


def test_a_secret_choice_is_told_to_the_watch_link_as_to_the_other_seats(tmp_path):
    """Hearts' pass: the watch link reads "East passes a card", as the seats that do not pass it; the status lines
    it is shown are those that read only public values (no "penalty points taken", worked out from the won cards
    no one sees)."""
    lobby = Lobby(tmp_path)
    table, _ = lobby.create({"rules": "hearts", "players": 4, "kinds": ["random"] * 4, "seed": 3})
    while table.state.step != "pass" or table.to_act() is None:
        table.step()
    passer = table.to_act()
    action = table.state.legal_actions()[0]
    other = (passer + 1) % 4
    assert table.state.describe_public(action) == table.state.describe(action, other) != \
        table.state.describe(action, passer)
    table.step()  # the bot passes a card of its choice
    assert table.public_log[-1] == f"{table.game.seat_names[passer]} passes a card"
    titles = [title for title, _ in table.state.status(None)]
    assert titles == ["passing this hand"] and "penalty points taken this hand" in \
        [title for title, _ in table.state.status(0)]


def test_the_watch_link_shows_the_table_and_cannot_act(tmp_path):
    """The lobby gives a watch link beside the seats' links. It opens the table's page and its WebSocket gives the
    public view (no seat, no hand); every action it sends is refused, saying it is the watch link, and changes
    nothing. It is no seat's link and no seat's link is it: a wrong token, a seat's token for the watch link and
    the watch token for a seat are the 404 of an unknown link. After a restart it works as before, with its
    narration."""
    with serving(tmp_path) as client:
        made = make(client, "hearts", 4, ["person", "random", "random", "random"], seed=5)
        watch = made["watch"]
        assert re.fullmatch(rf"/table/{made['table']}/watch\?token=[\w-]{{32}}", watch)
        watch_token = watch.split("token=")[1]
        assert client.get(watch).status_code == 200
        seat_token = token(made, 0)
        for wrong in (f"/table/{made['table']}/watch?token={seat_token}",
                      f"/table/{made['table']}/watch?token={watch_token[:-1]}{'y' if watch_token[-1] == 'x' else 'x'}",
                      f"/table/{made['table']}/0?token={watch_token}",
                      f"/table/{made['table']}/watch"):
            assert client.get(wrong).status_code == 404, wrong
        assert client.get(f"/table/{made['table']}/watch/record?token={watch_token}").status_code == 409
        table = _server(client).lobby.tables[made["table"]]
        with client.websocket_connect(f"/ws/{made['table']}/watch?token={watch_token}") as ws, \
                client.websocket_connect(ws_path(made, 0)) as person:
            view, mine = ws.receive_json(), person.receive_json()
            assert view["seat"] is None and view["watching"] and view["hand"] == [] and view["faces"]
            assert mine["your_turn"] and view["to_act"] == mine["seat_name"]
            before = (table.seq, table.state.serialize())
            for label in choices(mine)[:2] + ["anything"]:
                ws.send_json({"type": "act", "seq": view["seq"], "label": label})
                answer = ws.receive_json()
                assert answer["type"] == "refused" and "watch link" in answer["reason"] and "cannot act" in \
                    answer["reason"], answer
            assert (table.seq, table.state.serialize()) == before
            person.send_json({"type": "act", "seq": mine["seq"], "label": choices(mine)[0]})
            after = ws.receive_json()  # the watch link is sent every change, as the seats are
            assert after["seq"] > view["seq"] and after["log"]
        settle(client, made["table"])
        told = list(table.public_log)
    with serving(tmp_path) as again:  # the server started again on the same folder
        with again.websocket_connect(f"/ws/{made['table']}/watch?token={watch_token}") as ws:
            back = ws.receive_json()
        assert back["seat"] is None and back["log"] == told


def test_a_table_made_before_watch_links_is_picked_up_without_one(tmp_path):
    """A table's setup written before there were watch links (no ``watch``) is picked up; its seats' links work, and
    no token opens a watch link on it."""
    with serving(tmp_path) as client:
        made = make(client, "hearts", 4, ["person", "random", "random", "random"], seed=7)
    setup_path = Path(tmp_path) / f"{made['table']}.table.json"
    setup = json.loads(setup_path.read_text(encoding="utf-8"))
    del setup["watch"]
    setup_path.write_text(json.dumps(setup), encoding="utf-8")
    with serving(tmp_path) as again:
        assert again.get(f"/table/{made['table']}/0?token={token(made, 0)}").status_code == 200
        assert again.get(made["watch"]).status_code == 404
