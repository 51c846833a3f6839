"""The few static types the compiler tracks, so mistakes show at load time.

Runtime values stay plain: a card is an int id, a seat an int index, a list a
tuple or list, a record a dict. The static type says how ``x.name`` compiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Type:
    kind: str  # "value", "card", "seat", "list", "record"
    element: Type | None = None  # for lists
    fields: tuple[tuple[str, Type], ...] = field(default=())  # for records
    literal_none: bool = False
    # for "value": what it is when it is not none, when that is known: "number", "text" or "truth" (true or
    # false); "" when it may be anything (a value the compiler cannot tell, e.g. a seat's tricks)
    plain: str = ""

    def __str__(self) -> str:
        if self.kind == "list":
            return f"list of {self.element}"
        if self.kind == "record":
            return "record (" + ", ".join(n for n, _ in self.fields) + ")"
        return "none" if self.literal_none else self.kind

    def field_type(self, name: str) -> Type | None:
        for n, t in self.fields:
            if n == name:
                return t
        return None


VALUE = Type("value")
NONE = Type("value", literal_none=True)
NUMBER = Type("value", plain="number")
TEXT = Type("value", plain="text")
TRUTH = Type("value", plain="truth")
CARD = Type("card")
SEAT = Type("seat")


def list_of(t: Type) -> Type:
    return Type("list", element=t)


def record(fields: dict[str, Type]) -> Type:
    return Type("record", fields=tuple(fields.items()))


CARDS = list_of(CARD)
SEATS = list_of(SEAT)


def join(a: Type, b: Type) -> Type:
    """Type of a value that may come from either branch."""
    if a == b:
        return a
    if a.literal_none:
        return b
    if b.literal_none:
        return a
    if a.kind == "list" and b.kind == "list" and a.element and b.element:
        return list_of(join(a.element, b.element))
    return VALUE


def type_of_data(value: object) -> Type:
    """Static type of a constant taken from the rule file (options, setup)."""
    if isinstance(value, dict):
        return record({str(k): type_of_data(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        t = NONE
        for item in value:
            t = join(t, type_of_data(item))
        return list_of(VALUE if t.literal_none else t)
    if value is None:
        return NONE
    return type_of_plain(value)


def type_of_plain(value: object) -> Type:
    """NUMBER, TEXT or TRUTH for a plain value; VALUE for anything else."""
    if value is True or value is False:
        return TRUTH
    if type(value) is int:
        return NUMBER
    if type(value) is str:
        return TEXT
    return VALUE


def unrefined(t: Type) -> Type:
    """``t`` with no number, text or truth told apart (VALUE for each): the kinds a define is compiled for."""
    if t.plain:
        return VALUE
    if t.kind == "list" and t.element is not None:
        element = unrefined(t.element)
        return t if element is t.element else list_of(element)
    if t.kind == "record" and t.fields:
        return record({n: unrefined(f) for n, f in t.fields})
    return t
