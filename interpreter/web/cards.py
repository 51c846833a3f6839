"""Card faces for the web table: one small SVG per card label, drawn from what the deck says.

The faces know no game. A card's group is the attribute ``deck.group`` names (default: the one with the fewest
values, as the terminal groups a hand); each group gets a colour and a pip shape, and each card a big corner
index made from its label. The rules that pick them are general ones on what the deck writes:

- colour: a group value that is a colour's name (``red``, ``blue``, ``turquoise``, ...) is drawn in that colour,
  a French suit's name (singular or plural) in the four-colour deck's (the club green, the diamond blue, the heart
  red, the spade black); every other group (cards with no group value too, a colour this module does not know) takes the
  next colour of a fixed palette (green, blue, red, black, purple, ...) that no other group has, in the order the
  deck first shows its groups, so two groups never share a colour; the group's value is written at the card's foot,
  big enough to read on a phone;
- pip: a group value that names a shape (``star``, ``circle``, ..., the French suits' pips, singular or plural) is
  drawn as that shape, every other group as the next of a list of simple shapes that no suit's pip looks like
  (circle, triangle, square, hexagon, ...), in the same order: a colour's group is never given a suit's pip;
  cards without a group as a burst;
- corner index: the label's words less the group's value and the words every label has ("of"): "Q of clubs"
  is Q, "red 7" is 7; a longer rest is written by its words' first letters ("Mah Jong": MJ), as many letters
  as tell the group's cards apart ("Dog" Do, "Dragon" Dr);
- the full label is the face's ``<title>`` (and ``aria-label``); a card whose index is not a word of its label
  (initials: "MJ", "P" for "Phoenix") shows the label's words in the middle, the others a big pip.

Rule files are untrusted: every text from them (labels, values) is XML-escaped, and a face refers to nothing
outside itself (no links, no scripts, no fonts or images), so a page may insert it as markup.
"""

from __future__ import annotations

import colorsys
from typing import Any
from xml.sax.saxutils import escape, quoteattr

# viewBox 0 0 50 70 (a card's 5:7); a phone shows a hand's cards about 44 px wide, so 18 units of index
# are about 16 px
WIDTH, HEIGHT = 50, 70
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# readable on a light card; a group value with one of these names is drawn in it
COLOUR_NAMES = {
    "red": "#c62828", "black": "#222222", "blue": "#1565c0", "green": "#2e7d32", "yellow": "#a87f00",
    "orange": "#d35400", "purple": "#6a1b9a", "violet": "#7b1fa2", "pink": "#c2185b", "brown": "#6d4c41",
    "grey": "#5f6b73", "gray": "#5f6b73", "gold": "#9a7400", "teal": "#00796b", "turquoise": "#00838f",
    "cyan": "#0097a7", "lilac": "#8e5bb5", "lavender": "#7e57c2", "magenta": "#ad1457", "navy": "#1a237e",
    "indigo": "#303f9f", "maroon": "#880e4f", "olive": "#827717", "lime": "#558b2f", "silver": "#757575",
}
# the French suits in the four-colour deck's colours (a group named after a suit, singular or plural)
SUIT_COLOURS = {"club": "#2e7d32", "diamond": "#1565c0", "heart": "#c62828", "spade": "#222222"}
# the other groups' colours, in order (distinct from each other and readable on a light card: the four-colour
# deck's green, blue, red and black first); after these, colours generated around the hue circle
PALETTE = ["#2e7d32", "#1565c0", "#c62828", "#222222", "#6a1b9a", "#d35400", "#00796b", "#c2185b", "#6d4c41",
           "#827717", "#5f6b73"]

