"""Hidden teams (a teams step with known: own or nobody) and the reveal step, on docs/examples/hidden-partners.yaml
(the holder of a called ace is the caller's secret partner): what each seat sees before and after reveals, the
teams functions that read only what a seat knows, samples for search that never contradict what a seat knows nor
show it the hidden truth, the playout loop against the checked path, and what validate refuses."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from interpreter.cli import validate_file
from interpreter.engine.compile import compile_game
from interpreter.engine.encoding import ObservationEncoder
from interpreter.engine.knowledge import Knowledge
from interpreter.engine.observation import observe
from interpreter.engine.samples import determinize
from interpreter.engine.state import CHANCE
from interpreter.rules.loader import load_rules

from .conftest import at_step

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "hidden-partners.yaml"
N, E, S, W = range(4)
HANDS = {N: ["clubs 9", "clubs 10", "diamonds 14", "hearts 9", "spades 9", "spades 10"],
         E: ["clubs 11", "clubs 12", "diamonds 9", "hearts 10", "spades 11", "spades 12"],
         S: ["clubs 14", "clubs 13", "diamonds 10", "hearts 11", "spades 13", "hearts 14"],
         W: ["diamonds 11", "diamonds 12", "diamonds 13", "hearts 12", "hearts 13", "spades 14"]}


def _game():
    return compile_game(load_rules(EXAMPLE), 4)


def _play(game, state, label):
    game.apply(state, game.action_for_label(state, label))


def _called(game, label="clubs"):
    """North (left of West, the dealer) calls ``label``; the play is at the first trick, North to lead."""
    state = at_step(game, "call", HANDS, dealer=W)
    _play(game, state, label)
    return state


def _seen_teams(game, state, seat):
    return observe(game, state, seat)["teams"]


def test_before_any_card_each_seat_sees_its_own_team_and_the_caller_s_and_no_more():
    game = _game()
    state = _called(game)
    assert state.teams == [0, 1, 0, 1]                             # the truth: South holds the ace of clubs
    assert _seen_teams(game, state, N) == [["North"], []]          # the caller does not know his partner
    assert _seen_teams(game, state, S) == [["North", "South"], []]  # the partner knows both
    assert _seen_teams(game, state, E) == [["North"], ["East"]]   # an opponent knows its own team only
    assert _seen_teams(game, state, None) == [["North"], []]       # a spectator: what all were told


def test_the_called_ace_played_shows_its_holder_s_team_to_every_seat():
    game = _game()
    state = _called(game)
    _play(game, state, "clubs 9")                                  # North leads clubs
    _play(game, state, "clubs 11")                                 # East
    assert _seen_teams(game, state, N) == [["North"], []]
    _play(game, state, "clubs 14")                              # South plays the called ace
    for seat in (N, E, W):
        assert _seen_teams(game, state, seat)[0] == ["North", "South"]
    assert _seen_teams(game, state, E) == [["North", "South"], ["East"]]


def test_the_called_ace_as_a_trick_s_last_card_shows_its_holder_too():
    game = _game()
    hands = {**HANDS, E: ["clubs 11", "clubs 12", "diamonds 9", "hearts 10", "spades 11", "clubs 14"],
             S: ["spades 12", "clubs 13", "diamonds 10", "hearts 11", "spades 13", "hearts 14"]}
    state = at_step(game, "call", hands, dealer=E)                 # East deals: South calls and leads
    _play(game, state, "clubs")                                    # East holds the ace of clubs
    for label in ("clubs 13", "diamonds 11", "clubs 9"):           # South, West (no clubs), North
        _play(game, state, label)
    assert _seen_teams(game, state, N) == [["South"], ["North"]]
    _play(game, state, "clubs 14")                                 # East's ace ends the trick
    assert _seen_teams(game, state, N) == [["East", "South"], ["North"]]
    assert _seen_teams(game, state, W) == [["East", "South"], ["West"]]


def test_a_spectator_and_every_seat_see_the_whole_teams_once_all_are_revealed():
    game = _game()
    state = _called(game, "spades")                              # West holds it
    assert state.teams == [0, 1, 1, 0]
    assert _seen_teams(game, state, W) == [["North", "West"], []]
    assert _seen_teams(game, state, E) == [["North"], ["East"]]


def test_known_team_reads_only_what_the_asking_seat_knows():
    game = _game()
    state = _called(game)
    assert state.known_team(N, N) == [N]            # North does not know South is with him
    assert state.known_team(S, N) == [N, S]         # South does
    assert state.known_team(E, S) == []             # East does not know South's team
    assert state.known_opponents(E, E) == [N]       # ... but knows North is against it
    assert state.team_members(N) == [N, S]          # the rules' own team() reads the truth
    _play(game, state, "clubs 9")
    _play(game, state, "clubs 11")
    _play(game, state, "clubs 14")
    assert state.known_team(N, N) == [N, S] and state.known_team(E, S) == [N, S]


def test_the_tensor_of_a_game_with_hidden_teams_shows_each_seat_only_what_it_knows():
    game = _game()
    enc = ObservationEncoder(game)
    state = _called(game)
    names = [name for name, _ in enc.layout]
    at = sum(size for name, size in enc.layout[:names.index("team 1")])
    team1 = {s: enc.encode(observe(game, state, s))[at:at + 4] for s in range(4)}
    assert team1[N] == [1.0, 0.0, 0.0, 0.0]         # North sees only itself on team 1
    assert team1[S] == [1.0, 0.0, 1.0, 0.0]         # South sees North and itself


def test_sizes_known_lets_a_seat_count_the_last_member_of_a_team():
    game = _game()
    state = _called(game)
    state.team_counted = True                     # as a teams step with sizes_known: true sets it
    assert state.known_teams(E) == [0, 1, None, None]
    state.team_known[E] |= 1 << W                 # East learns West is with it: team 2 is full
    assert state.known_teams(E) == [0, 1, 0, 1]


def _random_game(game, seed, visit):
    rng = random.Random(seed)
    state = game.new_state()
    knowledge = Knowledge(game, state)
    while not state.finished:
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            visit(state, knowledge, d.actor)
            game.apply(state, d.actions[int(rng.random() * len(d.actions))])
        knowledge.update(state)


def test_samples_work_teams_out_again_from_their_cards_and_agree_with_what_the_seat_knows():
    game = _game()
    checked = [0]

    def visit(state, knowledge, seat):
        if state.team_known is None:
            return
        sample = determinize(game, state, seat, knowledge, random.Random(checked[0]))
        checked[0] += 1
        assert observe(game, sample, seat) == observe(game, state, seat)
        view = state.known_teams(seat)
        assert all(t is None or sample.teams[s] == t for s, t in enumerate(view))
        called = game.cards.labels.index(f"{state.vars['called']} 14")
        caller = (state.dealer + 1) % 4
        holders = [s for s in range(4) if called in sample.per_seat["hand"][s]]
        # the sample's teams are those its own cards make: the caller with whoever holds the ace in the sample
        if holders:
            assert sample.teams[holders[0]] == sample.teams[caller]
            assert sorted(sample.teams) == sorted([0 if s in (caller, holders[0]) else 1 for s in range(4)])

    for seed in range(6):
        _random_game(game, seed, visit)
    assert checked[0] > 100


def test_a_seat_s_samples_of_one_state_put_the_partner_in_every_place_it_could_be():
    game = _game()
    rng = random.Random(3)
    state = game.new_state()
    knowledge = Knowledge(game, state)
    game.apply_chance(state, game.sample_chance(state, rng))
    knowledge.update(state)
    caller = game.current(state)
    labels = game.cards.labels
    mine = {labels[c] for c in state.per_seat["hand"][caller]}
    suit = next(s for s in ("clubs", "diamonds", "hearts", "spades") if f"{s} 14" not in mine)  # not his own
    _play(game, state, suit)
    knowledge.update(state)
    ace = game.cards.labels.index(f"{suit} 14")
    truth = next(s for s in range(4) if ace in state.per_seat["hand"][s])
    seen = Counter()
    for i in range(60):
        sample = determinize(game, state, caller, knowledge, random.Random(i))
        partner = [s for s in range(4) if s != caller and sample.teams[s] == sample.teams[caller]]
        holder = [s for s in range(4) if ace in sample.per_seat["hand"][s]]
        assert partner == holder
        seen[partner[0]] += 1
    assert set(seen) == {s for s in range(4) if s != caller}      # never only the true partner
    assert seen[truth] < 60
    # an opponent who knows its own team: its samples never put the ace in its own hand, nor make it a partner
    other = next(s for s in range(4) if s not in (caller, truth))
    for i in range(30):
        sample = determinize(game, state, other, knowledge, random.Random(i))
        assert sample.teams[other] == state.teams[other] and sample.teams[caller] != sample.teams[other]


def test_the_playout_loop_sets_and_reveals_teams_as_the_checked_path_does():
    """The battery's lockstep compares the teams and what each seat knows of them (with the rest of the state) at
    every decision of playout and of the checked path."""
    from interpreter.conformance.battery import SETTLED, lockstep
    from interpreter.engine.fingerprint import FINGERPRINT

    known_at = SETTLED.index(FINGERPRINT.index("teams known to each seat"))
    for seed in range(4):
        seen = lockstep(_game(), seed, every=1)  # raises ConformanceError where the two differ
        # the partner was revealed in play: some seat then knew three teams (its own, the caller's, the partner's)
        assert any(fingerprint[known_at] is not None and any(bin(m).count("1") >= 3 for m in fingerprint[known_at])
                   for _, _, fingerprint in seen[:-1])


BAD = {
    "fixed teams cannot be hidden": ("teams: {do: teams, teams: [[North, South], [East, West]], known: own}",
                                     "fixed partnerships written as seat names are known to everyone"),
    "sizes_known needs hidden teams": ("teams: {do: teams, teams: [[North, South], [East, West]], "
                                       "sizes_known: true}", "sizes_known is for hidden teams"),
    "reveal needs hidden teams": ("teams: {do: teams, teams: [[North, South], [East, West]]}\n"
                                  "  show: {do: reveal, seats: North}", "reveal tells hidden teams"),
    "reveal names seats": ("teams: {do: teams, teams: \"[seats]\", known: own}\n"
                           "  show: {do: reveal, seats: \"[c for c in deck]\"}",
     "expected a seat or a list of seats, found a list of cards"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_validate_refuses_hidden_teams_that_cannot_work(case, tmp_path):
    steps, message = BAD[case]
    text = EXAMPLE.read_text(encoding="utf-8")
    start = text.index("  teams:\n")
    end = text.index("  tricks:\n")
    path = tmp_path / "bad.yaml"
    path.write_text(text[:start] + "  " + steps + "\n\n" + text[end:], encoding="utf-8")
    errors = validate_file(str(path))
    assert errors and message in errors[0], errors



def test_with_sizes_known_a_seat_counts_the_last_member_of_a_team(tmp_path):
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "    known: own                           # each seat knows its own team, no other",
        "    known: own\n    sizes_known: true")
    assert "sizes_known: true" in text
    path = tmp_path / "counted.yaml"
    path.write_text(text, encoding="utf-8")
    assert validate_file(str(path)) == []
    game = compile_game(load_rules(path), 4)
    state = _called(game)                                           # two against two in this deal
    assert state.team_counted
    assert _seen_teams(game, state, E) == [["North"], ["East"]]
    assert _seen_teams(game, state, None) == [["North"], []]
    for label in ("clubs 9", "clubs 11", "clubs 14"):              # South shows the ace: team 1 is full
        _play(game, state, label)
    assert _seen_teams(game, state, E) == [["North", "South"], ["East", "West"]]
    assert _seen_teams(game, state, None) == [["North", "South"], ["East", "West"]]   # so for a spectator too


def test_with_known_nobody_a_seat_does_not_even_know_its_own_team_until_it_is_revealed(tmp_path):
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "    known: own                           # each seat knows its own team, no other", "    known: nobody")
    path = tmp_path / "nobody.yaml"
    path.write_text(text, encoding="utf-8")
    game = compile_game(load_rules(path), 4)
    state = _called(game)
    assert _seen_teams(game, state, S) == [["North"], []]          # South holds the ace but is not told
    assert state.known_team(S, S) == [] and state.known_teams(S)[S] is None
    checked = []

    def visit(state, knowledge, seat):                              # samples keep only what was revealed
        if state.team_known is not None and len(checked) < 40:
            sample = determinize(game, state, seat, knowledge, random.Random(len(checked)))
            assert observe(game, sample, seat) == observe(game, state, seat)
            checked.append(seat)

    _random_game(game, 1, visit)
    assert len(checked) == 40
