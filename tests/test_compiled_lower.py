"""The compiled backend's expressions (interpreter/compiled/): every expression of every bundled game that its writer
writes gives what the Python backend's gives, at states of random games, with the names it binds drawn at random.

The written source is run as plain Python here (it is the subset the compiled backend compiles; one test compiles some
when llvmlite is installed). The Python side is the expression as the compact game reads it (cards as their kinds,
runtime/compact_reads.py), on the same state packed into the slots; the compiled side reads the arrays the slots
are packed into (compiled/arrays.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from interpreter.compiled.arrays import ArrayLayout, array_layout, pack_arrays
from interpreter.compiled.lower import Lowered, Lowerer
from interpreter.compiled.module import made, source_of, support
from interpreter.compiled.values import INTERNED, NONE, NotWritten, Values
from interpreter.dsl import budget
from interpreter.dsl.compiler import RUNTIME_ERRORS, Compiled, ExpressionFailed
from interpreter.dsl.ir import walk
from interpreter.dsl.types import Type
from interpreter.runtime.compact_game import compact_game
from interpreter.runtime.compact_reads import CompactReads
from interpreter.runtime.layout import layout
from interpreter.runtime.zone_shapes import expressions

from .conftest import game_of, random_decisions
from .test_slot_samples import FEWEST

# the least share of each game's expressions written for the arrays (what is left is narration's texts and a few
# builtins, see the module's docstring of compiled/lower.py); it only goes up
WRITTEN_AT_LEAST = 0.5


def bound_names(e: Compiled) -> dict[str, Type]:
    """The names ``e`` binds (``card``, ``led``, ``seat``...), each with the type the checker gave it."""
    types: dict[str, Type] = {}
    for p in walk(e.part):
        if p.op == "name":
            types.setdefault(p.data, p.type)
    found = {d[4:]: types.get(d[4:]) for d in e.deps if d.startswith("ctx:")}
    if any(t is None for t in found.values()):
        raise NotWritten("a bound name of no known type")
    return found  # type: ignore[return-value]


def drawn(t: Type, rng: random.Random, lay: ArrayLayout, texts: Sequence[str] = ()) -> Any:
    """A value of type ``t`` for a bound name: a card (its kind), a seat, a list of them, a small number, a truth, one
    of ``texts``, a record of such values (a choice's history: records of a seat and a value) or a list of records."""
    kinds, players = lay.layout.kinds, lay.layout.players
    if t.kind == "card":
        return rng.choice(kinds)
    if t.kind == "seat":
        return rng.randrange(players)
    if t.kind == "list" and t.element is not None and t.element.kind in ("card", "seat"):
        items = kinds if t.element.kind == "card" else range(players)
        return rng.sample(items, rng.randrange(min(len(items), 6) + 1))
    if t.kind == "list" and t.element is not None and t.element.kind == "record":
        return [drawn(t.element, rng, lay, texts) for _ in range(rng.randrange(6))]
    if t.kind == "record" and t.fields:
        return {name: drawn(field, rng, lay, texts) for name, field in t.fields}
    if t.kind == "value" and t.plain in ("number", ""):
        return rng.choice([0, 1, 2, 3])
    if t.kind == "value" and t.plain == "truth":
        return rng.choice([True, False])
    if t.kind == "value" and t.plain == "text" and texts:
        return rng.choice(texts)
    raise NotWritten(f"no values drawn for {t}")


def states(game, rng: random.Random, count: int, every: int = 3) -> list:
    """``count`` states along random games of ``game``, one every ``every`` decisions."""
    out: list = []
    while len(out) < count:
        state = game.new_state()
        for k, d in enumerate(random_decisions(game, state, rng)):
            if k % every == 0:
                out.append(state.clone())
                if len(out) == count:
                    break
            game.apply_fast(state, d.actions[rng.randrange(len(d.actions))])
    return out


class Both:
    """One game's expressions on both sides: the Python backend's on the slots, the written source on the arrays."""

    def __init__(self, name: str, players: int):
        self.game = game_of(name, players)
        self.compact = compact_game(self.game)
        assert self.compact is not None
        self.lay, self.values = array_layout(self.game), Values()
        lowerer, reads = Lowerer(self.lay, self.values), CompactReads(layout(self.game))
        self.written: list[tuple[Compiled, Lowered, dict[str, Type], Compiled]] = []
        self.refused: list[str] = []
        self.all = expressions(self.game)
        # the texts the expressions write (a bound text is drawn from them: a bid, a call...)
        self.texts = sorted({x for e in self.all for p in walk(e.part) if p.const
                             for x in (p.value if isinstance(p.value, (list, tuple)) else [p.value])
                             if isinstance(x, str)})
        for i, e in enumerate(self.all):
            try:
                bound = bound_names(e)
                for t in bound.values():
                    drawn(t, random.Random(0), self.lay, self.texts)  # (what cannot be drawn is not compared)
                self.written.append((e, lowerer.lower(e.part, bound, f"f{i}"), bound, reads.compiled(e)))
            except NotWritten as exc:
                self.refused.append(f"{e.text}: {exc}")
        self._made: dict[int, tuple[int, Any]] = {}

    def function(self, lowered: Lowered) -> Any:
        """The written function, linked to the values interned so far (made again when more are)."""
        made = self._made.get(id(lowered))
        if made is None or made[0] != len(self.values.interned):
            space = {**support(), **lowered.link(self.values)}
            exec(lowered.program, space)  # the engine's own source, written from the checked parts
            made = self._made[id(lowered)] = (len(self.values.interned), space[lowered.name])
        return made[1]

    def compare(self, slots: Any, arrays: Any, rng: random.Random) -> tuple[int, list[str]]:
        """Every written expression on both sides at one state: how many agree, and each difference."""
        agreed, differ = 0, []
        for e, lowered, bound, python in self.written:
            args = {n: drawn(t, rng, self.lay, self.texts) for n, t in bound.items()}
            budget.reset()
            try:
                want = python.fn({"$s": slots, **args})
            except (*RUNTIME_ERRORS, ExpressionFailed):
                continue  # a mistake on the checked path (a none compared...): the compiled side promises nothing
            given = [np.asarray([self.values.item(x) for x in args[n]], np.int64) if listed
                     else self.values.encode(args[n]) for n, listed in lowered.params]
            got = self.function(lowered)(*arrays, *given)
            if lowered.returns_list:  # (where its items start in the scratch space, and their count)
                got = None if got[1] < 0 else [int(x) for x in arrays.h[got[0]:got[0] + got[1]]]
                want = None if want is None else [self.values.item(x) for x in want]  # (a list's items interned)
            else:
                got, want = int(got), self.values.encode(want)
            if got == want:
                agreed += 1
            else:
                differ.append(f"{e.text} with {args}: {want} (Python) against {got} (compiled)")
        return agreed, differ


@pytest.mark.parametrize(("name", "players"), FEWEST)
def test_written_expressions_agree_with_the_python_backend(name, players):
    both = Both(name, players)
    assert len(both.written) >= WRITTEN_AT_LEAST * len(both.all), both.refused
    agreed_at_states(both, 12)


def test_what_is_not_written_is_said():
    """A text joined, a builtin not written for the arrays: refused by name, so the game is played by the Python
    backend; the values the arrays cannot hold are refused too."""
    both = Both("hearts", 4)
    assert any("'+' of texts" in why for why in both.refused)
    with pytest.raises(NotWritten, match="cannot hold"):
        both.values.encode([1, 2])


def test_combinations_are_written_only_where_their_lists_are_interned():
    """``combinations`` finds its lists among those interned as the game is written: alone, an expression has none
    interned, and it is refused (a choice of lists writes its options with its domain interned: the choose tests)."""
    both = Both("mit-list-und-tuecke", 4)
    assert any("combinations(" in why and "domain interns them" in why for why in both.refused), both.refused


def test_values_read_back_by_their_type():
    values = Values()
    from interpreter.dsl.types import NUMBER, TRUTH, VALUE

    assert values.decode(values.encode(True), TRUTH) is True
    assert values.decode(values.encode(1), NUMBER) == 1
    assert values.encode(None) == NONE and values.decode(NONE, NUMBER) is None
    spade, again = values.encode("spades"), values.encode("spades")
    assert spade == again != values.encode("hearts")
    record = values.encode({"label": "x", "discard": 2})
    assert values.decode(record, VALUE) == {"label": "x", "discard": 2}
    assert values.field_table("discard")[record - INTERNED] == 2


def test_a_list_value_that_is_none_reads_as_none():
    """A round value that holds a list is none until it is set: its count is -1, and an expression giving it gives
    none."""
    both = Both("was-sticht", 4)
    (hints,) = [w for w in both.written if w[0].text == "round.hints"]
    state = both.game.new_state()
    slots = both.compact.start(state)
    arrays = pack_arrays(both.lay, slots, both.values)
    assert both.function(hints[1])(*arrays)[1] == -1


def test_the_written_source_compiles_and_computes_as_plain_python():
    """The written source is the compiled backend's subset: some of NJET's expressions compiled (with the defines'
    functions they call), giving the same as run as Python."""
    pytest.importorskip("llvmlite")
    both = Both("njet-riogrande", 4)
    rng = random.Random(3)
    (state,) = states(both.game, rng, 1, every=40)
    slots = both.compact.start(state)
    arrays = pack_arrays(both.lay, slots, both.values)
    picked = [w for w in both.written if any(p.op in ("for", "seat", "define") for p in walk(w[0].part))][:4]
    assert picked
    for e, lowered, bound, _ in picked:
        plain = both.function(lowered)
        fast = getattr(made(source_of([lowered]), [lowered], both.values, compiled=True), lowered.name)
        for _ in range(5):
            args = [drawn(bound[n], rng, both.lay) for n, _ in lowered.params]
            given = [np.asarray(a, np.int64) if isinstance(a, list) else both.values.encode(a) for a in args]
            want, got = plain(*arrays, *given), fast(*arrays, *given)
            if lowered.returns_list:
                h = arrays.h
                assert list(h[got[0]:got[0] + got[1]]) == list(h[want[0]:want[0] + want[1]]), e.text
            else:
                assert got == want, e.text


def test_a_constant_card_is_written_as_its_kind():
    """A card folded at load time is written as its kind, as the arrays hold cards (a later copy of identical cards
    is the first's kind): alone and in a list."""
    from interpreter.dsl.ir import constant
    from interpreter.dsl.types import CARD, CARDS

    game = game_of("njet-riogrande", 4)
    lay, values = array_layout(game), Values()
    later = next(c for c in game.deck if lay.layout.kind[c] != c)  # a copy that is not the first of its kind
    kind = lay.layout.kind[later]
    lowerer = Lowerer(lay, values)
    one = lowerer.lower(constant(later, CARD), {}, "one")
    two = lowerer.lower(constant((later, later), CARDS), {}, "two")
    both = {**support(), **one.link(values), **two.link(values)}
    exec(one.source + "\n" + two.source, both)
    arrays = pack_arrays(lay, compact_game(game).start(game.new_state()), values)
    assert both["one"](*arrays) == kind
    at, n = both["two"](*arrays)
    assert list(arrays.h[at:at + n]) == [kind, kind]


def agree_where(name: str, players: int, keep: Any) -> int:
    """The game's expressions with a part for which ``keep`` holds: written (some), and giving what the Python
    backend's give at states of random games; how many times they ran to a value."""
    both = Both(name, players)
    both.written = [w for w in both.written if any(keep(p) for p in walk(w[0].part))]
    assert both.written, both.refused
    return agreed_at_states(both, 6)


def agreed_at_states(both: Both, count: int) -> int:
    """Every written expression of ``both`` at ``count`` states of random games, on both backends: none differs,
    and each ran to a value at some state (on the whole); how many times they agreed."""
    rng = random.Random(7)
    agreed, differ = 0, []
    for state in states(both.game, rng, count):
        slots = both.compact.start(state)
        got = both.compare(slots, pack_arrays(both.lay, slots, both.values), rng)
        agreed, differ = agreed + got[0], differ + got[1]
    assert not differ, differ[:5]
    assert agreed >= len(both.written), "most expressions ran to a value at some state"
    return agreed


@pytest.mark.parametrize(("name", "players", "attribute"), [("meinz", 4, "role"), ("tichu", 4, "index"),
                                                            ("bridge", 4, "index")])
def test_a_seats_fixed_attribute_is_written_and_agrees(name, players, attribute):
    """A seat's attribute fixed for the whole game (its index, name, role) read from a table by seat."""
    agree_where(name, players, lambda p: p.op == "seat" and not p.data[2] and p.data[4] == attribute)


def _calls(*fns: Any) -> Any:
    return lambda p: p.op == "call" and p.data[0] in fns and any(k.type.kind == "list" for k in p.kids)


@pytest.mark.parametrize(("name", "players"), [("tichu", 4), ("doppelkopf", 4)])
def test_lists_compared_and_concatenated_are_written_and_agree(name, players):
    """``==`` and ``!=`` of two lists (the same items in order; none only as none) and ``concat`` of a comprehension
    giving lists."""
    from interpreter.dsl import builtins as B
    from interpreter.dsl import runtime as R

    agree_where(name, players, _calls(R.same, R.different))
    agree_where(name, players, lambda p: p.op == "call" and p.data[0] is B._concat)


def test_a_list_compared_with_none_or_the_empty_list_reads_as_pythons(tmp_path):
    """A list none (a round list never set) is none, is not the empty list and is the same as another none; lists
    are the same with the same items in the same order: the values a set step stores, on both backends."""
    from .compiled_steps import StepOnBoth
    from .test_steps import DEAL_3, TRICKS, make

    compare = """\
        never: {do: set, when: "false", round: {empty: "[s for s in seats if s == round.dealer]"}}
        compare:
          do: set
          round: {none_is_none: "round.empty == none", none_is_not_empty: "round.empty != []",
                  nones: "round.empty == round.empty", listed: "round.empty != none",
                  order: "seats_from(round.dealer) == seats",
                  items: "[round.dealer] != [s for s in seats if s.index == 0]",
                  held: "[c for c in first(seats).hand] == first(seats).hand",
                  joined: "concat([s.hand for s in seats]) == concat([first(seats).hand, last(seats).hand])"}
        """
    game = make(tmp_path, DEAL_3, compare, TRICKS)
    both = StepOnBoth(game, 4, "compare")
    rng = random.Random(1)
    states_ = both.states(rng, 8, every=1)
    assert all(both.lockstep(state, rng) == 0 for state in states_)
    stored = {name: int(both._last.v[both.lay.value("round", name)])  # (the arrays of the Python side's state)
              for name in ("none_is_none", "none_is_not_empty", "nones", "listed", "held")}
    assert stored == {"none_is_none": 1, "none_is_not_empty": 1, "nones": 1, "listed": 0, "held": 1}


def test_the_greatest_and_least_list_of_numbers_are_pythons():
    """``max`` and ``min`` of a comprehension of lists of numbers (Mue's highest cards bid): ordered as Python orders
    lists, by the first item that differs, a list before a longer one it begins; the first of equal ones."""
    from interpreter.dsl import builtins as B
    from interpreter.dsl.ir import Part
    from interpreter.dsl.types import NUMBER, SEAT, SEATS, list_of

    game = game_of("mue", 4)
    lay, values = array_layout(game), Values()
    seat = Part("name", SEAT, frozenset({"ctx:s"}), (), "s")
    high = Part("seat", list_of(NUMBER), frozenset({"state"}), (seat,), (None, True, True, None, "high"))
    given = Part("name", SEATS, frozenset({"ctx:given"}), (), "given")
    lowerer = Lowerer(lay, values)
    made = [lowerer.lower(Part("for", list_of(NUMBER), frozenset(), (given,), ("s", high, None, fn)), {"given": SEATS},
                          name) for name, fn in (("most", B._max), ("least", B._min))]
    space: dict[str, Any] = support()
    for lowered in made:
        space.update(lowered.link(values))
    exec("\n".join(m.source for m in made), space)  # the engine's own source, written from parts
    state = game.new_state()
    highs = [[3, 1], [3, 2, 0], [2, 9], [3, 2]]
    state.seat_vars["high"] = [list(h) for h in highs]
    arrays = pack_arrays(lay, compact_game(game).start(state), values)
    for seats in ([0, 1, 2, 3], [0, 3], [2], [3, 0, 2]):
        for name, pick in (("most", max), ("least", min)):
            at, n = space[name](*arrays, np.asarray(seats, np.int64))  # (where its items are in the scratch space)
            assert list(arrays.h[at:at + n]) == pick(highs[s] for s in seats), (name, seats)


def test_lists_of_seats_made_in_play_are_interned_and_read_back():
    """Pairs of seats made in a comprehension (``[s, winner]`` for each fox taken), kept in a round value that is a
    list of lists, and read back item by item (``f[1] in group``): written, and giving what the Python backend's give
    (a pair is an interned value, each of them interned as the expression is written)."""
    assert agree_where("doppelkopf", 4, lambda p: p.op == "round" and p.data == "foxes") > 0


def test_a_list_of_lists_made_in_play_is_gone_through_part_by_part(tmp_path):
    """A comprehension over a list of lists made in play (lists of a seat and a text, ``+``, ``if``, a constant list
    of lists, a define's body: Skat's run of top trumps) is written, its parts gone through in turn (their lists not
    interned), and gives what the Python backend's gives; ``any`` stops at the first that holds in any part."""
    from .compiled_steps import StepOnBoth
    from .test_steps import DEAL_3, TRICKS, make

    pairs = ("[[s, 'x'] for s in seats if s != round.dealer] + ([[round.dealer, 'y']] if round.dealer != none "
             "else []) + [[0, 'z'], [1]]")
    lists = f"""\
        lists:
          do: set
          round: {{firsts: "[p[0] for p in {pairs}]",
                  long: "[len(p) for p in {pairs} if len(p) > 1]",
                  dealt: "any(p[1] == 'y' for p in {pairs} if len(p) > 1)",
                  all_long: "all(len(p) == 2 for p in {pairs})",
                  cards: "[len(p) for p in [[c, c] for c in first(seats).hand] + [first(seats).hand]]"}}
        """
    game = make(tmp_path, DEAL_3, lists, TRICKS)
    both = StepOnBoth(game, 4, "lists")
    rng = random.Random(3)
    assert all(both.lockstep(state, rng) == 0 for state in both.states(rng, 6, every=1))
    stored = {name: int(both._last.v[both.lay.value("round", name)]) for name in ("dealt", "all_long")}
    assert stored == {"dealt": 1, "all_long": 0}
