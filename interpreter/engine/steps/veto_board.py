"""Veto board: rows of options that players cover in turn until one is left per row.

Each row's surviving space becomes a round value named after the row. Spaces
can be plain values, ``{label, value}``, or records (``{label, field: ...}``);
a row with ``spaces: seats`` has one space per seat of the largest game, and
the spaces of seats nobody plays are covered before the round starts. A
``covered`` expression (with ``space`` bound) covers more spaces in advance.
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.types import SEAT, VALUE, Type, record
from interpreter.engine.steps.base import Decision, Step, StepContext, register


class Record(dict):
    """A board space with fields, as a round value: never changed, so it can be hashed once.

    Hashable values let lookup tables keyed by round values (see card_tables) use it directly.
    """

    __slots__ = ("_hash",)

    def __init__(self, fields: dict[str, Any]):
        super().__init__(fields)
        self._hash = hash(tuple(sorted((k, repr(v)) for k, v in fields.items())))

    def __hash__(self) -> int:  # type: ignore[override]
        return self._hash


class _Row:
    def __init__(self, key: str, title: str, values: list[Any], labels: list[str], covered: list[bool]):
        self.key, self.title, self.values, self.labels, self.covered = key, title, values, labels, covered


@register
class VetoBoard(Step):
    kind = "veto_board"

    def declare(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        self.rows: list[_Row] = []
        self.row_types: list[Type] = []
        for key, row in spec["rows"].items():
            rpath = path + ("rows", key)
            spaces = row["spaces"]
            if spaces == "seats":
                type_ = SEAT
            else:
                type_ = self._space_type(ctx, spaces, rpath + ("spaces",))
            self.row_types.append(type_)
            ctx.declare(key, type_, rpath)

    @staticmethod
    def _space_type(ctx: StepContext, spaces: list[Any], path: tuple) -> Type:
        fields: list[str] | None = None
        for i, space in enumerate(spaces):
            if isinstance(space, dict) and set(space) - {"label", "value"}:
                keys = list(space)
                if "label" not in keys:
                    raise ctx.error("a space with fields needs a label", path + (i,))
                if fields is None:
                    fields = keys
                elif sorted(keys) != sorted(fields):
                    raise ctx.error(f"every space of this row must have the fields {', '.join(fields)}",
                                    path + (i,))
            elif fields is not None:
                raise ctx.error(f"every space of this row must have the fields {', '.join(fields)}", path + (i,))
        if fields is None:
            return VALUE
        return record({f: VALUE for f in fields})

    def build(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        self.first = ctx.expr(path + ("first",), expect="seat") if "first" in spec else None
        for (key, row), type_ in zip(spec["rows"].items(), self.row_types):
            rpath = path + ("rows", key)
            spaces = row["spaces"]
            if spaces == "seats":
                values: list[Any] = list(range(len(ctx.seat_names)))
                labels = list(ctx.seat_names)
                covered = [v >= ctx.players for v in values]
            else:
                values, labels = [], []
                for space in spaces:
                    if isinstance(space, dict):
                        label = str(space.get("label"))
                        value = space.get("value") if type_.kind != "record" else Record(space)
                    else:
                        label, value = str(space), space
                    values.append(value)
                    labels.append(label)
                covered = [False] * len(values)
            if len(set(labels)) != len(labels):
                raise ctx.error("two spaces of this row have the same label", rpath + ("spaces",))
            if "covered" in row:
                cover = ctx.expr(rpath + ("covered",), {"space": SEAT if spaces == "seats" else type_})
                if cover.deps - {"ctx:space"}:
                    raise ctx.error("covered may use only space, players, options and setup "
                                    "(spaces are covered before play)", rpath + ("covered",))
                covered = [c or bool(cover({"space": v})) for c, v in zip(covered, values)]
            if covered.count(False) < 1:
                raise ctx.error("every space of this row is covered; at least one must stay open", rpath)
            self.rows.append(_Row(key, row.get("title", key), values, labels, covered))

    def begin(self, game: Any, state: Any) -> None:
        first = self.first({"$s": state}) if self.first else state.dealer
        open_ = [[not c for c in row.covered] for row in self.rows]
        state.step_data = {"open": open_, "turn": first, "choices": self._choices(open_)}
        self._settle(state)

    @staticmethod
    def _choices(open_: list[list[bool]]) -> list[tuple[int, int]]:
        # a marker may not go on a row's last open space
        return [(r, i) for r, row in enumerate(open_) if sum(row) > 1 for i, o in enumerate(row) if o]

    def _settle(self, state: Any) -> None:
        """Once every row has one open space, publish the board's result."""
        open_ = state.step_data["open"]
        if not state.step_data["choices"]:
            parts = []
            for row, spaces in zip(self.rows, open_):
                i = spaces.index(True)
                state.vars[row.key] = row.values[i]
                parts.append(f"{row.title}: {row.labels[i]}")
            state.note("The board: " + "; ".join(parts))

    def decision(self, game: Any, state: Any) -> Decision | None:
        data = state.step_data
        if not data["choices"]:
            return None
        return Decision(data["turn"], data["choices"], self, "cover a space")

    def apply(self, game: Any, state: Any, action: tuple[int, int]) -> None:
        r, i = action
        data = state.step_data
        row = data["open"][r]
        row[i] = False
        # a fresh list: the previous decision's list stays as it was
        if sum(row) == 1:
            data["choices"] = [c for c in data["choices"] if c[0] != r]
        else:
            data["choices"] = [c for c in data["choices"] if c != action]
        data["turn"] = (data["turn"] + 1) % game.players
        self._settle(state)

    def public(self, game: Any, state: Any) -> dict[str, Any]:
        open_ = state.step_data["open"]
        return {"board": {row.key: [lab for lab, o in zip(row.labels, spaces) if o]
                          for row, spaces in zip(self.rows, open_)}}

    def describe(self, game: Any, state: Any, action: tuple[int, int], viewer: int | None = None) -> str:
        r, i = action
        return f"covers {self.rows[r].title}: {self.rows[r].labels[i]}"

    def label(self, game: Any, state: Any, action: tuple[int, int]) -> str:
        r, i = action
        row = self.rows[r]
        return f"{row.key}: {row.labels[i]}"
