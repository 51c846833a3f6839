"""The Was sticht? house rule docs/examples/was-sticht-red.yaml: a new function card, "exactly 0 tricks of
red" (two of them), written without Python: a deck group of its own and the define house_function(s, f).
It is fulfilled when none of the tricks the player won holds a red card, also when he won no trick.

Seats as in tests/test_was_sticht_rules.py: Alex, Bernhard, Carsten, Daniel; the start player is the dealer.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import pytest

from interpreter.engine.compile import compile_game, supported_players
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.harness.runner import play_game
from interpreter.match.writer import Outcome
from interpreter.rules.loader import load_rules

from .conftest import at_step, card

ROOT = Path(__file__).resolve().parents[1]
VARIANT = ROOT / "docs" / "examples" / "was-sticht-red.yaml"
ALEX, BERNHARD, CARSTEN, DANIEL = range(4)
RED0 = "exactly 0 tricks of red"
NUMBERS = [f"{c} {n}" for c in ("red", "blue", "green", "yellow") for n in range(1, 10)]


@functools.cache
def game_of(name: str, players: int) -> Game:
    """The compiled variant (``was-sticht-red``) or base game (``was-sticht``), compiled once per test run."""
    return compile_game(load_rules(VARIANT if name == "was-sticht-red" else name), players)


def labels(game: Game, cards: list[int]) -> list[str]:
    return [game.cards.labels[c] for c in cards]


def functions_of(game: Game) -> Counter:
    return Counter(game.cards.labels[c] for c in game.deck if game.cards.attributes["kind"][c] == "function")


# ======================================================================= the deck


def test_the_variant_adds_two_function_cards_and_keeps_the_rest_of_the_game() -> None:
    variant, base = game_of("was-sticht-red", 4), game_of("was-sticht", 4)
    assert variant.name == "was-sticht-red" and base.name == "was-sticht"
    assert supported_players(load_rules(VARIANT)) == [3, 4]
    functions = functions_of(variant)
    assert sum(functions.values()) == 26 and functions[RED0] == 2
    assert functions - Counter({RED0: 2}) == functions_of(base)          # the base's 24, unchanged
    assert Counter(variant.cards.labels) - Counter({RED0: 2}) == Counter(base.cards.labels)
    assert [s.name for s in variant.steps] == [s.name for s in base.steps]
    assert variant.deck_start == "box"                                     # deck.start kept by the merge
    red0 = card(variant, RED0)
    assert variant.cards.attributes["goal"][red0] == "no tricks of"
    assert variant.cards.attributes["colour"][red0] == "red"


def test_the_draft_offers_all_26_function_cards() -> None:
    game = game_of("was-sticht-red", 4)
    state = game.new_state()
    offered = Counter(labels(game, state.shared["offer"]))
    assert sum(offered.values()) == 26 and offered[RED0] == 2


# ======================================================================= the new function at round end


def at_round_end(functions: dict[int, list[str]], won: dict[int, list[str]], tricks: tuple[int, ...],
                 dealer: int = ALEX, last: int | None = None) -> tuple[Game, State]:
    """A 4-player round at its step ``fulfilled``, after the tricks: each seat holds ``functions`` and chose
    the first of them (the start player chooses none), won the cards ``won`` and ``tricks`` tricks.
    The engine then runs the round-end steps (fulfilled, discard, start_player, score)."""
    game = game_of("was-sticht-red", 4)
    state = game.new_state()
    # the card ids at_step will give, in its order (hand, then the zones as given): chosen = the one held
    taken: set[int] = set()
    for seat_cards in won.values():
        for label in seat_cards:
            card(game, label, taken)
    held = {seat: [card(game, label, taken) for label in cards] for seat, cards in functions.items()}
    state.seat_vars["chosen"] = [None if seat == dealer else held[seat][0] for seat in range(4)]
    state.counters["tricks"] = list(tricks)
    state = at_step(game, "goals_met", {}, state=state, dealer=dealer, last_winner=last,
                    zones={"won": won, "functions": functions})
    return game, state


def fulfilled(game: Game, state: State) -> list[list[str]]:
    return [labels(game, f) for f in state.per_seat["fulfilled"]]


def test_won_tricks_without_a_red_card_fulfil_it_and_a_red_card_in_a_won_trick_does_not() -> None:
    won = {BERNHARD: ["blue 3", "blue 4", "green 1", "yellow 9"],               # one trick, no red
           CARSTEN: ["green 7", "red 1", "blue 2", "yellow 2"],                 # one trick with a red 1
           ALEX: ["red 9", "blue 9", "green 9", "yellow 8", "red 8", "blue 8", "green 8", "yellow 7",
                  "red 7", "blue 7", "green 6", "yellow 6"]}                   # three tricks with reds
    won[DANIEL] = [c for c in NUMBERS if c not in sum(won.values(), [])]       # four tricks, the rest
    assert sorted(sum(won.values(), [])) == sorted(NUMBERS)
    functions = {ALEX: ["exactly 4 tricks"], BERNHARD: [RED0, "no tricks"], CARSTEN: [RED0, "exactly 2 tricks"],
                 DANIEL: ["the most tricks"]}
    game, state = at_round_end(functions, won, tricks=(3, 1, 1, 4), last=DANIEL)
    # Alex (start player) won red cards: he did not fulfil Carsten's function either, so he discards nothing
    assert state.round_number == 2 and not state.finished
    assert fulfilled(game, state) == [[], [RED0], [], ["the most tricks"]]
    assert labels(game, state.per_seat["functions"][BERNHARD]) == ["no tricks"]
    assert labels(game, state.per_seat["functions"][CARSTEN]) == [RED0, "exactly 2 tricks"]
    assert state.totals == [0, 1, 0, 1]


def test_no_trick_at_all_fulfils_it_unlike_no_red_cards() -> None:
    won = {ALEX: NUMBERS[:20], DANIEL: NUMBERS[20:]}                          # Alex 5 tricks, all the reds
    functions = {ALEX: ["the last trick"], BERNHARD: [RED0], CARSTEN: ["no red cards"],
                 DANIEL: ["exactly 4 tricks"]}
    game, state = at_round_end(functions, won, tricks=(5, 0, 0, 4), last=ALEX)
    assert state.round_number == 2
    assert fulfilled(game, state) == [[], [RED0], [], ["exactly 4 tricks"]]
    assert state.totals == [0, 1, 0, 1]


def test_the_start_player_discards_one_of_his_own_when_he_fulfils_it_and_its_owner_did_not() -> None:
    # Carsten took a trick with a red card; Alex (start player) won two tricks without red
    won = {ALEX: ["blue 1", "blue 2", "blue 3", "blue 4", "green 1", "green 2", "green 3", "green 4"],
           CARSTEN: ["red 5", "yellow 1", "yellow 2", "yellow 3"]}
    functions = {ALEX: ["exactly 4 tricks", "the last trick"], BERNHARD: ["no tricks"],
                 CARSTEN: [RED0], DANIEL: ["exactly 1 trick"]}
    game, state = at_round_end(functions, won, tricks=(2, 3, 1, 3), last=BERNHARD)
    assert state.pending.step.name == "start_player" and state.pending.actor == ALEX
    assert "no discard" in game.labels(state)                 # the base's optional discard, inherited
    game.apply(state, game.action_for_label(state, "the last trick"))
    assert fulfilled(game, state) == [["the last trick"], [], [], []]
    assert labels(game, state.per_seat["functions"][CARSTEN]) == [RED0]
    assert state.totals == [1, 0, 0, 0] and state.round_number == 2


# ======================================================================= whole games


def played(game: Game, seed: int) -> tuple[Outcome, State]:
    """A whole game with random bots, and its state at the end."""
    seen: list[State] = []

    def keep(state: State) -> None:
        if not seen:                 # the runner plays one state object from start to end
            seen.append(state)

    return play_game(game, seed=seed, after_each=keep), seen[0]


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_end_when_a_player_has_fulfilled_four_functions(players: int) -> None:
    game = game_of("was-sticht-red", players)
    functions = {c for c in game.deck if game.cards.attributes["kind"][c] == "function"}
    for seed in range(2):
        result, state = played(game, seed)
        assert state.finished and max(result.totals) == 4 and all(0 <= t <= 4 for t in result.totals)
        assert result.winners == [s for s, t in enumerate(result.totals) if t == 4]
        assert [len(f) for f in state.per_seat["fulfilled"]] == result.totals     # a point per function
        assert [len(f) + len(d) for f, d in zip(state.per_seat["functions"], state.per_seat["fulfilled"])] \
            == [4] * players                                                    # each drafted four
        held = [c for z in ("functions", "fulfilled") for cards in state.per_seat[z] for c in cards]
        assert sorted(held + [c for c in state.shared["box"] if c in functions]) == sorted(functions)


def test_rule_files_md_shows_the_variant_whole() -> None:
    doc = (ROOT / "docs" / "rule-files.md").read_text(encoding="utf-8")
    text = VARIANT.read_text(encoding="utf-8")
    assert f"```yaml\n{text}```" in doc
    assert "trickbook validate docs/examples/was-sticht-red.yaml" in doc
