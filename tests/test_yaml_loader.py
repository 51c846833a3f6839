"""The safe YAML loader: what it refuses, where it says so, and where every scalar sits.

Rule files are untrusted, so the loader accepts a small YAML (no anchors,
aliases, duplicate keys or tags; only ``true``/``false`` as booleans; no
dates; a size limit) and remembers positions precisely enough to point at one
character inside an expression.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import interpreter.rules.yaml_loader as yaml_loader
from interpreter.dsl.compiler import Compiler, Globals
from interpreter.dsl.types import CARD
from interpreter.errors import ExpressionError, Position, YamlError
from interpreter.rules.yaml_loader import MAX_BYTES, MAX_DEPTH, ScalarSpan, load_yaml, load_yaml_text

FILE = "f.yaml"
ROOT = Path(__file__).resolve().parent.parent


def error_of(text: str) -> YamlError:
    with pytest.raises(YamlError) as info:
        load_yaml_text(text, FILE)
    return info.value


def file_error(path: Path) -> YamlError:
    with pytest.raises(YamlError) as info:
        load_yaml(path)
    return info.value


def where(text: str, marker: str) -> Position:
    """Line and column of the only occurrence of ``marker`` in ``text`` (the oracle for positions)."""
    assert text.count(marker) == 1
    i = text.index(marker)
    return Position(FILE, text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1)


def get(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def position_in_value(text: str, path: tuple, marker: str) -> Position:
    """Where the loader says ``marker`` of the scalar at ``path`` is."""
    data, smap = load_yaml_text(text, FILE)
    return smap.in_scalar(path, get(data, path).index(marker))


# ----------------------------------------------------------------------------- anchors and aliases


def test_an_anchor_is_refused_at_its_line_and_column():
    err = error_of("name: x\nrounds: &n 8\n")
    assert err.message == "YAML anchors (&name) are not allowed in rule files"
    assert err.position == Position(FILE, 2, 9)
    assert err.source_line == "rounds: &n 8"


def test_an_anchor_on_a_nested_mapping_or_list_item_is_refused_where_it_is_written():
    assert error_of("round:\n  deal: &d\n    do: deal\n").position == Position(FILE, 2, 9)
    assert error_of("a:\n  - &x 1\n").position == Position(FILE, 2, 5)


def test_an_alias_is_refused_at_its_line_and_column():
    err = error_of("a: 1\nb: *x\n")
    assert err.message == "YAML aliases (*name) are not allowed in rule files"
    assert err.position == Position(FILE, 2, 4)
    assert err.source_line == "b: *x"


def test_a_billion_laughs_document_is_refused_at_its_first_anchor():
    text = 'a: &a ["lol", "lol"]\nb: &b [*a, *a]\nc: &c [*b, *b]\n'
    err = error_of(text)
    assert (err.message, err.position) == ("YAML anchors (&name) are not allowed in rule files", Position(FILE, 1, 4))


# ----------------------------------------------------------------------------- duplicate keys


def test_a_duplicate_key_is_refused_at_the_second_occurrence():
    err = error_of("name: a\ndeck: 1\nname: b\n")
    assert (err.message, err.position, err.source_line) == ("duplicate key 'name'", Position(FILE, 3, 1), "name: b")


def test_a_duplicate_key_in_a_nested_mapping_is_refused_at_its_position():
    err = error_of("zones:\n  hand: {per_seat: true}\n  trick: {}\n  hand: {}\n")
    assert (err.message, err.position) == ("duplicate key 'hand'", Position(FILE, 4, 3))


def test_a_quoted_key_duplicates_the_same_plain_key():
    err = error_of("a: 1\n'a': 2\n")
    assert (err.message, err.position) == ("duplicate key 'a'", Position(FILE, 2, 1))


def test_a_duplicate_key_in_a_flow_mapping_is_refused():
    err = error_of("a: {x: 1, y: 2, x: 3}\n")
    assert (err.message, err.position) == ("duplicate key 'x'", Position(FILE, 1, 17))


# ----------------------------------------------------------------------------- scalars


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "y", "n", "Y", "N", "Yes", "NO", "On", "OFF",
                                  "True", "False", "TRUE", "FALSE"])
def test_yaml_1_1_boolean_words_stay_strings(word):
    assert load_yaml_text(f"a: {word}\n", FILE)[0] == {"a": word}


def test_only_lower_case_true_and_false_are_booleans():
    data, _ = load_yaml_text("a: true\nb: false\nc: 'true'\nd: \"false\"\n", FILE)
    assert data == {"a": True, "b": False, "c": "true", "d": "false"}
    assert type(data["a"]) is bool


@pytest.mark.parametrize("text", ["2024-01-01", "2024-01-01 10:00:00", "2001-12-14t21:59:43.10-05:00", "12:30",
                                  "1.5", "1e3", ".inf", ".nan", "0x1f", "0o17", "1_000", "Null", "NULL"])
def test_dates_times_floats_and_other_numbers_stay_strings(text):
    assert load_yaml_text(f"a: {text}\n", FILE)[0] == {"a": text}


def test_whole_numbers_and_null_are_recognised():
    data, _ = load_yaml_text("a: 12\nb: -3\nc: +4\nd: 007\ne: null\nf: ~\ng:\n", FILE)
    assert data == {"a": 12, "b": -3, "c": 4, "d": 7, "e": None, "f": None, "g": None}


# ----------------------------------------------------------------------------- tags


@pytest.mark.parametrize("value, tag", [
    ("!!python/object:os.system x", "tag:yaml.org,2002:python/object:os.system"),
    ("!!python/object/apply:os.system [ls]", "tag:yaml.org,2002:python/object/apply:os.system"),
    ("!!python/object/new:os.system {a: 1}", "tag:yaml.org,2002:python/object/new:os.system"),
    ("!!python/name:os.system ''", "tag:yaml.org,2002:python/name:os.system"),
    ("!!binary aGk=", "tag:yaml.org,2002:binary"),
    ("!!float 1.5", "tag:yaml.org,2002:float"),
    ("!!timestamp 2024-01-01", "tag:yaml.org,2002:timestamp"),
    ("!!set {x: null}", "tag:yaml.org,2002:set"),
    ("!!omap [x: 1]", "tag:yaml.org,2002:omap"),
    ("!custom x", "!custom"),
    ("!custom {b: 1}", "!custom"),
])
def test_python_and_other_tags_are_refused(value, tag):
    err = error_of(f"a: {value}\n")
    assert (err.message, err.position) == (f"YAML tag {tag} is not allowed in rule files", Position(FILE, 1, 4))


def test_a_tag_declared_with_a_directive_is_refused_too():
    err = error_of("%TAG !e! tag:example.com,2000:\n---\na: !e!foo 1\n")
    assert err.message == "YAML tag tag:example.com,2000:foo is not allowed in rule files"
    assert err.position == Position(FILE, 3, 4)


@pytest.mark.parametrize("value, message", [
    ("!!int abc", "'abc' is not a valid int value"),
    ("!!bool yes", "'yes' is not a valid bool value"),
    ("!!null x", "'x' is not a valid null value"),
])
def test_an_explicit_core_tag_must_hold_a_value_of_its_kind(value, message):
    err = error_of(f"a: {value}\n")
    assert (err.message, err.position) == (message, Position(FILE, 1, 4))


def test_explicit_core_tags_with_fitting_values_are_accepted():
    data, _ = load_yaml_text("a: !!str 12\nb: !!int '12'\nc: !!bool true\nd: !!seq [1]\ne: !!map {x: 1}\n", FILE)
    assert data == {"a": "12", "b": 12, "c": True, "d": [1], "e": {"x": 1}}


# ----------------------------------------------------------------------------- keys


@pytest.mark.parametrize("text, message, position", [
    ("~: 1\n", "mapping key '~' must be a name or a number", (1, 1)),
    ("a: 1\ntrue: 2\n", "mapping key 'true' must be a name or a number", (2, 1)),
    ("? [a]\n: 1\n", "mapping keys must be plain scalars", (1, 3)),
    ("x:\n  {a: 1}: 2\n", "mapping keys must be plain scalars", (2, 3)),
])
def test_mapping_keys_must_be_names_or_numbers(text, message, position):
    err = error_of(text)
    assert (err.message, err.position) == (message, Position(FILE, *position))


def test_number_keys_load_as_numbers():
    assert load_yaml_text("players:\n  3: {hand: 16}\n", FILE)[0] == {"players": {3: {"hand": 16}}}


# ----------------------------------------------------------------------------- size, encoding, files


def test_the_size_limit_is_one_million_bytes_and_larger_files_are_refused_before_parsing(tmp_path):
    assert MAX_BYTES == 1_000_000
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (MAX_BYTES + 1))
    err = file_error(path)
    assert err.message == "file is 1000001 bytes, more than the limit of 1000000"
    assert err.position == Position(str(path), 1, 1)


def test_a_file_of_exactly_the_limit_is_accepted(tmp_path, monkeypatch):
    monkeypatch.setattr(yaml_loader, "MAX_BYTES", 12)
    path = tmp_path / "rules.yaml"
    path.write_bytes(b"name: abcde\n")
    assert load_yaml(path)[0] == {"name": "abcde"}
    path.write_bytes(b"name: abcdef\n")
    assert file_error(path).message == "file is 13 bytes, more than the limit of 12"


def test_a_file_that_is_not_utf8_is_refused_with_a_position(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: café\n".encode("latin-1"))
    err = file_error(path)
    assert err.message == "file is not UTF-8 (invalid continuation byte at byte 9)"
    assert err.position == Position(str(path), 1, 1)


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfname: x\n")
    assert load_yaml(path)[0] == {"name": "x"}


def test_a_missing_file_is_reported_with_its_name(tmp_path):
    path = tmp_path / "nope.yaml"
    err = file_error(path)
    assert err.message == "cannot read file: No such file or directory"
    assert err.position == Position(str(path), 1, 1)


def test_a_control_character_is_refused_at_its_position():
    err = error_of("name: x\nrounds: 8\x00\n")
    assert (err.message, err.position) == ("invalid YAML: character #x0000 is not allowed", Position(FILE, 2, 10))


def test_an_empty_file_or_a_file_of_comments_loads_as_nothing():
    assert load_yaml_text("", FILE)[0] is None
    assert load_yaml_text("# nothing here\n\n", FILE)[0] is None


def test_a_real_rule_file_loads_with_its_positions(tmp_path):
    path = ROOT / "games" / "njet-riogrande.yaml"
    data, smap = load_yaml(path)
    assert data["name"] == "njet-riogrande"
    assert smap.files == {str(path)}
    text = path.read_text(encoding="utf-8")
    follow = where(text, "follow:")
    assert smap.key(("round", "tricks", "follow")) == Position(str(path), follow.line, follow.column)


# ----------------------------------------------------------------------------- nesting


def test_nesting_up_to_the_limit_is_accepted_and_one_level_more_is_refused_where_it_starts():
    assert MAX_DEPTH == 64
    deep = "a: " + "[" * 64 + "]" * 64 + "\n"  # the innermost list is 64 levels below the top mapping
    assert load_yaml_text(deep, FILE)[0] is not None
    err = error_of("a: " + "[" * 65 + "]" * 65 + "\n")
    assert (err.message, err.position) == ("nesting deeper than 64 levels", Position(FILE, 1, 68))


def test_deeply_nested_block_mappings_are_refused_with_a_position():
    text = "".join(" " * i + "k:\n" for i in range(80)) + " " * 80 + "k: 1\n"
    err = error_of(text)
    assert (err.message, err.position) == ("nesting deeper than 64 levels", Position(FILE, 66, 66))


@pytest.mark.parametrize("text, position", [
    ("[" * 5000 + "]" * 5000, (1, 129)),
    ("{a: " * 5000 + "1" + "}" * 5000, (1, 513)),
    ("- " * 5000 + "x", (1, 257)),
    ("".join(" " * i + "k:\n" for i in range(1400)) + " " * 1400 + "k: 1\n", (129, 130)),
])
def test_absurdly_deep_nesting_gives_a_yaml_error_not_a_recursion_error(text, position):
    """Past twice the depth limit the scanner itself stops, at the token that opens the level."""
    err = error_of(text)
    assert (err.message, err.position) == ("nesting deeper than 64 levels", Position(FILE, *position))


def test_a_megabyte_of_open_brackets_is_refused_at_once():
    """PyYAML's scanner is quadratic in the bracket depth: without the early stop this takes hours."""
    err = error_of("[" * (MAX_BYTES - 1))
    assert (err.message, err.position) == ("nesting deeper than 64 levels", Position(FILE, 1, 129))


