"""Step templates: a step written once under ``templates:`` with parameters, used by several steps.

A template is a step mapping whose text may name its parameters as ``$name`` (``$$`` is a dollar sign); its
``parameters:`` mapping names them (each with a description). A step that says ``use: TEMPLATE`` is the
template's step with the use's arguments put in for the parameters; the use's other keys are merged over it as a
variant's are over the file it extends (mappings key by key, other values replaced, ``null`` removes a key)::

    templates:
      pass_to:
        parameters: {zone: the zone the cards go to, whom: the player who gets them}
        do: choose
        options: seat.hand
        move_to: $zone
        verb: pass to $whom
    round:
      pass_next: {use: pass_to, zone: to_next, whom: the next player}
      pass_back: {use: pass_to, zone: to_previous, whom: the previous player, when: "round.number > 1"}

A value that is a parameter alone (``move_to: $zone``) becomes the argument as written (a number, a list, a
mapping); a parameter inside a text (``pass to $whom``) is put in as text. The expansion runs on the merged file
(after ``extends``), before the schema: a variant may change a template (every use changes) or one use.
Positions follow the text: what came from the template points into the template, what came from an argument
points at the argument, and an expression made of both maps each character back to where it was written.
"""

from __future__ import annotations

import copy
import difflib
import re
from dataclasses import dataclass
from typing import Any

from interpreter.errors import Position, RuleError, RuleErrors, SchemaError
from interpreter.rules.yaml_loader import SourceMap, Span

SECTION = "templates"
USE = "use"
PARAMETERS = "parameters"
_NAME = re.compile(r"\$(\$|[A-Za-z_][A-Za-z0-9_]*)")
_WHOLE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
MAX_USES = 1000  # uses of templates in one file: a bound on what a file can make its loader write

Path_ = tuple[Any, ...]


def expand(data: dict[str, Any], smap: SourceMap, file: str) -> None:
    """Every ``use:`` step of ``data`` replaced by its template's step, in place; ``templates:`` removed. Raises
    every mistake of the uses (an unknown template, a missing argument) at once; a template's own (a ``$name`` no
    parameter names, a ``use:`` in it) as it is read. A key of a use that is neither a parameter nor a key of the
    step is merged over it and refused by the schema, at the use."""
    declared = data.get(SECTION)
    if declared is None:
        _refuse_uses(data, smap, file)
        return
    where = smap.value((SECTION,)) or Position(file, 1, 1)
    if not isinstance(declared, dict):
        raise SchemaError("templates must be a mapping: a template's name, then its step", where)
    templates = {name: _Template.read(name, body, smap, file) for name, body in declared.items()}
    errors: list[RuleError] = []
    uses = [0]
    if isinstance(data.get("round"), dict):
        _steps(data["round"], ("round",), templates, smap, file, errors, uses)
    if errors:
        raise errors[0] if len(errors) == 1 else RuleErrors(errors)
    del data[SECTION]
    smap.drop_under((SECTION,))


def _refuse_uses(data: dict[str, Any], smap: SourceMap, file: str) -> None:
    """A ``use:`` step in a file that has no templates: said at the step."""
    for path, step in _step_places(data.get("round"), ("round",)):
        if _is_use(step):
            raise SchemaError(f"{path[-1]} uses template {step[USE]!r}, but the file has no templates: section",
                              smap.value(path + (USE,)) or Position(file, 1, 1))


def _is_use(node: Any) -> bool:
    return isinstance(node, dict) and USE in node and "do" not in node


def _is_steps(node: Any) -> bool:
    """Whether ``node`` is a mapping of steps (the round's, a repeat's, a trick's hooks): each a step or a use."""
    return (isinstance(node, dict) and bool(node)
            and all(isinstance(v, dict) and ("do" in v or USE in v) for v in node.values()))


def _step_places(steps: Any, path: Path_) -> list[tuple[Path_, Any]]:
    """Every step of the mapping of steps ``steps`` and of the mappings of steps inside them, with its path."""
    if not isinstance(steps, dict):
        return []
    out = []
    for name, step in steps.items():
        out.append((path + (name,), step))
        if isinstance(step, dict):
            for key, value in step.items():
                if _is_steps(value):
                    out += _step_places(value, path + (name, key))
    return out


