"""The trickbook command: exit codes, error format, and each subcommand's output."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from interpreter.cli import main

from .conftest import ROOT, terminal_sigint


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_validate_accepts_the_bundled_games(capsys):
    code, out, err = run(capsys, "validate", str(ROOT / "games" / "njet-riogrande.yaml"),
                         str(ROOT / "games" / "njet-goldsieber.yaml"))
    assert code == 0 and err == ""
    assert out.count(": ok") == 2


def test_validate_reports_file_line_col_with_the_source_line_and_a_caret(tmp_path, capsys):
    text = (ROOT / "games" / "njet-riogrande.yaml").read_text()
    bad = text.replace('follow: "card.colour == led.colour"', 'follow: "card.colour == led.color"')
    path = tmp_path / "bad.yaml"
    path.write_text(bad)
    line_no = next(i for i, line in enumerate(bad.splitlines(), 1) if "led.color" in line)
    line = bad.splitlines()[line_no - 1]
    col = line.index("color\"") + 1
    code, out, err = run(capsys, "validate", str(path))
    assert code == 1
    first, source, caret = err.splitlines()[:3]
    assert first == (f"{path}:{line_no}:{col}: error: cards have no attribute 'color' "
                     "(they have: colour, copy, label, number)")
    assert source.strip() == line.strip()
    assert caret.index("^") - 4 == col - 1


def test_validate_reports_every_bad_file_and_exits_1(tmp_path, capsys):
    one = tmp_path / "one.yaml"
    one.write_text("trickbook: 1\nname: x\nfoo: [1,\n")
    two = tmp_path / "two.yaml"
    two.write_text("a: &anchor 1\nb: *anchor\n")
    code, out, err = run(capsys, "validate", str(one), str(two), str(ROOT / "games" / "njet-riogrande.yaml"))
    assert code == 1
    assert f"{one}:4:1: error: invalid YAML" in err
    assert f"{two}:1:4: error: YAML anchors (&name) are not allowed in rule files" in err
    assert "njet-riogrande.yaml: ok" in out
    assert "Traceback" not in err


def test_validate_a_missing_file_is_an_error_not_a_traceback(tmp_path, capsys):
    code, out, err = run(capsys, "validate", str(tmp_path / "nope.yaml"))
    assert code == 1 and "nope.yaml" in err and "Traceback" not in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["validate"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["simulate", "njet-riogrande", "--players", "four", "--games", "2"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["frobnicate"])
    assert e.value.code == 2


def test_list_shows_bundled_games_with_player_counts_and_options(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "njet-riogrande" in out and "players: 2, 3, 4, 5" in out and "difference_scoring" in out
    assert "njet-goldsieber" in out and "players: 3, 4" in out and "short_game" in out


def test_play_tells_the_game_and_writes_a_record_that_replays(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    code, out, _ = run(capsys, "play", "njet-goldsieber", "--players", "3", "--seed", "4", "--record", str(record))
    assert code == 0
    assert "The board:" in out and "Trick 1:" in out and "Round 6 scores" in out and "Winner(s):" in out
    code, out, err = run(capsys, "replay", str(record))
    assert code == 0 and "replay matches (6 rounds" in out


def test_play_with_an_unsupported_player_count_is_a_clear_error(capsys):
    code, _, err = run(capsys, "play", "njet-goldsieber", "--players", "5")
    assert code == 1 and "is for 3, 4 players, not 5" in err


def test_play_an_unknown_game_names_the_bundled_ones(capsys):
    code, _, err = run(capsys, "play", "tarock", "--players", "3")
    assert code == 1 and "njet-riogrande" in err


def test_options_are_set_with_name_value_and_checked(capsys):
    code, out, _ = run(capsys, "play", "njet-goldsieber", "-p", "4", "--option", "short_game=true", "--quiet")
    assert code == 0
    code, _, err = run(capsys, "play", "njet-goldsieber", "-p", "4", "--option", "short_game=perhaps")
    assert code == 1 and "true or false" in err
    code, _, err = run(capsys, "play", "njet-goldsieber", "-p", "4", "--option", "shorter=true")
    assert code == 1 and "unknown option 'shorter'" in err


def test_simulate_json_gives_mean_scores_win_shares_and_rounds(capsys):
    code, out, _ = run(capsys, "simulate", "njet-riogrande", "--players", "4", "--games", "6", "--seed", "1", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 6 and data["players"] == 4 and data["mean_rounds"] == 8
    assert set(data["mean_total"]) == {"turquoise", "lilac", "orange", "green"}
    assert abs(sum(data["win_share"].values()) - 1) < 1e-9
    code, again, _ = run(capsys, "simulate", "njet-riogrande", "--players", "4", "--games", "6", "--seed", "1",
                         "--json")
    assert again == out


def test_simulate_text_summary(capsys):
    code, out, _ = run(capsys, "simulate", "njet-goldsieber", "-p", "3", "-n", "3")
    assert code == 0 and "mean score" in out and "win share" in out and "rounds per game: 6.00 (6.00 to 6.00)" in out


def test_replay_names_the_first_difference_and_exits_1(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    run(capsys, "play", "njet-riogrande", "-p", "2", "--seed", "9", "--record", str(record), "--quiet")
    lines = record.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if '"step": "tricks"' in line)
    event = json.loads(lines[n])
    event["action"] = "purple 42"
    lines[n] = json.dumps(event)
    record.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "replay", str(record))
    assert code == 1
    assert f"{record}:{n + 1}: 'purple 42' is not legal now" in err


def test_replay_detects_a_wrong_result(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    run(capsys, "play", "njet-riogrande", "-p", "2", "--seed", "9", "--record", str(record), "--quiet")
    lines = record.read_text().splitlines()
    result = json.loads(lines[-1])
    result["winners"] = ["nobody"]
    lines[-1] = json.dumps(result)
    record.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "replay", str(record))
    assert code == 1 and f":{len(lines)}: result winners differ" in err


# a person who answers 1, 2, 3, 1, ...: within a turn of several picks the numbers stay as they were, so the
# number of a card picked already is asked again and the next one taken
CYCLING = "1\n2\n3\n" * 400


def test_a_person_plays_a_seat_at_the_terminal_and_sees_only_their_own_hand():
    answers = CYCLING
    proc = subprocess.run([sys.executable, "-m", "interpreter.cli", "play", "njet-riogrande", "--players", "2",
                           "--human", "lilac", "--seed", "3"], input=answers, capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "you are lilac" in out and "your hand:" in out and "Game over after 8 rounds" in out
    assert "your hand" in out and "turquoise, cover a space" not in out
    assert "lilac, cover a space:" in out
    # the other seat's face-down discards and passes are not told to the person
    import re

    assert not re.search(r"turquoise (discards|passes) \w+ \d", out)
    assert re.search(r"turquoise (discards|passes) a card", out)
    assert re.search(r"lilac (discards|passes) \w+ \d", out)


def test_a_person_can_answer_with_a_label_and_is_asked_again_after_nonsense():
    answers = "nonsense\n" + "99\n" + "points: 4\n" + CYCLING
    proc = subprocess.run([sys.executable, "-m", "interpreter.cli", "play", "njet-riogrande", "--players", "2",
                           "--human", "1", "--seed", "3"], input=answers, capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.split("turquoise covers points per trick")[0]
    assert first.count("please answer with one of the numbers shown (1 to") == 2
    assert "turquoise covers points per trick and captured 0: 4" in proc.stdout


def test_a_record_of_a_rule_file_replays_from_another_folder(tmp_path, capsys, monkeypatch):
    games = tmp_path / "games"
    games.mkdir()
    (games / "house.yaml").write_text("trickbook: 1\nextends: njet-riogrande\nname: house\n")
    monkeypatch.chdir(games)
    code, _, _ = run(capsys, "play", "house.yaml", "-p", "2", "--seed", "1", "--record", "game.jsonl", "--quiet")
    assert code == 0
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "replay", str(games / "game.jsonl"))
    assert code == 0, err
    assert "replay matches (8 rounds" in out


def test_replay_checks_the_round_of_each_line_and_the_record_version(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    run(capsys, "play", "njet-riogrande", "-p", "2", "--seed", "9", "--record", str(record), "--quiet")
    lines = record.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if '"round": 2' in line and '"type": "action"' in line)
    event = json.loads(lines[n])
    event["round"] = 3
    bad = list(lines)
    bad[n] = json.dumps(event)
    record.write_text("\n".join(bad) + "\n")
    code, _, err = run(capsys, "replay", str(record))
    assert code == 1 and f":{n + 1}: the record says round 3, the game is in round 2" in err
    head = json.loads(lines[0])
    head["version"] = 99
    record.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    code, _, err = run(capsys, "replay", str(record))
    assert code == 1 and "record version 99" in err


# ---------------------------------------------------------------- outputs that cannot be written: one line, exit 1

FULL = "/dev/full"  # every write to it fails: no space left on the device
needs_full = pytest.mark.skipif(not os.path.exists(FULL), reason="needs /dev/full")


def _trickbook(*argv, stdout=None, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *argv], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=300, cwd=cwd)


@needs_full
@pytest.mark.parametrize("argv", [
    ["play", "hearts", "-p", "4", "--seed", "1"],
    ["play", "hearts", "-p", "4", "--seed", "1", "--quiet"],
    ["simulate", "hearts", "-p", "4", "-n", "2", "--json"],
    ["simulate", "hearts", "-p", "4", "-n", "2"],
    ["replay", "RECORD"],
    ["conformance", "oh-hell", "-p", "4", "-n", "1"],
    ["list"],
    ["validate", "hearts"],
])
def test_standard_output_that_cannot_be_written_is_one_line(tmp_path, argv):
    if "RECORD" in argv:
        record = tmp_path / "game.jsonl"
        assert main(["play", "hearts", "-p", "4", "--seed", "1", "--quiet", "--record", str(record)]) == 0
        argv = [str(record) if a == "RECORD" else a for a in argv]
    with open(FULL, "w") as full:
        done = _trickbook(*argv, stdout=full)
    assert done.returncode == 1
    assert done.stderr == "trickbook: error: cannot write standard output: No space left on device\n"


@needs_full
@pytest.mark.parametrize("argv", [
    ["play", "hearts", "-p", "4", "--seed", "1", "--quiet", "--record", FULL],
    ["simulate", "hearts", "-p", "4", "-n", "2", "--report", FULL],
])
def test_a_record_or_report_that_cannot_be_written_is_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 1 and err == f"trickbook: error: cannot write {FULL}: No space left on device\n"
    assert "written" not in out


def test_standard_output_closed_early_stops_quietly():
    read, write = os.pipe()
    os.close(read)  # as `trickbook list | head -1` once head has its line
    try:
        for argv in (["list"], ["play", "hearts", "-p", "4", "--seed", "1"]):
            done = subprocess.run([sys.executable, "-m", "interpreter.cli", *argv], stdout=write,
                                  stderr=subprocess.PIPE, text=True, timeout=300, cwd=ROOT)
            assert done.returncode == 0 and done.stderr == ""
    finally:
        os.close(write)


def test_a_ctrl_c_inside_code_run_from_text_still_exits_130_under_python_m(tmp_path):
    """A Ctrl-C that lands while ``dataclasses`` runs the text of a generated method (a module loading) is raised
    out of ``exec``; CPython 3.11-3.13 remembered a plain KeyboardInterrupt there even though the command caught
    it, and ``python -m`` then ended by SIGINT (status -2) after printing ``interrupted``."""
    (tmp_path / "interrupted_in_exec.py").write_text(
        "import sys\n"
        "from interpreter import cli\n"
        "def command(args):\n"
        "    exec('import os, signal\\nos.kill(os.getpid(), signal.SIGINT)\\nwhile True: pass', {})\n"
        "cli._COMMANDS['list'] = command\n"
        "sys.argv = ['trickbook', 'list']\n"
        "sys.exit(cli.main())\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "interrupted_in_exec"], cwd=tmp_path, env=env,
                          preexec_fn=terminal_sigint,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (130, "interrupted\n")


def _program(before: str, command: str, start: object = terminal_sigint) -> tuple[int, str, str]:
    """Run the trickbook program in a child process (as a terminal starts it, unless ``start`` says otherwise)
    with its ``list`` command replaced by ``command`` (the body of ``def command(args):``), after ``before``
    (module-level code); its exit status, standard output and standard error."""
    body = "".join("    " + line + "\n" for line in command.strip("\n").splitlines())
    script = (f"import os, signal, sys\nfrom interpreter import cli\n{before}def command(args):\n{body}"
              "cli._COMMANDS['list'] = command\nsys.argv = ['trickbook', 'list']\nsys.exit(cli.main())\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          preexec_fn=start)
    return done.returncode, done.stdout, done.stderr


def test_a_ctrl_c_while_the_command_loads_even_inside_a_class_being_made_is_one_line_and_130(tmp_path):
    """While cli.py loads its modules a Ctrl-C ends the process with the one line; an exception raised by the
    handler inside ``__set_name__`` (a dataclass field, while a module defines a class) used to come out as
    Python 3.11's RuntimeError traceback."""
    script = (
        "import os, signal, sys\n"
        "class Finder:\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'interpreter.rules.loader':\n"
        "            class Field:\n"
        "                def __set_name__(self, owner, attr):\n"
        "                    os.kill(os.getpid(), signal.SIGINT)\n"
        "                    for _ in range(100000): pass\n"
        "            type('Made', (), {'x': Field()})\n"
        "        return None\n"
        "sys.meta_path.insert(0, Finder())\n"
        "import interpreter.cli\n"
        "print('not interrupted')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          preexec_fn=terminal_sigint)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "interrupted\n")


def test_a_ctrl_c_inside_a_class_being_made_by_a_command_is_one_line_and_130(tmp_path):
    """A command loads modules it alone needs (simulate: the harness); a Ctrl-C that lands in a dataclass field's
    ``__set_name__`` there came out as Python 3.11's RuntimeError wrapping it, with a traceback and exit 1."""
    assert _program("", """
class Field:
    def __set_name__(self, owner, attr):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(100000): pass
type('Made', (), {'x': Field()})
print('not interrupted')
""") == (130, "", "interrupted\n")


def test_a_ctrl_c_that_lands_in_a_finalizer_is_not_lost(tmp_path):
    """Python runs the handler wherever the main thread is, also in a ``__del__`` (or a weakref callback, the
    garbage collector), whose exceptions it prints as ignored: the Ctrl-C was lost there, and every later one
    ignored, so the run went on to its end (the signals fuzzer's hung runs)."""
    dying = ("class Dying:\n"
             "    def __del__(self):\n"
             "        os.kill(os.getpid(), signal.SIGINT)\n"
             "        for _ in range(100000): pass\n")
    assert _program(dying, """
Dying()
for _ in range(10 ** 7): pass
print('not interrupted')
""") == (130, "", "interrupted\n")


@pytest.mark.parametrize("finalizer", ["weakref.finalize", "multiprocessing.util.Finalize"])
def test_a_ctrl_c_that_lands_in_a_finalizer_waits_until_it_has_run(finalizer):
    """A process pool's semaphore is unlinked by a finalizer that then tells multiprocessing's resource tracker;
    a Ctrl-C between the two (signals fuzzer, case 4489) left the tracker to warn of a leaked semaphore after
    ``interrupted``. The interrupt is raised once the finalizer has run."""
    module = finalizer.rsplit(".", 1)[0]
    before = (f"import {module}\n"
              "class Held:\n"
              "    pass\n"
              "def finish():\n"
              "    os.kill(os.getpid(), signal.SIGINT)\n"
              "    for _ in range(10 ** 6): pass\n"
              "    print('finalizer finished', flush=True)\n")
    assert _program(before, f"""
held = Held()
{finalizer}(held, finish)
del held
for _ in range(10 ** 7): pass
print('not interrupted')
""") == (130, "finalizer finished\n", "interrupted\n")


def test_a_program_started_with_ctrl_c_ignored_keeps_ignoring_it():
    """As Python does, and as a script's background job expects: the handler is not installed over an ignored
    SIGINT (it was, after loading, so a Ctrl-C while loading was ignored and a later one was not)."""

    def ignored() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    assert _program("", """
os.kill(os.getpid(), signal.SIGINT)
for _ in range(10 ** 6): pass
print('not interrupted')
return 0
""", start=ignored) == (0, "not interrupted\n", "")


def test_an_error_raised_while_a_ctrl_c_unwinds_is_that_ctrl_c(capsys, monkeypatch):
    """A Ctrl-C inside ``threading.Condition.wait`` (a process pool's results) can come before the lock is taken
    back; leaving the ``with`` then raises "release unlocked lock" while the interrupt is handled: a traceback,
    exit 1, found by the signals fuzzer. An error raised while an interrupt is handled is that interrupt."""
    import interpreter.cli as cli
    from interpreter.interrupts import Interrupted

    def command(args):
        try:
            raise Interrupted
        finally:
            raise RuntimeError("release unlocked lock")

    monkeypatch.setitem(cli._COMMANDS, "list", command)
    code, out, err = run(capsys, "list")
    assert (code, out, err) == (130, "", "interrupted\n")


def test_an_error_that_is_no_interrupt_still_shows(capsys, monkeypatch):
    import interpreter.cli as cli

    def command(args):
        raise RuntimeError("a bug")

    monkeypatch.setitem(cli._COMMANDS, "list", command)
    with pytest.raises(RuntimeError, match="a bug"):
        run(capsys, "list")


def test_a_ctrl_c_between_loading_and_the_command_is_one_line_and_130(tmp_path):
    """The ``trickbook`` script pip makes imports main, then calls it: a Ctrl-C in between (or as main begins,
    before its own handler) printed Python's KeyboardInterrupt traceback (signals fuzzer, case 3614)."""
    script = tmp_path / "trickbook"
    script.write_text("import os, signal, sys\n"
                      "from interpreter.cli import main\n"
                      "os.kill(os.getpid(), signal.SIGINT)\n"
                      "for _ in range(100000): pass\n"
                      "sys.exit(main(None))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(script), "list"], env=env, capture_output=True, text=True,
                          timeout=60, preexec_fn=terminal_sigint)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "interrupted\n")


