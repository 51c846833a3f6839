"""A ``board`` step at the web table (interpreter/web/board_view.py, seat_view.py): every row of the step's
declaration drawn with all its spaces in order, each covered space with who covered it, what each row has left,
the spaces the seat to act may cover as its choices there (and nowhere else), the rows' status lines, and the hand
readable (not dimmed) while the choice is not a card. From the rule file alone: NJET and the docs' other board game.

No browser here (tests/test_web_e2e.py looks at the drawn board once in Chromium); no timings."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("starlette")

from interpreter.web.lobby import Lobby  # noqa: E402
from interpreter.web.seat_view import seat_view  # noqa: E402

from .conftest import ROOT  # noqa: E402

AUCTION = str(ROOT / "docs" / "examples" / "board-auction.yaml")


def _table(tmp_path: Any, rules: str, players: int) -> Any:
    lobby = Lobby(tmp_path)
    if rules.endswith(".yaml"):  # a rule file of one's own, as the lobby takes it
        rules = lobby.check_rules(open(rules, encoding="utf-8").read())["rules"]
    table, _ = lobby.create({"rules": rules, "players": players, "kinds": ["person"] * players, "seed": 2})
    while table.step():  # the deal
        pass
    return table


def _board_step(table: Any) -> Any:
    return next(s for s in table.game.engine.every_step() if s.kind == "board")


@pytest.mark.parametrize("rules, players", [("njet-riogrande", 3), (AUCTION, 4)], ids=["njet", "board-auction"])
def test_every_seat_sees_the_whole_board_with_who_covered_each_space_and_what_each_row_has_left(
        tmp_path, rules, players):
    table = _table(tmp_path, rules, players)
    step = _board_step(table)
    names = table.game.seat_names
    state = table.state
    covered_by: dict[tuple[str, str], str] = {}
    before_play = {(row.key, lab) for row in step.rows for lab, c in zip(row.labels, row.covered) if c}
    covers = 0
    while state.step == step.name:
        seat = state.current_player
        views = [seat_view(table, s) for s in range(players)]
        for s, v in enumerate(views):
            board = v["board"]
            assert [r["row"] for r in board] == [row.key for row in step.rows]
            assert [r["title"] for r in board] == [row.title for row in step.rows]
            for row, drawn in zip(step.rows, board):
                assert [sp["label"] for sp in drawn["spaces"]] == row.labels  # every space, in the file's order
                for sp in drawn["spaces"]:
                    key = (row.key, sp["label"])
                    assert sp["by"] == covered_by.get(key)
                    assert sp["open"] == (key not in covered_by and key not in before_play)
                assert drawn["left"] == sum(sp["open"] for sp in drawn["spaces"])
            # the same board for every seat (it is public), but the choices: the seat to act's legal covers
            assert [[{**sp, "action": None} for sp in r["spaces"]] for r in board] == \
                [[{**sp, "action": None} for sp in r["spaces"]] for r in views[0]["board"]]
            offered = {sp["action"] for r in board for sp in r["spaces"] if sp["action"]}
            assert offered == (set(state.labels()) if s == seat else set())
            assert not set(v["actions"]) & offered  # drawn on the board, not as loose buttons
            # the status panel says what each row has left; the hand is readable: no card is a choice now
            lines = {title: text for title, text in v["status"]}
            for drawn in board:
                left = [sp["label"] for sp in drawn["spaces"] if sp["open"]]
                assert all(lab in lines[drawn["title"]] for lab in left) and f"{len(left)} left" in \
                    lines[drawn["title"]] or len(left) == 1 and lines[drawn["title"]].startswith(left[0])
            assert not v["hand_choice"] and v["hand"] and not any(c["legal"] for c in v["hand"])
        label = sorted(state.labels())[covers % len(state.labels())]  # a different space each time
        row_key, _, space = label.partition(": ")
        covered_by[(row_key, space)] = names[seat]
        table.act(seat, {"type": "act", "seq": table.seq, "label": label})
        while table.step():
            pass
        covers += 1
    assert covers >= 4 and seat_view(table, 0)["board"] is None  # the board is over: its rows set the round
    # the example's 4-player board has a space covered before play (by no one: drawn so above)
    assert before_play == ({("worth", "2 a trick")} if rules == AUCTION else set())


def test_the_hand_is_dimmed_only_while_the_seat_chooses_among_its_cards(tmp_path):
    table = _table(tmp_path, "njet-riogrande", 3)
    state = table.state
    while state.observation(None).get("decision") != "play":
        table.act(state.current_player, {"type": "act", "seq": table.seq, "label": state.labels()[0]})
        while table.step():
            pass
    seat = state.current_player
    v = seat_view(table, seat)
    assert v["hand_choice"] and any(c["legal"] for c in v["hand"])
    assert not seat_view(table, (seat + 1) % 3)["hand_choice"]  # waiting: nothing to choose, nothing dimmed
