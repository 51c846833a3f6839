"""Variants: a rule file extends another, overrides parts, and errors point into the right file."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RuleError, RuleErrors, UnknownGame
from interpreter.rules.loader import load_rules

from .conftest import ROOT


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_mappings_merge_key_by_key_lists_are_replaced_and_null_removes(tmp_path):
    path = write(tmp_path, "v.yaml", "trickbook: 1\nextends: njet-riogrande\nname: v\n"
                 "players:\n  2: null\n  4: {hand: 14}\n"
                 "round:\n  njet:\n    rows:\n      points:\n        spaces: [5, 6]\n")
    src = load_rules(path)
    assert sorted(src.data["players"]) == [3, 4, 5]
    assert src.data["players"][4] == {"hand": 14, "rounds": 8, "own_team": [2]}
    assert src.data["round"]["njet"]["rows"]["points"]["spaces"] == [5, 6]
    assert src.data["round"]["njet"]["rows"]["trump"]["spaces"][0] == "red"
    assert list(src.data["round"]) == list(load_rules("njet-riogrande").data["round"])
    assert "extends" not in src.data


def test_goldsieber_shares_the_rio_grande_file_instead_of_copying_it():
    text = (ROOT / "games" / "njet-goldsieber.yaml").read_text()
    assert "extends: njet-riogrande" in text
    assert "do: tricks" not in text and "do: veto_board" not in text
    assert len(text.splitlines()) < len((ROOT / "games" / "njet-riogrande.yaml").read_text().splitlines())


def test_an_error_in_the_extending_file_points_into_that_file(tmp_path):
    path = write(tmp_path, "v.yaml", "trickbook: 1\nextends: njet-riogrande\nname: v\n"
                 "round:\n  tricks:\n    follow: \"card.colour == led.colur\"\n")
    from interpreter.cli import validate_file

    errors = validate_file(str(path))
    assert errors and errors[0].startswith(f"{path}:6:") and "no attribute 'colur'" in errors[0]


def test_an_error_in_the_base_file_points_into_the_base_file(tmp_path):
    base_text = (ROOT / "games" / "njet-riogrande.yaml").read_text().replace(
        '"card.colour == round.trump"', '"card.colour == round.trumpf"')
    write(tmp_path, "base.yaml", base_text)
    path = write(tmp_path, "v.yaml", "trickbook: 1\nextends: base.yaml\nname: v\n")
    from interpreter.cli import validate_file

    errors = validate_file(str(path))
    line = next(i for i, t in enumerate(base_text.splitlines(), 1) if "round.trumpf" in t)
    assert errors[0].startswith(f"{tmp_path / 'base.yaml'}:{line}:") and "unknown round value 'trumpf'" in errors[0]


def test_extends_cycles_and_missing_bases_are_reported(tmp_path):
    write(tmp_path, "a.yaml", "trickbook: 1\nextends: b.yaml\nname: a\n")
    write(tmp_path, "b.yaml", "trickbook: 1\nextends: a.yaml\nname: b\n")
    with pytest.raises(RuleError, match="cycle"):
        load_rules(tmp_path / "a.yaml")
    path = write(tmp_path, "c.yaml", "trickbook: 1\nextends: no-such-game\nname: c\n")
    with pytest.raises(RuleError) as err:
        load_rules(path)
    assert err.value.position.line == 2 and "no-such-game" in str(err.value)


def test_a_variant_can_add_an_option_and_use_it(tmp_path):
    path = write(tmp_path, "v.yaml", "trickbook: 1\nextends: njet-riogrande\nname: v\n"
                 "options:\n  triple: {description: points x3, default: false}\n"
                 "round:\n  score:\n    points: \"team_points(seat) * (3 if options.triple else 1)\"\n")
    from interpreter.engine.compile import compile_game
    from interpreter.harness.runner import play_game

    src = load_rules(path)
    plain = play_game(compile_game(src, 4), seed=2)
    triple = play_game(compile_game(src, 4, {"triple": True}), seed=2)
    assert triple.totals == [3 * t for t in plain.totals]


def test_schema_errors_of_a_variant_are_all_reported(tmp_path):
    path = write(tmp_path, "v.yaml", "trickbook: 1\nextends: njet-riogrande\nname: v\n"
                 "zones:\n  hand: {per_seat: sometimes}\n  extra: {visibel: all}\n")
    with pytest.raises(RuleErrors) as err:
        load_rules(path)
    lines = sorted(e.position.line for e in err.value.errors)
    assert lines == [5, 6]


def test_two_different_cards_may_not_share_a_label(tmp_path):
    path = write(tmp_path, "v.yaml", "trickbook: 1\nextends: njet-riogrande\nname: v\ndeck:\n  label: \"{colour}\"\n")
    from interpreter.cli import validate_file

    errors = validate_file(str(path))
    assert errors and errors[0].startswith(f"{path}:5:10: error: two different cards are both labelled 'red'")


def test_remove_and_covered_may_not_read_values_that_exist_only_during_play(tmp_path):
    from interpreter.cli import validate_file

    path = write(tmp_path, "v.yaml", "trickbook: 1\nextends: njet-riogrande\nname: v\n"
                 "players:\n  3: {remove: \"card.number == 7 and round.trump == 'red'\"}\n")
    errors = validate_file(str(path))
    assert errors[0].startswith(f"{path}:5:15: error: remove may use only card, players, options and setup")
    path = write(tmp_path, "w.yaml", "trickbook: 1\nextends: njet-riogrande\nname: w\n"
                 "round:\n  njet:\n    rows:\n      points:\n        covered: \"space == round.dealer\"\n")
    errors = validate_file(str(path))
    assert errors[0].startswith(f"{path}:8:18: error: covered may use only space")


def test_an_expression_failing_during_play_is_reported_once_with_its_position(tmp_path, capsys):
    from interpreter.cli import main

    path = write(tmp_path, "v.yaml", "trickbook: 1\nextends: njet-riogrande\nname: v\n"
                 "round:\n  score:\n    points: \"team_points(seat) // (round.number - 1)\"\n")
    assert main(["play", str(path), "-p", "4", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:6:14: error: expression 'team_points(seat) // (round.number - 1)' failed")
    assert err.count("error") == 1


# ---------------------------------------------------------------- links: the file they lead to is checked


def test_a_link_named_like_a_rule_file_to_another_kind_of_file_is_refused(tmp_path):
    from interpreter.cli import validate_file

    (tmp_path / "notes.txt").write_text("secret: do not show\n")
    (tmp_path / "base.yaml").symlink_to(tmp_path / "notes.txt")
    path = write(tmp_path, "v.yaml", "trickbook: 1\nextends: base.yaml\nname: v\n")
    found = validate_file(str(path), (tmp_path,))
    assert len(found) == 1 and found[0].startswith(f"{path}:2:10: error: 'base.yaml' is not a rule file"), found
    assert "secret" not in "".join(found)
    if Path("/etc/passwd").is_file():  # a link to a file of the system, its folder allowed too
        (tmp_path / "pw.yaml").symlink_to("/etc/passwd")
        path = write(tmp_path, "w.yaml", "trickbook: 1\nextends: pw.yaml\nname: w\n")
        found = validate_file(str(path), (tmp_path, Path("/etc")))
        assert len(found) == 1 and "'pw.yaml' is not a rule file" in found[0] and "root:" not in found[0], found
    with pytest.raises(UnknownGame, match="not a rule file"):  # named on the command line
        load_rules(tmp_path / "base.yaml")


@pytest.mark.parametrize("how", ["beside", "allowed"])
def test_extends_naming_a_loop_of_links_is_a_positioned_error_in_words(tmp_path, how):
    from interpreter.cli import validate_file

    (tmp_path / "loop.yaml").symlink_to(tmp_path / "loop.yaml")
    name = "loop.yaml" if how == "beside" else str(tmp_path / "loop.yaml")
    path = write(tmp_path, "v.yaml", f"trickbook: 1\nextends: {name}\nname: v\n")
    found = validate_file(str(path), (tmp_path,))
    assert len(found) == 1
    assert found[0].startswith(f"{path}:2:10: error: cannot read '{name}': the path is a loop of symbolic links")
    assert "Symlink" not in found[0] and "Errno" not in found[0]


@pytest.mark.parametrize("name", ["a" * 5000, "/".join(["b" * 200] * 25) + ".yaml"])
def test_extends_naming_a_path_too_long_is_a_positioned_error_in_words(tmp_path, name):
    from interpreter.cli import validate_file

    path = write(tmp_path, "v.yaml", f"trickbook: 1\nextends: {name}\nname: v\n")
    found = validate_file(str(path), (tmp_path,))
    assert len(found) == 1 and found[0].startswith(f"{path}:2:10: error: cannot read '")
    first = found[0].splitlines()[0]
    assert first.endswith("': the path is too long") and len(first) < len(str(path)) + 300
    assert "Errno" not in found[0] and "File name too long" not in found[0]
    with pytest.raises(UnknownGame, match="the path is too long"):  # named on the command line
        load_rules(tmp_path / name)


# ---------------------------------------------------------------- a bundled file is named by its game's name


def test_an_error_in_a_bundled_base_file_names_it_by_the_game_never_by_the_installation_path(tmp_path, capsys):
    from interpreter.cli import main
    from interpreter.rules.catalog import bundled_games

    installed = str(bundled_games()["hearts"].parent)
    line = next(i for i, t in enumerate((ROOT / "games" / "hearts.yaml").read_text().splitlines(), 1)
                if "shooter: \"first(" in t)
    path = write(tmp_path, "v.yaml", "trickbook: 1\nextends: hearts\nname: v\n"  # fails during play, in hearts
                 "define:\n  points(s): \"len(s.won) // (len(s.won) - len(s.won))\"\n")
    assert main(["play", str(path), "-p", "4", "--quiet", "--seed", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"hearts.yaml:{line}:17: error: expression 'first(") and "division or modulo by zero" in err
    assert installed not in err
    path = write(tmp_path, "w.yaml", "trickbook: 1\nextends: hearts\nname: w\n"  # found by validate, in hearts
                 "define:\n  points(s): \"[1]\"\n")
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    first, source, caret = err.splitlines()[:3]
    assert first.startswith(f"hearts.yaml:{line}:") and "is always false" in first
    assert 'shooter: "first([s for s in seats if points(s) == 26])"' in source and caret.strip() == "^"
    assert installed not in err
    record = tmp_path / "game.jsonl"  # a record replayed with rules that fail in the bundled base
    assert main(["play", "hearts", "-p", "4", "--quiet", "--seed", "1", "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["replay", str(record), "--rules", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"cannot set up the game: hearts.yaml:{line}:" in err and installed not in err


def test_a_copy_of_a_bundled_file_is_named_and_read_as_the_users_own(tmp_path, monkeypatch, capsys):
    from interpreter.cli import main

    assert main(["validate", "hearts"]) == 0  # the bundled file is known by its name in this process
    text = (ROOT / "games" / "hearts.yaml").read_text().replace("points(s) == 26", "points(s) == [26]")
    (tmp_path / "hearts.yaml").write_text(text)
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["validate", "hearts.yaml"]) == 1
    first, source = capsys.readouterr().err.splitlines()[:2]
    assert first.startswith("hearts.yaml:") and "points(s) == [26]" in source  # the user's line, not the bundled