# pip shapes in a 100 x 100 box
_STAR = "M50 3L61 37H97L68 58L79 93L50 72L21 93L32 58L3 37H39Z"
SHAPE_NAMES = {  # a group value that names a shape is drawn as it
    "circle": "M10 50a40 40 0 1 0 80 0a40 40 0 1 0-80 0Z", "lozenge": "M50 2L86 50L50 98L14 50Z",
    "triangle": "M50 6L95 88H5Z", "square": "M12 12H88V88H12Z", "hexagon": "M27 9H73L96 50L73 91H27L4 50Z",
    "cross": "M36 4H64V36H96V64H64V96H36V64H4V36H36Z", "star": _STAR,
    # the French suits' pips, for groups whose values name them (singular or plural, as any shape's name)
    "heart": "M50 92C20 70 4 52 4 32C4 16 16 6 29 6C39 6 46 12 50 20C54 12 61 6 71 6C84 6 96 16 96 32"
             "C96 52 80 70 50 92Z",
    "spade": "M50 4C30 28 6 42 6 62C6 76 17 84 29 84C38 84 45 80 48 74C47 84 42 92 34 96H66C58 92 53 84 52 74"
             "C55 80 62 84 71 84C83 84 94 76 94 62C94 42 70 28 50 4Z",
    "club": "M50 6a20 20 0 1 1-0.1 0ZM28 38a20 20 0 1 1-0.1 0ZM72 38a20 20 0 1 1-0.1 0ZM45 56H55L62 96H38Z",
    "diamond": "M50 2L86 50L50 98L14 50Z",
}
SHAPES = [  # the other groups' pips, by the group's index among them: none looks like a suit's pip (a lozenge
    # is the diamond's, so it is drawn only for a group that names it)
    SHAPE_NAMES["circle"], SHAPE_NAMES["triangle"], SHAPE_NAMES["square"], SHAPE_NAMES["hexagon"],
    SHAPE_NAMES["cross"],
    "M50 4L96 38L78 94H22L4 38Z",                                 # pentagon
    "M10 90L50 8L90 90L50 68Z",                                   # arrowhead
    "M50 6L90 30V70L50 94L10 70V30Z",                             # upright hexagon
]
# cards of no group: an eight-pointed burst
NO_GROUP = ("M50 2L58 30L84 16L70 42L98 50L70 58L84 84L58 70L50 98L42 70L16 84L30 58L2 50L30 42L16 16L42 30Z")


def card_faces(game: Any) -> dict[str, str]:
    """Every card label of ``game`` (the public API's loaded game, or an engine game) mapped to its face: a
    complete ``<svg>`` element sized by CSS through its viewBox."""
    engine = getattr(game, "engine", game)
    cards = engine.cards
    groups: list[Any] = list(engine.hand_group)
    first: dict[str, int] = {}  # each label's first card
    for cid, label in enumerate(cards.labels):
        first.setdefault(label, cid)
    order: list[Any] = []
    for g in groups:
        if g not in order:
            order.append(g)
    colours = group_colours(order)
    pips = group_pips(order)
    indices = corner_indices({label: groups[cid] for label, cid in first.items()})
    return {label: face(label, groups[cid], indices[label], colours[order.index(groups[cid])],
                        pips[order.index(groups[cid])]) for label, cid in first.items()}


def group_colours(groups: list[Any]) -> list[str]:
    """A colour for each group, all different: by a colour's name or a French suit's, else the palette's next."""
    out: list[str | None] = []
    for g in groups:
        name = _name(g)
        named = COLOUR_NAMES.get(name) or SUIT_COLOURS.get(name) or SUIT_COLOURS.get(name.removesuffix("s"))
        out.append(named if named not in out else None)
    free = [c for c in PALETTE if c not in out]
    for i, c in enumerate(out):
        if c is None:
            out[i] = free.pop(0) if free else _generated(i)
    return [c for c in out if c is not None]


def group_pips(groups: list[Any]) -> list[str]:
    """A pip shape (an SVG path in a 100 x 100 box) for each group: a shape's by its name, a burst for no group,
    else the next shape that no other group names."""
    named = [SHAPE_NAMES.get(_name(g)) or SHAPE_NAMES.get(_name(g).removesuffix("s")) for g in groups]
    free = [s for s in SHAPES if s not in named]
    out: list[str] = []
    for g, pip in zip(groups, named):
        if pip is None:
            pip = NO_GROUP if g is None else free.pop(0) if free else SHAPES[len(out) % len(SHAPES)]
        out.append(pip)
    return out


def corner_indices(group_of: dict[str, Any]) -> dict[str, str]:
    """Each label's corner index, different from every other index of its group: the label's words less the
    group's value and the words every label has; one short word or number as it is, else each word's first
    letters (numbers whole), as many as tell the group's labels apart; the whole label if nothing else does."""
    words = {lab: lab.split() for lab in group_of}
    common = set.intersection(*({w.casefold() for w in ws} for ws in words.values())) if words else set()
    rests: dict[str, list[str]] = {}
    for lab, ws in words.items():
        drop = common | {w.casefold() for w in _text(group_of[lab]).split()}
        rests[lab] = [w for w in ws if w.casefold() not in drop] or ws
    by_group: dict[Any, list[str]] = {}
    for lab, g in group_of.items():
        by_group.setdefault(_key(g), []).append(lab)
    out: dict[str, str] = {}
    for labels in by_group.values():
        longest = max((len(w) for lab in labels for w in rests[lab]), default=1)
        pending = list(labels)
        taken: set[str] = set()
        for n in range(1, longest + 1):
            tries = {lab: _initials(rests[lab], n) for lab in pending}
            counts: dict[str, int] = {}
            for t in tries.values():
                counts[t] = counts.get(t, 0) + 1
            for lab, t in tries.items():
                if counts[t] == 1 and t not in taken:
                    out[lab] = t
            taken.update(out[lab] for lab in pending if lab in out)
            pending = [lab for lab in pending if lab not in out]
            if not pending:
                break
        for lab in pending:
            out[lab] = lab
    return out


