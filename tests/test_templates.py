"""Step templates (``templates:`` and ``use:``, interpreter/rules/templates.py): a step written once with parameters
and used by several steps is the same game as the steps written out, its mistakes are shown where they were
written (in the template, or in the use's argument), and a variant may change a template or one use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.engine.compile import compile_game, rule_file_problems
from interpreter.harness.agents import RandomAgent
from interpreter.harness.runner import play_game
from interpreter.rules.loader import load_rules

from .conftest import ROOT

# the cookbook's recipe: passing with one card given back, the passing and the picking up written as templates
EXAMPLE = ROOT / "docs" / "examples" / "pass-back.yaml"
TEMPLATED = EXAMPLE.read_text(encoding="utf-8").replace("    verb: $verb", "    verb: $verb and keep $$0")

WRITTEN_OUT = {
    "pass": {"do": "choose", "when": "round.number % 4 != 0", "count": 3, "options": "seat.hand",
             "simultaneous": True, "move_to": "passing", "verb": "pass and keep $0"},
    "receive": {"do": "move", "when": "round.number % 4 != 0", "each": "seats", "cards": "seat.passing", "to": "hand",
                "owner": "receiver(seat)"},
    "pass_back": {"do": "choose", "when": "round.number == 1", "count": 1, "options": "seat.hand",
                  "simultaneous": True, "move_to": "back", "verb": "give back and keep $0"},
    "return": {"do": "move", "when": "round.number == 1", "each": "seats", "cards": "seat.back", "to": "hand",
               "owner": "right(seat)"},
}


def written(tmp_path: Path, text: str, name: str = "templated.yaml") -> Path:
    file = tmp_path / name
    file.write_text(text, encoding="utf-8")
    return file


def problems(file: Path) -> list[str]:
    return [p.render() for p in rule_file_problems(str(file))]


def test_a_use_is_its_templates_step_with_the_arguments_put_in_and_its_own_keys_over_it(tmp_path):
    source = load_rules(written(tmp_path, TEMPLATED))
    for name, step in WRITTEN_OUT.items():
        assert source.data["round"][name] == step, name
    assert "templates" not in source.data


def test_the_templated_file_plays_the_game_of_the_steps_written_out(tmp_path):
    out = TEMPLATED.split("templates:")[0] + "round:\n  deal: {do: deal, hand: 6}\n"
    for name, step in WRITTEN_OUT.items():
        out += f"  {name}: " + "{" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in step.items()) + "}\n"
    out += TEMPLATED.split("# to who passed to you\n")[1]
    a = compile_game(load_rules(written(tmp_path, TEMPLATED)), 4)
    b = compile_game(load_rules(written(tmp_path, out, "written.yaml")), 4)
    for seed in ("t/1", "t/2"):
        ga = play_game(a, [RandomAgent(str(s)) for s in range(4)], seed=seed, record=True)
        gb = play_game(b, [RandomAgent(str(s)) for s in range(4)], seed=seed, record=True)
        assert ga.record[1:] == gb.record[1:] and ga.totals == gb.totals  # (the header names each file)
        assert sum(e.get("step") == "pass_back" for e in ga.record) == 4  # one card given back by each seat


def test_an_expression_s_mistake_is_shown_in_the_argument_or_in_the_template_where_it_was_written(tmp_path):
    bad_argument = TEMPLATED.replace("to_whom: right(seat)", "to_whom: right(sat)")
    (found,) = problems(written(tmp_path, bad_argument))
    line, text = next((i, t) for i, t in enumerate(bad_argument.splitlines(), 1) if "right(sat)" in t)
    column = text.index("sat") + 1
    assert found.startswith(f"{tmp_path}/templated.yaml:{line}:{column}: error:") and "sat" in found
    bad_template = TEMPLATED.replace("    cards: seat.$zone", "    cards: sat.$zone")
    (found,) = problems(written(tmp_path, bad_template))
    line = bad_template.splitlines().index("    cards: sat.$zone") + 1
    assert found.startswith(f"{tmp_path}/templated.yaml:{line}:12: error:")
    bad_zone = TEMPLATED.replace("zone: passing, to_whom", "zone: pasing, to_whom")
    found = problems(written(tmp_path, bad_zone))
    line = next(i for i, t in enumerate(bad_zone.splitlines(), 1) if "zone: pasing" in t)
    assert any(f.startswith(f"{tmp_path}/templated.yaml:{line}:") and "pasing" in f for f in found), found


@pytest.mark.parametrize("old, new, said, at", [
    ("pass: {use: handing,", "pass: {use: handng,", "no template is named 'handng'; did you mean handing?", "handng"),
    ("passing, to_whom: receiver(seat)}", "passing}", "receive uses template taking without to_whom (its "
                                                      "parameters: zone, to_whom)", "use: taking, zone: passing}"),
    ("    move_to: $zone", "    move_to: $zon", "$zon is no parameter of template handing (its parameters: zone, "
                                                "many, verb)", "$zon"),
])
def test_a_mistake_in_a_use_or_a_template_is_refused_at_its_place(tmp_path, old, new, said, at):
    bad = TEMPLATED.replace(old, new)
    (found,) = problems(written(tmp_path, bad))
    line_no, line = next((i, t) for i, t in enumerate(bad.splitlines(), 1) if at in t)
    assert found.startswith(f"{tmp_path}/templated.yaml:{line_no}:{line.index(at) + 1}: error: {said}"), found


def test_a_use_without_templates_and_a_template_that_uses_another_are_refused(tmp_path):
    text = TEMPLATED.split("templates:")[0] + "round:\n  deal: {do: deal, hand: 6}\n  pass: {use: handing}\n"
    (found,) = problems(written(tmp_path, text))
    assert "pass uses template 'handing', but the file has no templates: section" in found
    nested = TEMPLATED.replace("    do: move\n", "    do: move\n    use: handing\n")
    (found,) = problems(written(tmp_path, nested))
    assert "template taking uses another template" in found


def test_a_variant_changes_a_template_for_every_use_or_one_use_alone(tmp_path):
    written(tmp_path, TEMPLATED)
    variant = written(tmp_path, "trickbook: 1\nextends: templated.yaml\nname: v\n"
                                "templates: {taking: {owner: left(seat)}}\n"
                                "round: {pass_back: {many: 2}}\n", "variant.yaml")
    source = load_rules(variant)
    assert source.data["round"]["receive"]["owner"] == source.data["round"]["return"]["owner"] == "left(seat)"
    assert source.data["round"]["pass_back"]["count"] == 2 and source.data["round"]["pass"]["count"] == 3


def test_the_bundled_games_that_repeat_a_step_write_it_once():
    for game, template, uses in (("tichu", "pass_card", 3), ("tichu", "pick_up", 3), ("skat", "bidding", 2)):
        text = (ROOT / "games" / f"{game}.yaml").read_text(encoding="utf-8")
        assert f"  {template}:\n" in text and text.count(f"use: {template},") == uses


def test_only_steps_are_uses_a_value_named_use_is_a_value(tmp_path):
    note = '  note: {do: set, round: {use: "1"}, narrate: false}\n'
    text = TEMPLATED.replace("  deal: {do: deal, hand: 6}\n", "  deal: {do: deal, hand: 6}\n" + note)
    source = load_rules(written(tmp_path, text))
    assert source.data["round"]["note"] == {"do": "set", "round": {"use": "1"}, "narrate": False}
    assert problems(written(tmp_path, text)) == []
