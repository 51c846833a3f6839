"""The engine on its own terms: no game inside, checked apply, observations, cloning."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter.engine.observation import observe
from interpreter.engine.state import CHANCE
from interpreter.engine.steps.action_types import Choice, Play
from interpreter.errors import GameError, IllegalAction
from interpreter.rules.yaml_loader import load_yaml_text

from .conftest import ROOT, game_of, snapshot

GAME_NAMES = re.compile(r"njet|m(ü|ue)\b|\bmue|meinz|sticht|t(ü|ue)cke|goldsieber|rio ?grande|euchre|\bhearts\b|"
                        r"spades|whist|oh[- ]?hell|monster|eklat|skat|matador|schneider|ouvert|seeger", re.IGNORECASE)


def bundled_names() -> list[str]:
    """The ``name`` of every bundled rule file."""
    return [load_yaml_text(p.read_text(encoding="utf-8"), str(p))[0]["name"] for p in (ROOT / "games").glob("*.yaml")]


def test_the_interpreter_package_names_no_game():
    names = [n.casefold() for n in bundled_names()]
    hits = []
    for path in (ROOT / "interpreter").rglob("*"):
        if path.suffix in (".py", ".lark", ".json") and "bundled" not in path.parts:
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if GAME_NAMES.search(line) or any(name in line.casefold() for name in names):
                    hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert hits == []


def test_the_game_name_check_would_catch_a_game_name(tmp_path):
    assert GAME_NAMES.search("if rules.name == 'njet-riogrande':")
    assert GAME_NAMES.search("# Mü auction")
    assert GAME_NAMES.search("mue_bonus = 3")
    assert GAME_NAMES.search("hearts broken")
    assert GAME_NAMES.search("schneider announced") and GAME_NAMES.search("# Skat's matadors")
    assert not GAME_NAMES.search("a mute player")
    assert not GAME_NAMES.search("the heart of the engine")
    assert {"njet-riogrande", "meinz", "mit-list-und-tuecke"} <= set(bundled_names())


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


def test_an_illegal_action_is_refused_with_the_legal_ones_named_and_the_state_unchanged():
    game, state = played_until_tricks()
    before = snapshot(state)
    seat = game.current(state)
    other = next(c for s in range(4) if s != seat for c in state.per_seat["hand"][s])
    for wrong in (Play(other, 0), other, Choice(other, "x"), None):
        with pytest.raises(IllegalAction) as err:
            game.apply(state, wrong)
        assert "not legal now" in str(err.value) and game.seat_names[seat] in str(err.value)
        assert "(tricks)" in str(err.value)
        assert all(lab in str(err.value) for lab in game.labels(state))
        assert snapshot(state) == before
    with pytest.raises(IllegalAction):
        game.action_for_label(state, "purple 12")
    assert snapshot(state) == before


def test_an_illegal_choice_is_refused_and_leaves_the_state_unchanged():
    game = game_of("njet-riogrande", 4)
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(2)))
    d = state.pending
    assert (d.kind, d.step.name) == ("cover", "njet")
    before = snapshot(state)
    for wrong in (d.actions[0]._replace(space=99), Play(0, 0), "start: lilac"):
        with pytest.raises(IllegalAction, match=r"is not legal now for \w+ \(njet\); legal: start: "):
            game.apply(state, wrong)
        assert snapshot(state) == before
    game.apply(state, game.action_for_label(state, game.labels(state)[0]))
    assert snapshot(state) != before


def test_a_card_that_does_not_follow_is_refused_when_the_hand_can_follow():
    game, state = played_until_tricks(seed=11)
    rng = random.Random(0)
    while True:  # reach a second player who holds both the led colour and another colour
        game.apply(state, rng.choice(game.legal_actions(state)))
        plays = state.progress.plays
        if plays:
            led_colour = game.cards.attributes["colour"][plays[0][1]]
            hand = state.per_seat["hand"][game.current(state)]
            colours = {game.cards.attributes["colour"][c] for c in hand}
            if led_colour in colours and len(colours) > 1:
                break
    wrong = next(c for c in hand if game.cards.attributes["colour"][c] != led_colour)
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        game.apply(state, Play(wrong, 0))
    assert snapshot(state) == before
    assert all(isinstance(a, Play) for a in game.legal_actions(state))
    assert all(game.cards.attributes["colour"][a.card] == led_colour for a in game.legal_actions(state))


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
    assert (obs["step"], obs["decision"]) == ("tricks", "play")
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
    assert game.legal_actions(copy) is not game.legal_actions(state)
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
    assert "  rounds: setup.rounds " in text
    text = text.replace("  rounds: setup.rounds ", "  until: \"false\" ")
    path = tmp_path / "endless.yaml"
    path.write_text(text)
    import interpreter.engine.rounds as rounds_module
    from interpreter.engine.compile import compile_game
    from interpreter.harness.runner import play_game
    from interpreter.rules.loader import load_rules

    game = compile_game(load_rules(path), 2)
    old = rounds_module.MAX_ROUNDS
    rounds_module.MAX_ROUNDS = 3
    try:
        with pytest.raises(GameError, match=r"endless\.yaml:\d+:\d+: error: the game did not end within 3 rounds "
                           r"\(totals now .*\); its end condition never held"):
            play_game(game, seed=1)
    finally:
        rounds_module.MAX_ROUNDS = old


def test_a_round_asks_in_the_steps_named_in_the_rule_file():
    game = game_of("njet-riogrande", 4)
    state = game.new_state()
    rng = random.Random(4)
    seen: list[tuple[str, str]] = []
    while state.round_number == 1:
        d = state.pending
        if not seen or seen[-1] != (d.step.name, d.kind):
            seen.append((d.step.name, d.kind))
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply(state, rng.choice(d.actions))
    names = [n for n, _ in seen]
    assert names[:2] == ["deal", "njet"] and names[-1] == "tricks"
    kind_of = {s.name: s.kind for s in game.steps}
    decides = {"deal": {"chance"}, "board": {"cover"}, "choose": {"choose"}, "tricks": {"play", "take"}}
    assert all(kind in decides[kind_of[name]] for name, kind in seen), seen
    assert {"deal", "njet", "discard", "pass", "receive", "tricks", "score"} <= set(kind_of)


def test_bundled_files_are_the_ones_in_games_folder():
    from interpreter.rules.catalog import bundled_games

    assert set(bundled_games()) == {p.stem for p in Path(ROOT / "games").glob("*.yaml")}


def test_a_game_past_the_action_limit_names_the_step_it_was_in(monkeypatch):
    import interpreter.engine.game as game_module
    import interpreter.engine.rounds as rounds_module
    from interpreter.harness.runner import play_game

    monkeypatch.setattr(game_module, "MAX_ACTIONS", 50)  # the count, after each action
    monkeypatch.setattr(rounds_module, "MAX_ACTIONS", 50)  # the message, and the count of a playout
    with pytest.raises(GameError, match=r"njet-riogrande\.yaml:\d+:\d+: error: the game took more than 50 actions "
                                        r"\(the last in step '\w+'\); the rules do not end it"):
        play_game(game_of("njet-riogrande", 4), seed=1)
