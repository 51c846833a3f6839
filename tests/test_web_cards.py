"""The web table's card faces (interpreter/web/cards.py): one safe, standalone SVG per card label, coloured by
the deck's group, with a corner index that tells a group's cards apart."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import interpreter as tb
from interpreter.web.cards import (
    COLOUR_NAMES,
    PALETTE,
    SHAPE_NAMES,
    SUIT_COLOURS,
    card_faces,
    corner_indices,
    group_colours,
    group_pips,
)

ROOT = Path(__file__).resolve().parents[1]
DECKS = sorted((ROOT / "games").glob("*.yaml")) + sorted((ROOT / "docs" / "examples").glob("*.yaml"))
SVG = "{http://www.w3.org/2000/svg}"
# what would let a face run code or fetch anything: never in a face
FORBIDDEN_TAGS = {"script", "foreignObject", "image", "use", "a", "iframe", "style", "feImage"}

def hostile_rules(title: str, label: str, suits: str, ranks: str) -> str:
    """A two-seat game of four cards whose texts are markup: ``suits`` and ``ranks`` as YAML lists."""
    return f"""\
trickbook: 1
name: hostile
title: {title}
seats: [Ann, Bob]
deck:
  label: "{label}"
  cards:
    - suit: {suits}
      rank: {ranks}
players:
  2: {{}}
zones:
  hand:  {{per_seat: true, visible: owner}}
  trick: {{visible: all}}
  won:   {{per_seat: true, visible: all}}
game:
  rounds: 1
round:
  deal: {{do: deal, hand: 2}}
  tricks:
    do: tricks
    leader: left(round.dealer)
    strength: ["card.suit == led.suit"]
    to: won
  score: {{do: score, points: seat.tricks}}
"""


HOSTILE = hostile_rules("Hostile labels", "{rank} of {suit}",
                        """['</svg><script>alert(1)</script>', "a&b \\"q\\" 's' <i>"]""", """['<1>', '2 & "3"']""")


def parsed(face: str) -> ET.Element:
    root = ET.fromstring(face)
    assert root.tag == SVG + "svg"
    return root


def title(root: ET.Element) -> str | None:
    found = root.find(SVG + "title")
    return None if found is None else found.text


def index_of(root: ET.Element) -> str:
    """The corner index: the face's first text."""
    first = root.find(f".//{SVG}text")
    assert first is not None
    return "".join(first.itertext())


def colour_of(root: ET.Element) -> str:
    """The group's colour: the card's outline."""
    rect = root.find(SVG + "rect")
    assert rect is not None
    return rect.attrib["stroke"]


def pips_of(root: ET.Element) -> set[str]:
    """The shapes of the face's pips (their paths)."""
    return {p.attrib["d"] for p in root.iter(f"{SVG}path")}


def groups_of(game: tb.TrickGame) -> dict[str, object]:
    engine = game.engine
    return {label: engine.hand_group[cid] for cid, label in reversed(list(enumerate(engine.cards.labels)))}


def assert_safe(face: str) -> None:
    """Standalone and inert: parses as XML, draws through a viewBox, and holds no script, link, event handler,
    style sheet or reference to anything outside itself."""
    root = parsed(face)
    assert len(root.attrib["viewBox"].split()) == 4
    for el in root.iter():
        assert el.tag.removeprefix(SVG) not in FORBIDDEN_TAGS, el.tag
        for name, value in el.attrib.items():
            assert "href" not in name.casefold() and not name.casefold().startswith("on"), name
            assert "url(" not in value and "://" not in value and "javascript:" not in value.casefold(), value
    assert "<script" not in face.casefold() and "<!" not in face


@pytest.mark.parametrize("path", DECKS, ids=lambda p: p.stem)
def test_every_deck_gives_one_safe_face_per_distinct_label(path):
    game = tb.load(path)
    faces = card_faces(game)
    assert set(faces) == set(game.engine.cards.labels)
    groups = groups_of(game)
    colours: dict[object, set[str]] = {}
    indices: dict[object, list[str]] = {}
    for label, face in faces.items():
        assert_safe(face)
        root = parsed(face)
        assert title(root) == label and root.attrib["aria-label"] == label
        colours.setdefault(groups[label], set()).add(colour_of(root))
        indices.setdefault(groups[label], []).append(index_of(root))
    assert all(len(c) == 1 for c in colours.values()), "a group's cards share its colour"
    assert len({next(iter(c)) for c in colours.values()}) == len(colours), "different groups differ in colour"
    for group, shown in indices.items():
        assert len(set(shown)) == len(shown), f"two cards of {group!r} have the same corner index"


