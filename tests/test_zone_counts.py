"""The zones a set step reads only by their number of cards (interpreter/engine/zone_counts.py): no check of what a
sample deals, since every sample keeps each place's number of cards; a step that reads which cards a zone holds
stays a check."""

from __future__ import annotations

import dataclasses
import random

from interpreter.compiled.search import refusal, worked_out
from interpreter.engine.samples import Unknown
from interpreter.engine.state import CHANCE
from interpreter.engine.zone_counts import counted_only

from .conftest import game_of, known_decisions


def _steps(game, *names):
    return [next(s for s in game.every_step() if s.name == name) for name in names]


def test_a_step_reading_only_how_many_cards_a_hand_holds_counts_it():
    game = game_of("president", 4)
    for step in _steps(game, "play_gone_out", "play_after"):  # (a seat is out when its hand is empty)
        assert counted_only(game.zones, step) == {"hand"}, step.name


def test_a_step_reading_which_cards_a_hand_holds_does_not():
    tichu = game_of("tichu", 4)
    [begin] = _steps(tichu, "play_begin")  # (the holder of the Mah Jong leads: has(s.hand, 'mahjong'))
    assert "hand" not in counted_only(tichu.zones, begin)
    tarot = game_of("french-tarot", 4)
    [sec] = _steps(tarot, "sec")  # (the Petit held alone)
    assert "hand" not in counted_only(tarot.zones, sec)
    [move] = [s for s in tarot.every_step() if s.kind == "move"][:1]
    assert counted_only(tarot.zones, move) == frozenset()  # (only set steps are read so)


def _checks(name, seed, decisions=60):
    """The steps of the checks a Knowledge keeps along a random game, and how many decisions' samples are drawn in
    Python for their checks (compiled/search.py's ``Drawn``)."""
    steps, drawn = set(), 0
    for _, unknown in known_decisions(game_of(name, 4), random.Random(seed), decisions):
        steps |= {run.step.name for run in unknown.checks}
        drawn += worked_out(unknown) and bool(unknown.checks)
    return steps, drawn


def test_a_seat_going_out_is_no_check_and_the_compiled_search_takes_the_decision():
    steps, drawn = _checks("president", 1)
    assert not steps & {"play_gone_out", "play_after", "play_begin", "play_next"}
    assert drawn == 0


def test_a_value_told_from_which_cards_a_seat_holds_is_still_a_check():
    steps, _ = _checks("tichu", 3, decisions=40)
    assert "play_begin" in steps  # (who leads tells everyone who holds the Mah Jong)
    assert not steps & {"play_gone_out", "play_after"}


def test_a_decision_of_president_is_searched_compiled_after_seats_went_out_by_their_count():
    """A decision of a climbing game after 30 plays (each followed by its `gone out` step, which reads how many cards
    each hand holds): the compiled search takes it (the machine as plain Python)."""
    from interpreter.compiled.machine import Machine
    from interpreter.compiled.search import CompiledSearch, sample_plan
    from interpreter.harness.following import Following
    from interpreter.match.driver import Match
    from interpreter.match.listeners import Knowing

    game = game_of("president", 4)
    machine = Machine(game)
    match = Match(game, 2)
    knowing, following = Knowing(match), Following(machine, match)
    match.listen(knowing, following)
    match.begin()
    rng = random.Random(2)
    taken = 0
    while taken < 30:  # (each play followed by its `gone out` step)
        d = match.state.pending
        if d.actor == CHANCE:
            match.chance()
            continue
        taken += 1
        match.act(d.actions[rng.randrange(len(d.actions))])
    d = match.state.pending
    unknown = Unknown(game, match.state, d.actor, knowing.knowledge)
    assert refusal(unknown) is None and not worked_out(unknown)
    arrays, p, keys = following.position()
    search = CompiledSearch(machine)
    search.begin((arrays, p), sample_plan(machine, arrays, unknown), 3)
    visits = search.run(8, 0.7, -1)
    assert sum(visits.values()) == 8 and set(visits) <= set(keys)


def test_a_step_calling_a_builtin_that_may_read_zones_counts_none(monkeypatch):
    """What a builtin reading the game may read is its declaration (``Builtin.zones``): one that may read the zones
    leaves every zone of a step calling it read as a whole."""
    from interpreter.dsl.builtins import REGISTRY
    from interpreter.engine import zone_counts

    game = game_of("president", 4)
    [gone_out] = _steps(game, "play_gone_out")  # (calls seats_from)
    assert zone_counts._counted(game.zones, gone_out) == {"hand"}
    monkeypatch.setitem(REGISTRY, "seats_from", dataclasses.replace(REGISTRY["seats_from"], zones=True))
    assert zone_counts._counted(game.zones, gone_out) == frozenset()
