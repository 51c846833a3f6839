"""Every driver of a game plays it through the one match driver (interpreter/match/), so the same game gives the
same record whoever drives it: ``play_game`` (``trickbook play``, ``simulate``, conformance), the API stepped
action by action, the API's ``play``, and a record read back and played again. The conformance battery checks
the drivers with random agents on every game (interpreter/conformance/drivers.py); here with an agent that
searches samples of what its seat knows (greedy), which the API follows for it from the very cards played."""

from __future__ import annotations

import random

import pytest

import interpreter as tb
from interpreter.engine.state import CHANCE
from interpreter.harness.players import agent_factory, parse_agents
from interpreter.harness.runner import play_game
from interpreter.match.driver import Match
from interpreter.match.events import GameEnd, RoundEnd
from interpreter.match.records import record_text

CASES = [("meinz", 3, 2), ("doppelkopf", 4, 1)]  # an automatic seat; identical cards


def _agents(game, seed, names="random,greedy"):
    return agent_factory(parse_agents(names, game.players), 10)(seed)


@pytest.mark.parametrize(("name", "players", "seed"), CASES)
def test_the_same_game_gives_the_same_record_through_every_driver(name, players, seed):
    loaded = tb.load(name, players)
    engine = loaded.engine
    by_runner = record_text(play_game(engine, _agents(engine, seed), seed, record=True, told=True,
                                      rules_file=loaded.rules_file).record)

    stepped = loaded.new_state(seed)  # the API, one call a change, the same agents deciding
    agents = _agents(engine, seed)
    while not stepped.is_over():
        if stepped.is_chance():
            stepped.apply_chance()
        else:
            stepped.apply(stepped.agent_choice(agents[stepped.current_player]))
    assert stepped.serialize() == by_runner

    assert loaded.play(["random", "greedy"], seed).serialize() == by_runner
    assert loaded.deserialize(by_runner).serialize() == by_runner  # read back and played again


def test_a_record_without_the_rules_lines_is_the_same_record_less_those_lines():
    loaded = tb.load("hearts", 4)
    full = play_game(loaded.engine, seed=3, record=True, told=True).record
    plain = play_game(loaded.engine, seed=3, record=True).record
    assert sum(e["type"] == "trick" for e in full) == 13 * len([e for e in full if e["type"] == "round"])
    assert plain == [e for e in full if e["type"] not in ("trick", "automatic")]


def test_a_match_tells_each_round_once_with_nobody_hearing_each_change_and_after_a_state_is_put_in_place():
    """A match whose listeners hear no change (only rounds scored and the end) makes no event of a change and
    has the rules tell nothing, yet tells each round scored once; a state put in place (a copy, played on two
    rounds) counts the rounds it scored as told."""
    game = tb.load("hearts", 4).engine
    told: list = []

    class Ends:
        hears = {RoundEnd: lambda match, event: told.append(event.played), GameEnd: lambda match, event: told.append(0)}

    rng = random.Random(3)

    def step(match):
        d = match.pending
        if d.actor == CHANCE:
            match.chance()
        else:
            match.take(d.actions[int(rng.random() * len(d.actions))])

    match = Match(game, 3).listen(Ends())
    ahead = match.copy()
    while len(ahead.state.round_results) < 2:
        step(ahead)
    assert not match.hears_each and match.state.told is None and match.state.notes is None
    match.state = ahead.state.clone()
    while not match.finished:
        step(match)
    assert told == [*range(3, len(match.state.round_results) + 1), 0]
