"""``trickbook simulate``: agents per seat, workers and backends that do not change the results, statistics
with 95% intervals, the progress line, the HTML report, at most as many processes as games, and a Ctrl-C
that stops every worker with one line (harness/simulate.py, runner.py, report.py)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from interpreter.cli import main
from interpreter.harness.engines import run_game
from interpreter.harness.runner import play_game, sigint_held
from interpreter.harness.simulate import Estimate, Setup, game_seed, play_many, sides_of, simulate, wilson

from .conftest import ROOT, terminal_sigint
from .test_cli import run


def _summary(workers, backend="processes", games=12):
    setup = Setup("njet-riogrande", 3, (), ("greedy", "random", "ismcts"), True, iterations=2)
    game = run_game("njet-riogrande", 3, (), ())
    return simulate(game, games, "w", None, setup, workers, backend).as_json()


def test_the_same_seed_and_agents_give_the_same_games_on_any_number_of_workers():
    setup = Setup("njet-riogrande", 3, (), ("greedy", "random", "ismcts"), True, iterations=2, digest=True)
    one = list(play_many(setup, 8, "w", 1))
    two = list(play_many(setup, 8, "w", 2))
    assert one == two  # every game: seed, seating, totals, winners, rounds, outcomes, the digest of its record
    assert len({g.digest for g in one}) == 8
    assert [g.index for g in one] == list(range(8)) and len({tuple(g.totals) for g in one}) > 4
    assert [g.lineup[0] for g in one[:3]] == ["greedy", "ismcts", "random"]  # turned a seat each game
    summary = _summary(1)
    assert summary == _summary(2) and summary["by_agent"]["ismcts"]["score"]["n"] == 12


def test_the_dask_backend_gives_the_same_games_in_its_local_mode():
    pytest.importorskip("distributed")
    setup = Setup("oh-hell", 4, (), ("ismcts", "random"), True, iterations=2, digest=True)
    assert list(play_many(setup, 6, "d", 2, "dask-local")) == list(play_many(setup, 6, "d", 1))
    assert _summary(2, "dask-local") == _summary(1)


def test_a_summary_is_what_the_games_gave(capsys):
    game = run_game("oh-hell", 4, (), ())
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


def test_sides_are_the_seats_on_one_team_at_the_end_of_every_round():
    assert sides_of([[0, 1, 0, 1], [0, 1, 0, 1]], 4) == [0, 1, 0, 1]  # (partners throughout: one side)
    assert sides_of([[0, 1, 0, 1], [1, 1, 0, 1]], 4) == [0, 1, 2, 1]  # (seats 1 and 3 stayed together)
    assert sides_of([[1, 0, 1, 1], [1, 1, 1, 0], [0, 1, 1, 1]], 4) == [0, 1, 2, 3]
    assert sides_of([], 3) == [0, 1, 2]  # (no teams kept: each seat its own)


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_partnership_winning_is_no_tie_and_parties_of_one_round_are_no_side(engine, monkeypatch):
    """Spades' partners win together (two winners, one side): no tie. Schafkopf's parties change from deal to deal,
    and each seat's team is kept as each deal ended (not the next deal's, which begins in the same action): seats are
    one side only where they played together in every deal of the game. On both backends (the compiled one as plain
    Python)."""
    from interpreter.compiled.machine import Machine
    from interpreter.harness import simulate as simulate_module

    from .conftest import SHORTER

    monkeypatch.setattr(simulate_module, "machine_for",
                        lambda rules, players, options, allow: Machine(run_game(rules, players, options, allow)))
    for name in ("spades", "schafkopf"):
        options = tuple(SHORTER[name].items())
        setup = Setup(name, 4, options, ("random",), engine=engine)
        games = list(play_many(setup, 4, 5, 1))
        if name == "spades":
            assert all(g.sides == [0, 1, 0, 1] for g in games), [g.sides for g in games]
            assert any(len(g.winners) == 2 and not g.tied for g in games)
        else:
            assert [0, 1, 2, 3] in [g.sides for g in games] and all(g.sides != [0, 1, 0, 1] for g in games)
        assert all(g.tied == (len({g.sides[s] for s in g.winners}) > 1) for g in games)
        game = run_game(name, 4, options, ())
        summary = simulate(game, 4, 5, None, setup, 1)
        assert summary.ties.mean == sum(g.tied for g in games) / 4
    teams: list[list[int]] = []
    play_game(run_game("schafkopf", 4, tuple(SHORTER["schafkopf"].items()), ()), seed=2, round_values=[],
              round_teams=teams)
    assert teams and all(sorted(t) != [0, 1, 2, 3] for t in teams), teams  # (the deal's parties, two teams)


def test_an_estimate_is_a_mean_with_its_95_percent_interval():
    e = Estimate.of([1.0, 2.0, 3.0, 4.0])
    assert e.mean == 2.5 and e.n == 4
    assert e.high - e.mean == pytest.approx(1.959964 * (5 / 3) ** 0.5 / 2)


def test_a_share_has_wilsons_interval_which_does_not_collapse_at_0_or_1():
    # 4 games out of 4: the normal approximation says "100% (100% to 100%)"; Wilson's interval is 51% to 100%
    all_won = Estimate.share([1.0] * 4)
    assert all_won.mean == 1.0 and all_won.high == 1.0
    assert all_won.low == pytest.approx(0.5101, abs=1e-4)
    none_won = Estimate.share([0.0] * 10)
    assert none_won.low == 0.0 and none_won.high == pytest.approx(0.2775, abs=1e-4)
    # a textbook value: 81 of 263 -> 0.2553 to 0.3662 (Wilson, 95%)
    assert wilson(81, 263) == (pytest.approx(0.2553, abs=1e-4), pytest.approx(0.3662, abs=1e-4))
    # shared wins count 1/k; the interval stays inside 0..1 and around the mean
    shared = Estimate.share([0.5, 0.5, 1.0, 0.0, 1 / 3])
    assert 0 < shared.low < shared.mean < shared.high < 1
    assert Estimate.share([]).n == 0


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
    assert text.startswith("<!doctype html>") and text.count("<svg xmlns") == 6  # advantage, 4 seats, length
    assert "Seat advantage" in text and "North" in text
    # every plot names its axes, with units, and the advantage plot has a legend of its three marks
    titles = re.findall(r"class='x-title'>([^<]*)</text>.*?class='y-title'[^>]*>([^<]*)</text>", text)
    assert titles == [("seat", "win share (% of games)")] + [
        (f"final total of {seat} (points)", "games") for seat in ("North", "East", "South", "West")] + [
        ("game length (rounds)", "games")]
    legend = re.search(r"<p class='legend'>(.*?)</p>", text)
    assert legend is not None
    assert ["win share", "95% interval (Wilson)", "fair share 1/4"] == re.findall(r"</svg> ([^<]+)</span>",
                                                                                  legend.group(1))


@pytest.mark.parametrize(("args", "message"), [
    (["--agents", "alphazero"], "unknown agent 'alphazero'"),
    (["--report", "/no/such/dir/r.html"], "cannot write the report"),
])
def test_bad_simulate_arguments_are_refused_before_any_game(capsys, args, message):
    code, _, err = run(capsys, "simulate", "oh-hell", "-p", "4", "-n", "2", *args)
    assert code == 1 and message in err


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "oh-hell", "-p", "4", "-n", "2", "--workers", "0"], "--workers must be from 1 to 256, not 0"),
    (["simulate", "oh-hell", "-p", "4", "-n", "2", "--workers", "100000"],
     "--workers must be from 1 to 256, not 100000"),
    (["simulate", "oh-hell", "-p", "4", "-n", "2", "--workers", "257"], "--workers must be from 1 to 256, not 257"),
    (["conformance", "oh-hell", "-n", "2", "--workers", "257"], "--workers must be from 1 to 256, not 257"),
    (["simulate", "oh-hell", "-p", "4", "-n", "10000001"], "--games must be at most 10,000,000, not 10,000,001"),
    (["conformance", "oh-hell", "-n", "99999999999"], "--games must be at most 10,000,000, not 99,999,999,999"),
    (["simulate", "oh-hell", "-p", "4", "-n", "0"], "--games must be at least 1"),
    (["simulate", "oh-hell", "-p", "4", "-n", "2", "--iterations", "0"], "--iterations must be at least 1"),
    (["play", "oh-hell", "-p", "4", "--iterations", "0"], "--iterations must be at least 1"),
    (["play", "oh-hell", "-p", "4", "--move-time", "-1"], "--move-time must be a positive number of seconds"),
    (["simulate", "oh-hell", "-p", "4", "-n", "2", "--move-time", "0"],
     "--move-time must be a positive number of seconds"),
    (["simulate", "oh-hell", "-p", "4", "-n", "2", "--scheduler", "tcp://x:1"],
     "--scheduler goes with --backend dask"),
])
def test_arguments_out_of_range_are_one_line_and_exit_2(capsys, args, message):
    with pytest.raises(SystemExit) as exc:
        main(args)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.splitlines() == [f"trickbook: error: {message}"]


class _Pool:
    """A stand-in for the worker pool: notes how many processes were asked for and plays here."""

    asked: list[int] = []

    def __init__(self, workers):
        self.asked.append(workers)

    def imap(self, fn, tasks):
        return map(fn, tasks)

    imap_unordered = imap


@contextlib.contextmanager
def _fake_pool(workers):
    yield _Pool(workers)


def test_no_more_processes_are_started_than_there_are_games(monkeypatch, capsys):
    from interpreter.conformance import runs as conformance
    from interpreter.harness import simulate as simulate_module

    monkeypatch.setattr(simulate_module, "process_pool", _fake_pool)
    monkeypatch.setattr(conformance, "process_pool", _fake_pool)
    _Pool.asked = []
    setup = Setup("oh-hell", 4)
    assert len(list(play_many(setup, 3, "w", 48))) == 3
    code, out, _ = run(capsys, "simulate", "oh-hell", "-p", "4", "-n", "2", "--workers", "48", "--json")
    assert code == 0 and json.loads(out)["games"] == 2
    assert _Pool.asked == [3, 2]
    _Pool.asked = []
    tallies = conformance.run([("oh-hell", 4, ())], 3, 48, chunk=1)
    assert sum(t.games for t in tallies) == 3 and _Pool.asked == [3]
    code, out, _ = run(capsys, "conformance", "oh-hell", "-p", "4", "-n", "2", "--workers", "48")
    assert code == 0 and "2 games in" in out and "on 1 process," in out and _Pool.asked == [3]


# ---------------------------------------------------------------- Ctrl-C: one line, exit 130, no worker's traceback


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
    return found


def _interrupted(*args: str) -> subprocess.CompletedProcess:
    """Start ``trickbook simulate`` with 2 workers, wait until its workers play, then press Ctrl-C: SIGINT to the
    whole process group, as a terminal sends it."""
    argv = [sys.executable, "-m", "interpreter.cli", "simulate", "hearts", "-p", "4", "-n", "100000", "--workers",
            "2", *args]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            start_new_session=True, preexec_fn=terminal_sigint)
    try:
        for _ in range(600):  # polls, not a deadline: the two workers (and multiprocessing's resource tracker)
            if len(_children(proc.pid)) >= 3 or proc.poll() is not None:
                break
            time.sleep(0.1)
        time.sleep(1.5)  # their imports done, games under way
        assert proc.poll() is None, proc.communicate()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs signal masks")
def test_a_ctrl_c_while_sigint_is_held_comes_at_the_end_even_when_another_thread_takes_the_signal():
    """The kernel hands a process's SIGINT to any thread that does not block it (OpenBLAS starts such threads
    when NumPy is imported), and Python runs the handler in the main thread all the same: blocking the signal in
    the main thread alone let a Ctrl-C break into the start of a Dask cluster, left to close, noisily, at exit."""
    other = threading.Event()
    thread = threading.Thread(target=other.wait)  # started before the hold: SIGINT not blocked there
    thread.start()
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    reached = []
    try:
        with pytest.raises(KeyboardInterrupt):
            with sigint_held():
                os.kill(os.getpid(), signal.SIGINT)
                for _ in range(200):  # Python runs on, checking for signals: the handler must not run in here
                    time.sleep(0.001)
                reached.append("the end of the body")
    finally:
        signal.signal(signal.SIGINT, old)
        other.set()
        thread.join()
    assert reached == ["the end of the body"]


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self") or not hasattr(os, "killpg"),
                                reason="needs Linux's /proc and process groups")


def _stopped_alike(done: subprocess.CompletedProcess) -> None:
    """A run stopped by Ctrl-C: status 130, one line on standard error, and on standard output the summary of the
    games finished (said to be a part of the run), or nothing when none had finished."""
    assert done.returncode == 130 and "Traceback" not in done.stdout + done.stderr
    (line,) = done.stderr.splitlines()
    if done.stdout:
        played = int(re.search(r"interrupted: the figures are of the ([\d,]+) games played of the 100,000 asked",
                               line).group(1).replace(",", ""))
        assert f"hearts, 4 players, {played} games, seed 0 (interrupted: {played:,} of the 100,000 games asked)" \
            in done.stdout
    else:
        assert line == "interrupted"


@needs_proc
def test_ctrl_c_stops_the_worker_processes_with_one_line():
    _stopped_alike(_interrupted())


@needs_proc
def test_ctrl_c_stops_a_local_dask_cluster_with_one_line():
    pytest.importorskip("distributed")
    _stopped_alike(_interrupted("--backend", "dask"))


def _ctrl_c_after(monkeypatch, games: int) -> None:
    """simulate's and compare's runs stopped by a Ctrl-C once ``games`` games were played (at their progress line)."""
    from interpreter.commands import simulate as command

    def stopping(quiet, what="games"):
        def progress(done, total):
            if done == games:
                raise KeyboardInterrupt
        return progress

    monkeypatch.setattr(command, "progress_line", stopping)


def test_a_ctrl_c_in_a_run_summarises_the_games_finished_and_says_so(monkeypatch, capsys):
    _ctrl_c_after(monkeypatch, 7)
    code, out, err = run(capsys, "simulate", "oh-hell", "-p", "4", "-n", "50", "--json")
    data = json.loads(out)
    assert code == 130 and data["games"] == 7 and data["interrupted"] == {"games": 7, "asked": 50}
    assert err.strip().endswith("interrupted: the figures are of the 7 games played of the 50 asked")
    # compare: a Ctrl-C among the variant's games compares the pairs finished
    code, out, err = run(capsys, "compare", "oh-hell", "oh-hell", "-p", "4", "-n", "5", "--variant-option",
                         "hands=up")
    assert code == 130 and "2 paired games, seed 0 (interrupted: 2 of the 5 asked)" in out
    assert "interrupted: the figures are of the 2 games played of the 5 asked" in err


def test_the_html_report_of_a_run_stopped_by_ctrl_c_says_it_is_partial(monkeypatch, capsys, tmp_path):
    """A Ctrl-C stops simulate (and compare) after some games: the HTML report is still written, of the games
    played, and says in its title and at its top that the run is partial, with the games played and asked."""
    _ctrl_c_after(monkeypatch, 7)
    report = tmp_path / "partial.html"
    code, out, _ = run(capsys, "simulate", "oh-hell", "-p", "4", "-n", "50", "--report", str(report))
    page = report.read_text(encoding="utf-8")
    assert code == 130 and "7 games" in out
    assert re.search(r"<title>[^<]*partial: 7 of the 50 games asked", page)
    assert "<strong>A partial run.</strong> It was interrupted (Ctrl-C): every figure is of the 7 games " \
        "played of the 50 asked." in page
    code, out, _ = run(capsys, "compare", "oh-hell", "oh-hell", "-p", "4", "-n", "5", "--variant-option",
                       "hands=up", "--report", str(report))
    page = report.read_text(encoding="utf-8")
    assert code == 130 and re.search(r"<title>[^<]*partial: 2 of the 5 paired games asked", page)
    assert "every figure is of the 2 paired games played of the 5 asked." in page
    # a run that was not stopped says nothing of the kind
    monkeypatch.undo()
    code, _, _ = run(capsys, "simulate", "oh-hell", "-p", "4", "-n", "3", "--report", str(report))
    assert code == 0 and "partial" not in report.read_text(encoding="utf-8")


# ---------------------------------------------------------------- Dask: a scheduler that cannot be reached, its log


@pytest.mark.parametrize(("address", "says"), [
    ("foo://x", "unknown address scheme 'foo'"),
    ("tcp://127.0.0.1:1", "no answer within 1 s"),
])
def test_a_dask_scheduler_that_cannot_be_reached_is_one_line(capsys, monkeypatch, address, says):
    pytest.importorskip("distributed")
    from interpreter.harness import distributed

    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT", 1)
    code, out, err = run(capsys, "simulate", "oh-hell", "-p", "4", "-n", "2", "--backend", "dask",
                         "--scheduler", address)
    assert code == 1 and out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(f"trickbook: error: cannot connect to the Dask scheduler {address}: ") and says in err


def test_a_game_that_fails_on_dask_shows_the_workers_log_only_with_verbose(tmp_path):
    pytest.importorskip("distributed")
    rules = tmp_path / "broken.yaml"
    rules.write_text("trickbook: 1\nextends: hearts\nname: broken\ndefine:\n"
                     "  points(s): \"len(s.won) // (len(s.won) - len(s.won))\"\n")
    argv = [sys.executable, "-m", "interpreter.cli", "simulate", str(rules), "-p", "4", "-n", "1", "--backend",
            "dask"]
    quiet = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert quiet.returncode == 1 and len(quiet.stderr.splitlines()) == 1, quiet.stderr
    assert quiet.stderr.startswith("hearts.yaml:") and "division or modulo by zero" in quiet.stderr
    loud = subprocess.run([*argv, "--verbose"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert loud.returncode == 1 and "Compute Failed" in loud.stderr


def test_help_describes_every_simulate_argument(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = capsys.readouterr().out
    for flag in ("--agents", "--rotate", "--iterations", "--move-time", "--workers", "--backend", "--scheduler",
                 "--report", "--json", "--games", "--seed", "--option", "--verbose"):
        assert flag in out


def test_stopping_workers_that_hangs_is_given_up_and_the_workers_killed(monkeypatch):
    """A pool's terminate can wait for ever for its queue's lock when a Ctrl-C came at the wrong moment (the
    signals fuzzer's case 4725): it is given up after a while and the workers killed instead."""
    from interpreter.harness import runner

    monkeypatch.setattr(runner, "STOP_WAIT", 0.2)
    never = threading.Event()
    killed = []
    runner.stop_with_sigint_held(never.wait, lambda: killed.append("workers"))
    assert killed == ["workers"]
    never.set()

    def fails() -> None:
        raise OSError("cannot stop")

    with pytest.raises(OSError, match="cannot stop"):  # an error of a stop that ended is the caller's
        runner.stop_with_sigint_held(fails, lambda: killed.append("again"))
    assert killed == ["workers"]