def test_players_may_be_left_out_where_the_game_has_one_count_and_else_the_counts_are_listed(capsys, tmp_path):
    code, out, err = run(capsys, "play", "hearts", "--seed", "1", "--quiet")
    assert code == 0 and "winner" in out  # Hearts is for 4 players only
    with pytest.raises(SystemExit) as stop:
        run(capsys, "play", "mue", "--seed", "1", "--quiet")
    assert stop.value.code == 2
    assert "mue can be played by 3, 4, 5 or 6 players: say how many with -p N" in capsys.readouterr().err
    record = tmp_path / "game.jsonl"
    code, out, err = run(capsys, "play", "euchre", "--seed", "1", "--quiet", "--record", str(record))
    assert code == 0 and json.loads(record.read_text().splitlines()[0])["players"] == 4
    # compare: the one count both files support
    with pytest.raises(SystemExit):
        run(capsys, "compare", "mue", "mue-riogrande", "-n", "2")
    assert "both files can be played by 4, 5 or 6 players" in capsys.readouterr().err


@pytest.mark.parametrize(("typed", "meant"), [("hart", "hearts"), ("ohhell", "oh-hell"), ("Spade", "spades")])
def test_a_mistyped_game_name_gets_did_you_mean(capsys, typed, meant):
    code, out, err = run(capsys, "play", typed, "-p", "4")
    assert code != 0 and f"did you mean {meant}?" in err


def test_a_name_like_no_game_gets_no_guess(capsys):
    code, out, err = run(capsys, "play", "zzzzzz", "-p", "4")
    assert code != 0 and "no rule file or bundled game named 'zzzzzz'" in err and "did you mean" not in err


def test_a_variant_without_a_name_is_named_after_its_file_and_validate_says_so(capsys, tmp_path):
    variant = tmp_path / "Our House Rules.yaml"
    variant.write_text("extends: hearts\ntitle: Hearts at home\n")
    code, out, err = run(capsys, "validate", str(variant))
    assert code == 0 and "named 'our-house-rules' after its file" in out
    record = tmp_path / "game.jsonl"
    code, out, err = run(capsys, "play", str(variant), "--seed", "2", "--quiet", "--record", str(record))
    assert code == 0 and json.loads(record.read_text().splitlines()[0])["rules"] == "our-house-rules"
    named = tmp_path / "named.yaml"
    named.write_text("extends: hearts\nname: hearts-at-home\n")
    code, out, err = run(capsys, "validate", str(named))
    assert code == 0 and out.strip().endswith(": ok")
