"""``trickbook explain GAME``: a rule file written out as a rulebook a player can read.

Everything comes from the file itself: its leading comment (where the game comes from), its titles,
descriptions and comments (a key's comment, on its line or the lines just above it), the declared meaning of
every key a step may have (the first words of its declaration: the same text the docs' step tables show), and
each expression in words (:mod:`interpreter.dsl.words`). Nothing here knows a game or a section: each section
is told by its entry in the keyword table (interpreter/plan/sections.py), the round's steps by their kinds.
``explain VARIANT --diff BASE`` says what a variant changes, key by key.

The text is built as blocks (headings, paragraphs, lists, tables) and written as Markdown or HTML."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any

import interpreter.engine.steps  # noqa: F401  (registers the step kinds)
from interpreter.dsl.vocabulary import vocabulary_of
from interpreter.dsl.words import definition, in_words, name_words
from interpreter.engine.steps.base import COMMON, REGISTRY
from interpreter.plan.section import PLACES, Block, Telling, Told
from interpreter.plan.sections import SECTIONS
from interpreter.rules.source import RuleSource


def explain(source: RuleSource, comments: bool = True) -> list[Block]:
    """The rule file as a rulebook, in blocks: each section's words (its entry in the keyword table), in the
    rulebook's order, after the file's leading comment (``comments``: with the file's comments)."""
    notes = _Notes()
    tell = Telling(source, (lambda path: notes.of(source, path)) if comments else (lambda path: ""), REGISTRY,
                   vocabulary_of(source.data))
    told: list[Told] = []
    about = notes.leading(source.file) if comments else ""
    if about:
        told.append((PLACES["about"], [("p", about)]))
    for key, section in SECTIONS.items():
        told += section.words(source.data.get(key), tell)
    return [block for _, blocks in sorted(told, key=lambda t: t[0]) for block in blocks]


def diff(variant: RuleSource, base: RuleSource) -> list[Block]:
    """What ``variant`` changes in ``base``, key by key, in words."""
    title = variant.data.get("title", variant.data["name"])
    out: list[Block] = [("h1", f"{title}: what it changes"),
                        ("p", f"Compared with {base.data.get('title', base.data['name'])}; everything not listed "
                              "is the same.")]
    changes: list[str] = []
    _diff(_defines_said(variant.data), _defines_said(base.data), (), changes)
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


class _Said(str):
    """Words already said (a define's), given as they are."""


def _defines_said(data: dict[str, Any]) -> dict[str, Any]:
    """The file's data with each define as the rulebook says it, by its name (its parameters said as what they
    stand for, never by their names)."""
    vocabulary = vocabulary_of(data)
    said = {}
    for key in data.get("define") or {}:
        term = vocabulary.terms[str(key).partition("(")[0].strip()]
        of, words = definition(term, vocabulary)
        said[term.name] = _Said(f"{of.lstrip(', ')}: {words}" if of else words)
    return {**data, "define": said} if said else data


def _said(value: Any) -> str:
    if isinstance(value, _Said):
        return str(value)
    if isinstance(value, dict):
        return "; ".join(f"{name_words(str(k))}: {_said(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(_said(v) for v in value) + "]"
    return in_words(value)


# ---------------------------------------------------------------- small helpers


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
