"""trickbook explain: a rule file as a rulebook (every step, key and option of every bundled game appears), the
reviewed texts of Hearts and Whist, a variant's differences in words, and expressions in words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.dsl import ast
from interpreter.dsl.parser import parse
from interpreter.dsl.vocabulary import children
from interpreter.dsl.words import condition_words, in_words
from interpreter.explain import diff, every_key, explain, html, markdown
from interpreter.rules.loader import load_rules

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted((ROOT / "games").glob("*.yaml"))
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))


@pytest.mark.parametrize("path", GAMES + EXAMPLES, ids=lambda p: p.name)
def test_every_step_key_and_option_appears(path):
    source = load_rules(path)
    text = markdown(explain(source))
    missing = [k for k in every_key(source) if k not in text and k.replace("_", " ") not in text]
    assert missing == []
    for name, step in source.data["round"].items():  # the round's steps in their order
        assert f"{list(source.data['round']).index(name) + 1}. {name.replace('_', ' ')}" in text
        assert f"*{step['do']}*" in text
    assert text.index("## A round") < text.index("## The end of the game")


@pytest.mark.parametrize("game", [p.stem for p in GAMES])
def test_the_reviewed_texts_are_what_explain_writes(game, capsys):
    assert main(["explain", game]) == 0
    reviewed = (ROOT / "docs" / "explained" / f"{game}.md").read_text(encoding="utf-8")
    assert capsys.readouterr().out == reviewed, (
        f"docs/explained/{game}.md differs from `trickbook explain {game}`: read the difference, and if the new "
        "text reads right, write it there")


def test_the_hearts_text_says_the_rules_a_player_needs():
    text = (ROOT / "docs" / "explained" / "hearts.md").read_text(encoding="utf-8")
    for said in [
        "The cards, 52 in all",
        "**passing**: each player's own, seen by its owner only",
        # the defines, by their says: where given, each said as what it picks or what it is
        "**the queen of spades**: a card whose rank is Q and whose suit is spades",
        "**penalty points** of a player: 1 for each card in the player's won whose suit is hearts plus 13 for each "
        "one that is the queen of spades",
        "**hearts are broken**: there is a player with a card in their won that is a breaker",
        "*deal*: Shuffle all the cards and deal 13 to each player.",
        "*choose*: Every player, all at once and unseen, passes 3 of the player's hand.",
        # the obligations by their own words, in order, and what wins
        "(lead): the 2 of clubs leads the first trick; else hearts may not be led until a heart has been played, "
        "unless you have nothing but hearts",
        "(follow): you must follow suit;",
        "(leader): the first player with a card in their hand that is the two of clubs",
        "## On the table",
        "- **hearts broken**: hearts are broken",
        "(strength): the highest wins, compared in order: the card's suit is the led card's suit; then the card's "
        "order",
        "**the game ends after a round when**: a player's total is at least the option target",
        "**who wins**: the lowest total",
        "| `moon` |",
    ]:
        assert said in text


def _bound(node: ast.Node, out: set[str]) -> set[str]:
    """The names the expression binds: its comprehensions' (and lets')."""
    if isinstance(node, ast.Comprehension):
        out.add(node.var)
    for child in children(node):
        _bound(child, out)
    return out


_TOKEN = re.compile(r"'[^']*'|\"[^\"]*\"|(?<![.\w])[A-Za-z_]\w*")


def _renamed(text: str, names: set[str], fresh: dict[str, str]) -> str:
    """``text`` with each of ``names`` (outside quotes, not after a dot) written as a name of its own: qz1q, ..."""
    def one(m: re.Match[str]) -> str:
        word = m.group(0)
        if word not in names:
            return word
        return fresh.setdefault(word, f"qz{len(fresh) + 1}q")
    return _TOKEN.sub(one, text)


def _rename_all(value, fresh: dict[str, str], params: set[str] = frozenset()):
    """Every expression of a rule file's data with the names it binds renamed (a define's parameters in its
    body)."""
    if isinstance(value, str):
        try:
            names = _bound(parse(value), set(params))
        except Exception:  # plain text (a title, a label): no expression
            return value
        return _renamed(value, names, fresh)
    if isinstance(value, dict):
        return {k: _rename_all(v, fresh, params) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename_all(v, fresh, params) for v in value]
    return value


@pytest.mark.parametrize("path", GAMES + EXAMPLES, ids=lambda p: p.name)
def test_no_sentence_shows_a_bound_name_or_for_which(path):
    """Every name an expression binds (a comprehension's, a let's, a define's parameter) is said as what it stands
    for, never shown: with each renamed to a name of its own (qz1q, ...), the rulebook holds none of them, and no
    sentence says "for which" (the one text covers every player count of the file)."""
    source = load_rules(path)
    fresh: dict[str, str] = {}
    data = dict(source.data)
    defines = {}
    for key, written in (data.get("define") or {}).items():
        name, _, rest = str(key).partition("(")
        params = {p.strip() for p in rest.rstrip(") ").split(",") if p.strip()}
        renamed_key = name + (f"({_renamed(rest.rstrip(') '), params, fresh)})" if rest else "")
        defines[renamed_key] = _rename_all(written, fresh, params)
    data = _rename_all({k: v for k, v in data.items() if k != "define"}, fresh)
    if defines:
        data["define"] = defines
    source.data.clear()
    source.data.update(data)
    text = markdown(explain(source, comments=False))
    assert "for which" not in text
    assert fresh or path not in GAMES, "every bundled game binds names in its expressions"
    assert re.findall(r"qz\d+q", text) == []


def _hearts_with(tmp_path, body: str) -> str:
    """What explain writes of a variant of Hearts whose own lines are ``body``."""
    game = tmp_path / "g.yaml"
    game.write_text("extends: hearts\nname: g\n" + body, encoding="utf-8")
    return markdown(explain(load_rules(game)))


def test_a_define_s_says_names_it_where_it_is_used(tmp_path):
    text = _hearts_with(tmp_path, "define:\n  jd(c): {value: \"c.rank == 'J' and c.suit == 'diamonds'\", "
                                  "says: the jack of diamonds}\n  bonus(s): \"-10 * count(jd(c) for c in s.won)\"\n")
    assert "- **the jack of diamonds**: a card whose rank is J and whose suit is diamonds" in text
    assert "- **bonus** of a player: minus 10 for each card in the player's won that is the jack of diamonds" in text


def test_a_refusal_says_the_card_a_rule_asks_for():
    assert condition_words("card.suit == led.suit", "card") == "a card whose suit is the led card's suit"
    assert condition_words("not first_trick or card.rank == '2'", "card") == "a card whose rank is 2, when first trick"
    assert condition_words("value.number != 0", "value", noun="card") == "a card whose number is not 0"


def test_html_is_a_page_with_the_same_headings():
    blocks = explain(load_rules("whist"))
    page = html(blocks)
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    headings = [body for kind, body in blocks if kind.startswith("h")]
    assert all(f">{h}</h" in page for h in headings)
    assert "<strong>the winner</strong> (strength)" in page and "<table>" in page


def test_a_variant_is_explained_by_what_it_changes(capsys):
    assert main(["explain", str(ROOT / "docs/examples/njet-nines.yaml"), "--diff", "njet-riogrande"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "# NJET with the 9s as supertrumps: what it changes"
    assert ("- **define → super**: now a card whose number is 9 and whose colour is the round's supertrump (was: a "
            "card whose number is 0 and whose colour is the round's supertrump)") in out
    assert "- **round → njet → rows → supertrump → title**: now supertrump (the 9 of a colour)" in out
    assert out.count("\n- ") == 2  # nothing else changes


def test_a_diff_names_added_gone_and_list_changes():
    base = load_rules("was-sticht")
    variant = load_rules(ROOT / "docs/examples/was-sticht-red.yaml")
    text = markdown(diff(variant, base))
    assert "**deck → cards**: gains kind: [function]; goal: [no tricks of]" in text
    assert markdown(diff(base, base)).endswith("Nothing: the two files hold the same rules.\n")
    jack = markdown(diff(load_rules(ROOT / "docs/examples/hearts-jack.yaml"), load_rules("hearts")))
    assert "**define → jack of diamonds** is new: a card whose rank is J and whose suit is diamonds" in jack


@pytest.mark.parametrize(("expression", "words"), [
    ("card.suit == led.suit", "the card's suit is the led card's suit"),
    ("count(c.suit == 'hearts' for c in seat.won)", "the number of items of the player's won whose suit is hearts"),
    ("sum(m.tricks for m in team(seat))", "the total tricks of the players of the player's team"),
    ("max(s.total for s in seats) >= 100", "a player's total is 100 or more"),
    ("min(s.total for s in seats) > 0", "every player's total is more than 0"),
    ("3 * count(c.rank == 'K' for c in trick) + count(c.rank == 'Q' for c in trick)",
     "3 for each card in the trick whose rank is K plus 1 for each one whose rank is Q"),
    ("any(c.suit == 'spades' for c in seat.hand)", "there is an item of the player's hand whose suit is spades"),
    ("all(len(s.hand) == 0 for s in seats)", "every player's hand is empty"),
    ("['left', 'right', 'hold'][(round.number - 1) % 3]",
     "by the round's number in turn: left, right, hold (the first for 1), then again"),
    ("[0, 10, 2][index(['9', '10', 'J'], card.rank)]", "the value for the card's rank in (9: 0, 10: 10, J: 2)"),
    ("let x = seat.bid * 2 in x + x", "(the player's bid times 2) plus (the player's bid times 2)"),
    ("a or b and c", "a or (b and c)"),
    ("a and b and c", "a and b and c"),
    ("not (a and b)", "not (a and b)"),
    ("not x == 3", "x is not 3"),
    ("1 + 2 + 3 * 4", "1 plus 2 plus (3 times 4)"),
    ("first(round.dealer.turned).suit", "the suit of the first of the round's dealer's turned"),
    ("first([s for s in seats if s.bid > 0])", "the first player whose bid is more than 0"),
    ("xs[0]", "the first of xs"),
    ("xs[:3]", "the first 3 of xs"),
    ("range(0, 14)", "the numbers from 0 to 13"),
    ("xs[-1]", "the last of xs"),
    ("4 if x == 4 else 3 if x == 3 else 0", "4 if x is 4; 3 if x is 3; otherwise 0"),
    ("options.target", "the option target"),
    ("left(round.dealer)", "the player left of the round's dealer"),
    ("max(0, x - 6)", "the highest of 0, (x minus 6)"),
    ("c.suit in ['hearts', 'spades']", "c's suit is hearts or spades"),
    ("'to the ' + direction", "“to the [direction]”"),
    ("[v for v in xs if v > 2] if x == 1 else [0]", "if x is 1: the items of xs such that it is more than 2; "
                                                     "otherwise 0"),
    ("this is not an expression (", "this is not an expression ("),
])
def test_expressions_in_words(expression, words):
    assert in_words(expression) == words


def test_a_file_whose_sections_are_wrong_is_refused_not_explained(tmp_path, capsys):
    """The sections' checks run before the words (an option whose default is not one of its choices passes the
    schema; it is refused by its section's check, as validate refuses it)."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: hearts\nname: bad\noptions:\n  jack_of_diamonds: {default: maybe, choices: [true, false], "
                   "description: x}\n", encoding="utf-8")
    assert main(["explain", str(bad)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "bad.yaml:4:31: error: option jack_of_diamonds's default 'maybe' is not one of its choices" in err
    assert main(["explain", "hearts", "--diff", str(bad)]) == 1


def test_a_define_with_says_is_checked_as_any_define(tmp_path, capsys):
    """The mapping form is checked by the schema (value required, no other key) and its expression at its own
    line and column."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: hearts\nname: bad\ndefine:\n  jd(c): {says: the jack}\n"
                   "  kd(c): {value: \"c.rank == 'K'\", says: the king, extra: 1}\n", encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    said = capsys.readouterr().err
    assert "bad.yaml:4:3: error: 'value' is missing in define/jd(c)" in said
    assert "bad.yaml:5:51: error: unknown key 'extra'" in said
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: hearts\nname: broken\ndefine:\n  jd(c): {value: \"c.rank ==\", says: the jack}\n",
                      encoding="utf-8")
    assert main(["validate", str(broken)]) == 1
    assert "broken.yaml:4:28: error: syntax error" in capsys.readouterr().err


def test_a_parameter_is_said_by_what_its_calls_give_it(tmp_path):
    """A parameter its define's body cannot tell (only compared with a round value) is a player when every call
    gives it one (score's seat); one reckoned with is a number."""
    text = _hearts_with(tmp_path, "define:\n  shot(s): \"s == round.shooter\"\n  pad(n): \"n * 2 + 1\"\n"
                                  "round:\n  score:\n    points: \"pad(1) if shot(seat) else 0\"\n")
    assert "- **shot**: a player who is the round's shooter" in text
    assert "- **pad** of a number: (the number times 2) plus 1" in text
    assert "(points): the pad for 1 if the player is shot; otherwise 0" in text


def test_each_step_says_what_it_does_from_its_keys(tmp_path):
    text = markdown(explain(load_rules("tichu")))
    assert "*deal*: Shuffle all the cards and deal 8 to each player; the cards left over go to the stock." in text
    assert "*choose*: Each player, all at once and unseen, passes to the partner: one of the player's hand." in text
    assert "*move*: For each of the players: move the player's to partner to the player's partner's hand." in text
    was = markdown(explain(load_rules("was-sticht")))
    assert "*repeat*: Play the steps below 9 times." in was
    assert "*deal*: Shuffle every card whose kind is number into the stock." in was
    assert "*teams*: The teams: North and South; East and West." in markdown(explain(load_rules("whist")))
