"""trickbook compare: two rule files played with the same seeds and agents, every statistic compared game by
game, the differences' 95% intervals, the verdict and the games a difference would need."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.harness.compare import Difference, compare, games_needed, paired, verdict_word
from interpreter.harness.simulate import Played

ROOT = Path(__file__).resolve().parents[1]
JACK = str(ROOT / "docs" / "examples" / "hearts-jack.yaml")


def run(capsys, *args):
    try:
        code = main([*args])
    except SystemExit as exc:  # a usage error ends as argparse's do: exit 2
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_the_same_file_twice_plays_the_same_games_and_finds_no_difference(capsys):
    code, out, _ = run(capsys, "compare", "hearts", "hearts", "-p", "4", "-n", "12", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 12 and data["identical_games"] == 12
    assert all(d["difference"] == 0 and d["low"] == d["high"] == 0 and not d["real"] for d in data["differences"])
    assert data["verdict"].startswith("No difference: the 12 games went exactly alike")


def test_a_scoring_house_rule_changes_the_totals_and_the_comparison_says_so(capsys):
    # the jack of diamonds at -10 changes no card played: each game's first hands are played alike in both
    # files, and the lower totals make the games longer (the game ends when a seat reaches 100)
    code, out, _ = run(capsys, "compare", "hearts", JACK, "-p", "4", "-n", "40", "--json")
    data = json.loads(out)
    by = {d["statistic"]: d for d in data["differences"]}
    assert code == 0 and data["identical_games"] == 0
    assert by["rounds per game"]["real"] and by["rounds per game"]["low"] > 3  # about 5 hands longer
    assert all(by[f"mean total {seat}"]["difference"] < 0 for seat in ("North", "East", "South", "West"))
    assert "rounds per game" in data["real"]
    assert re.match(r"\d+ of \d+ differences are real at 40 games: ", data["verdict"])


def test_the_text_names_the_pairing_every_group_and_a_verdict(capsys):
    code, out, _ = run(capsys, "compare", "hearts", "hearts", "-p", "4", "-n", "6", "--variant-option",
                       "queen_breaks_hearts=true", "--agents", "greedy,random")
    assert code == 0
    assert out.splitlines()[0] == ("compare: hearts (base) with hearts (queen_breaks_hearts=true) (variant), "
                                   "4 players, 6 paired games, seed 0")
    assert "the same seed and the same agents in the same seats (greedy, random, random, random)" in out
    for group in ("win share per seat", "seat advantage:", "final totals:", "game length:", "round outcomes"):
        assert group in out
    assert out.rstrip().splitlines()[-1].startswith("verdict: ")


def test_the_html_report_has_a_forest_plot_per_group_with_its_axis_and_a_legend(tmp_path, capsys):
    path = tmp_path / "c.html"
    code, out, _ = run(capsys, "compare", "hearts", JACK, "-p", "4", "-n", "5", "--report", str(path))
    text = path.read_text()
    assert code == 0 and f"report written to {path}" in out
    assert text.startswith("<!doctype html>") and "Verdict." in text
    titles = re.findall(r"class='x-title'>([^<]*)</text>", text)
    groups = re.findall(r"<h2>([^<]*)</h2>", text)
    assert groups[:5] == ["Win share per seat (a shared win counts 1/k)", "Seat advantage", "Final totals",
                          "Game length", "Ties"]
    assert len(titles) == len(groups)  # one plot per group, each with its axis title and unit
    assert titles[:3] == ["difference, variant minus base (points of percentage)"] * 2 + [
        "difference, variant minus base (points)"]
    assert "real difference: its interval leaves out 0" in text


@pytest.mark.parametrize(("args", "message"), [
    (["meinz", "njet-goldsieber", "-p", "3"], "do not seat alike with 3 players"),
    (["hearts", "hearts", "-p", "4", "-n", "0"], "--games must be from 1"),
    (["hearts", "hearts", "-p", "4", "--detect", "0"], "--detect takes points of percentage"),
    (["hearts", "hearts", "-p", "4", "--variant-option", "nosuch=1"], "nosuch"),
])
def test_refusals_say_why(capsys, args, message):
    code, out, err = run(capsys, "compare", *args)
    assert code != 0 and message in err and "Traceback" not in err


def _played(i: int, totals: list[int], winners: list[int], rounds: int = 3, outcomes=None) -> Played:
    return Played(i, f"s/{i}", ["random"] * len(totals), totals, winners, rounds, outcomes or {})


def test_a_paired_difference_is_the_mean_of_the_per_game_differences_with_its_interval():
    d = paired("x", "points", [1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 5.0, 7.0])
    diffs = [1.0, 0.0, 2.0, 3.0]
    sd = math.sqrt(sum((x - 1.5) ** 2 for x in diffs) / 3)
    assert (d.base, d.variant, d.difference) == (2.5, 4.0, 1.5)
    assert d.low == pytest.approx(1.5 - 1.959964 * sd / 2) and d.high == pytest.approx(1.5 + 1.959964 * sd / 2)
    assert d.real is (d.low > 0)
    assert d.needed == games_needed(sd, 1.5)


def test_games_needed_follows_the_power_formula_and_says_nothing_without_spread():
    # n = ((z_0.975 + z_0.8) * sd / size)^2: sd 1, size 0.28 -> 100.1 -> 101 games
    assert games_needed(1.0, 0.28) == math.ceil(((1.959964 + 0.841621) / 0.28) ** 2) == 101
    assert games_needed(0.0, 1.0) is None and games_needed(1.0, 0.0) is None
    assert games_needed(1.0, 1e-9) == 10_000_001  # said as "more than 10,000,000"
    tiny = Difference("x", "points", 0, 1e-9, -1, 1, games_needed(1.0, 1e-9))
    assert verdict_word(tiny) == "not shown (more than 10,000,000 games would be needed to show one this size)"


def test_round_outcomes_are_compared_as_shares_of_each_games_rounds():
    base = [_played(i, [1, 2], [0], 4, {"trump": Counter({"red": 4})}) for i in range(5)]
    variant = [_played(i, [1, 2], [0], 4, {"trump": Counter({"red": 2, "blue": 2})}) for i in range(5)]
    c = compare(base, variant, seats=["A", "B"], base_name="a", variant_name="b", seed=0, agents=["random"],
                rotate=False)
    by = {d.name: d for d in c.differences}
    assert by["trump: red"].difference == pytest.approx(-0.5) and by["trump: blue"].difference == pytest.approx(0.5)
    assert by["trump: red"].real and c.identical == 5  # totals and winners alike, round outcomes not


def test_unpaired_games_are_refused():
    with pytest.raises(ValueError, match="not paired"):
        compare([_played(0, [1, 2], [0])], [_played(1, [1, 2], [0])], seats=["A", "B"], base_name="a",
                variant_name="b", seed=0, agents=["random"], rotate=False)
