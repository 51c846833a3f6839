"""``trickbook explain GAME``: a rule file written out as a rulebook a player can read.

Everything comes from the file itself: its leading comment (where the game comes from), its titles,
descriptions and comments (a key's comment, on its line or the lines just above it), the declared meaning of
every key a step may have (the first words of its declaration: the same text the docs' step tables show), and
each expression in words (:mod:`interpreter.dsl.words`). Nothing here knows a game: a file is explained by the
kinds of its steps. ``explain VARIANT --diff BASE`` says what a variant changes, key by key.

The text is built as blocks (headings, paragraphs, lists, tables) and written as Markdown or HTML."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any

import interpreter.engine.steps  # noqa: F401  (registers the step kinds)
from interpreter.dsl.words import in_words, name_words
from interpreter.engine.steps.base import COMMON, REGISTRY, Opt
from interpreter.rules.source import RuleSource

Block = tuple[str, Any]  # ("h1" | "h2" | "h3" | "p" | "ul", text or list of texts) or ("table", (head, rows))

VISIBLE = {"owner": "seen by its owner only", "all": "face up, seen by everyone", "nobody": "face down, seen by nobody"}


def explain(source: RuleSource) -> list[Block]:
    """The rule file as a rulebook, in blocks."""
    data = source.data
    notes = _Notes()
    title = data.get("title", data["name"])
    out: list[Block] = [("h1", title)]
    about = notes.leading(source.file)
    if about:
        out.append(("p", about))
    out += _components(source, notes)
    if data.get("define"):
        out.append(("h2", "Terms used below"))
        out.append(("ul", [f"**{_define_name(key)}**: {in_words(expr)}" + notes.of(source, ("define", key))
                           for key, expr in data["define"].items()]))
    out.append(("h2", "A round"))
    out.append(("p", "Each round is played in these steps, in order."))
    for number, (name, step) in enumerate(data["round"].items(), 1):
        out += _step(source, notes, ("round", name), step, f"{number}. {name_words(name)}", level="h3")
    if data.get("table"):
        out.append(("h2", "On the table"))
        out.append(("p", "Besides the cards, the trick and the totals, each player sees:"))
        out.append(("ul", [f"**{line['title']}**: {in_words(line['show'])}"
                           + (" (each player's)" if line.get("each") else "")
                           + (f", when {in_words(line['when'])}" if "when" in line else "")
                           + notes.of(source, ("table", i)) for i, line in enumerate(data["table"])]))
    out += _end(source, notes)
    out += _options(data)
    return out


def diff(variant: RuleSource, base: RuleSource) -> list[Block]:
    """What ``variant`` changes in ``base``, key by key, in words."""
    title = variant.data.get("title", variant.data["name"])
    out: list[Block] = [("h1", f"{title}: what it changes"),
                        ("p", f"Compared with {base.data.get('title', base.data['name'])}; everything not listed "
                              "is the same.")]
    changes: list[str] = []
    _diff(variant.data, base.data, (), changes)
    out.append(("ul", changes) if changes else ("p", "Nothing: the two files hold the same rules."))
    return out


def markdown(blocks: list[Block]) -> str:
    lines: list[str] = []
    for kind, body in blocks:
        if kind in ("h1", "h2", "h3", "h4"):
            lines += ["#" * int(kind[1]) + " " + body, ""]
        elif kind == "p":
            lines += [body, ""]
        elif kind == "ul":
            lines += [f"- {item}" for item in body] + [""]
        elif kind == "table":
            head, rows = body
            lines.append("| " + " | ".join(head) + " |")
            lines.append("|" + "---|" * len(head))
            lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def html(blocks: list[Block]) -> str:
    title = next((b for k, b in blocks if k == "h1"), "rules")
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(title)}</title>",
             "<style>body{font-family:sans-serif;max-width:860px;margin:2em auto;color:#222;line-height:1.45}"
             "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
             "</style></head><body>"]
    for kind, body in blocks:
        if kind in ("h1", "h2", "h3", "h4"):
            parts.append(f"<{kind}>{_inline(body)}</{kind}>")
        elif kind == "p":
            parts.append(f"<p>{_inline(body)}</p>")
        elif kind == "ul":
            parts.append("<ul>" + "".join(f"<li>{_inline(item)}</li>" for item in body) + "</ul>")
        elif kind == "table":
            head, rows = body
            parts.append("<table><tr>" + "".join(f"<th>{_inline(h)}</th>" for h in head) + "</tr>"
                         + "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>"
                                   for row in rows) + "</table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _inline(text: str) -> str:
    """Markdown's **bold** and `code` as HTML, everything else escaped."""
    text = escape(text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", text)


# ---------------------------------------------------------------- the parts


def _components(source: RuleSource, notes: _Notes) -> list[Block]:
    data = source.data
    out: list[Block] = [("h2", "Players and cards")]
    counts = sorted(int(n) for n in data["players"])
    seats = data.get("seats")
    who = f"{_counts(counts)} players"
    if seats:
        who += f"; the seats, in the order of play: {', '.join(seats)}"
    out.append(("p", who + "."))
    deck = data["deck"]
    kinds, total = [], 0
    for entry in deck["cards"]:
        size = 1
        for key, values in entry.items():
            size *= len(values) if isinstance(values, list) and key != "label" else 1
        described = "; ".join(f"{name_words(k)} {', '.join(map(str, v))}" for k, v in entry.items() if k != "label")
        if "label" in entry:
            described += f" (written {entry['label']})"
        kinds.append(f"{size} card{'s' if size != 1 else ''}: {described}")
        total += size
    head = f"The cards, {total} in all (every combination of the values of a line):"
    out.append(("p", head + notes.of(source, ("deck",))))
    out.append(("ul", kinds))
    out.append(("h3", "Where cards lie"))
    zones = []
    for name, zone in data["zones"].items():
        whose = "each player's own" if zone.get("per_seat") else "shared"
        seen = VISIBLE.get(zone.get("visible", "all"), f"seen by {zone.get('visible')}")
        zones.append(f"**{name_words(name)}**: {whose}, {seen}" + notes.of(source, ("zones", name)))
    out.append(("ul", zones))
    setups = []
    for n, spec in data["players"].items():
        parts = [f"{name_words(k)} {in_words(v) if isinstance(v, str) else v}" for k, v in (spec or {}).items()
                 if k not in ("remove", "automatic")]
        if (spec or {}).get("remove"):
            parts.append(f"the cards for which {in_words(spec['remove'])} are taken out of the game")
        for auto in (spec or {}).get("automatic") or []:
            parts.append(f"an automatic seat, {auto['name']} ({auto.get('role', 'automatic')}), plays by its own "
                         "rule: " + "; ".join(f"{name_words(step)}: {in_words(rule)}"
                                              for step, rule in (auto.get("policy") or {}).items()))
        if parts:
            setups.append(f"With {n} players: " + "; ".join(parts) + notes.of(source, ("players", n)))
    if setups:
        out.append(("h3", "Setup by the number of players"))
        out.append(("ul", setups))
    if data.get("combinations"):
        out += _combinations(source, notes, data["combinations"])
    return out


def _combinations(source: RuleSource, notes: _Notes, spec: dict[str, Any]) -> list[Block]:
    """The combinations section: what a play of several cards is, kind by kind."""
    head = f"A card's rank in a play is {in_words(str(spec['rank']))}"
    if "cards" in spec:
        head += f"; the cards that make plays: those for which {in_words(str(spec['cards']))}"
    wild = spec.get("wild")
    if wild:
        head += f"; wild: the cards for which {in_words(str(wild['cards']))}"
        if "ranks" in wild:
            head += f", standing for a rank of {in_words(str(wild['ranks']))}"
        alone = wild.get("alone")
        if alone is not None:
            head += (", alone half a rank above the play it beats" if alone == "above"
                     else f", alone worth {alone}")
    kinds = []
    for name, kind in spec["kinds"].items():
        kind = kind or {}
        same = kind.get("same", 1)
        if "run" in kind:
            shape = f"{kind['run']} or more consecutive ranks" + (f", {same} cards of each" if same > 1 else "")
        elif "sets" in kind:
            shape = " and ".join(f"{n} of a rank" for n in kind["sets"]) + ", each of another rank"
        else:
            shape = f"{same} card{'s' if same > 1 else ''} of one rank"
        if "cards" in kind:
            shape += f", of the cards for which {in_words(str(kind['cards']))}"
        said = [shape]
        said += ["of one suit"] if kind.get("suited") else []
        said += ["a bomb"] if kind.get("bomb") else []
        said += ["no wild card"] if kind.get("wild") is False and wild else []
        said += [f"beats {', '.join(map(name_words, kind['beats']))} whatever their value"] if kind.get("beats") \
            else []
        said += ["led only"] if kind.get("lead_only") else []
        kinds.append(f"**{name_words(name)}**: " + "; ".join(said) + notes.of(source, ("combinations", "kinds", name)))
    return [("h3", "Combinations"),
            ("p", head + ". A play beats one of its own kind with as many cards and a lower value, or of a kind it "
                  "beats; a bomb beats every play that is not a bomb, and a bomb with fewer cards or, as many, a "
                  "lower value." + notes.of(source, ("combinations",))),
            ("ul", kinds)]


def _step(source: RuleSource, notes: _Notes, path: tuple[Any, ...], step: dict[str, Any], heading: str,
          level: str) -> list[Block]:
    kind = step["do"]
    cls = REGISTRY[kind]
    out: list[Block] = [(level, heading)]
    said = notes.of(source, path).lstrip(" —")
    intro = f"*{kind}*: {_first_sentence(cls.summary)}."
    if said:
        said = said[0].upper() + said[1:] + ("" if said.endswith(".") else ".") + " "
    out.append(("p", said + intro))
    items: list[str] = []
    nested: list[Block] = []
    if "when" in step:
        items.append(f"**only when** {in_words(step['when'])}")
    for opt in cls.options:
        if opt.key not in step or opt.key in ("do", "when"):
            continue
        value = step[opt.key]
        if opt.kind == "steps":
            deeper = "h4" if level == "h3" else level
            nested.append(("p", f"**{_label(opt)}** ({opt.key}):"))
            for name, sub in value.items():
                nested += _step(source, notes, path + (opt.key, name), sub, name_words(name), deeper)
            continue
        items.append(f"**{_label(opt)}** ({opt.key}): {_value(opt, value)}" + notes.of(source, path + (opt.key,)))
    if items:
        out.append(("ul", items))
    return out + nested


def _end(source: RuleSource, notes: _Notes) -> list[Block]:
    spec = source.data["game"]
    items = []
    for key, what in (("first_dealer", "the first dealer"), ("rounds", "rounds played"),
                      ("until", "the game ends after a round when"), ("winners", "who wins"),
                      ("can_win", "only players for whom this holds can win")):
        if key in spec:
            value = spec[key]
            text = {"highest_total": "the highest total", "lowest_total": "the lowest total"}.get(value) \
                if key == "winners" and isinstance(value, str) else None
            items.append(f"**{what}**: {text or in_words(value)}" + notes.of(source, ("game", key)))
    for group, what in (("values", "values kept from round to round"), ("seat_values", "each player's values")):
        for name, value in (spec.get(group) or {}).items():
            items.append(f"**{what}**: {name_words(name)}, starting at {in_words(value)}")
    return [("h2", "The end of the game"), ("ul", items)]


def _options(data: dict[str, Any]) -> list[Block]:
    options = data.get("options") or {}
    if not options:
        return []
    rows = []
    for name, spec in options.items():
        default = spec["default"]
        shown = ("yes" if default else "no") if isinstance(default, bool) else str(default)
        choices = ", ".join(map(str, spec["choices"])) if spec.get("choices") else ""
        rows.append([f"`{name}`", " ".join(str(spec["description"]).split()), shown, choices])
    return [("h2", "Options"), ("p", "Set with `-o NAME=VALUE`; without it, each option has its default."),
            ("table", (["option", "what it changes", "default", "choices"], rows))]


def _value(opt: Opt, value: Any) -> str:
    if opt.kind == "ordering":
        items = value if isinstance(value, list) else [value]
        return "the highest wins, compared in order: " + "; then ".join(in_words(v) for v in items)
    if opt.kind == "rules":
        return _rules(value)
    if opt.kind == "values" and isinstance(value, dict):
        return "; ".join(f"{name_words(k)} = {in_words(v)}" for k, v in value.items())
    if opt.kind in ("object", "list"):
        entries = list(value.items()) if isinstance(value, dict) else list(enumerate(value if isinstance(value, list)
                                                                                      else []))
        parts = []
        for key, sub in entries:
            if isinstance(sub, dict):
                inner = "; ".join(f"{name_words(k)}: {_field(opt, k, v)}" for k, v in sub.items())
                parts.append(inner if isinstance(key, int) else f"{name_words(str(key))} ({inner})")
            else:
                parts.append(in_words(sub))
        return " | ".join(parts)
    if opt.kind in ("zone", "zones", "name", "names", "text", "enum"):
        return ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    if opt.kind == "bool":
        return "yes" if value else "no"
    if isinstance(value, (list, dict)):
        return _plain(value)
    return in_words(value)


def _plain(value: Any) -> str:
    """Data as people read it: a list's items, a mapping's label (or its keys and values), an expression in
    words."""
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, dict):
        if "label" in value:
            return str(value["label"])
        return "; ".join(f"{name_words(str(k))} {_plain(v)}" for k, v in value.items())
    if value is None:
        return "nothing"
    return in_words(value)


