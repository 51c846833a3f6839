"""The engine on its own terms: no game inside, checked apply, observations, cloning."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter.engine.observation import observe
from interpreter.engine.state import CHANCE
from interpreter.errors import GameError, IllegalAction

from .conftest import ROOT, game_of

GAME_NAMES = re.compile(r"njet|m(ü|ue)\b|\bmue|meinz|sticht|t(ü|ue)cke|goldsieber|rio ?grande", re.IGNORECASE)


def test_the_interpreter_package_names_no_game():
    hits = []
    for path in (ROOT / "interpreter").rglob("*"):
        if path.suffix in (".py", ".lark") and "bundled" not in path.parts:
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if GAME_NAMES.search(line):
                    hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert hits == []


def test_the_game_name_check_would_catch_a_game_name(tmp_path):
    assert GAME_NAMES.search("if rules.name == 'njet-riogrande':")
    assert GAME_NAMES.search("# Mü auction")
    assert GAME_NAMES.search("mue_bonus = 3")
    assert not GAME_NAMES.search("a mute player")


def played_until_tricks(name="njet-riogrande", players=4, seed=3):
    game = game_of(name, players)
    state = game.new_state()
    rng = random.Random(seed)
    while state.pending.step.kind != "tricks":
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply(state, rng.choice(d.actions))
    return game, state


def snapshot(state):
    return (repr(state.per_seat), repr(state.shared), repr(state.vars), repr(state.counters), state.teams,
            state.totals, repr(state.step_data), state.step_index, state.round_number, state.pending.actor)


def test_an_illegal_action_is_refused_with_the_legal_ones_named_and_the_state_unchanged():
    game, state = played_until_tricks()
    before = snapshot(state)
    seat = game.current(state)
    other = next(c for s in range(4) if s != seat for c in state.per_seat["hand"][s])
    with pytest.raises(IllegalAction) as err:
        game.apply(state, other)
    assert "not legal now" in str(err.value) and game.seat_names[seat] in str(err.value)
    assert all(lab in str(err.value) for lab in game.labels(state))
    assert snapshot(state) == before
    with pytest.raises(IllegalAction):
        game.action_for_label(state, "purple 12")
    assert snapshot(state) == before


def test_a_card_that_does_not_follow_is_refused_when_the_hand_can_follow():
    game, state = played_until_tricks(seed=11)
    rng = random.Random(0)
    while True:  # reach a second player who holds both the led colour and another colour
        game.apply(state, rng.choice(game.legal_actions(state)))
        plays = state.step_data["plays"]
        if plays:
            led_colour = game.cards.attributes["colour"][plays[0][1]]
            hand = state.per_seat["hand"][game.current(state)]
            colours = {game.cards.attributes["colour"][c] for c in hand}
            if led_colour in colours and len(colours) > 1:
                break
    wrong = next(c for c in hand if game.cards.attributes["colour"][c] != led_colour)
    with pytest.raises(IllegalAction):
        game.apply(state, wrong)
    assert all(game.cards.attributes["colour"][c] == led_colour for c in game.legal_actions(state))


def test_applying_chance_when_a_seat_must_act_is_refused():
    game, state = played_until_tricks()
    with pytest.raises(IllegalAction):
        game.apply_chance(state, list(game.deck))
    with pytest.raises(GameError):
        game.sample_chance(state, random.Random(1))


def test_an_observation_shows_the_own_hand_and_only_counts_of_the_others():
    game, state = played_until_tricks()
    obs = observe(game, state, 1)
    hands = obs["zones"]["hand"]
    assert isinstance(hands["lilac"], list) and len(hands["lilac"]) == len(state.per_seat["hand"][1])
    for name in ("turquoise", "orange", "green"):
        assert hands[name] == {"count": len(state.per_seat["hand"][game.seat_names.index(name)])}
    assert obs["zones"]["won"]["lilac"] == {"count": 0}  # face down, even for their owner
    assert obs["values"]["trump"] == state.vars["trump"]
    assert obs["to_act"] == game.seat_names[game.current(state)]
    spectator = observe(game, state, None)
    assert all(isinstance(v, dict) for v in spectator["zones"]["hand"].values())


def test_an_observation_names_seats_and_board_spaces_readably():
    game, state = played_until_tricks()
    obs = observe(game, state, 0)
    assert obs["values"]["start"] in game.seat_names
    assert isinstance(obs["values"]["cache"], str)


def test_a_clone_is_independent_of_its_original():
    game, state = played_until_tricks()
    copy = state.clone()
    before = snapshot(state)
    rng = random.Random(5)
    for _ in range(10):
        game.apply(copy, rng.choice(game.legal_actions(copy)))
    assert snapshot(state) == before
    # and the original can still play on to the end
    while not state.finished:
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply(state, rng.choice(d.actions))
    assert game.current(state) is None


def test_labels_of_the_legal_actions_are_unique_at_every_decision():
    game = game_of("njet-riogrande", 3)
    state = game.new_state()
    rng = random.Random(9)
    while not state.finished:
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
            continue
        labels = game.labels(state)
        assert len(labels) == len(set(labels)), labels
        game.apply(state, rng.choice(d.actions))


def test_a_game_that_never_ends_is_stopped(tmp_path):
    text = (ROOT / "games" / "njet-riogrande.yaml").read_text()
    text = text.replace("  rounds: setup.rounds\n", "  until: \"false\"\n")
    path = tmp_path / "endless.yaml"
    path.write_text(text)
    import interpreter.engine.game as game_module
    from interpreter.engine.compile import compile_game
    from interpreter.harness.runner import play_game
    from interpreter.rules.loader import load_rules

    game = compile_game(load_rules(path), 2)
    old = game_module.MAX_ROUNDS
    game_module.MAX_ROUNDS = 3
    try:
        with pytest.raises(GameError, match="did not end within 3 rounds"):
            play_game(game, seed=1)
    finally:
        game_module.MAX_ROUNDS = old


def test_bundled_files_are_the_ones_in_games_folder():
    from interpreter.rules.catalog import bundled_games

    assert set(bundled_games()) == {p.stem for p in Path(ROOT / "games").glob("*.yaml")}
