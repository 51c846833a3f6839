"""Every check of the conformance battery (interpreter/conformance/battery.py) can fail: each test breaks one
invariant on purpose and sees the battery name the game, its players, the seed, the action and what broke."""

from __future__ import annotations

import random

import pytest

from interpreter import api
from interpreter.api import copies
from interpreter.conformance import battery, drivers
from interpreter.conformance.battery import ALL, ENDS, RECORDS, Checks, ConformanceError, check_game
from interpreter.engine import game as game_module
from interpreter.engine import rounds as rounds_module
from interpreter.engine.fingerprint import FINGERPRINT, difference, fingerprint
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.harness import runner
from interpreter.match.driver import Match

from .conftest import game_of

HERE = r"^euchre, 4 players, seed conformance/0"
AT = HERE + r", action (\d+) \(round \d+, step '\w+', (\w+ to act|chance)\): "


def _fails(tmp_path, checks: Checks, pattern: str) -> str:
    with pytest.raises(ConformanceError, match=pattern) as caught:
        check_game(game_of("euchre", 4), 0, tmp_path, checks)
    return str(caught.value)


def test_the_game_passes_unbroken(tmp_path):
    played = check_game(game_of("euchre", 4), 0, tmp_path, ALL)
    assert played.rounds >= 5 and played.actions > 100


def test_a_game_that_does_not_end_within_the_limits(tmp_path, monkeypatch):
    monkeypatch.setattr(game_module, "MAX_ACTIONS", 60)  # the count, after each action
    monkeypatch.setattr(rounds_module, "MAX_ACTIONS", 60)  # the message, and the count of a playout
    _fails(tmp_path, ENDS, HERE + r", action 61 \(round \d+\): .*euchre.yaml:\d+:\d+: error: the game took more than "
                              r"60 actions")
    # checked in play_game's own run
    _fails(tmp_path, RECORDS, HERE + r", action 61: driven by play_game: .*euchre.yaml:\d+:\d+: error: the game took "
                                 r"more than 60 actions")


def test_a_card_that_vanishes_after_an_action(tmp_path, monkeypatch):
    real = State.all_cards
    monkeypatch.setattr(State, "all_cards", lambda self: real(self)[1:] if self.round_number > 1 else real(self))
    _fails(tmp_path, RECORDS, HERE + r", action \d+ \(round 2\): after it 23 cards of 24 are in play, or a card is "
                                 r"in two places")


def _clone_with(change):
    real = State.clone

    def clone(self):
        other = real(self)
        change(self, other)
        return other

    return clone


def test_a_clone_that_drops_a_zone(tmp_path, monkeypatch):
    def drop(_self, other):
        other.per_seat["hand"][1] = other.per_seat["hand"][1][1:]

    monkeypatch.setattr(State, "clone", _clone_with(drop))
    _fails(tmp_path, ALL, AT + r"a clone differs from the state: seat zones.hand\[1\] is \([\d, ]+\) in the state "
                          r"and \([\d, ]+\) in the clone$")


def test_a_clone_that_shares_the_hands_with_the_state(tmp_path, monkeypatch):
    def share(self, other):
        other.per_seat = self.per_seat

    monkeypatch.setattr(State, "clone", _clone_with(share))
    _fails(tmp_path, ALL, AT + r"playing the action on a clone changed the state: seat zones.hand\[\d\] is \(\) "
                          r"before and \([\d, ]+\) after$")


def test_a_clone_whose_progress_is_cut_off_goes_on_otherwise(tmp_path, monkeypatch):
    def forget(_self, other):
        if other.progress is not None and hasattr(other.progress, "plays"):
            other.progress.plays = []

    monkeypatch.setattr(State, "clone", _clone_with(forget))
    _fails(tmp_path, ALL, AT + r"a clone differs from the state: progress of the steps._Tricks.plays is \(\(\d, "
                          r"\d+\),\) in the state and \(\) in the clone$")


def test_a_playout_that_takes_another_decision(tmp_path, monkeypatch):
    real = Game.playout

    def playout(self, state, rng, policy=None, round_end=False):
        if policy is None:
            return real(self, state, rng, policy, round_end)
        asked = []

        def other(s, seat, actions):
            i = policy(s, seat, actions)
            if len(actions) > 1:
                asked.append(len(asked) == 20)
            return (i + 1) % len(actions) if asked and asked[-1] else i  # the 21st choice: the next action

        return real(self, state, rng, other, round_end)

    monkeypatch.setattr(Game, "playout", playout)
    _fails(tmp_path, Checks(every=1), AT + r"(playout took another decision \d+: \w+ among .*, where the checked "
                                        r"path asks \w+ among |the state at decision \d+ differs in playout: .* is "
                                        r".* on the checked path and .* in playout$)")