def _field(opt: Opt, key: str, value: Any) -> str:
    sub = next((f for f in opt.fields if f.key == key), None)
    return _value(sub, value) if sub is not None else in_words(value)


def _rules(value: Any) -> str:
    """Play obligations in words: a condition (or a rule without holding) is "if you can", a rule with holding
    binds a player holding such a card; the rule's own words (says) first."""
    rules = value if isinstance(value, list) else [value]
    said = []
    for rule in rules:
        spec = rule if isinstance(rule, dict) else {"must": rule}
        if "holding" in spec:
            text = f"holding a card for which {in_words(spec['holding'])}, a card for which {in_words(spec['must'])}"
        else:
            text = f"if you can, a card for which {in_words(spec['must'])}"
        if spec.get("otherwise") == "end":
            text += "; a player who has none ends trick play"
        said.append(f"{spec['says']} ({text})" if spec.get("says") else text)
    return "; else ".join(said)


def _diff(new: Any, old: Any, path: tuple[str, ...], out: list[str]) -> None:
    where = " → ".join(name_words(str(p)) for p in path) or "the file"
    if isinstance(new, dict) and isinstance(old, dict):
        for key in new:
            if not path and key in ("name", "title", "extends"):
                continue  # the file's own name, not a rule
            if key not in old:
                out.append(f"**{where} → {name_words(str(key))}** is new: {_said(new[key])}")
            else:
                _diff(new[key], old[key], path + (str(key),), out)
        for key in old:
            if key not in new:
                out.append(f"**{where} → {name_words(str(key))}** is gone (it was: {_said(old[key])})")
        return
    if isinstance(new, list) and isinstance(old, list) and new != old:
        added = [v for v in new if v not in old]
        gone = [v for v in old if v not in new]
        if added or gone:
            said = ([f"gains {'; '.join(_said(v) for v in added)}"] if added else []) + (
                [f"loses {'; '.join(_said(v) for v in gone)}"] if gone else [])
            out.append(f"**{where}**: " + ", and ".join(said))
        else:
            out.append(f"**{where}**: the same items in another order: {_said(new)}")
        return
    if new != old:
        out.append(f"**{where}**: now {_said(new)} (was: {_said(old)})")


