"""The reading of a ``board`` step: its declaration, and its rows read from the rule file, checked and compiled: the
resolved options its play (board.py), its words and its written code (board_code.py) read; and its progress.

A board: rows of options that seats cover in turn; each row's open space decides a round value.

How the turn passes (``first``, ``next``), which spaces may be covered
(``coverable``, which sees how many spaces its row has open) and which start
covered (a row's ``covered``) are data. The step ends when the seat to act has
no space it may cover; each row with exactly one open space sets the round
value named after the row (a row left with several open spaces sets none).

Spaces are plain values (``red``, ``3``), ``{label, value}``, records
(``{label, FIELD: ...}``, read as ``round.ROW.FIELD``), or an expression giving a
list (``seats``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from interpreter.dsl.types import SEAT, VALUE, Type, record
from interpreter.engine.steps.action_types import Cover
from interpreter.engine.steps.base import COMMON, Step
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.engine.steps.words import show
from interpreter.plan.declaration import Opt


class Record(dict):
    """A board space with fields, as a round value: never changed, so it can be hashed once.

    Hashable values let lookup tables keyed by round values (see card_tables) use it directly.
    """

    __slots__ = ("_hash",)

    def __init__(self, fields: dict[str, Any]):
        super().__init__(fields)
        self._hash = hash(tuple(sorted((k, repr(v)) for k, v in fields.items())))

    def __hash__(self) -> int:  # type: ignore[override]  # dict declares __hash__ None; this dict is never changed
        return self._hash


class BoardProgress:
    """A board in play: the open spaces of each row, the seat to act, the spaces it may cover (a list shared at
    most with the decision made from it: a copy has its own), and the covers so far, in order, each (row, space,
    the seat that covered it): public, what the board is drawn with."""

    __slots__ = ("open", "turn", "choices", "covers")

    def __init__(self, open_: list[list[bool]], turn: int, choices: list[Any],
                 covers: list[tuple[int, int, int]] | None = None):
        self.open, self.turn, self.choices = open_, turn, choices
        self.covers = [] if covers is None else covers

    def copy(self) -> BoardProgress:
        return BoardProgress([list(r) for r in self.open], self.turn, list(self.choices), list(self.covers))


class _Row:
    def __init__(self, key: str, title: str, values: list[Any], labels: list[str], covered: list[bool]):
        self.key, self.title, self.values, self.labels, self.covered = key, title, values, labels, covered


_ROW = (
    Opt("spaces", "expr", "The row's spaces: a list of plain values, {label, value} or records {label, FIELD: "
        "...} (all with the same fields), or an expression giving a list, e.g. seats.", required=True, gives="list"),
    Opt("title", "text", "How the row is shown (default: its name)."),
    Opt("covered", "condition", "Spaces for which this holds start covered (it may use only space, players, "
        "options and setup).", binds=("space",)),
)


class BoardReading(Step):
    """A board step as its rule file says it: its rows, each read and checked, and its expressions compiled."""

    kind = "board"
    decides = True
    loops = True
    summary = ("A board of options: seats take turns covering one open space; when the seat to act may cover "
               "nothing, each row's one open space sets the round value named after the row.")
    options = COMMON + (
        Opt("rows", "object", "Row name -> row. Each row's open space becomes round.ROWNAME.", required=True,
            fields=_ROW),
        Opt("first", "seat", "The seat that covers first (default: the dealer), e.g. left(round.dealer)."),
        Opt("next", "seat", "The seat that covers after seat (default: left(seat), clockwise).",
            binds=("seat",)),
        Opt("coverable", "condition", "Whether a space may be covered now (default \"open > 1\": never a row's "
            "last open space). open is the number of open spaces in the space's row, row its name.",
            binds=("space", "open", "row")),
    )

    def declare(self, ctx: StepContext, opts: Options) -> None:
        self.row_types: list[Type] = []
        for key in opts.plain("rows"):
            row = opts.within("rows", key)
            spaces = row.plain("spaces")
            type_ = VALUE
            if isinstance(spaces, list):  # (a row with a mistake in its spaces is refused: its type is not needed)
                type_ = row.attempt(partial(self._space_type, ctx, spaces, row.path + ("spaces",)), "spaces") or VALUE
            self.row_types.append(type_)
            ctx.declare(key, type_, row.path)

    def infer(self, ctx: StepContext) -> None:
        opts = self.reader(ctx)  # (its mistakes are reported when the step is built)
        for key, i in zip(opts.plain("rows"), range(len(self.row_types))):
            row = opts.within("rows", key)
            if not isinstance(row.plain("spaces"), list):  # an expression (or a value that is not a list: refused)
                spaces = row.get("spaces")
                if spaces is not None:
                    t = spaces.type
                    self.row_types[i] = t.element if t.kind == "list" and t.element else VALUE
                    ctx.round_fields[key] = self.row_types[i]

    @staticmethod
    def _space_type(ctx: StepContext, spaces: list[Any], path: tuple) -> Type:
        def fields_of(space: Any) -> list[str] | None:  # a record's fields; None for a plain space
            return list(space) if isinstance(space, dict) and set(space) - {"label", "value"} else None

        first = next((i for i, space in enumerate(spaces) if fields_of(space) is not None), None)
        if first is None:
            return VALUE
        fields = fields_of(spaces[first])
        assert fields is not None  # first is the index of a record
        for i, space in enumerate(spaces):
            keys = fields_of(space)
            if keys is not None and "label" not in keys:
                raise ctx.error("a space with fields needs a label", path + (i,))
        for i, space in enumerate(spaces):  # every space, before and after the first record
            keys = fields_of(space)
            if keys is None or sorted(keys) != sorted(fields):
                raise ctx.error(f"every space of this row must have the fields {', '.join(fields)} (a row's "
                                "spaces are all records with the same fields, or none is)", path + (i,))
        return record({f: VALUE for f in fields})

    def build(self, ctx: StepContext, opts: Options) -> None:
        self.first = opts.get("first", expect="seat")
        self.next = opts.get("next", {"seat": SEAT}, expect="seat")
        self.coverable = opts.get("coverable", {"space": VALUE, "open": VALUE, "row": VALUE})
        self.rows: list[_Row] = []
        for key, type_ in zip(opts.plain("rows"), self.row_types):
            made = self._row(ctx, opts.within("rows", key), key, type_)
            if made is not None:
                self.rows.append(made)
        self._covers = [[Cover(r, i) for i in range(len(row.values))] for r, row in enumerate(self.rows)]

    def _row(self, ctx: StepContext, row: Options, key: str, type_: Type) -> _Row | None:
        """One row read and checked (its mistakes collected by ``row``), or None when it cannot be made."""
        spaces = row.plain("spaces")
        if not isinstance(spaces, list):  # an expression giving a list (anything else is refused here)
            expr = row.get("spaces")
            if expr is None:
                return None
            if expr.deps:
                row.mistake("the spaces of a row must be known before play (use seats, players, options, setup)",
                            "spaces")
                return None
            values = list(expr({}))
            labels = [show(ctx_game(ctx), type_, v) for v in values]
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
            row.mistake("two spaces of this row have the same label", "spaces")
        cover = row.get("covered", {"space": type_})
        if cover is not None and cover.deps - {"ctx:space"}:
            row.mistake("covered may use only space, players, options and setup (spaces are covered before play)",
                        "covered")
        elif cover is not None:
            covered = [c or bool(cover({"space": v})) for c, v in zip(covered, values)]
        if covered.count(False) < 1:
            row.mistake("every space of this row is covered; at least one must stay open")
        return _Row(key, row.plain("title") or key, values, labels, covered)


class _Names:
    """Enough of a game for ``show`` at compile time (seat names)."""

    def __init__(self, seat_names: list[str]):
        self.seat_names = seat_names


def ctx_game(ctx: StepContext) -> Any:
    return _Names(ctx.seat_names)
