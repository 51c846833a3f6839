"""Agents of one's own (harness/remote.py): each seat's in a process of its own, told plain data only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.errors import GameError, IllegalAction
from interpreter.harness.players import agent_factory, parse_agents
from interpreter.harness.runner import play_game

from .conftest import game_of

HERE = Path(__file__).resolve().parent
OWN = "tests.agents_for_tests"


def _record(game, names, seed):
    return play_game(game, agent_factory(parse_agents(",".join(names), game.players))(seed), seed,
                     record=True).record


def test_an_agent_of_ones_own_plays_by_id_or_by_label_and_the_same_seed_gives_the_same_game():
    game = game_of("hearts", 4)
    by_id = _record(game, [f"{OWN}:FirstLegal", "random", "random", "random"], 5)
    by_label = _record(game, [f"{OWN}:FirstLabel", "random", "random", "random"], 5)
    assert by_id == by_label and by_id[-1]["type"] == "result"
    assert by_id == _record(game, [f"{OWN}:FirstLegal", "random", "random", "random"], 5)


def test_what_a_hostile_agent_tries_finds_nothing_its_seat_may_not_see_and_changes_nothing(tmp_path, monkeypatch):
    out = tmp_path / "found.jsonl"
    monkeypatch.setenv("TRICKBOOK_HOSTILE_OUT", str(out))
    game = game_of("hearts", 4)
    hostile = _record(game, [f"{OWN}:Hostile", "random", "random", "random"], 8)
    fair = _record(game, [f"{OWN}:FirstLegal", "random", "random", "random"], 8)
    assert hostile == fair  # emptying the lists it was given changed nothing
    reports = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(reports) >= 13 and all(r["engine objects"] == [] for r in reports)
    deal = next(e for e in hostile if e["type"] == "chance")
    own = set(deal["outcome"]["hand"][game.seat_names[0]])
    first = reports[0]  # the pass, right after the deal: the seat has seen its own 13 cards and nothing else
    assert first["decision"] == 1 and set(first["cards"]) <= own and len(first["cards"]) == 13


def test_each_seat_gets_a_process_of_its_own():
    from interpreter.harness import remote

    game = game_of("hearts", 4)
    _record(game, [f"{OWN}:FirstLegal", f"{OWN}:FirstLegal", "random", "random"], 1)
    pids = {remote._children[(f"{OWN}:FirstLegal", s)].process.pid for s in (0, 1)}
    assert len(pids) == 2


@pytest.mark.parametrize("name,says", [
    ("Broken", "failed: .*ValueError: the agent's own mistake"),
    ("Nonsense", "act returned 3.5: an action id of view.legal or a label of view.labels"),
    ("NoSuchClass", "has no class NoSuchClass with an act\\(view\\) method"),
])
def test_an_agent_that_fails_stops_the_game_naming_it(name, says):
    with pytest.raises(GameError, match=f"(?s)agent '{OWN}:{name}'.*{says}"):
        _record(game_of("oh-hell", 4), [f"{OWN}:{name}"], 1)


def test_an_illegal_choice_is_refused_with_the_legal_labels():
    with pytest.raises(IllegalAction, match=f"agent '{OWN}:Illegal' \\(B\\) chose 'joker', which is not legal now"):
        _record(game_of("oh-hell", 4), [f"{OWN}:Illegal"], 1)


def test_agents_are_named_as_module_class_or_file_class():
    assert parse_agents(f"random,{OWN}:FirstLegal", 3) == ["random", f"{OWN}:FirstLegal", f"{OWN}:FirstLegal"]
    with pytest.raises(GameError, match="module:Class"):
        parse_agents("clever", 4)


def test_the_example_agent_of_the_docs_plays_from_the_command_line(capsys):
    example = str(HERE.parent / "docs" / "examples" / "my_agent.py")
    assert main(["play", "hearts", "-p", "4", "--quiet", "--seed", "2", "--agents", f"{example}:FirstCard"]) == 0
    assert "winner(s):" in capsys.readouterr().out
    assert main(["simulate", "oh-hell", "-p", "4", "-n", "3", "--agents", f"{example}:FirstCard,random"]) == 0
    out = capsys.readouterr().out
    assert f"{example}:FirstCard" in out


def test_the_python_api_plays_with_agents_by_name_or_by_class_in_processes_of_their_own():
    import interpreter as tb
    from tests.agents_for_tests import FirstLegal

    game = tb.load("hearts", 4)
    by_class = game.play([FirstLegal, "random"], seed=4)
    by_name = game.play([f"{OWN}:FirstLegal", "random"], seed=4)
    assert by_class.is_over() and by_class.events == by_name.events
    assert by_class.events == _record(game.engine, [f"{OWN}:FirstLegal", "random"], 4)