def _said(value: Any) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{name_words(str(k))}: {_said(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(_said(v) for v in value) + "]"
    return in_words(value)


# ---------------------------------------------------------------- small helpers


def _label(opt: Opt) -> str:
    """What a key is, in the first words of its declaration."""
    text = re.split(r":|\. | \(|, e\.g\.|;", opt.doc, maxsplit=1)[0].strip(" .,")
    return text[0].lower() + text[1:] if text else opt.key


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    return re.split(r"(?<=[a-z)])\. ", text, maxsplit=1)[0].rstrip(".")


def _define_name(key: str) -> str:
    name, _, params = key.partition("(")
    return name_words(name.strip()) + (f"({params}" if params else "")


def _counts(counts: list[int]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


class _Notes:
    """The comments of a rule file: a key's (on its line, or on the comment lines just above it) and the file's
    leading comment."""

    def __init__(self) -> None:
        self.lines: dict[str, list[str]] = {}

    def _lines(self, file: str) -> list[str]:
        if file not in self.lines:
            try:
                self.lines[file] = Path(file).read_text(encoding="utf-8").splitlines()
            except OSError:
                self.lines[file] = []
        return self.lines[file]

    def leading(self, file: str) -> str:
        said = []
        for line in self._lines(file):
            if not line.startswith("#"):
                break
            if "yaml-language-server:" not in line:
                said.append(line.lstrip("# ").rstrip())
        return " ".join(s for s in said if s)

    def of(self, source: RuleSource, path: tuple[Any, ...]) -> str:
        """The comment on a key (as " — comment"), or ""."""
        pos = source.smap.key(tuple(path))
        if pos is None:
            return ""
        lines = self._lines(pos.file)
        if not 0 < pos.line <= len(lines):
            return ""
        line = lines[pos.line - 1]
        if pos.column != len(line) - len(line.lstrip(" -")) + 1:
            return ""  # a key inside a line (a flow mapping's): the line's comment is the first key's
        said: list[str] = []
        above = pos.line - 2
        while above >= 0 and lines[above].strip().startswith("#") and "yaml-language-server:" not in lines[above]:
            said.insert(0, lines[above].strip().lstrip("# ").rstrip())
            above -= 1
        trailing = _trailing_comment(lines[pos.line - 1])
        if trailing:
            said.append(trailing)
        text = " ".join(s for s in said if s)
        return f" — {text}" if text else ""


def _trailing_comment(line: str) -> str:
    """The comment at the end of a YAML line (a # after a space, outside quotes)."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[i + 1:].strip()
    return ""


def every_key(source: RuleSource) -> list[str]:
    """Every step name, step key and option name of a file (what an explanation must mention)."""
    keys = list(source.data.get("options") or {})

    def walk(steps: dict[str, Any]) -> None:
        for name, step in steps.items():
            keys.append(name)
            for key, value in step.items():
                if key in {o.key for o in COMMON}:
                    continue
                keys.append(key)
                opt = next((o for o in REGISTRY[step["do"]].options if o.key == key), None)
                if opt is not None and opt.kind == "steps":
                    walk(value)

    walk(source.data["round"])
    return keys
