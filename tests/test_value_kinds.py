"""Every value in a rule file is checked against the kind its declaration gives, and a mistake in a value a variant
writes is shown at the variant's line.

The property test gives each declared option of each step kind (and the expression places outside the steps) a value
of every kind it does not take, in a file that extends a bundled game, and expects a positioned error in that file:
never a traceback, never "ok".
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import pytest
import yaml

from interpreter.engine.compile import compile_game, rule_file_problems, supported_players
from interpreter.errors import GameError, RuleError, RuleErrors
from interpreter.plan.declaration import Opt
from interpreter.rules import options
from interpreter.rules.catalog import bundled_games
from interpreter.rules.loader import load_rules
from interpreter.rules.yaml_loader import load_yaml
from interpreter.schema_gen import step_options

from .conftest import ROOT, one_in


def problems_of(tmp_path: Path, text: str, name: str = "variant.yaml") -> list[str]:
    file = tmp_path / name
    file.write_text(text, encoding="utf-8")
    return [p.render() for p in rule_file_problems(str(file))]


def variant(body: str, base: str = "njet-riogrande") -> str:
    return f"trickbook: 1\nextends: {base}\nname: variant\n{body}"


# ----------------------------------------------------------------------------- the defects reported


def test_a_variant_that_writes_no_for_a_true_or_false_option_is_refused_at_its_line(tmp_path):
    found = problems_of(tmp_path, variant("options: {difference_scoring: {default: no}}\n"))
    assert found == [f"{tmp_path}/variant.yaml:4:41: error: option difference_scoring is true or false (the file "
                     "it extends declares default: false); a variant may change its default, not its kind: 'no' is "
                     "text; did you mean false?\n    options: {difference_scoring: {default: no}}\n"
                     f"    {' ' * 40}^"]


@pytest.mark.parametrize("value, said", [("3", "3 is a whole number"), ("'false'", "'false' is text")])
def test_a_variant_may_change_an_options_default_but_not_its_kind(tmp_path, value, said):
    found = problems_of(tmp_path, variant(f"options: {{difference_scoring: {{default: {value}}}}}\n"))
    assert len(found) == 1 and f"a variant may change its default, not its kind: {said}" in found[0]
    assert found[0].startswith(f"{tmp_path}/variant.yaml:4:")
    assert problems_of(tmp_path, variant("options: {difference_scoring: {default: true}}\n")) == []


@pytest.mark.parametrize("word, meant", [("no", "false"), ("Yes", "true"), ("off", "false"), ("ON", "true"),
                                         ("False", "false")])
def test_an_unquoted_yaml_1_1_word_for_true_or_false_as_an_options_value_asks_did_you_mean(tmp_path, word, meant):
    text = (ROOT / "games" / "hearts.yaml").read_text(encoding="utf-8")
    text = text.replace("    default: false", f"    default: {word}", 1)
    found = problems_of(tmp_path, text, "hearts.yaml")
    assert len(found) == 1 and f"did you mean {meant}? (write it in quotes, '{word}', for the text)" in found[0]


def test_a_quoted_word_is_text_and_the_option_a_text_option(tmp_path):
    text = variant('options: {greeting: {description: how to greet, default: "no", choices: ["no", "yes"]}}\n')
    assert problems_of(tmp_path, text) == []
    source = load_rules(tmp_path / "variant.yaml")
    assert options.declared(source.data)["greeting"].kind == "text"
    assert options.parsed(source.data, "greeting", "yes") == "yes"


def test_choices_must_be_of_the_defaults_kind_and_hold_the_default(tmp_path):
    found = problems_of(tmp_path, variant("options: {extra: {description: x, default: 1, choices: [1, two, true]}}\n"))
    assert [f.splitlines()[0].split(": error: ")[1] for f in found] == [
        "option extra is a whole number (its default is 1): every choice must be too, not 'two'",
        "option extra is a whole number (its default is 1): every choice must be too, not true"]
    found = problems_of(tmp_path, variant("options: {extra: {description: x, default: 3, choices: [1, 2]}}\n"))
    assert [f.splitlines()[0].split(": error: ")[1] for f in found] == [
        "option extra's default 3 is not one of its choices (1, 2)"]


def test_a_value_chosen_for_an_option_is_held_to_its_kind_everywhere(tmp_path):
    source = load_rules("njet-riogrande")
    assert options.parsed(source.data, "difference_scoring", "no") is False  # the command line: -o x=no
    assert options.parsed(source.data, "difference_scoring", "On") is True
    for given in ("no", 1, "true", None):  # the API and the web table give values, not text
        with pytest.raises(GameError, match="option difference_scoring takes true or false, not "):
            compile_game(source, 4, {"difference_scoring": given})
    hearts = load_rules("hearts")
    with pytest.raises(GameError, match="option moon must be one of 'shooter chooses', 'shooter -26', 'others "
                                        "\\+26', not 'nobody'"):
        compile_game(hearts, 4, {"moon": "nobody"})


def test_a_number_where_a_condition_is_meant_is_refused(tmp_path):
    found = problems_of(tmp_path, variant('game: {until: "max(s.total for s in seats)"}\n'))
    assert found == [f"{tmp_path}/variant.yaml:4:16: error: a number is not true or false; compare it, e.g. x > 0"
                     '\n    game: {until: "max(s.total for s in seats)"}\n    ' + " " * 15 + "^"]


def test_a_board_row_whose_spaces_are_not_a_list_is_refused_not_a_traceback(tmp_path):
    found = problems_of(tmp_path, variant("round:\n  njet:\n    rows:\n      supertrump: {spaces: 5}\n"))
    assert found == [f"{tmp_path}/variant.yaml:7:28: error: expected a list, found a number\n"
                     "          supertrump: {spaces: 5}\n" + " " * 31 + "^"]


@pytest.mark.parametrize("where", ["title: \"\\ud800\"\n",
                                   'deck:\n  label: "{colour} {number}\\udc00"\n'])
def test_a_lone_surrogate_is_refused_where_it_is_written(tmp_path, where):
    found = problems_of(tmp_path, variant(where))
    assert len(found) == 1 and "(a lone surrogate), not a character" in found[0]
    assert found[0].startswith(f"{tmp_path}/variant.yaml:")


def test_a_setup_value_a_variant_writes_is_blamed_at_the_variants_line(tmp_path):
    found = problems_of(tmp_path, variant("players: {4: {hand: many}}\n"))
    assert found == [f"{tmp_path}/variant.yaml:4:21: error: setup.hand: expected a number, found text 'many' (where "
                     "njet-riogrande.yaml:59:26 reads it)\n    players: {4: {hand: many}}\n" + " " * 24 + "^"]


def test_an_error_in_the_bases_own_text_still_names_the_base(tmp_path):
    (tmp_path / "base.yaml").write_text((ROOT / "games" / "njet-riogrande.yaml").read_text(encoding="utf-8")
                                        .replace("hand: setup.hand", "hand: setup.hand + 'x'"), encoding="utf-8")
    found = problems_of(tmp_path, variant("players: {4: {hand: 7}}\n", base="base.yaml"))
    assert found and all(f.startswith(f"{tmp_path}/base.yaml:59:") for f in found), found


def test_a_required_key_a_variant_removes_is_reported_where_it_does(tmp_path):
    found = problems_of(tmp_path, variant('game:\nuntil: "true"\n'))
    assert found[0].startswith(f"{tmp_path}/variant.yaml:4:1: error: 'game' is missing at the top level (required): "
                               "removed here")


def test_a_yaml_1_1_word_for_a_true_or_false_key_asks_did_you_mean(tmp_path):
    found = problems_of(tmp_path, variant("round:\n  pass: {simultaneous: yes}\n", base="hearts"))
    assert found == [f"{tmp_path}/variant.yaml:5:24: error: round/pass/simultaneous: expected true/false, not 'yes'; "
                     "did you mean true? (only true and false are true/false in a rule file)\n"
                     "      pass: {simultaneous: yes}\n" + " " * 27 + "^"]


# ----------------------------------------------------------------------------- every place, every kind


# values of every kind, as YAML text (a rule file's value) -> the kinds it is
VALUES = {
    "5": "number",
    "true": "truth",
    "no": "word",                      # unquoted: text, though YAML 1.1 read it as false
    "\"'abc'\"": "text-expr",          # an expression giving text
    "len(seats)": "number-expr",
    "\"1 == 1\"": "truth-expr",
    "\"seats[0]\"": "seat-expr",
    "\"[c for c in deck]\"": "cards-expr",
    "[1, 2]": "list",
    "{a: 1}": "mapping",
    '"\\ud800"': "surrogate",
}
EXPRESSIONS = {"text-expr", "number-expr", "truth-expr", "seat-expr", "cards-expr", "word"}
TEXTS = EXPRESSIONS  # what a plain text key takes (any text is text)

# what each kind of option takes, among VALUES' kinds (everything else must be refused)
TAKES: dict[str, set[str]] = {
    "truth": {"truth", "truth-expr"},
    "number": {"number", "number-expr"},
    "seat": {"seat-expr"},
    "seats": {"seat-expr", "list", "cards-expr"},  # a list literal of seat names; [c for c in deck]: see below
    "list": {"list", "cards-expr"},
    "cards": {"cards-expr"},
    "card or none": set(),
    "shown": {"number", "text-expr", "number-expr"},
    "text": TEXTS,
    "bool": {"truth"},
    "enum": set(),
    "zone": set(),
    "zones": set(),
    "name": {"word"},
    "names": {"word"},
    "constant": {"number", "truth", "list", "number-expr", "truth-expr", "text-expr", "seat-expr", "cards-expr"},
    "expr": {k for k in VALUES.values() if k not in ("mapping", "surrogate")},
    "ordering": {"list", "truth-expr", "number-expr", "text-expr", "word"},
    "rules": {"truth", "truth-expr", "list"},
    "values": {"mapping"},
    "steps": {"mapping"},
    "object": {"mapping"},
    "list-of-fields": {"list"},
}
TAKES["seats"] = {"seat-expr", "list"}  # a list of seat names
TAKES["list"] = {"list", "cards-expr"}


def takes(opt: Opt) -> set[str]:
    if opt.kind == "list":
        return TAKES["list-of-fields"]
    return TAKES[opt.expects or opt.kind]


# per step kind: a bundled game with such a step, and the step's name in it; per option holding fields, the game whose
# step has that option, when the first does not
HOSTS = {
    "choose": ("hearts", "pass"),
    "board": ("njet-riogrande", "njet"),
    "repeat": ("was-sticht", "rows"),
    "climb": ("tichu", "play"),
    "deal": ("hearts", "deal"),
    "move": ("hearts", "receive"),
    "reveal": ("doppelkopf", "announced_party"),
    "score": ("hearts", "score"),
    "teams": ("spades", "partners"),
    "tricks": ("hearts", "tricks"),
    "set": ("hearts", "shooter"),
}
FIELD_HOSTS = {("tricks", "takers"): ("mit-list-und-tuecke", "tricks"),
               ("tricks", "route"): ("mit-list-und-tuecke", "tricks")}

# the expression places outside the steps, and what each takes
PLACES = {
    ("game", "until"): "truth",
    ("game", "can_win"): "truth",
    ("game", "rounds"): "number",
    ("game", "next_dealer"): "seat",
    ("table", 0, "when"): "truth",
    ("table", 0, "title"): "text",
    ("table", 0, "each"): "bool",
    ("players", 4, "remove"): "truth",
}


def _base(game: str) -> dict[str, Any]:
    return copy.deepcopy(_loaded(game))


@functools.cache
def _loaded(game: str) -> dict[str, Any]:
    return load_yaml(bundled_games()[game])[0]


def _cases() -> list[tuple[str, tuple[Any, ...], str, str]]:
    """(game, path of the key, YAML value, its kind) for every declared option and every value it does not take;
    ``*`` in a path: the first of the mapping or list there (a board's first row, a trick's first rule)."""
    out = []
    for kind, (game, step) in HOSTS.items():
        assert _base(game)["round"][step]["do"] == kind, (game, step)
        for opt in step_options(kind):
            if opt.key == "do":
                continue
            for text, vkind in VALUES.items():
                if vkind not in takes(opt):
                    out.append((game, ("round", step, opt.key), text, vkind))
            fgame, fstep = FIELD_HOSTS.get((kind, opt.key), (game, step))
            for field in opt.fields:  # one level down: a row of a board, a rule of a trick, a taker, a route
                for text, vkind in VALUES.items():
                    if vkind not in takes(field):
                        out.append((fgame, ("round", fstep, opt.key, "*", field.key), text, vkind))
    for path, kind in PLACES.items():
        for text, vkind in VALUES.items():
            if vkind not in TAKES[kind]:
                out.append(("hearts", path, text, vkind))
    return out


def _variant(game: str, path: tuple[Any, ...], text: str) -> str:
    """A file extending ``game`` that sets the value at ``path`` to ``text`` (the top-level section that holds it
    written whole, so that a list on the way keeps its other entries)."""
    body = _marked(game, path)
    body = body.replace(f"'{MARKER}'", text).replace(MARKER, text)
    return f"trickbook: 1\nextends: {game}\nname: variant\n{body}"


MARKER = "@@VALUE@@"


@functools.cache
def _marked(game: str, path: tuple[Any, ...]) -> str:
    """The top-level section of ``game`` that holds ``path``, as YAML, with MARKER at ``path`` (made once a place:
    several values are tried at each)."""
    data = _base(game)
    node: Any = data
    for i, key in enumerate(path[:-1]):
        if key == "*":
            continue
        if path[i + 1:i + 2] == ("*",):  # a rule, a row, a taker: the first one, a condition alone as its must
            value = node[key]
            if isinstance(value, list):
                value = value[0]
                node = node[key]
                key = 0
            elif isinstance(value, dict) and all(isinstance(v, dict) for v in value.values()):  # rows
                node = node[key]
                key = next(iter(value))
                value = value[key]
            if isinstance(value, str):
                node[key] = {"must": value}
        node = node.setdefault(key, {}) if isinstance(node, dict) else node[key]
    node[path[-1]] = MARKER
    body = yaml.safe_dump({path[0]: data[path[0]]}, sort_keys=False, allow_unicode=True, width=1000)
    assert MARKER in body
    return body


def _places() -> dict[tuple[str, tuple[Any, ...]], list[tuple[str, str]]]:
    """The cases by place: (game, path) -> the values (YAML text, kind) it must refuse."""
    out: dict[tuple[str, tuple[Any, ...]], list[tuple[str, str]]] = {}
    for game, path, text, kind in _cases():
        out.setdefault((game, path), []).append((text, kind))
    return out


PLACED = _places()


def _problems(file: Path) -> list[RuleError]:
    """What ``validate`` finds in ``file`` (as rule_file_problems), compiled for its fewest players only: a value of
    another kind is refused alike for every count, and the bundled games support up to five counts."""
    try:
        source = load_rules(str(file))
        compile_game(source, min(supported_players(source)), generate=False)
    except RuleErrors as exc:
        return list(exc.errors)
    except RuleError as exc:
        return [exc]
    return []


@pytest.mark.parametrize("game, path", list(PLACED), ids=[".".join(map(str, p)) for _, p in PLACED])
def test_a_value_of_another_kind_is_refused_at_the_variants_line(tmp_path, game, path):
    wrong = []
    place = list(PLACED).index((game, path))  # the default suite tries one value in four at each place, in turn
    for text, kind in [v for i, v in enumerate(PLACED[game, path]) if one_in(4, place + i)]:
        file = tmp_path / "variant.yaml"  # one file: what is checked of its unchanged parts is kept (cache.scope)
        file.write_text(_variant(game, path, text), encoding="utf-8")
        problems = _problems(file)
        if not any(p.position is not None and p.position.file == str(file) and p.position.line > 3
                   for p in problems):
            wrong.append(f"{text} ({kind}): " + ("accepted" if not problems else
                                                 "; ".join(p.render().splitlines()[0] for p in problems)))
    assert not wrong, "\n".join(wrong)
