"""``trickbook simulate``: agents per seat, workers and backends that do not change the results, statistics
with 95% intervals, the progress line, and the HTML report (harness/simulate.py, report.py, distributed.py)."""

from __future__ import annotations

import json
import sys

import pytest

from interpreter.cli import main
from interpreter.harness.runner import play_game
from interpreter.harness.simulate import Estimate, Setup, compiled, game_seed, play_many, simulate

from .test_cli import run


def _summary(workers, backend="processes", games=12):
    setup = Setup("njet-riogrande", 3, (), ("greedy", "random", "ismcts"), True, iterations=2)
    game = compiled("njet-riogrande", 3, (), ())
    return simulate(game, games, "w", None, setup, workers, backend).as_json()


def test_the_same_seed_and_agents_give_the_same_games_on_any_number_of_workers():
    setup = Setup("njet-riogrande", 3, (), ("greedy", "random", "ismcts"), True, iterations=2, digest=True)
    one = list(play_many(setup, 12, "w", 1))
    two = list(play_many(setup, 12, "w", 2))
    assert one == two  # every game: seed, seating, totals, winners, rounds, outcomes, the digest of its record
    assert len({g.digest for g in one}) == 12
    assert [g.index for g in one] == list(range(12)) and len({tuple(g.totals) for g in one}) > 6
    assert [g.lineup[0] for g in one[:3]] == ["greedy", "ismcts", "random"]  # turned a seat each game
    summary = _summary(1)
    assert summary == _summary(2) and summary["by_agent"]["ismcts"]["score"]["n"] == 12


def test_the_dask_backend_gives_the_same_games_in_its_local_mode():
    pytest.importorskip("distributed")
    setup = Setup("oh-hell", 4, (), ("ismcts", "random"), True, iterations=2, digest=True)
    assert list(play_many(setup, 6, "d", 2, "dask-local")) == list(play_many(setup, 6, "d", 1))
    assert _summary(2, "dask-local") == _summary(1)


def test_a_summary_is_what_the_games_gave(capsys):
    game = compiled("oh-hell", 4, (), ())
    summary = simulate(game, 5, 3)
    outs = [play_game(game, seed=game_seed(3, i)) for i in range(5)]
    for s in range(4):
        assert summary.score[s].mean == pytest.approx(sum(o.totals[s] for o in outs) / 5)
        shares = [1 / len(o.winners) if s in o.winners else 0 for o in outs]
        assert summary.wins[s].mean == pytest.approx(sum(shares) / 5)
    assert summary.ties.mean == sum(len(o.winners) > 1 for o in outs) / 5
    assert summary.lengths == [o.rounds for o in outs]
    best = max(max(o.totals) for o in outs)
    seed, value = summary.extremes["best total"]
    assert value == best and max(outs[int(seed.split("/")[1])].totals) == best
    assert sum(summary.outcomes["trump"].values()) == summary.rounds_played == sum(o.rounds for o in outs)


def test_an_estimate_is_a_mean_with_its_95_percent_interval():
    e = Estimate.of([1.0, 2.0, 3.0, 4.0])
    assert e.mean == 2.5 and e.n == 4
    assert e.high - e.mean == pytest.approx(1.959964 * (5 / 3) ** 0.5 / 2)
    share = Estimate.of([1.0, 1.0, 0.0], (0.0, 1.0))
    assert 0 <= share.low and share.high <= 1


def test_text_names_options_as_name_value_and_every_figure_has_an_interval(capsys):
    code, out, err = run(capsys, "simulate", "njet-goldsieber", "-p", "4", "-n", "6", "-o", "short_game=true",
                         "--agents", "greedy,random")
    assert code == 0 and err == ""  # no progress line when stderr is not a terminal
    assert "options short_game=true" in out and "{" not in out.splitlines()[0]
    assert "every figure: the mean, then its 95% confidence interval" in out
    assert "greedy" in out and "ties:" in out and "score spread" in out and "extreme games" in out
    assert "round outcomes" in out and "trump:" in out


def test_json_has_intervals_per_seat_and_agent_and_outcomes(capsys):
    code, out, _ = run(capsys, "simulate", "njet-riogrande", "-p", "4", "-n", "8", "--seed", "1", "--json",
                       "--agents", "greedy,random", "--rotate")
    data = json.loads(out)
    assert data["agents"] == {"turquoise": "greedy", "lilac": "random", "orange": "random", "green": "random"}
    assert set(data["by_agent"]) == {"greedy", "random"}
    for seat in data["seats"].values():
        assert seat["score"]["low"] <= seat["score"]["mean"] <= seat["score"]["high"]
    assert sum(data["outcomes"]["trump"]["values"].values()) == data["outcomes"]["trump"]["rounds"] == 64
    assert data["extremes"]["longest game"]["seed"].startswith("1/")


def test_the_progress_line_shows_on_a_terminal_with_the_time_left(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = run(capsys, "simulate", "oh-hell", "-p", "4", "-n", "3")
    assert code == 0 and "3/3 games" in err and "left" in err
    code, _, err = run(capsys, "simulate", "oh-hell", "-p", "4", "-n", "3", "--json")
    assert err == ""


def test_the_report_is_html_with_plots(tmp_path, capsys):
    path = tmp_path / "r.html"
    code, out, _ = run(capsys, "simulate", "hearts", "-p", "4", "-n", "5", "--report", str(path))
    text = path.read_text()
    assert code == 0 and f"report written to {path}" in out
    assert text.startswith("<!doctype html>") and text.count("<svg") == 6  # advantage, 4 seats, length
    assert "Seat advantage" in text and "North" in text


@pytest.mark.parametrize(("args", "message"), [
    (["--agents", "alphazero"], "unknown agent 'alphazero'"),
    (["--workers", "0"], "--workers and --iterations must be at least 1"),
    (["--move-time", "0"], "--move-time must be a positive number"),
    (["--scheduler", "tcp://x:1"], "--scheduler goes with --backend dask"),
    (["--report", "/no/such/dir/r.html"], "cannot write the report"),
])
def test_bad_simulate_arguments_are_refused_before_any_game(capsys, args, message):
    code, _, err = run(capsys, "simulate", "oh-hell", "-p", "4", "-n", "2", *args)
    assert code == 1 and message in err


def test_help_describes_every_simulate_argument(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = capsys.readouterr().out
    for flag in ("--agents", "--rotate", "--iterations", "--move-time", "--workers", "--backend", "--scheduler",
                 "--report", "--json", "--games", "--seed", "--option"):
        assert flag in out
