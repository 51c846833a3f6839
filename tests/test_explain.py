"""trickbook explain: a rule file as a rulebook (every step, key and option of every bundled game appears), the
reviewed texts of Hearts and Whist, a variant's differences in words, and expressions in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.dsl.words import in_words
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


@pytest.mark.parametrize("game", ["hearts", "whist"])
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
        # the obligations, in order, and what wins
        "(lead): the 2 of clubs leads the first trick (if you can, a card for which not (first trick) or two of "
        "clubs(the card)); else hearts may not be led until a heart has been played, unless you have nothing but "
        "hearts (if you can, a card for which the card's suit is not 'hearts' or broken)",
        "(follow): you must follow suit (if you can, a card for which the card's suit is the led card's suit)",
        "## On the table",
        "- **hearts broken**: broken",
        "(strength): the highest wins, compared in order: the card's suit is the led card's suit; then the card's "
        "order",
        "**the game ends after a round when**: the highest of s's total for each s in the players is at least 100",
        "**who wins**: the lowest total",
        "| `moon` |",
    ]:
        assert said in text


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
    assert ("- **define → super(c)**: now c's number is 9 and c's colour is the round's supertrump (was: c's number "
            "is 0 and c's colour is the round's supertrump)") in out
    assert "- **round → njet → rows → supertrump → title**: now supertrump (the 9 of a colour)" in out
    assert out.count("\n- ") == 2  # nothing else changes


def test_a_diff_names_added_gone_and_list_changes():
    base = load_rules("was-sticht")
    variant = load_rules(ROOT / "docs/examples/was-sticht-red.yaml")
    text = markdown(diff(variant, base))
    assert "**deck → cards**: gains kind: [function]; goal: [no tricks of]" in text
    assert markdown(diff(base, base)).endswith("Nothing: the two files hold the same rules.\n")
    jack = markdown(diff(load_rules(ROOT / "docs/examples/hearts-jack.yaml"), load_rules("hearts")))
    assert "**define → jack of diamonds(c)** is new: c's rank is 'J' and c's suit is 'diamonds'" in jack


@pytest.mark.parametrize(("expression", "words"), [
    ("card.suit == led.suit", "the card's suit is the led card's suit"),
    ("count(c.suit == 'hearts' for c in s.won)", "the number of c in s's won for which c's suit is 'hearts'"),
    ("sum(m.tricks for m in team(s))", "the sum of m's tricks for each m in s's team"),
    ("a or b and c", "a or (b and c)"),
    ("a and b and c", "a and b and c"),
    ("not (a and b)", "not (a and b)"),
    ("1 + 2 + 3 * 4", "1 plus 2 plus (3 times 4)"),
    ("first(round.dealer.turned).suit", "the suit of the first of the round's dealer's turned"),
    ("first([s for s in seats if s.bid > 0])", "the first s in the players where s's bid is more than 0"),
    ("xs[0]", "item 1 of xs"),
    ("xs[-1]", "the last of xs"),
    ("4 if x == 4 else 0", "4 if x is 4, otherwise 0"),
    ("options.target", "the option target"),
    ("left(round.dealer)", "the player left of the round's dealer"),
    ("max(0, x - 6)", "the highest of 0, (x minus 6)"),
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