def face(label: str, group: Any, index: str, colour: str, pip: str) -> str:
    """One card's SVG: its index and a small pip in the top corner, a big pip (or, for an index of initials,
    the label's words) in the middle, the group's value written at the foot, the label as its title."""
    tint = _tint(colour)
    size = min(18.0, 36.0 / (0.72 * max(len(index), 1)))
    fit = f' textLength="{40:d}" lengthAdjust="spacingAndGlyphs"' if 0.72 * size * len(index) > 42 else ""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label={quoteattr(label)} class="card-face">',
        f"<title>{escape(label)}</title>",
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="4" fill="{tint}" stroke="{colour}" '
        'stroke-width="1.5"/>',
        f'<g fill="{colour}" font-family="{FONT}" font-weight="bold">',
        f'<text x="4" y="{4 + size * 0.8:.1f}" font-size="{size:.1f}"{fit}>{escape(index)}</text>',
    ]
    pip_top = 4 + size * 0.8 + 3
    parts.append(_pip(pip, 4.5, pip_top, 9))
    if index not in label.split():  # initials ("MJ"): the label's words in the middle
        parts.append(_lines(label, 25, 43))
    else:
        parts.append(_pip(pip, 17, max(pip_top + 4, 24), 26))
    if group is not None:
        value = _text(group)
        small = min(9.0, 44.0 / (0.6 * max(len(value), 1)))  # 9 units: 8 px on a phone's 44 px card
        parts.append(f'<text x="25" y="{HEIGHT - 5}" font-size="{small:.1f}" font-weight="bold" '
                     f'text-anchor="middle">{escape(value)}</text>')
    parts.append("</g></svg>")
    return "".join(parts)


def _pip(path: str, x: float, y: float, size: float) -> str:
    return f'<path d="{path}" transform="translate({x:g} {y:g}) scale({size / 100:g})"/>'


def _lines(label: str, x: float, y: float) -> str:
    """The label's words in lines of about ten characters, centred on (x, y) (for cards indexed by initials)."""
    lines: list[str] = []
    for w in label.split():
        if lines and len(lines[-1]) + 1 + len(w) <= 10:
            lines[-1] += " " + w
        else:
            lines.append(w)
    lines = lines[:4]
    if not lines:  # a label of blanks only
        return ""
    size = min(7.0, 44.0 / (0.6 * max(len(s) for s in lines)))
    spans = "".join(f'<tspan x="{x:g}" dy="{0 if i == 0 else size * 1.2:.1f}">{escape(s)}</tspan>'
                    for i, s in enumerate(lines))
    top = y - (len(lines) - 1) * size * 0.6 + size / 3
    return (f'<text x="{x:g}" y="{top:.1f}" font-size="{size:.1f}" font-weight="normal" text-anchor="middle">'
            f"{spans}</text>")


def _initials(words: list[str], n: int) -> str:
    """A rest of words as an index: one word of up to two characters, or a number, as it is; else each word's
    first ``n`` letters (the first upper case), numbers whole."""
    if len(words) == 1 and (len(words[0]) <= 2 or words[0].isdigit()):
        return words[0]
    return "".join(w if w.isdigit() else w[:n][:1].upper() + w[1:n] for w in words)


def _name(value: Any) -> str:
    return _text(value).strip().casefold()


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _key(value: Any) -> Any:
    return ("none",) if value is None else ("value", _text(value))


def _tint(colour: str) -> str:
    """The colour mixed with much white: the card's ground, so a group shows at a glance."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(round(255 - (255 - c) * 0.1) for c in (r, g, b)))


def _generated(i: int) -> str:
    """A colour for a group beyond the palette: hues spread by the golden angle, dark enough to read."""
    r, g, b = colorsys.hls_to_rgb((i * 0.381966) % 1.0, 0.35, 0.65)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"
