"""Rule files are untrusted: each hostile input found by trying the tool as a stranger would is refused
with a positioned message, never a traceback, a hang or a flood of text.

Each test here failed before its fix (see the untrusted-input issue); the defects are fixed where they
arise (the YAML loader, the expression parser and type checks, the compiler), not by catching everything
at the top.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import interpreter.errors as errors_module
from interpreter.cli import validate_file

ROOT = Path(__file__).resolve().parents[1]
BIDDING = (ROOT / "docs" / "examples" / "bidding.yaml").read_text()
POINTS = 'points: "10 + seat.bid if seat.tricks == seat.bid else 0"'


def refused(tmp_path, text: str) -> list[str]:
    path = tmp_path / "hostile.yaml"
    path.write_text(text)
    found = validate_file(str(path))
    assert found, "the file was accepted"
    for block in found:
        assert "Traceback" not in block
        assert block.startswith(f"{path}:"), block
    return found


def first_line(block: str) -> str:
    return block.split("\n", 1)[0].split(": error: ", 1)[1]


@pytest.mark.parametrize("old, new, message", [
    # integers past Python's 4,300-digit conversion limit
    ("hand: 5", "hand: " + "9" * 5000, "a number of 5000 digits; numbers in rule files have at most 15"),
    (POINTS, 'points: "' + "9" * 5000 + '"', "syntax error: a number of 5000 digits; numbers have at most 15"),
    # seats and cards are not numbers
    (POINTS, 'points: "seat"', "expected a number, found seat (a seat is not a number: seat.index is)"),
    (POINTS, 'points: "seat + 1"', "'+' needs numbers, and a seat is not one; use an attribute, e.g. seat.index + 1"),
    ('"card.rank"', '"card < led"',
     "'<' needs numbers, and a card is not one; use an attribute, e.g. card.number < led.number"),
    ('"card.rank"', '"-card"', "'-' needs a number, and a card is not one; use an attribute, e.g. -card.number"),
    ("hand: 5", "hand: first(seats)", "expected a number, found seat (a seat is not a number: seat.index is)"),
    # setup values of the wrong type that pass the schema
    ("hand: 5", "hand: nine", "unknown name 'nine' (names here: deck, game, options, players, round, seat, seats, "
     "setup, stock, trick)"),
    ("hand: 5", "hand: [1, 2]", "round/deal/hand: expected text or a whole number, not a list"),
    ("rounds: 4", "rounds: eight", "unknown name 'eight' (names here: deck, game, options, players, round, seats, "
     "setup, stock, trick)"),
    ("rounds: 4", "first_dealer: \"''\"\n  rounds: 4", "first_dealer must be a whole number (the seat index), "
     "not \"''\""),
    ("rounds: 4", "first_dealer: \"[1]\"\n  rounds: 4", "first_dealer must be a whole number (the seat index), "
     "not '[1]'"),
    # rounds over the engine's limit, and a number with a decimal point
    ("rounds: 4", "rounds: 100000", "rounds must be a whole number from 1 to 1000, got 100000"),
    ("rounds: 4", "rounds: 2.5", "syntax error: numbers are whole numbers: no decimal point"),
])
def test_hostile_values_are_refused_with_their_position(tmp_path, old, new, message):
    assert old in BIDDING
    text = BIDDING.replace(old, new, 1)
    found = refused(tmp_path, text)
    assert first_line(found[0]) == message
    line = int(found[0].split(":")[1])
    assert new.split(":")[0].strip() in text.splitlines()[line - 1]


def test_a_long_line_is_cut_around_the_error_and_the_caret_still_points_at_it(tmp_path):
    found = refused(tmp_path, BIDDING.replace(POINTS, 'points: "' + "9" * 5000 + '"'))
    _, shown, caret = found[0].split("\n")
    assert len(shown) < 120 and shown.endswith("...")
    assert shown[caret.index("^")] == '"' or shown[caret.index("^")] == "9"


def test_an_empty_file_and_a_file_of_text_name_the_file(tmp_path):
    assert re.fullmatch(r".*hostile\.yaml:1:1: error: a rule file is empty", refused(tmp_path, "")[0])
    assert "a rule file must be a mapping" in refused(tmp_path, "just text\n")[0]


def test_many_errors_in_one_file_read_it_once(tmp_path, monkeypatch):
    text = BIDDING.replace("game:\n", "".join(f"bad_key_{i}: 1\n" for i in range(60)) + "game:\n")
    reads = []
    real = errors_module.Path.read_text

    def counting(self, *args, **kwargs):
        reads.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(errors_module.Path, "read_text", counting)
    errors_module._lines.cache_clear()
    found = refused(tmp_path, text)
    assert len(found) == 60 and len(reads) <= 1


def test_validate_prints_at_most_20_errors_of_a_file_and_counts_the_rest(tmp_path, capsys):
    from interpreter.cli import main

    path = tmp_path / "many.yaml"
    path.write_text(BIDDING.replace("game:\n", "".join(f"bad_key_{i}: 1\n" for i in range(60)) + "game:\n"))
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count(": error: ") == 20 and err.rstrip().endswith(f"{path}: and 40 more errors")


def test_a_huge_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    import builtins

    from interpreter.rules import yaml_loader

    path = tmp_path / "huge.yaml"
    with open(path, "wb") as handle:  # 3 GB, sparse: nothing is written
        handle.truncate(3 * 1024 ** 3)
    opened = []

    def watched(file, *args, **kwargs):  # the work counted: the loader never opens the file
        opened.append(str(file))
        return builtins.open(file, *args, **kwargs)

    monkeypatch.setattr(yaml_loader, "open", watched, raising=False)
    found = validate_file(str(path))
    assert found == [f"{path}:1:1: error: file is {3 * 1024 ** 3} bytes, more than the limit of 1000000"]
    assert str(path) not in opened
    (tmp_path / "small.yaml").write_text(BIDDING)
    assert validate_file(str(tmp_path / "small.yaml")) == [] and str(tmp_path / "small.yaml") in opened


# ----------------------------------------------------------------------- the command line and records


@pytest.mark.parametrize("argv, message", [
    (["--seed", "9" * 5000], "--seed takes a number of at most 15 digits (or any text)"),
    (["--human", "²"], "no seat '²'; seats are Alex, Joe, Hanna, Lena (or 1-4)"),
    (["--record", "/nonexistent-folder/x.jsonl"], "cannot write the record to /nonexistent-folder/x.jsonl: "
                                                 "No such file or directory"),
])
def test_odd_command_lines_are_refused_before_the_game(argv, message, capsys):
    from interpreter.cli import main

    assert main(["play", "meinz", "-p", "4", "--quiet", *argv]) != 0
    captured = capsys.readouterr()
    assert captured.err.strip() == f"trickbook: error: {message}" and "winner" not in captured.out


def test_a_unicode_digit_seed_is_text_and_plays(capsys):
    from interpreter.cli import main

    assert main(["play", "meinz", "-p", "4", "--quiet", "--seed", "²"]) == 0
    assert "winner(s): " in capsys.readouterr().out


def test_odd_answers_at_the_prompt_are_asked_again():
    from interpreter.engine.compile import compile_game
    from interpreter.harness.agents import HumanAgent, Turn
    from interpreter.rules.loader import load_rules

    game = compile_game(load_rules("meinz"), 4)
    state = game.new_state()
    game.apply_chance(state, list(game.deck))
    answers = iter(["²", "9" * 5000, "-1", "0", "2"])
    out = __import__("io").StringIO()
    agent = HumanAgent(read=lambda _prompt: next(answers), out=out)
    turn = Turn(game, state, state.pending.actor, list(state.pending.actions), state.pending.prompt)
    assert agent.act(turn) == turn.legal[1]
    assert out.getvalue().count("please answer with one of the numbers shown") == 4


@pytest.mark.parametrize("damage, message", [
    (lambda lines: [lines[0].replace('"seed": 3', '"seed": ' + "9" * 5000)] + lines[1:],
     ":1: a number of more than 15 digits"),
    (lambda lines: ["[" * 100_000 + "]" * 100_000] + lines, ":1: the line is longer than 100000 bytes"),
    (lambda lines: ['{"type": "game", "x": ' + "[" * 40 + "]" * 40 + "}"] + lines[1:],
     ":1: brackets nested more than 16 deep"),
    (lambda lines: lines + [lines[-1]], ": nothing may follow the result line"),
])
def test_damaged_records_are_refused_with_the_line(tmp_path, damage, message):
    from interpreter.cli import main

    good = tmp_path / "good.jsonl"
    assert main(["play", "meinz", "-p", "4", "--quiet", "--seed", "3", "--record", str(good)]) == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(damage(good.read_text().splitlines())) + "\n")
    from interpreter.errors import RecordError
    from interpreter.match.records import read_record

    with pytest.raises(RecordError) as exc:
        read_record(bad)
    assert str(exc.value).startswith(str(bad)) and message in str(exc.value)


# ----------------------------------------------------------------------- what a file may name


VARIANT = "trickbook: 1\nextends: {base}\nname: v\n"


@pytest.mark.parametrize("base, says", [
    ("/etc/passwd", "'/etc/passwd' is outside the folder of the file that names it"),
    ("../outside.yaml", "'../outside.yaml' is outside the folder of the file that names it"),
    ("notes.txt", "'notes.txt' is not a rule file (.yaml or .yml)"),
    ("sneaky.yaml", "no rule file or bundled game named 'sneaky.yaml' beside the file that names it"),
])
def test_extends_names_only_bundled_games_and_rule_files_under_its_folder(tmp_path, base, says):
    inner = tmp_path / "inner"
    inner.mkdir()
    (tmp_path / "outside.yaml").write_text(BIDDING)
    (inner / "notes.txt").write_text("secret: do not show\n")
    (inner / "sneaky.yaml").symlink_to(tmp_path / "outside.yaml")   # a link that leads out of the folder
    path = inner / "v.yaml"
    path.write_text(VARIANT.format(base=base))
    found = validate_file(str(path))
    assert len(found) == 1 and says in found[0], found
    assert "secret" not in found[0] and "trickbook: 1" not in found[0].split("\n", 1)[0]


def test_allow_path_lets_a_file_name_rule_files_in_another_folder(tmp_path, capsys):
    from interpreter.cli import main

    inner = tmp_path / "inner"
    inner.mkdir()
    (tmp_path / "outside.yaml").write_text(BIDDING)
    path = inner / "v.yaml"
    path.write_text(VARIANT.format(base="../outside.yaml"))
    assert main(["validate", str(path)]) == 1
    assert main(["validate", str(path), "--allow-path", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == f"{path}: ok"


def test_a_record_names_its_rules_relative_to_itself_and_nothing_outside(tmp_path, monkeypatch, capsys):
    from interpreter.cli import main

    (tmp_path / "games").mkdir()
    (tmp_path / "records").mkdir()
    rules = tmp_path / "games" / "bidding.yaml"
    rules.write_text(BIDDING)
    record = tmp_path / "records" / "game.jsonl"
    assert main(["play", str(rules), "-p", "4", "--quiet", "--record", str(record)]) == 0
    assert '"rules_file": "../games/bidding.yaml"' in record.read_text()
    monkeypatch.chdir(tmp_path / "records")                 # wherever the replay runs
    assert main(["replay", str(record)]) == 1              # the record names a file outside its folder
    assert "is outside the folder of the file that names it" in capsys.readouterr().err
    assert main(["replay", str(record), "--allow-path", str(tmp_path / "games")]) == 0
    beside = tmp_path / "games" / "game.jsonl"               # beside its rules: no permission needed
    assert main(["play", str(rules), "-p", "4", "--quiet", "--record", str(beside)]) == 0
    monkeypatch.chdir(tmp_path)
    assert main(["replay", str(beside)]) == 0


def test_a_strength_that_mixes_text_and_numbers_is_refused_by_validate(tmp_path):
    text = BIDDING.replace('"card.rank"', '"card.suit if card.rank > 10 else card.rank"')
    found = refused(tmp_path, text)
    assert first_line(found[0]).startswith("this strength gives text for some cards and numbers for others")
    assert '"card.suit if card.rank > 10 else card.rank"' in found[0]


# -- exponential work: static limits at validate, a budget at play -------------------------------------------

def with_defines(text: str, defines: dict[str, str], points: str) -> str:
    lines = "".join(f'  "{k}": "{v}"\n' for k, v in defines.items())
    if lines:
        text = text.replace("game:\n", "define:\n" + lines + "\ngame:\n", 1)
    return text.replace(POINTS, f'points: "{points}"')


def played(tmp_path, text: str, capsys) -> tuple[int, str, float]:
    """Play the file once: the exit code, what it printed on stderr and the CPU seconds it took (CPU time, not
    wall-clock time: a busy machine does not make it longer)."""
    import time

    from interpreter.cli import main

    path = tmp_path / "hostile.yaml"
    path.write_text(text)
    assert validate_file(str(path)) == []
    start = time.process_time()
    code = main(["play", str(path), "-p", "4", "--quiet", "--seed", "1"])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err, time.process_time() - start


def test_defines_that_call_each_other_twice_are_refused_by_validate(tmp_path):
    chain = {"f0(x)": "x + 1"} | {f"f{i}(x)": f"f{i - 1}(x) + f{i - 1}(x + 1)" for i in range(1, 25)}
    found = refused(tmp_path, with_defines(BIDDING, chain, "f24(seat.tricks)"))
    assert first_line(found[0]).startswith("one evaluation here calls defines more than 100,000 times")
    assert "f16" in found[0].split("\n")[1] or "f17" in found[0].split("\n")[1]  # the call where it passes


def test_a_power_tower_stops_at_15_digits_at_validate_and_in_play(tmp_path, capsys):
    tower = {"sq(x)": "x * x"} | {f"t{i}(x)": f"sq(t{i - 1}(x))" for i in range(1, 8)} | {"t0(x)": "x + 2"}
    found = refused(tmp_path, with_defines(BIDDING, tower, "t7(3)"))
    assert first_line(found[0]).startswith("this expression fails: a number past 999,999,999,999,999")
    code, err, seconds = played(tmp_path, with_defines(BIDDING, tower, "t7(seat.tricks)"), capsys)
    assert code == 1 and seconds < 5
    assert re.search(r"hostile\.yaml:\d+:\d+: error: expression 't7\(seat.tricks\)' failed: a number past "
                     r"999,999,999,999,999 \(numbers have at most 15 digits\)", err), err


def test_a_list_that_doubles_stops_at_100000_items(tmp_path, capsys):
    double = {f"d{i}(xs)": f"d{i - 1}(xs + xs)" for i in range(1, 40)} | {"d0(xs)": "xs"}
    found = refused(tmp_path, with_defines(BIDDING, double, "len(d39([1, 2]))"))
    assert "a list of 131,072 items; lists have at most 100,000" in found[0]
    code, err, seconds = played(tmp_path, with_defines(BIDDING, double, "len(d39(seat.won))"), capsys)
    assert code == 1 and seconds < 5 and "lists have at most 100,000" in err


def test_loops_inside_loops_over_long_lists_are_refused_when_constant_and_stopped_in_play(tmp_path, capsys):
    import time

    nested = "sum(count(y > x for y in range(0, 9000)) for x in range(0, 9000))"
    start = time.process_time()  # CPU time: the 81,000,000 items are not gone through
    found = refused(tmp_path, with_defines(BIDDING, {}, nested))
    assert time.process_time() - start < 5
    assert "went through more than 1,000,000 items before one decision" in first_line(found[0])
    mine = nested.replace("9000", "9000 + seat.tricks")
    code, err, seconds = played(tmp_path, with_defines(BIDDING, {}, mine), capsys)
    assert code == 1 and seconds < 5, seconds
    assert re.search(r"hostile\.yaml:\d+:\d+: error: expression 'sum\(count.*' failed: the rules' expressions went "
                     r"through more than 1,000,000 items before one decision", err), err


def test_a_deck_of_billions_of_cards_is_refused_before_one_is_made(tmp_path):
    import time

    values = "[" + ", ".join(str(i) for i in range(20)) + "]"
    huge = "\n".join(f"      a{i}: {values}" for i in range(8))
    text = BIDDING.replace("      rank: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]",
                           "      rank: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]\n" + huge)
    start = time.process_time()  # CPU time: no card is made
    found = refused(tmp_path, text)
    assert time.process_time() - start < 5
    assert first_line(found[0]).startswith("the deck has more than 10,000 cards (by this group it has "
                                           "1,331,200,000,000)")


@pytest.mark.parametrize("spaces", ["[1, {label: two, worth: 2}]", "[{label: two, worth: 2}, 1]",
                                    "[{label: one, value: 1}, {label: two, worth: 2}]"])
def test_a_board_row_mixing_plain_spaces_and_records_is_refused_in_either_order(tmp_path, spaces):
    text = (ROOT / "docs" / "examples" / "tiny-njet.yaml").read_text().replace("spaces: [1, 2]", f"spaces: {spaces}")
    found = refused(tmp_path, text)
    assert "every space of this row must have the fields label, worth (a row's spaces are all records" in found[0]


NO_SEAT = "first([s for s in seats if s.tricks > 99])"


@pytest.mark.parametrize("old, new, message", [
    ("leader: left(round.dealer)", f'leader: "{NO_SEAT}"', "it gave none where a seat is needed"),
    ("leader: left(round.dealer)", 'leader: "first([s for s in seats if s.index > 9])"',
     "this gives none where a seat is needed"),
    ("leader: left(round.dealer)", f'leader: "left({NO_SEAT})"', "left() needs a seat, got none"),
    ("who: seats_from(left(round.dealer))", f'who: "seats_from({NO_SEAT})"', "seats_from() needs a seat, got none"),
    (POINTS, 'points: "seat.bid if seat.tricks > 99 else none"', "it gave none where a number is needed"),
    (POINTS, "points: \"'ten'\"", "expected a number, found text 'ten'"),
])
def test_a_seat_or_number_that_is_none_in_play_is_a_positioned_error_naming_the_rule(tmp_path, capsys, old, new,
                                                                                     message):
    assert old in BIDDING
    text = BIDDING.replace(old, new)
    path = tmp_path / "hostile.yaml"
    path.write_text(text)
    found = validate_file(str(path))
    if found:  # known before play: refused by validate
        assert first_line(found[0]) == message
        return
    from interpreter.cli import main

    assert main(["play", str(path), "-p", "4", "--quiet"]) == 1
    err = capsys.readouterr().err
    line = next(n for n, s in enumerate(text.splitlines(), 1) if new.split(":")[0] in s and new[-12:] in s)
    assert re.fullmatch(rf"{re.escape(str(path))}:{line}:\d+: error: expression '.*' failed: {re.escape(message)}\n",
                        err), err


def test_a_swap_of_a_card_with_itself_leaves_it_where_it_is(tmp_path, capsys):
    """Found by the fuzzer: with every seat choosing, a trick card already swapped into the winner's hand
    is paired with itself."""
    from interpreter.cli import main

    text = (ROOT / "docs" / "examples" / "exchange.yaml").read_text()
    assert "        who: winner\n" in text
    path = tmp_path / "everyone-swaps.yaml"
    path.write_text(text.replace("        who: winner\n", ""))
    assert main(["play", str(path), "-p", "4", "--quiet", "--seed", "2776"]) == 0, capsys.readouterr().err


def test_a_file_that_is_not_a_rule_file_is_refused_without_showing_its_content(tmp_path, capsys):
    from interpreter.cli import main

    secret = tmp_path / "notes.txt"
    secret.write_text("password: hunter2\n")
    assert main(["validate", str(secret)]) == 1
    err = capsys.readouterr().err
    assert "is not a rule file (a rule file's name ends in .yaml or .yml)" in err and "hunter2" not in err
    assert main(["play", str(secret), "-p", "4"]) == 1 and "hunter2" not in capsys.readouterr().err