def test_a_hostile_label_stays_text(tmp_path):
    rules = tmp_path / "hostile.yaml"
    rules.write_text(HOSTILE, encoding="utf-8")
    game = tb.load(rules)
    faces = card_faces(game)
    assert set(faces) == {f"{r} of {s}" for r in ['<1>', '2 & "3"']
                          for s in ['</svg><script>alert(1)</script>', "a&b \"q\" 's' <i>"]}
    groups = groups_of(game)
    for label, face in faces.items():
        assert_safe(face)
        assert face.count("<svg") == 1 and face.endswith("</svg>")
        root = parsed(face)
        assert title(root) == label and root.attrib["aria-label"] == label
        assert root.find(f".//{SVG}i") is None  # the <i> of a value is text, not an element
        assert str(groups[label]) in ["".join(t.itertext()) for t in root.iter(SVG + "text")]


def test_labels_of_blanks_get_faces_too(tmp_path):
    rules = tmp_path / "blank.yaml"
    rules.write_text(HOSTILE.replace('label: "{rank} of {suit}"', 'label: "{rank}{suit}"').replace(
        """- suit: ['</svg><script>alert(1)</script>', "a&b \\"q\\" 's' <i>"]""", "- suit: ['', ' ']").replace(
        """rank: ['<1>', '2 & "3"']""", "rank: ['', '  ']"), encoding="utf-8")
    game = tb.load(rules)
    faces = card_faces(game)
    assert set(faces) == {"", " ", "  ", "   "} == set(game.engine.cards.labels)
    for label, face in faces.items():
        assert_safe(face)
        assert title(parsed(face)) in (label, None)  # XML keeps no text of blanks only


def test_a_french_deck_is_indexed_by_rank_and_coloured_by_suit_in_deck_order():
    faces = card_faces(tb.load("bridge", players=4))
    q, ten = parsed(faces["Q of clubs"]), parsed(faces["10 of hearts"])
    assert (index_of(q), index_of(ten)) == ("Q", "10")
    # the suits by their names in the four-colour deck's colours (clubs green, hearts red, ...)
    assert colour_of(q) == SUIT_COLOURS["club"] == PALETTE[0] and colour_of(ten) == SUIT_COLOURS["heart"]
    assert colour_of(parsed(faces["2 of clubs"])) == colour_of(q)


def test_each_suit_has_its_own_colour_whatever_order_the_deck_lists_the_suits_in():
    """Skat's deck lists clubs, spades, hearts, diamonds: the spades are black and the diamonds blue still (not
    the palette's next colour in the deck's order), with their own pips."""
    faces = card_faces(tb.load("skat", players=3))
    for suit in ("clubs", "spades", "hearts", "diamonds"):
        face = parsed(faces[f"{suit} J"])
        assert colour_of(face) == SUIT_COLOURS[suit.removesuffix("s")]
        assert pips_of(face) == {SHAPE_NAMES[suit.removesuffix("s")]}


def test_a_colour_s_cards_get_its_colour_and_never_a_suit_s_pip():
    """NJET's red, black, blue and yellow cards (and every bundled deck of colours, Tichu's jade, sword...):
    each drawn in its colour, with a pip no French suit has (a black card is no diamond)."""
    suit_pips = {SHAPE_NAMES[n] for n in ("club", "diamond", "heart", "spade")}
    faces = card_faces(tb.load("njet-riogrande", players=4))
    for colour in ("red", "black", "blue", "yellow"):
        face = parsed(faces[f"{colour} 3"])
        assert colour_of(face) == COLOUR_NAMES[colour] and not pips_of(face) & suit_pips, colour
    for groups in (["red", "black", "blue", "yellow", "green"], ["jade", "sword", "pagoda", "star", None]):
        assert not set(group_pips(groups)) & suit_pips