def test_a_playout_whose_default_policy_draws_otherwise(tmp_path, monkeypatch):
    real = Game.playout

    def playout(self, state, rng, policy=None, round_end=False):
        return real(self, state, random.Random(1) if policy is None else rng, policy, round_end)

    monkeypatch.setattr(Game, "playout", playout)
    _fails(tmp_path, ALL, HERE + r": playout with its default policy ended in another state than with a policy "
                             r"drawing alike: .* with its default policy and .* with the policy$")


def test_a_quiet_run_that_ends_otherwise(tmp_path, monkeypatch):
    real = Match._played_out

    def played_out(match, *args):
        real(match, *args)
        match.state.totals[0] += 1

    monkeypatch.setattr(Match, "_played_out", played_out)
    _fails(tmp_path, ALL, HERE + r": the quiet run of play_game ended with totals \[")


def test_a_state_read_back_that_lost_a_value(tmp_path, monkeypatch):
    real = api.TrickGame.deserialize

    def deserialize(self, text):
        state = real(self, text)
        del state._state.vars["dealer"]
        return state

    monkeypatch.setattr(api.TrickGame, "deserialize", deserialize)
    _fails(tmp_path, Checks(saves=1), AT + r"the state serialized and read back here: round values.dealer is \d in the "
                                          r"state and nothing read back$")


def test_a_state_read_back_that_goes_on_otherwise(tmp_path, monkeypatch):
    real = api.TrickGame.deserialize

    def deserialize(self, text):
        state = real(self, text)
        apply = state.apply
        state.apply = lambda action: apply(state.legal_actions()[-1])  # whatever it is told: its last action
        return state

    monkeypatch.setattr(api.TrickGame, "deserialize", deserialize)
    _fails(tmp_path, Checks(saves=1), AT + r"the state read back after action \d+ went on otherwise: .* in the state "
                                          r"and .* read back$")


def test_a_saved_state_that_lost_its_last_action(tmp_path, monkeypatch):
    real = api.GameState.serialize

    def serialize(self):
        lines = real(self).splitlines(keepends=True)
        last = max(i for i, line in enumerate(lines) if '"type": "action"' in line)
        return "".join(lines[:last])

    monkeypatch.setattr(api.GameState, "serialize", serialize)
    _fails(tmp_path, Checks(saves=1), AT + r"the state serialized and read back here: ")


def _loaded_without_its_random_source(game, text, dealing, rng):
    return game.deserialize(text)


def test_a_pickled_state_that_lost_its_random_source_goes_on_otherwise(tmp_path, monkeypatch):
    monkeypatch.setattr(copies, "_state_from", _loaded_without_its_random_source)
    # pickled at the middle of the game: the equal copy goes on, and its next deal is another one
    _fails(tmp_path, Checks(saves=2), HERE + r": the records of play_game and api differ, at their line \d+: "
                                          r"play_game \{\"type\": \"chance\".*, api "
                                          r"\{\"type\": \"chance\"")


def test_a_driver_whose_record_differs(tmp_path, monkeypatch):
    def dropping(game, seed, rules_file, after):
        record = drivers.DRIVERS[0].play(game, seed, rules_file, None)
        return record[:5] + record[6:]

    monkeypatch.setattr(battery, "DRIVERS", [drivers.DRIVERS[0], drivers.Driver("dropping", dropping)])
    _fails(tmp_path, Checks(every=0, saves=0), HERE + r": the records of play_game and dropping differ, at their "
                                                    r"line 6: play_game \{.*\}, "
                                                    r"dropping \{")


def test_a_seed_that_gives_another_record_the_second_time(tmp_path, monkeypatch):
    calls = [0]

    def unsteady(game, seed, rules_file, after):
        calls[0] += 1
        record = runner.play_game(game, seed=seed, record=True, after_each=after).record
        return record if calls[0] == 1 else record[:-2] + record[-1:]

    monkeypatch.setattr(battery, "DRIVERS", [drivers.Driver("unsteady", unsteady)])
    _fails(tmp_path, RECORDS, HERE + r": the same seed gave a different record, at their line \d+: the first time "
                                  r"\{\"type\": \"round\".*, the second \{\"type\": \"result\"")


def test_a_record_that_replays_to_another_end(tmp_path, monkeypatch):
    real = battery.replay

    def replay(path, **kwargs):
        out = real(path, **kwargs)
        out.rounds += 1
        return out

    monkeypatch.setattr(battery, "replay", replay)
    _fails(tmp_path, RECORDS, HERE + r": the replay ended with totals \[.*\] after \d+ rounds, the game with")


def test_the_fingerprint_tells_true_from_one_and_names_where_states_differ():
    game = game_of("euchre", 4)
    state = game.new_state()
    other = state.clone()
    assert fingerprint(state) == fingerprint(other) and hash(fingerprint(state)) == hash(fingerprint(other))
    assert difference(fingerprint(state), fingerprint(other)) is None
    first = next(iter(state.vars))
    state.vars[first], other.vars[first] = 1, True
    assert difference(fingerprint(state), fingerprint(other), ("here", "there")) == \
        f"round values.{first} is 1 here and ('bool', True) there"
    assert len(FINGERPRINT) == len(fingerprint(state))
