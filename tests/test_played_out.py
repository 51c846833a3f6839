"""A run that records and tells nothing, with agents that pick from the list of actions alone, plays the game out
round by round (Match._played_out): on the compact slots where the game has them (runtime/compact_game.py), else by
``Game.playout``. Here, for every bundled game and player count on a few seeds, the slots' run against today's
state's: the same events (each round scored, with the state a listener reads then, and the end), the same round
values, the same state at the end (the same game; exactly the same where no two cards are alike), and the round and
result lines of the game's record. That the quiet run plays the game the checked loop plays, the conformance battery
checks on every bundled game, player count and docs example (tests/test_conformance.py)."""

from __future__ import annotations

from typing import Any

import pytest

from interpreter.engine.card_values import renamed
from interpreter.engine.compile import supported_players
from interpreter.engine.fingerprint import fingerprint
from interpreter.engine.knowledge import Knowledge
from interpreter.harness import greedy
from interpreter.harness.players import AGENTS, agent_factory
from interpreter.harness.runner import drive, play_game, random_agents
from interpreter.match import driver
from interpreter.match.driver import Match
from interpreter.match.events import GameEnd, RoundEnd
from interpreter.match.listeners import RoundValues
from interpreter.match.writer import result_event, round_event
from interpreter.rules.loader import load_rules
from interpreter.runtime.compact_game import CompactGame

from .conftest import GAMES, SHORTER, game_of

CASES = [(path.stem, n) for path in GAMES for n in supported_players(load_rules(path))]
SEEDS = (0, 1, 2)


class Ends:
    """Writes the record's line of each round scored and of the end, from the match's state as it is told."""

    def __init__(self) -> None:
        self.lines: list[dict[str, Any]] = []
        self.hears = {RoundEnd: self.round_end, GameEnd: self.game_end}

    def round_end(self, match: Match, event: RoundEnd) -> None:
        self.lines.append(round_event(match.game, match.state, event.played, match.first))

    def game_end(self, match: Match, event: GameEnd) -> None:
        self.lines.append(result_event(match.game, match.state))


def _quiet(game: Any, seed: int) -> tuple[Match, list[dict[str, Any]], list[dict[str, Any]]]:
    match = Match(game, seed)
    values, ends = RoundValues(), Ends()
    match.listen(values, ends)
    match.begin()
    drive(match, random_agents(game, seed))
    return match, values.values, ends.lines


def _by_kind(game: Any, values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kind = game.cards.kinds.__getitem__
    return [{k: renamed(game.value_types.get(k), v, kind) for k, v in each.items()} for each in values]


def _written(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the states written from the slots (one at least for each game played out on them)."""
    written: list[int] = []
    real = CompactGame.write
    monkeypatch.setattr(CompactGame, "write", lambda *a: written.append(1) or real(*a))
    return written


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_game_played_out_on_the_slots_is_the_game_played_out_on_the_state(name, players, monkeypatch):
    game = game_of(name, players, **SHORTER.get(name, {}))
    alike = len(set(game.cards.kinds[c] for c in game.deck)) < len(game.deck)  # two cards alike: ids may differ
    for seed in SEEDS:
        written = _written(monkeypatch)
        slots, values, lines = _quiet(game, seed)
        assert written, "played out on the slots"
        with monkeypatch.context() as today:
            today.setattr(driver, "compact_game", lambda game: None)
            state, their_values, their_lines = _quiet(game, seed)
        assert lines == their_lines and len(lines) == len(values) + 1
        assert _by_kind(game, values) == _by_kind(game, their_values)
        assert fingerprint(slots.state, kinds=True) == fingerprint(state.state, kinds=True)
        if not alike:
            assert fingerprint(slots.state) == fingerprint(state.state)
        assert slots.state.told is slots.state.notes is slots.state.seen is None
    # the last seed's record, written on the checked loop
    recorded = play_game(game, random_agents(game, SEEDS[-1]), SEEDS[-1], record=True).record
    assert lines == [line for line in recorded if line["type"] in ("round", "result")]


def test_a_quiet_run_of_random_agents_plays_on_the_slots_and_a_recorded_one_does_not(monkeypatch):
    game = game_of("meinz", 3)
    written = _written(monkeypatch)
    quiet = play_game(game, random_agents(game, 1), 1)
    assert len(written) == 1  # once, at the end: nobody asked for the state meanwhile
    recorded = play_game(game, random_agents(game, 1), 1, record=True)
    assert len(written) == 1 and (quiet.totals, quiet.rounds, quiet.round_results) == \
        (recorded.totals, recorded.rounds, recorded.round_results)


def test_a_state_a_knowledge_follows_is_played_out_as_it_is(monkeypatch):
    # the slots tell a Knowledge nothing: a state that tells one is played out by Game.playout, and still tells it
    game = game_of("hearts", 4)
    written = _written(monkeypatch)
    match = Match(game, 5)
    Knowledge(game, match.state)
    seen = match.state.seen
    drive(match, random_agents(game, 5))
    assert match.finished and not written and match.state.seen is seen and seen is not None
    assert play_game(game, random_agents(game, 5), 5).totals == match.state.totals


def test_a_game_stopped_in_its_play_out_leaves_the_state_where_it_stopped(monkeypatch):
    game = game_of("njet-riogrande", 4)
    written = _written(monkeypatch)

    class Stop:
        hears = {RoundEnd: lambda match, event: (_ for _ in ()).throw(KeyboardInterrupt)}

    match = Match(game, 2).listen(Stop())
    with pytest.raises(KeyboardInterrupt):
        drive(match, random_agents(game, 2))
    assert len(written) == 1 and len(match.state.round_results) == 1 and not match.finished
    assert match.state.round_number == 2 and match.pending is not None  # the next round's deal, as the slots left it


@pytest.mark.parametrize("name", ["njet-riogrande", "hearts", "doppelkopf", "mit-list-und-tuecke", "was-sticht"])
def test_the_greedy_agent_measures_its_game_on_the_slots_as_on_the_state(name, monkeypatch):
    # whether taking cards pays: random rounds, the cards each seat won against its score, on either
    game = game_of(name, 4)
    written = _written(monkeypatch)
    on_slots = greedy._pairs(game)
    assert len(written) == greedy.ROUNDS
    with monkeypatch.context() as today:
        today.setattr(greedy, "compact_game", lambda game: None)
        assert greedy._pairs(game) == on_slots and len(on_slots) > 4 * greedy.ROUNDS // 2
    assert len(written) == greedy.ROUNDS


def test_a_built_in_agent_that_picks_from_the_list_alone_picks_by_its_length_so_alike_on_the_slots():
    # on the slots a pick is shown the slots' actions (cards by kind): the same list, in the same order, other cards
    pickers = []
    for name in AGENTS:
        made = agent_factory([name] * 4, 5)("seed")
        picks = [getattr(agent, "pick", None) for agent in made]
        if all(pick is not None for pick in picks):
            pickers.append(name)
            again = agent_factory([name] * 4, 5)("seed")
            for n in (1, 2, 3, 7, 13, 40):
                for seat in range(4):
                    assert picks[seat](list(range(n))) == again[seat].pick([(n, k) for k in range(n)])
    assert pickers == ["random"]  # greedy and ismcts search samples: never played out from the list alone