# ----------------------------------------------------------------------------- malformed files


@pytest.mark.parametrize("text, message, position", [
    ("a: [1, 2\nb: 3\n", "invalid YAML: expected ',' or ']', but got ':'", (2, 2)),
    ("a: {b: 1\n", "invalid YAML: expected ',' or '}', but got '<stream end>'", (2, 1)),
    ("a: 'abc\n", "invalid YAML: found unexpected end of stream", (2, 1)),
    ("a:\n\tb: 1\n", "invalid YAML: found character '\\t' that cannot start any token", (2, 1)),
    ("a: b: c\n", "invalid YAML: mapping values are not allowed here", (1, 5)),
    ("a: 1\n b: 2\n", "invalid YAML: mapping values are not allowed here", (2, 3)),
    ("a: @x\n", "invalid YAML: found character '@' that cannot start any token", (1, 4)),
    ("a: 1\n---\nb: 2\n", "invalid YAML: expected a single document in the stream, but found another document",
     (2, 1)),
])
def test_a_malformed_file_gives_a_positioned_error(text, message, position):
    err = error_of(text)
    assert (err.message, err.position) == (message, Position(FILE, *position))


def test_a_yaml_error_renders_as_file_line_col_message_source_line_and_caret(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text("a: [1, 2\nb: 3\n", encoding="utf-8")
    err = file_error(path)
    assert str(err) == (f"{path}:2:2: error: invalid YAML: expected ',' or ']', but got ':'\n"
                        "    b: 3\n"
                        "     ^")


def test_a_duplicate_key_error_renders_with_its_line(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text("name: x\n  # comment\nname: y\n", encoding="utf-8")
    assert str(file_error(path)) == f"{path}:3:1: error: duplicate key 'name'\n    name: y\n    ^"


# ----------------------------------------------------------------------------- positions of keys and values


SAMPLE = """\
name: sample
zones:
  hand: {per_seat: true, visible: owner}
  trick: {visible: all}
round:
  tricks:
    strength:
      - "card.number"
      - card.colour == round.trump
"""


def test_keys_and_values_remember_their_positions():
    _, smap = load_yaml_text(SAMPLE, FILE)
    assert smap.key(("zones", "hand")) == Position(FILE, 3, 3)
    assert smap.value(("zones", "hand")) == Position(FILE, 3, 9)
    assert smap.value(("zones", "hand", "visible")) == where(SAMPLE, "owner") == Position(FILE, 3, 35)
    assert smap.value(("round", "tricks", "strength", 1)) == Position(FILE, 9, 9)
    assert smap.key(("round", "tricks", "strength", 1)) == Position(FILE, 9, 9)  # a list item has no key


def test_an_unknown_path_falls_back_to_its_nearest_known_ancestor():
    _, smap = load_yaml_text(SAMPLE, FILE)
    assert smap.value(("zones", "hand", "nope", 3)) == Position(FILE, 3, 9)
    assert smap.in_scalar(("zones", "trick"), 4) == Position(FILE, 4, 10)  # not a scalar: its value position


def test_drop_under_forgets_a_subtree_only():
    _, smap = load_yaml_text(SAMPLE, FILE)
    smap.drop_under(("zones", "hand"))
    assert ("zones", "hand", "visible") not in smap.values
    assert smap.value(("zones", "hand")) == Position(FILE, 3, 3)  # now the value of zones
    assert smap.value(("zones", "trick")) == Position(FILE, 4, 10)


# ----------------------------------------------------------------------------- scalar spans


@pytest.mark.parametrize("text, path", [
    ("points: seat.tricks * zz + 1\n", ("points",)),
    ("a: {points: x + zz}\n", ("a", "points")),
    ("strength:\n  - card.number\n  - zz + 1\n", ("strength", 1)),
    ("points: 'x + zz'\n", ("points",)),
    ("points: \"card.colour == 'red' and zz\"\n", ("points",)),
    ("round:\n  score:\n    points: \"x + zz\"  # comment\n", ("round", "score", "points")),
])
def test_an_offset_in_a_one_line_scalar_maps_to_its_line_and_column(text, path):
    assert position_in_value(text, path, "zz") == where(text, "zz")


@pytest.mark.parametrize("text, path", [
    ("points: |\n  x +\n  zz\n", ("points",)),
    ("points: |\n  x +\n    zz\n", ("points",)),
    ("points: |-\n  x +\n\n  zz\nnext: 1\n", ("points",)),
    ("round:\n  score:\n    points: |\n      a +\n        b * zz\n    other: 1\n", ("round", "score", "points")),
    ("points: >\n  x +\n  y + zz\n", ("points",)),
    ("points: |  # the points\n  x + zz\n", ("points",)),
])
def test_an_offset_in_a_block_scalar_maps_to_its_line_and_column(text, path):
    assert position_in_value(text, path, "zz") == where(text, "zz")


@pytest.mark.parametrize("text, path", [
    ("points: x +\n  y +\n  zz\nnext: 1\n", ("points",)),
    ("points: x +\n\n  zz\n", ("points",)),
    ("points: 'x +\n  zz'\n", ("points",)),
    ("points: \"x +\n     zz\"\n", ("points",)),
    ("round:\n  score:\n    points: max(0, x)\n      + zz\n", ("round", "score", "points")),
])
def test_an_offset_in_a_scalar_folded_over_several_lines_maps_to_its_line_and_column(text, path):
    assert position_in_value(text, path, "zz") == where(text, "zz")


def test_the_offset_just_past_the_end_points_right_after_the_last_character():
    data, smap = load_yaml_text("a: x +\nb: 'x +'\nc: |\n  x +\n\nd: 1\n", FILE)
    assert smap.in_scalar(("a",), len(data["a"])) == Position(FILE, 1, 7)
    assert smap.in_scalar(("b",), len(data["b"])) == Position(FILE, 2, 8)
    assert data["c"] == "x +\n"
    assert smap.in_scalar(("c",), len(data["c"])) == Position(FILE, 4, 6)


def test_scalar_spans_record_their_style():
    _, smap = load_yaml_text("a: x\nb: 'x'\nc: \"x\"\nd: |\n  x\ne: >\n  x\n", FILE)
    assert [smap.scalars[(k,)].style for k in "abcde"] == [None, "'", '"', "|", ">"]
    assert smap.scalars[("a",)] == ScalarSpan(Position(FILE, 1, 4), None, ())


# ----------------------------------------------------------------------------- expression errors in YAML


def _card_compiler() -> Compiler:
    g = Globals()
    g.card_attrs = {"colour": ("red", "blue"), "number": (1, 2)}
    return Compiler(g)


@pytest.mark.parametrize("text", [
    "follow: card.colour == led.colr\n",
    "follow: \"card.colour == led.colr\"\n",
    "follow: |\n  card.colour ==\n      led.colr\n",
    "follow: card.colour\n  == led.colr\n",
])
def test_an_expression_error_points_at_the_exact_character_in_the_yaml_file(text):
    data, smap = load_yaml_text(text, FILE)

    def locate(offset: int) -> Position:
        return smap.in_scalar(("follow",), offset)

    with pytest.raises(ExpressionError) as info:
        _card_compiler().compile(data["follow"], {"card": CARD, "led": CARD}, locate)
    assert info.value.message == "cards have no attribute 'colr' (they have: colour, number)"
    assert info.value.position == where(text, "colr")


def test_an_expression_that_ends_too_early_in_a_block_points_after_its_last_character():
    text = "points: |\n  seat.tricks +\nnext: 1\n"
    data, smap = load_yaml_text(text, FILE)
    with pytest.raises(ExpressionError) as info:
        _card_compiler().compile(data["points"], {}, lambda o: smap.in_scalar(("points",), o))
    assert info.value.message == "syntax error: the expression ends too early; expected a value"
    assert info.value.position == Position(FILE, 2, 16)


@pytest.mark.skipif(yaml_loader._FastLoader is None, reason="PyYAML without libyaml")
@pytest.mark.parametrize("path", sorted((ROOT / "games").glob("*.yaml")) + sorted((ROOT / "docs" / "examples").glob(
    "*.yaml")), ids=lambda p: p.name)
def test_libyaml_and_the_python_parser_give_the_same_data_and_positions(path):
    """libyaml reads every file when present; the pure-Python parser when it is not, and to word errors."""
    text = path.read_text()
    fast = yaml_loader._load(text, str(path), yaml_loader._FastLoader)
    slow = yaml_loader._load(text, str(path), yaml_loader._Loader)
    assert fast[0] == slow[0]
    assert fast[1] == slow[1]
