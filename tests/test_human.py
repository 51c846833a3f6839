"""``trickbook play --human SEAT``, driven through its input stream: what a person sees and how answers are
read (harness/agents.py HumanAgent and render_observation, the narration of harness/runner.py)."""

from __future__ import annotations

import io
import re

import pytest

from interpreter.cli import main
from interpreter.harness.agents import HumanAgent, RandomAgent
from interpreter.harness.runner import play_game

from .conftest import game_of


def _play(name, players, seat, answers, seed=3):
    """Play with a person at ``seat`` answering from ``answers`` (then always 1); the text they were shown."""
    game = game_of(name, players)
    queue = list(answers)
    out = io.StringIO()

    def read(_prompt):
        return queue.pop(0) if queue else "1"

    agents = [RandomAgent(f"{seed}:{s}") for s in range(players)]
    agents[seat] = HumanAgent(read=read, out=out)
    lines = []
    play_game(game, agents, seed, narrate=lambda text: out.write(text + "\n"), viewer=seat)
    lines = out.getvalue()
    return game, lines


def _menus(text):
    """Each choice list shown: the numbered labels, in order."""
    menus, current = [], None
    for line in text.splitlines():
        m = re.match(r"\s+(\d+)\. (.*)", line)
        if m:
            if m.group(1) == "1":
                current = []
                menus.append(current)
            current.append(m.group(2))
    return menus


@pytest.mark.parametrize("name", ["njet-riogrande", "whist"])
def test_cards_are_offered_in_the_order_the_hand_shows_them_grouped_by_suit(name):
    game, text = _play(name, 4, 0, [])
    order = {label: game.hand_order[c] for c, label in reversed(list(enumerate(game.cards.labels)))}
    suit = dict(zip(game.cards.labels, game.hand_group))
    hands = re.findall(r"your hand: (.*)", text)
    assert hands
    for hand in hands:
        groups = [g.split(", ") for g in hand.split(" | ")]
        cards = [c for g in groups for c in g]
        assert [order[c] for c in cards] == sorted(order[c] for c in cards)
        assert all(len({suit[c] for c in g}) == 1 for g in groups)  # one suit per group
        assert len({suit[c] for c in cards}) == len(groups)
    plays = [m for m in _menus(text) if all(c in order for c in m)]
    assert len(plays) > 10
    for menu in plays:
        assert [order[c] for c in menu] == sorted(order[c] for c in menu)


def test_the_status_names_values_as_the_narration_and_shows_unset_ones_and_tricks_won():
    _, text = _play("njet-riogrande", 4, 0, [])
    first = text.split("turquoise, cover a space")[0]
    assert "  tricks: turquoise 0, lilac 0, orange 0, green 0" in first  # before anyone has a trick
    status = next(line for line in text.splitlines() if line.startswith("  start player: "))
    assert "supertrump (the 0s of a colour): " in status and "points per trick and captured 0: " in status
    assert "monster: none" in status  # a value without one is shown, not dropped


def test_the_person_sees_the_trick_number_who_leads_and_the_last_trick():
    _, text = _play("oh-hell", 4, 0, [])
    assert re.search(r"  trick 1: (you lead|[A-D] leads)", text)
    assert re.search(r"  trick \d+, led by [A-D]: [A-D] ", text)
    assert re.search(r"  last trick: .* -> [A-D] won it", text)


def test_after_a_pass_the_person_is_told_the_cards_received():
    _, text = _play("njet-riogrande", 4, 0, [])
    received = re.findall(r"you receive: (.*)", text)
    assert received and all(len(r.split(", ")) in (1, 2) for r in received)
    hand_after = text.split("you receive: " + received[0])[1]
    hand = re.search(r"your hand: (.*)", hand_after).group(1).split(", ")
    assert all(card in hand or card in hand_after for card in received[0].split(", "))


def test_each_round_score_is_explained():
    _, text = _play("meinz", 4, 0, [])
    assert re.search(r"    Alex [+-]\d+: \d+ in tricks; the places by [\d, ]+ score 3, 1, 0, 2", text)


