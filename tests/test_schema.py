"""The JSON Schema for rule files: well-formed, closed, documented, and its errors point at the right place."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from interpreter.engine.compile import compile_game
from interpreter.engine.steps import REGISTRY as STEPS
from interpreter.errors import RuleErrors, SchemaError
from interpreter.rules.loader import load_rules
from interpreter.rules.schema import load_schema
from interpreter.rules.yaml_loader import load_yaml_text

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_FILE = ROOT / "schema" / "game.schema.json"
GAMES = sorted((ROOT / "games").glob("*.yaml"))
RIO = ROOT / "games" / "njet-riogrande.yaml"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def _walk(node: Any, path: str = "#"):
    """Every schema object inside ``node``, with a JSON-pointer-like path."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            if key in ("properties", "patternProperties", "definitions") and isinstance(value, dict):
                for name, sub in value.items():
                    yield from _walk(sub, f"{path}/{key}/{name}")
            elif key in ("enum", "const", "required", "examples", "default"):
                continue
            elif isinstance(value, (dict, list)):
                yield from _walk(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _walk(item, f"{path}/{i}")


def _is_object_schema(path: str, node: dict[str, Any]) -> bool:
    """A schema describing a mapping (an ``if`` only tests a value, so it must stay open to match)."""
    if path.endswith("/if"):
        return False
    t = node.get("type")
    types = t if isinstance(t, list) else [t]
    return "object" in types or "properties" in node or "patternProperties" in node


def _write(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _variant(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    """A copy of njet-riogrande.yaml with ``old`` (which must occur once) replaced by ``new``."""
    text = RIO.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    return _write(tmp_path, text), text


def _variant_line(tmp_path: Path, prefix: str, new: str) -> tuple[Path, str]:
    """A copy of njet-riogrande.yaml with its only line starting with ``prefix`` replaced by ``new``."""
    lines = RIO.read_text(encoding="utf-8").split("\n")
    hits = [i for i, line in enumerate(lines) if line.startswith(prefix)]
    assert len(hits) == 1, prefix
    lines[hits[0]] = new
    text = "\n".join(lines)
    return _write(tmp_path, text), text


def _where(text: str, line_contains: str, column_of: str) -> tuple[int, int]:
    """1-based line of the only line containing ``line_contains``, and column of ``column_of`` in it."""
    hits = [i for i, line in enumerate(text.splitlines()) if line_contains in line]
    assert len(hits) == 1, line_contains
    line = text.splitlines()[hits[0]]
    return hits[0] + 1, line.index(column_of) + 1


def _errors(path: Path) -> list:
    with pytest.raises(RuleErrors) as info:
        load_rules(path)
    return info.value.errors


def _first_line(text: str) -> int:
    """The line of the file's first key (comments come before it)."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if line and not line.startswith("#"))


# ---------------------------------------------------------------- the schema itself

def test_the_schema_passes_the_draft_07_and_the_2020_12_metaschema_checks(schema):
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.Draft202012Validator.check_schema(schema)


def test_the_schema_uses_no_keyword_a_draft_07_validator_would_ignore(schema):
    later = {"$defs", "unevaluatedProperties", "unevaluatedItems", "prefixItems", "dependentRequired",
             "dependentSchemas", "$anchor", "$dynamicRef", "minContains", "maxContains"}
    for path, node in _walk(schema):
        assert not later & set(node), path
        if "$ref" in node:  # draft-07 ignores every keyword beside a $ref: only annotations may stand there
            assert set(node) <= {"$ref", "title", "description", "default", "examples"}, path


def test_the_schema_has_its_id(schema):
    assert schema["$id"] == "urn:trickbook:schema:game"  # (a name that claims no web address)


def test_the_interpreter_loads_the_schema_file_of_the_repository(schema):
    assert load_schema() == schema


def _closed_by_kind(path: str) -> bool:
    """The schemas whose keys another one closes: the file (a whole file's and a variant's definitions, chosen by
    if/then/else), a step (its kind's definition, chosen by ``do``, lists every key it may have) and a template (a
    step whose values may be parameters: its keys are checked as the step's wherever it is used)."""
    return path in ("#", "#/definitions/step", "#/definitions/partial_step",
                    "#/definitions/rules/properties/templates/additionalProperties",
                    "#/definitions/variant/properties/templates/anyOf/0/additionalProperties/anyOf/0")


def test_every_object_schema_is_closed(schema):
    """A misspelt key is an error: either additional keys are refused, or the keys are names the
    author chooses (zones, options, ...) and are then constrained by propertyNames."""
    open_ = []
    for path, node in _walk(schema):
        if not _is_object_schema(path, node):
            continue
        if node.get("additionalProperties") is False or _closed_by_kind(path):
            continue
        if isinstance(node.get("additionalProperties"), dict) and isinstance(node.get("propertyNames"), dict):
            continue
        open_.append(path)
    assert open_ == []


def test_every_object_with_fixed_keys_refuses_other_keys(schema):
    """Where the schema lists the keys (properties) and the author does not name keys, nothing else is allowed."""
    for path, node in _walk(schema):
        if _is_object_schema(path, node) and "properties" in node and "propertyNames" not in node:
            assert node.get("additionalProperties") is False or _closed_by_kind(path), path


def test_every_property_and_definition_has_a_description(schema):
    missing = []
    for path, node in _walk(schema):
        for key in ("properties", "patternProperties", "definitions"):
            for name, sub in (node.get(key) or {}).items():
                if not (isinstance(sub, dict) and isinstance(sub.get("description"), str) and sub["description"]):
                    missing.append(f"{path}/{key}/{name}")
        names = node.get("propertyNames")
        if isinstance(names, dict) and not names.get("description"):
            missing.append(f"{path}/propertyNames")
    assert missing == []
    assert schema["description"]


def test_the_step_kinds_of_the_schema_are_the_registered_step_kinds(schema):
    assert set(schema["definitions"]["step"]["properties"]["do"]["enum"]) == set(STEPS)
    branches = {b["if"]["properties"]["do"]["const"]: b["then"]["$ref"] for b in schema["definitions"]["step"]["allOf"]}
    assert branches == {kind: f"#/definitions/{kind}_step" for kind in STEPS}


def _keys_read(text: str, patterns: list[str]) -> set[str]:
    return {m for p in patterns for m in re.findall(p, text)}


def _reader_reads(text: str, reader: str) -> set[str]:
    """The keys the reader named ``reader`` (engine/steps/options.py's Options) is asked for in ``text``: by its
    methods taking a key, and the keys a part made by ``part``/``attempt`` reads (named after the part)."""
    asked = _keys_read(text, [rf'\b{reader}\.(?:get|need|plain|given|within|itself)\(\s*"(\w+)"'])
    for call in re.findall(rf'\b{reader}\.(?:part|attempt)\(partial\([^()]*\)((?:, "\w+")+)\)', text):
        asked |= set(re.findall(r'"(\w+)"', call))
    return asked


# the options a step kind hands to the trick parts that read them (trick_parts.rules, routes), and the declarations
# read by name
_PARTS_READ = [r'\brules\(ctx, opts, "(\w+)"\)', r'\b(route)s\(ctx, opts\)', r'self\.declared\("(\w+)"\)']


def _kind_code(cls: type) -> str:
    """The source of a step kind: its class's module and the module that declares its options (its reading, when a
    kind is written as its reading and its play)."""
    declaring = next(c for c in cls.__mro__ if "options" in vars(c))
    modules = dict.fromkeys((cls.__module__, declaring.__module__))
    return "".join(Path(__import__(m, fromlist=["x"]).__file__).read_text(encoding="utf-8") for m in modules)


@pytest.mark.parametrize("kind", sorted(STEPS))
def test_each_step_kind_allows_exactly_the_keys_its_code_reads(schema, kind):
    code = _kind_code(STEPS[kind])
    step = schema["definitions"][f"{kind}_step"]
    assert step["additionalProperties"] is False
    assert set(step["properties"]) - {"do", "when"} == _reader_reads(code, "opts") | _keys_read(code, _PARTS_READ)
    assert step["properties"]["do"]["const"] == kind


def test_nested_step_mappings_allow_exactly_the_keys_the_code_reads(schema):
    steps = ROOT / "interpreter" / "engine" / "steps"
    board = (steps / "board_reading.py").read_text(encoding="utf-8")
    row = schema["definitions"]["board_step"]["properties"]["rows"]["additionalProperties"]
    assert set(row["properties"]) == _reader_reads(board, "row")
    tricks = (steps / "trick_reading.py").read_text(encoding="utf-8")
    trick = schema["definitions"]["tricks_step"]["properties"]
    assert set(trick["takers"]["items"]["properties"]) == _reader_reads(tricks, "item")
    parts = (steps / "trick_parts.py").read_text(encoding="utf-8")
    assert set(trick["route"]["items"]["properties"]) == _reader_reads(parts, "route")
    rule_code = parts.split("class Rule", 1)[1].split("\ndef ", 1)[0]
    rule = _reader_reads(rule_code, "rule")
    for key in ("lead", "follow"):  # a condition, a rule mapping or a list of them
        assert set(trick[key]["properties"]) == rule
        assert set(trick[key]["items"]["properties"]) == rule


def test_the_top_level_game_zone_and_deck_keys_are_the_ones_their_readers_read(schema):
    # each top-level key is one section of the keyword table (tests/test_plan.py), whose reader reads its keys
    assert set(schema["definitions"]["rules"]["properties"]) == set(schema["properties"])
    plan = ROOT / "interpreter" / "plan"
    game = _keys_read((plan / "game.py").read_text(encoding="utf-8"), [r'\bspec\.get\("(\w+)"', r'\bat\("(\w+)"\)'])
    assert set(schema["definitions"]["game"]["properties"]) == game
    zones = (plan / "zones.py").read_text(encoding="utf-8")
    assert set(schema["definitions"]["zone"]["properties"]) == _keys_read(zones, [r'\bspec\.get\("(\w+)"'])
    deck = _keys_read((plan / "deck.py").read_text(encoding="utf-8"), [r'\bspec\.get\("(\w+)"',
                                                                       r'\bspec\["(\w+)"\]'])
    assert set(schema["definitions"]["deck"]["properties"]) == deck


def test_a_raw_file_may_name_the_file_it_extends(schema):
    data, _ = load_yaml_text(RIO.read_text(encoding="utf-8"))
    data = json.loads(json.dumps(data))  # string keys, as an editor sees the file
    data["extends"] = "njet-riogrande"
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(data)) == []


# ---------------------------------------------------------------- bundled games

@pytest.mark.parametrize("game", GAMES, ids=[g.stem for g in GAMES])
def test_every_bundled_game_validates(game):
    source = load_rules(game)
    assert source.data["trickbook"] == 1
    assert "extends" not in source.data


def test_there_are_bundled_games_to_validate():
    assert {g.stem for g in GAMES} >= {"njet-riogrande", "njet-goldsieber"}


def test_player_counts_stay_int_keys_after_validation():
    source = load_rules(RIO)
    assert sorted(source.data["players"]) == [2, 3, 4, 5]


# ---------------------------------------------------------------- error positions and messages

def test_a_misspelt_step_key_points_at_the_key_and_suggests_the_right_one(tmp_path):
    path, text = _variant(tmp_path, '    follow: "card.colour', '    folow: "card.colour')
    errors = _errors(path)
    assert len(errors) == 1
    line, col = _where(text, "folow:", "folow")
    assert (errors[0].position.file, errors[0].position.line, errors[0].position.column) == (str(path), line, col)
    assert errors[0].message.startswith("unknown key 'folow' in the tricks step 'tricks'; did you mean 'follow'?")
    assert errors[0].render().splitlines()[0] == f"{path}:{line}:{col}: error: {errors[0].message}"
    assert errors[0].render().splitlines()[2] == " " * 4 + " " * (col - 1) + "^"


def test_a_misspelt_top_level_key_points_at_the_key_and_suggests_the_right_one(tmp_path):
    path, text = _variant(tmp_path, "\nzones:\n", "\nzone:\n")
    errors = _errors(path)
    line, _ = _where(text, "zone:", "zone")
    assert [(e.position.line, e.position.column, e.message) for e in errors] == [
        (_first_line(text), 1, "'zones' is missing at the top level (required)"),
        (line, 1, "unknown key 'zone' at the top level; did you mean 'zones'? (allowed here: combinations, deck, "
                  "define, extends, game, name, options, players, round, seats, table, templates, title, trickbook, "
                  "types, zones)"),
    ]


def test_a_value_of_the_wrong_type_points_at_the_value(tmp_path):
    path, text = _variant(tmp_path, "hand:     {per_seat: true", "hand:     {per_seat: maybe")
    errors = _errors(path)
    line, col = _where(text, "per_seat: maybe", "maybe")
    assert [(e.position.line, e.position.column, e.message) for e in errors] == [
        (line, col, "zones/hand/per_seat: expected true/false, not 'maybe'"),
    ]


def test_an_unknown_step_kind_is_reported_at_its_do_value_with_a_suggestion(tmp_path):
    path, text = _variant(tmp_path, "    do: tricks\n", "    do: trick\n")
    errors = _errors(path)
    line, col = _where(text, "do: trick", "trick")
    assert [(e.position.line, e.position.column) for e in errors] == [(line, col)]
    assert errors[0].message == (f"round/tricks/do: 'trick' is not one of {', '.join(sorted(STEPS))}; "
                                 "did you mean 'tricks'?")


def test_a_step_without_do_is_reported_at_the_step_name(tmp_path):
    path, text = _variant(tmp_path, "    do: tricks\n", "")
    errors = _errors(path)
    line, col = _where(text, "  tricks:", "tricks")
    assert [(e.position.line, e.position.column, e.message) for e in errors] == [
        (line, col, "one of 'do', 'use' is needed in the step 'tricks'"),
    ]


def test_a_missing_step_key_names_the_step_kind_and_points_at_the_step_name(tmp_path):
    path, text = _variant(tmp_path, "    to: won\n", "")
    errors = _errors(path)
    line, col = _where(text, "  tricks:", "tricks")
    assert [(e.position.line, e.position.column, e.message) for e in errors] == [
        (line, col, "'to' is missing in the tricks step 'tricks' (required)"),
    ]


def test_a_key_of_another_step_kind_is_unknown_in_this_kind(tmp_path):
    path, text = _variant(tmp_path, "    do: board\n", "    do: board\n    move_to: aside\n")   # a choose key
    errors = _errors(path)
    line, col = _where(text, "move_to: aside", "move_to")
    assert [(e.position.line, e.position.column) for e in errors] == [(line, col)]
    allowed = ", ".join(sorted(o.key for o in STEPS["board"].options))
    assert errors[0].message == f"unknown key 'move_to' in the board step 'njet' (allowed here: {allowed})"


def test_a_wrong_value_inside_a_player_count_points_at_the_value(tmp_path):
    path, text = _variant(tmp_path, 'remove: "card.number == 7 and card.copy < 3"', "remove: 5")
    errors = _errors(path)
    line, col = _where(text, "remove: 5", "5")
    assert [(e.position.line, e.position.column, e.message) for e in errors] == [
        (line, col, "players/3/remove: expected text or true/false, not 5"),
    ]


def test_a_player_count_that_is_not_a_number_points_at_the_key(tmp_path):
    path, text = _variant(tmp_path, "  2: {hand: 15", "  two: {hand: 15")
    errors = _errors(path)
    line, _ = _where(text, "two: {", "two")
    assert [(e.position.line, e.position.column, e.message) for e in errors] == [
        (line, 3, "unknown key 'two' in the players section (keys here must match ^[1-9][0-9]?$)"),
    ]


def test_a_name_unusable_in_expressions_points_at_the_key(tmp_path):
    path, text = _variant(tmp_path, "  trick:    {visible: all}", "  the-trick: {visible: all}")
    errors = _errors(path)
    line, _ = _where(text, "the-trick:", "the-trick")
    assert [(e.position.line, e.position.column) for e in errors] == [(line, 3)]
    assert errors[0].message.startswith("'the-trick' is not allowed as a name here: a zone name is a name usable")


def test_a_wrong_enum_value_suggests_the_closest_choice(tmp_path):
    path, text = _variant(tmp_path, "equal_cards: later_wins", "equal_cards: latter_wins")
    errors = _errors(path)
    line, col = _where(text, "equal_cards:", "latter_wins")
    assert [(e.position.line, e.position.column, e.message) for e in errors] == [
        (line, col, "round/tricks/equal_cards: 'latter_wins' is not one of later_wins, first_wins; "
                    "did you mean 'later_wins'?"),
    ]


def test_a_game_without_an_end_asks_for_rounds_or_until(tmp_path):
    path, text = _variant_line(tmp_path, "  rounds:", "  winners: highest_total")
    errors = _errors(path)
    line, _ = _where(text, "game:", "game")
    assert [(e.position.line, e.position.column, e.message) for e in errors] == [
        (line, 1, "one of 'rounds', 'until' is needed in the game section"),
    ]


def test_a_null_outside_an_extending_file_is_reported_at_the_null(tmp_path):
    path, text = _variant(tmp_path, "rest: aside", "rest: null")
    errors = _errors(path)
    line, col = _where(text, "rest: null", "null")
    assert [(e.position.line, e.position.column, e.message) for e in errors] == [
        (line, col, "round/deal/rest: expected text, not null (null removes a key only in a file that extends "
                    "another)"),
    ]


def test_a_bad_board_space_points_at_the_space(tmp_path):
    path, text = _variant(tmp_path, "spaces: [1, 2, 3, 4, -2]", "spaces: [1, 2, 3, 4, {points: -2}]")
    with pytest.raises(SchemaError) as info:
        compile_game(load_rules(path), 4)
    line, col = _where(text, "spaces: [1, 2, 3, 4, {points: -2}]", "{points")
    assert (info.value.position.line, info.value.position.column) == (line, col)
    assert info.value.message == "a space with fields needs a label"


def test_reserved_card_attributes_are_refused(tmp_path):
    path, text = _variant(tmp_path, "      number: [0,", "      copy: [0,")
    errors = _errors(path)
    line, col = _where(text, "copy: [0,", "copy")
    assert [(e.position.line, e.position.column) for e in errors] == [(line, col)]
    assert "copy is set automatically" in errors[0].message


def test_a_key_written_both_as_number_and_as_text_is_refused(tmp_path):
    path, text = _variant(tmp_path, "  4: {hand: 15, rounds: 8, own_team: [2]}\n",
                          '  4: {hand: 15, rounds: 8, own_team: [2]}\n  "4": {hand: 10}\n')
    errors = _errors(path)
    line, _ = _where(text, '"4": {hand: 10}', '"4"')
    assert [(e.position.line, e.position.column, e.message) for e in errors] == [
        (line, 3, "key 4 is written twice, once as a number and once as text"),
    ]


def test_every_mistake_is_reported_at_once_in_file_order(tmp_path):
    text = RIO.read_text(encoding="utf-8")
    text = text.replace("trickbook: 1", "trickbook: 2").replace('    follow: "card', '    folow: "card')
    path = _write(tmp_path, text)
    errors = _errors(path)
    assert [(e.position.line, e.message.split(";")[0]) for e in errors] == [
        (_first_line(text), "trickbook: 2 must be 1"),
        (_where(text, "folow:", "folow")[0], "unknown key 'folow' in the tricks step 'tricks'"),
    ]


def test_a_mistake_in_an_extending_file_points_into_that_file(tmp_path):
    text = ("trickbook: 1\nextends: njet-riogrande\nname: njet-variant\n"
            "round:\n  tricks:\n    equal_cards: first_wins\n    lead_with: card.number == 0\n")
    path = _write(tmp_path, text, "variant.yaml")
    errors = _errors(path)
    assert [(e.position.file, e.position.line, e.position.column) for e in errors] == [(str(path), 7, 5)]
    assert errors[0].message.startswith("unknown key 'lead_with' in the tricks step 'tricks'")


def test_an_extending_file_can_remove_a_key_with_null(tmp_path):
    text = ("trickbook: 1\nextends: njet-riogrande\nname: njet-variant\n"
            "round:\n  tricks:\n    route: null\n")
    assert "route" in load_rules(RIO).data["round"]["tricks"]
    source = load_rules(_write(tmp_path, text, "variant.yaml"))
    assert "route" not in source.data["round"]["tricks"]