def _children(node: Any, path: Path_) -> list[tuple[Path_, Any]]:
    if isinstance(node, dict):
        return [(path + (k,), v) for k, v in node.items()]
    if isinstance(node, list):
        return [(path + (i,), v) for i, v in enumerate(node)]
    return []


@dataclass
class _Template:
    name: str
    body: dict[str, Any]  # the step, without its parameters
    parameters: dict[str, Any]

    @staticmethod
    def read(name: str, body: Any, smap: SourceMap, file: str) -> _Template:
        path = (SECTION, name)
        if not isinstance(body, dict):
            raise SchemaError(f"template {name} must be a step (a mapping with do:)",
                              smap.value(path) or Position(file, 1, 1))
        params = body.get(PARAMETERS) or {}
        if not isinstance(params, dict):
            raise SchemaError(f"the parameters of template {name} must be a mapping: each parameter's name, then "
                              "what it is", smap.value(path + (PARAMETERS,)) or Position(file, 1, 1))
        step = {k: v for k, v in body.items() if k != PARAMETERS}
        if USE in step:
            raise SchemaError(f"template {name} uses another template: a template is a step of its own (do:)",
                              smap.value(path + (USE,)) or Position(file, 1, 1))
        template = _Template(name, step, params)
        template.check_names(smap, file)
        return template

    def check_names(self, smap: SourceMap, file: str) -> None:
        """Every ``$name`` in the template is one of its parameters."""
        for path, text in _texts(self.body, (SECTION, self.name)):
            for m in _NAME.finditer(text):
                if m.group(1) != "$" and m.group(1) not in self.parameters:
                    known = ", ".join(self.parameters) or "none"
                    raise SchemaError(f"${m.group(1)} is no parameter of template {self.name} (its parameters: "
                                      f"{known})", smap.in_scalar(path, m.start()) or Position(file, 1, 1))


def _texts(node: Any, path: Path_) -> list[tuple[Path_, str]]:
    if isinstance(node, str):
        return [(path, node)]
    return [found for sub, child in _children(node, path) for found in _texts(child, sub)]


def _steps(steps: dict[str, Any], path: Path_, templates: dict[str, _Template], smap: SourceMap, file: str,
           errors: list[RuleError], uses: list[int]) -> None:
    """Each use in the mapping of steps ``steps`` (at ``path``), and in those inside its steps, put in place."""
    for name, step in list(steps.items()):
        at = path + (name,)
        if _is_use(step):
            uses[0] += 1
            if uses[0] > MAX_USES:
                raise SchemaError(f"more than {MAX_USES} uses of templates", smap.value(at) or Position(file, 1, 1))
            try:
                step = steps[name] = _used(step, at, templates, smap, file)
            except RuleError as exc:
                errors.append(exc)
                continue
        if isinstance(step, dict):
            for key, value in step.items():
                if _is_steps(value):
                    _steps(value, at + (key,), templates, smap, file, errors, uses)


def _used(use: dict[str, Any], path: Path_, templates: dict[str, _Template], smap: SourceMap,
          file: str) -> dict[str, Any]:
    """The step ``use`` (at ``path``) stands for, its positions written into ``smap``."""
    name = use[USE]
    if not isinstance(name, str) or name not in templates:
        near = difflib.get_close_matches(str(name), list(templates), n=1)
        hint = f"; did you mean {near[0]}?" if near else f" (templates: {', '.join(sorted(templates))})"
        raise SchemaError(f"no template is named {name!r}{hint}", smap.value(path + (USE,)) or Position(file, 1, 1))
    template = templates[name]
    missing = [p for p in template.parameters if p not in use]
    if missing:
        raise SchemaError(f"{path[-1]} uses template {name} without {', '.join(missing)} (its parameters: "
                          f"{', '.join(template.parameters)})", smap.key(path + (USE,)) or Position(file, 1, 1))
    over = {k: v for k, v in use.items() if k != USE and k not in template.parameters}
    own = _Positions.under(smap, path)  # the use's own: its arguments' and what it merges over the step
    smap.drop_under(path)
    putting = _Putting(path, {k: v for k, v in use.items() if k in template.parameters}, own, smap)
    step = putting.put(copy.deepcopy(template.body), (SECTION, name), path)
    for key, value in over.items():
        step = _over(step, key, value)
    own.restore(smap, lambda p: p == path or p[len(path)] in over)
    return step