def test_an_ambiguous_start_of_a_label_gets_a_hint_and_nonsense_the_rule():
    # oh hell's first decision is a bid: 0, 1, ... ; then cards: "1" is a number, "nonsense" fits nothing
    game, text = _play("oh-hell", 4, 0, ["nonsense", "99", "1"])
    assert text.count("please answer with a number from 1 to") == 2
    _, text = _play("njet-riogrande", 4, 0, ["start", "start: lilac"])
    assert "'start' fits 4 choices (start: turquoise, start: lilac, start: orange, start: green): type more" in text
    assert "turquoise covers start player: lilac" in text


def test_every_play_without_a_seed_deals_a_new_game_and_prints_its_seed(capsys):
    seeds = set()
    for _ in range(3):
        assert main(["play", "oh-hell", "-p", "4", "--quiet"]) == 0
        out = capsys.readouterr().out
        seed = re.search(r"seed (\d+): play this game again with:\n  trickbook play oh-hell -p 4 --seed \1\n",
                         out).group(1)
        seeds.add(seed)
        again = main(["play", "oh-hell", "-p", "4", "--quiet", "--seed", seed])
        assert again == 0 and capsys.readouterr().out.split("seed")[0] == out.split("seed")[0]
    assert len(seeds) > 1


def test_the_command_play_prints_plays_that_very_game_again_agents_options_and_all(capsys):
    import shlex

    assert main(["play", "hearts", "-p", "4", "--quiet", "--agents", "greedy,ismcts,random", "--iterations", "3",
                 "-o", "moon=others +26"]) == 0
    out = capsys.readouterr().out
    command = out.splitlines()[-1].strip()
    assert command.endswith("-o 'moon=others +26' --agents greedy,ismcts,random --iterations 3")
    words = shlex.split(command)
    assert words[:2] == ["trickbook", "play"]
    assert main(words[1:] + ["--quiet"]) == 0
    assert capsys.readouterr().out.split("seed")[0] == out.split("seed")[0]


def test_the_extreme_games_of_simulate_come_with_the_command_that_plays_each_again(capsys):
    import json
    import shlex

    assert main(["simulate", "oh-hell", "-p", "4", "-n", "6", "--agents", "greedy,random", "--rotate",
                 "--seed", "5", "--json"]) == 0
    extremes = json.loads(capsys.readouterr().out)["extremes"]
    best = extremes["best total"]
    words = shlex.split(best["replay"])
    assert words[:3] == ["trickbook", "play", "oh-hell"] and f"--seed {best['seed']}" in best["replay"]
    assert "--agents" in words  # the lineup of that game, turned as --rotate turned it
    assert main(words[1:] + ["--quiet"]) == 0
    totals = capsys.readouterr().out.splitlines()[0]
    assert f" {best['value']}" in totals or f" {best['value']}," in totals


def test_version_and_help_for_every_argument(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["--version"])
    assert re.match(r"trickbook \d+\.\d+\.\d+", capsys.readouterr().out)
    for command in ("validate", "list", "play", "simulate", "replay", "conformance"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        blocks = re.split(r"\n(?=  \S)", out.split("options:")[-1])
        for block in blocks[1:]:  # every option has a description after its name
            assert len(block.split("  ")) > 2 or "\n" in block, (command, block)


def test_a_hand_is_grouped_by_deck_group_or_by_the_attribute_with_fewest_values(tmp_path):
    from .test_steps import DEAL_3, DECK, make, refusal, rules

    game = make(tmp_path, DEAL_3)  # suits x, y, z of ranks 1-4: grouped by suit (3 values against 4)
    assert [game.cards.labels[c] for c in sorted(range(12), key=game.hand_order.__getitem__)][:5] == \
        ["x1", "x2", "x3", "x4", "y1"]
    by_rank = make(tmp_path, DEAL_3, deck=DECK.replace("deck:\n", "deck:\n  group: rank\n"))
    assert [by_rank.cards.labels[c] for c in sorted(range(12), key=by_rank.hand_order.__getitem__)][:4] == \
        ["x1", "y1", "z1", "x2"]
    line, message = refusal(tmp_path, rules(DEAL_3, deck=DECK.replace("deck:\n", "deck:\n  group: colour\n")))
    assert message == "deck.group names 'colour', which is not a card attribute (rank, suit)"