def test_a_colour_the_faces_do_not_know_gets_a_colour_of_its_own_and_a_readable_name():
    """A group value that is no colour's name (here "sunset" beside "red") takes a palette colour no other group
    has, and its name is written at the card's foot at least 7 px high on a phone's 44 px card."""
    colours = group_colours(["red", "sunset", "turquoise"])
    assert len(set(colours)) == 3 and colours[0] == COLOUR_NAMES["red"] and colours[2] == COLOUR_NAMES["turquoise"]
    faces = card_faces(tb.load("njet-riogrande", players=4))
    root = parsed(faces["yellow 3"])
    width = float(root.attrib["viewBox"].split()[2])
    foot = [t for t in root.iter(f"{SVG}text") if (t.text or "") == "yellow"]
    assert foot and float(foot[0].attrib["font-size"]) * 44 / width >= 7


def test_a_rank_index_is_big_enough_for_a_phone():
    """At a hand card 44 px wide, a one- or two-character index is at least 14 px high."""
    for face in card_faces(tb.load("bridge", players=4)).values():
        root = parsed(face)
        width = float(root.attrib["viewBox"].split()[2])
        first = root.find(f".//{SVG}text")
        assert first is not None
        assert float(first.attrib["font-size"]) * 44 / width >= 14


def test_colour_names_are_drawn_in_their_colour_and_other_groups_take_the_palette_in_order():
    assert group_colours(["red", "black", "blue", "yellow"]) == [COLOUR_NAMES[c] for c in
                                                                 ("red", "black", "blue", "yellow")]
    # unnamed groups take the palette's colours in the order the deck shows them, skipping named ones
    assert group_colours(["jade", "sword", "pagoda", "star", None]) == PALETTE[:5]
    assert group_colours(["Blue", "moon"]) == [COLOUR_NAMES["blue"], next(c for c in PALETTE
                                                                          if c != COLOUR_NAMES["blue"])]
    many = group_colours([f"g{i}" for i in range(30)])
    assert len(set(many)) == 30


def test_shape_names_are_drawn_as_that_shape_and_other_groups_take_the_free_shapes_in_order():
    pips = group_pips(["moon", "star", "sun", None])
    assert pips[1] == SHAPE_NAMES["star"] and pips[0] == SHAPE_NAMES["circle"] and pips[2] == SHAPE_NAMES["triangle"]
    assert len(set(pips)) == 4 and pips[3] not in SHAPE_NAMES.values()
    assert group_pips(["a", "circle"]) == [SHAPE_NAMES["triangle"], SHAPE_NAMES["circle"]]
    assert group_pips(["lozenges"]) == [SHAPE_NAMES["lozenge"]]  # drawn only for a group that names it


def test_a_longer_rest_is_written_by_initials_as_long_as_tells_the_group_apart():
    shown = corner_indices({"Mah Jong": None, "Dog": None, "Dragon": None, "Phoenix": None,
                            "jade 10": "jade", "jade K": "jade", "sword 10": "sword"})
    assert shown == {"Mah Jong": "MJ", "Dog": "Do", "Dragon": "Dr", "Phoenix": "P",
                     "jade 10": "10", "jade K": "K", "sword 10": "10"}
    # words every label has are left out ("of"); the whole label when nothing shorter tells two apart
    assert corner_indices({"A of clubs": "clubs", "K of clubs": "clubs"}) == {"A of clubs": "A", "K of clubs": "K"}
    assert corner_indices({"x y": 1, "x  y": 1})["x y"] != corner_indices({"x y": 1, "x  y": 1})["x  y"]


def test_a_shape_is_named_in_the_singular_or_the_plural_and_the_french_suits_have_their_pips():
    pips = group_pips(["clubs", "diamonds", "hearts", "spades", "stars"])
    assert pips == [SHAPE_NAMES[n] for n in ("club", "diamond", "heart", "spade", "star")]
    assert group_pips(["jade", "clubs"]) == [SHAPE_NAMES["circle"], SHAPE_NAMES["club"]]   # the free shapes first