def _over(step: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """``value`` merged over the step's ``key`` as a variant's is over its base (see interpreter/rules/loader.py)."""
    if value is None:
        step.pop(key, None)
    elif isinstance(value, dict) and isinstance(step.get(key), dict):
        for k, v in value.items():
            step[key] = _over(step[key], k, v)
    else:
        step[key] = value
    return step


@dataclass
class _Positions:
    """The positions of a part of the file (keys, values, scalars' spans), by path."""

    values: dict[Path_, Position]
    keys: dict[Path_, Position]
    scalars: dict[Path_, Span]

    @staticmethod
    def under(smap: SourceMap, path: Path_) -> _Positions:
        n = len(path)
        return _Positions({p: v for p, v in smap.values.items() if p[:n] == path},
                          {p: v for p, v in smap.keys.items() if p[:n] == path},
                          {p: v for p, v in smap.scalars.items() if p[:n] == path})

    def restore(self, smap: SourceMap, keep: Any, moved: tuple[Path_, Path_] | None = None) -> None:
        """Those of the paths ``keep`` takes back into ``smap`` (each ``moved`` from its first path to its
        second)."""
        def to(p: Path_) -> Path_:
            return p if moved is None else moved[1] + p[len(moved[0]):]

        for mine, table in ((self.values, smap.values), (self.keys, smap.keys)):
            table.update({to(p): v for p, v in mine.items() if keep(p)})
        smap.scalars.update({to(p): v for p, v in self.scalars.items() if keep(p)})


@dataclass
class _Putting:
    """The arguments of one use put into its template's step (at ``path``), the positions following the text."""

    path: Path_
    args: dict[str, Any]
    own: _Positions
    smap: SourceMap

    def put(self, node: Any, origin: Path_, path: Path_) -> Any:
        """The template's ``node`` (at ``origin``) with the arguments put in, as written at ``path``."""
        smap = self.smap
        for table in (smap.values, smap.keys):
            if origin in table:
                table[path] = table[origin]
        if isinstance(node, str):
            whole = _WHOLE.fullmatch(node)
            if whole is not None:  # the argument as written, with its positions
                at = self.path + (whole.group(1),)
                self.own.restore(smap, lambda p: p[:len(at)] == at, moved=(at, path))
                return copy.deepcopy(self.args[whole.group(1)])
            if "$" in node:
                return self._spliced(node, origin, path)
            if origin in smap.scalars:
                smap.scalars[path] = smap.scalars[origin]
            return node
        for key, child in _children(node, ()):
            node[key[0]] = self.put(child, origin + key, path + key)
        return node

    def _spliced(self, text: str, origin: Path_, path: Path_) -> str:
        """``text`` with each ``$name`` replaced by its argument as text; its span maps each character back."""
        smap = self.smap
        pieces: list[tuple[int, Span, int]] = []  # (offset in the result, where that piece was written, its offset)
        out: list[str] = []
        done = length = 0
        here: Span = smap.scalars.get(origin) or _At(smap.value(origin))
        for m in _NAME.finditer(text):
            pieces.append((length, here, done))
            out.append(text[done:m.start()])
            length += m.start() - done
            name = m.group(1)
            there: Span
            if name == "$":
                put, there = "$", _At(None)
                pieces.append((length, here, m.start() + 1))
            else:
                value = self.args[name]
                put = value if isinstance(value, str) else _text(value)
                at = self.path + (name,)
                there = self.own.scalars.get(at) or _At(self.own.values.get(at))
                pieces.append((length, there, 0))
            out.append(put)
            length += len(put)
            done = m.end()
        pieces.append((length, here, done))
        out.append(text[done:])
        smap.scalars[path] = _Spliced(pieces, getattr(here, "style", None))
        return "".join(out)


def _text(value: Any) -> str:
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


@dataclass
class _At:
    """A place with no span: every offset there is the place itself."""

    where: Position | None
    style: str | None = None

    def at(self, offset: int) -> Position:
        return self.where or Position("", 1, 1)


@dataclass
class _Spliced:
    """The span of a text made of pieces written in several places (a template's text and a use's arguments)."""

    pieces: list[tuple[int, Span, int]]
    style: str | None

    def at(self, offset: int) -> Position:
        start, span, base = next(p for p in reversed(self.pieces) if p[0] <= offset)
        return span.at(base + offset - start)
