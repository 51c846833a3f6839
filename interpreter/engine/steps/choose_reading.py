"""The reading of a ``choose`` step: its declaration, and its options read from the rule file, checked and
compiled: the resolved options that its play (choose.py), its words and its search read.

It carries bids (a number of tricks, higher than the current bid), ordering up,
naming trump, a partner, team sizes, a marker, discards and passes (cards, with
``move_to``), claims (between plays of a trick), exchanges and keep choices
(after a trick), and a designer's own auctions (``repeat`` until a condition
such as a full circle of passes).

Each seat's turn is ``count`` single picks, or a pass when ``pass`` is given. After
every turn ``until`` is checked; the step ends when it holds, or after the last
seat of ``who`` (with ``repeat``, ``who`` starts again). Results are read
afterwards as round values (``set``, ``set_chooser``) or per-seat values
(``set_seat``). While choosing, expressions see ``seat`` (the chooser), ``value``
(the option being judged), ``picked`` (this seat's picks this turn), ``history``
(every choice of this step so far, as records with ``seat`` and ``value``) and
``passes`` (passes in a row).

With ``pass_is_final`` (an auction where passing puts a seat out) a seat that passes is not asked again in the
step; its pass is in ``history`` as the record ``{seat, value: none, passed: true}`` (every choice's record then
has ``passed``: false), ``passes`` counts the seats that have passed, and the step ends by itself when one seat
that has not passed is left after at least one choice, or when every seat has passed (a written ``until`` may end
it sooner).
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.compiler import Compiled
from interpreter.dsl.ir import places_read
from interpreter.dsl.types import NONE, SEAT, TRUTH, VALUE, Type, list_of, record
from interpreter.engine.card_tables import CardTable, as_bool
from interpreter.engine.game_view import GameView
from interpreter.engine.state import State
from interpreter.engine.steps import rulebook
from interpreter.engine.steps.action_types import Choice, Pass, Stop
from interpreter.engine.steps.base import COMMON, Step
from interpreter.engine.steps.choose_labels import ChoiceLabels
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.engine.steps.together_check import Changed
from interpreter.engine.steps.together_check import mistakes as together_mistakes
from interpreter.errors import RuleError
from interpreter.plan.declaration import Opt


class Choosing:
    """A choice in progress: the seats in order, whose turn it is, its picks, every choice so far."""

    __slots__ = ("order", "pos", "left", "picked", "history", "passes", "idle", "out")

    def __init__(self, order: list[int]):
        self.order = order
        self.pos = 0
        self.left = 0  # picks left in the current seat's turn
        self.picked: list[Any] = []
        self.history: list[dict[str, Any]] = []
        self.passes = 0
        self.idle = 0  # turns in a row that asked nobody (skipped seats, passes of seats with nothing to pick)
        self.out: list[int] = []  # the seats that have passed, in order, when a pass is final (pass_is_final)

    def copy(self) -> Choosing:
        other = Choosing(list(self.order))
        other.pos, other.left, other.passes, other.idle = self.pos, self.left, self.passes, self.idle
        other.picked = list(self.picked)
        other.history = [dict(h) for h in self.history]
        other.out = list(self.out)
        return other


class ChooseReading(Step):
    """A choose step as its rule file says it: each option read, checked and compiled."""

    kind = "choose"
    nested = True
    decides = True
    loops = True
    summary = ("Seats in turn (or simultaneously, hidden until all have chosen) each pick values from a list: "
               "bids, trump, partners, cards to discard or pass, yes/no offers, a designer's own auction.")
    rulebook = staticmethod(rulebook.chosen)
    options = COMMON + (
        Opt("who", "seats", "The seats that choose, in order: a seat or a list of seats (default "
            "seats_from(left(round.dealer)): everyone, starting left of the dealer).", binds=()),
        Opt("options", "expr", "The values to choose from: a list (numbers, text, seats, cards, lists), e.g. "
            "\"seat.hand\", \"[0, 1, 2]\", \"['order up']\".", binds=("seat", "picked", "history", "passes"),
            required=True, gives="list"),
        Opt("allowed", "condition", "Which options may be chosen now, e.g. \"value > max([h.value for h in "
            "history] + [0])\".", binds=("value", "seat", "picked", "history", "passes")),
        Opt("must", "condition", "An obligation: while some allowed option meets it, only those may be chosen.",
            binds=("value", "seat", "picked", "history", "passes")),
        Opt("count", "number", "How many values each seat picks in its turn, one decision each (default 1; "
            "0: the seat is not asked; it passes when pass is given, else it is skipped). With count the values set "
            "are lists.", binds=("seat",)),
        Opt("pass", "text", "The label of passing: with it, a seat may pass instead of choosing (its turn ends)."),
        Opt("stop", "text", "The label of ending one's turn after at least one pick: with it, count is the most "
            "a seat may pick in its turn, and it may stop after any pick (a turn of one or more reveals). A seat "
            "that stops has not passed."),
        Opt("may_stop", "condition", "When a seat may end its turn with stop (default: after any pick), e.g. "
            "\"is_combination(picked)\": the picks so far make a whole play (a combination of cards played at once). "
            "A seat that has picked may not pass.", binds=("seat", "picked", "history", "passes")),
        Opt("may_pass", "condition", "Which seats may pass (default: every seat, when pass is given), e.g. "
            "\"seat != round.dealer\" (stick the dealer).", binds=("seat", "picked", "history", "passes")),
        Opt("repeat", "bool", "Go round who again after its last seat, until until holds (an auction).",
            default=False),
        Opt("pass_is_final", "bool", "A seat that passes is out: it is not asked again in this step (an auction "
            "where passing is final). Needs pass and repeat. Its pass is in history as the record {seat, value: none, "
            "passed: true} (a choice's record then has passed: false), passes counts the seats that have passed, and "
            "the step ends by itself when one seat that has not passed is left after at least one choice, or when "
            "all have passed (until is then optional; a written until may end it sooner). set_chooser holds the last "
            "seat that chose (none when all passed).", default=False),
        Opt("until", "condition", "Checked after each turn: the step ends when it holds, e.g. \"passes == "
            "players\" or \"round.maker != none\" (picked: what the seat just picked in its turn).",
            binds=("seat", "picked", "history", "passes")),
        Opt("set", "name", "A round value that holds the last value chosen (round.NAME)."),
        Opt("set_seat", "name", "A per-seat value that holds each seat's choice (seat.NAME); none for a seat "
            "that passed or was not asked."),
        Opt("set_chooser", "name", "A round value that holds the seat that made the last choice (not a pass), "
            "e.g. the maker or the highest bidder."),
        Opt("set_history", "name", "A round value that holds every choice of this step in order, as records "
            "with seat and value (one per pick; passes and stops are not choices, but with pass_is_final a pass "
            "is kept too, see there), e.g. to find who bid last among the highest bidders."),
        Opt("move_to", "zone", "When the values are cards: each chosen card moves at once to this zone (the "
            "chooser's, for a per-seat zone), e.g. a discard or a reveal."),
        Opt("swap", "bool", "When each value is a pair of cards [a, b]: the chosen two change places (a goes "
            "where b was, b where a was), e.g. a hand card for a card of the trick just won.", default=False),
        Opt("label", "expr", "How an option is shown (text), e.g. \"'bid ' + text(value)\". Default: a card's "
            "label, a seat's name, a record's label, or the value itself.", binds=("value", "seat"), gives="shown"),
        Opt("describe", "expr", "How a choice is told in the narration (text after the seat's name), e.g. "
            "\"'bids ' + text(value)\". Default: the verb and the label.", binds=("value", "seat"), gives="shown"),
        Opt("verb", "text", "The verb of the narration and the prompt (default: choose).", default="choose"),
        Opt("visible", "enum", "Who learns each choice: all (default) or owner (only the chooser: others are "
            "told that a choice was made, and its values are hidden from them).", choices=("all", "owner"),
            default="all"),
        Opt("simultaneous", "bool", "The seats choose together (a pass, an exchange, hidden bids): each without "
            "seeing the others' picks of this step. history holds only the seat's own, and with visible: all the "
            "choices are shown once everyone has chosen; the web table and the terminal ask every seat at once. "
            "Refused where a seat's choices or the step's end could depend on another seat's pick (repeat, "
            "passes, the values the step sets, another seat's zones its cards come from or go to).",
            default=False),
        Opt("auto", "bool", "A seat that has to take every option it has left (no pass) is not asked: its "
            "choices are made for it and not recorded.", default=False),
        Opt("narrate_pass", "bool", "Tell passes in the narration (default true).", default=True),
        Opt("domain", "constant", "Every value the options may ever hold, known before play (players, options, "
            "setup, deck): what gives each of the step's actions its fixed id in the public API and toolkits. "
            "Needed only for options that are lists or records; otherwise it is cards, seats, the options "
            "themselves when they are constant, the numbers 0 to the deck's size, or the texts of the options "
            "and of the cards' attributes. E.g. \"combinations(['red', 'blue', 'green'], 2)\"."),
    )

    def declare(self, ctx: StepContext, opts: Options) -> None:
        self.counted = opts.given("count")
        self.visible = opts.get("visible")
        start = list_of(VALUE) if self.counted else NONE  # refined by infer
        for key, declare in (("set", ctx.declare), ("set_chooser", ctx.declare), ("set_seat", ctx.declare_seat)):
            if opts.given(key):
                declare(opts.plain(key), SEAT if key == "set_chooser" else start, self.path + (key,))
                ctx.visibility[opts.plain(key)] = "all" if key == "set_chooser" else self.visible
        if opts.given("set_history"):
            ctx.declare(opts.plain("set_history"), NONE, self.path + ("set_history",))
            ctx.visibility[opts.plain("set_history")] = self.visible

    @staticmethod
    def _names(option: Type, final: bool = False) -> dict[str, Type]:
        """Every name an option of this step may bind, typed for options of type ``option`` (``final``: passes are
        final, and recorded in the history)."""
        return {"seat": SEAT, "picked": list_of(option), "passes": VALUE, "value": option,
                "history": list_of(ChooseReading._record(option, final))}

    @staticmethod
    def _record(option: Type, final: bool) -> Type:
        """The type of a record of the history: seat and value, and whether it is a pass when passes are final."""
        return record({"seat": SEAT, "value": option, "passed": TRUTH} if final else {"seat": SEAT, "value": option})

    def infer(self, ctx: StepContext) -> None:
        opts = self.reader(ctx)  # (its mistakes are reported when the step is built)
        final = bool(opts.get("pass_is_final"))
        options = opts.get("options", self._names(VALUE, final))
        if options is None:
            return
        element = options.type.element if options.type.kind == "list" and options.type.element else VALUE
        value = list_of(element) if self.counted else element
        if opts.given("set"):
            ctx.round_fields[opts.plain("set")] = value
        if opts.given("set_seat"):
            ctx.seat_fields[opts.plain("set_seat")] = value
        if opts.given("set_history"):
            ctx.round_fields[opts.plain("set_history")] = list_of(self._record(element, final))

    @property
    def label_expr(self) -> Compiled | None:
        """The label of a value (None: shown as people read it), held where the written code reads it."""
        return self.labels.label

    @label_expr.setter
    def label_expr(self, label: Compiled | None) -> None:
        self.labels.label = label

    def build(self, ctx: StepContext, opts: Options) -> None:
        self.who = opts.get("who")
        self.pass_final = bool(opts.get("pass_is_final"))
        first = opts.get("options", self._names(VALUE, self.pass_final))
        typed = first is not None and first.type.kind == "list"  # what the options are is known
        self.option_type = VALUE
        if first is not None and typed:
            self.option_type = first.type.element or VALUE
        elif first is not None:
            opts.mistake(f"options must be a list, found {first.type}", "options")
        names = self._names(self.option_type, self.pass_final)
        self.names = self.declared("options").bound_names(self.bound, names)  # what a policy sees, besides legal
        self.options_expr = opts.get("options", names) if typed else first
        self.allowed = opts.get("allowed", names, per="value")
        self.must = opts.get("must", names, per="value")
        self._tables(ctx, opts)
        self.count = opts.get("count", names, expect="number")
        self._count_fixed = None
        if self.count is not None and self.count.is_constant:
            k = self.count({})
            if not isinstance(k, int) or isinstance(k, bool):
                opts.mistake(f"count must be a whole number, got {k!r}", "count")
            self._count_fixed = k
        self._turns(ctx, opts, names)
        self.set_round = opts.plain("set")
        self.set_seat = opts.plain("set_seat")
        self.set_chooser = opts.plain("set_chooser")
        self.set_history = opts.plain("set_history")
        self.where = str(ctx.source.pos(self.path + ("repeat",) if self.repeat else self.path))
        self._moves(ctx, opts, typed)
        # judged value by value: a label that reads the value only through its attributes is kept by what else it
        # reads (the seat, the round): each value's Choice made once per key, see choose_labels.py
        label = opts.get("label", names, per="value")
        self.describe_expr = opts.get("describe", names)
        fixed = label is not None and label.deps <= {"ctx:value"}
        # when the label reads only the value, each value's Choice is made once (lists keyed as tuples)
        self._choices: dict[Any, Choice] | None = {} if fixed or label is None else None
        self.labels = ChoiceLabels(label, self.option_type, self._choices)  # what the written code is given
        self.domain = opts.get("domain")
        if self.domain is not None and not isinstance(self.domain, (list, tuple)):
            opts.mistake(f"domain must be a list, found {self.domain!r}", "domain")
        self.verb = opts.get("verb")
        self.simultaneous = bool(opts.get("simultaneous"))
        if self.pass_final and self.simultaneous:
            opts.mistake("pass_is_final needs seats that choose in turn, not simultaneous ones (a pass puts a seat "
                         "out of what comes after it)", "pass_is_final")
        self.auto = bool(opts.get("auto"))
        self.narrate_pass = bool(opts.get("narrate_pass"))
        if self.move_to is not None and not opts.given("visible"):
            zone_visible = (ctx.seat_zones | ctx.shared_zones)[self.move_to]
            self.visible = "all" if zone_visible == "all" else "owner"
        if self.simultaneous:
            given = {"options": self.options_expr, "allowed": self.allowed, "must": self.must, "count": self.count,
                     "may_pass": self.may_pass, "may_stop": self.may_stop, "label": label, "until": self.until}
            changed = Changed.of(self.options_expr, self.move_to is not None or self.swap, self.move_to,
                                 {n for n in (self.set_round, self.set_chooser, self.set_history) if n},
                                 {self.set_seat} if self.set_seat else set(),
                                 set(ctx.seat_zones) | set(ctx.shared_zones))
            for key, message in together_mistakes(changed, self.repeat, given):
                opts.mistake(message, key)

    def _tables(self, ctx: StepContext, opts: Options) -> None:
        """Card options judged only by the card and round values: looked up in card tables."""
        self._cards = self.option_type.kind == "card" and not opts.given("label")
        kinds = ctx.card_kinds
        self._allowed_table = self._table(self.allowed, kinds) if self.option_type.kind == "card" else None
        self._must_table = self._table(self.must, kinds) if self.option_type.kind == "card" else None
        # a batch is worth starting when a condition is judged option by option, or options call defines
        self._batch = ((self.allowed is not None and self._allowed_table is None)
                       or (self.must is not None and self._must_table is None) or bool(ctx.compiler.g.defines))

    def _turns(self, ctx: StepContext, opts: Options, names: dict[str, Type]) -> None:
        """How a seat's turn ends: passing, stopping, the choosing repeated until a condition holds."""
        self.pass_label = opts.get("pass")
        self.pass_action = Pass(self.pass_label) if self.pass_label is not None else None
        self.stop_label = opts.get("stop")
        self.stop_action = Stop(self.stop_label) if self.stop_label is not None else None
        if self.stop_label is not None and self.stop_label == self.pass_label:
            opts.mistake("stop and pass need different labels", "stop")
        self.may_stop = opts.get("may_stop", names)
        if opts.given("may_stop") and self.stop_label is None:
            opts.mistake("may_stop needs stop: the label of ending one's turn", "may_stop")
        self.may_pass = opts.get("may_pass", names)
        if opts.given("may_pass") and self.pass_label is None:
            opts.mistake("may_pass needs pass: the label of passing", "may_pass")
        self.repeat = bool(opts.get("repeat"))
        self.until = opts.get("until", names)
        if self.repeat and not opts.given("until") and not self.pass_final:
            opts.mistake("repeat needs until: the condition that ends the choosing", "repeat")
        if self.pass_final and self.pass_label is None:
            opts.mistake("pass_is_final needs pass: the label of passing", "pass_is_final")
        if self.pass_final and not self.repeat:
            opts.mistake("pass_is_final needs repeat: true (an auction goes round until one seat is left)",
                         "pass_is_final")

    def _moves(self, ctx: StepContext, opts: Options, typed: bool) -> None:
        """Where chosen cards go: a zone (move_to), or swapped, pair by pair; ``typed``: the options' type is
        known (else what it must be cannot be checked)."""
        self.move_to = opts.get("move_to")
        self.move_to_per_seat = self.move_to in ctx.seat_zones
        # where a card picked is looked for, when a card is its kind (runtime/moves.py): the places the options read
        # (none, or a card that may come from elsewhere: every zone)
        part = self.options_expr.part
        self.looks_in = tuple(sorted(places_read(part) or ())) if part is not None else ()
        self.swap = bool(opts.get("swap"))
        pairs = self.option_type.kind == "list" and self.option_type.element is not None \
            and self.option_type.element.kind == "card"
        # options are cards or pairs of cards, not both: with swap and move_to, one of the first two is refused
        if typed and self.move_to is not None and self.option_type.kind != "card":
            opts.mistake(f"move_to needs options that are cards, found {self.option_type}", "move_to")
        elif typed and self.swap and not pairs:
            opts.mistake(f"swap needs options that are pairs of cards, found {self.option_type}", "swap")
        elif self.swap and opts.given("move_to"):
            opts.mistake("a choice either swaps cards or moves them (move_to), not both", "swap")

    @staticmethod
    def _table(expr: Compiled | None, kinds: tuple[int, ...]) -> CardTable | None:
        if expr is None:
            return None
        table = CardTable([expr], kinds, as_bool, False, var="value")
        return table if table.static else None

    def check(self, game: GameView) -> list[RuleError]:
        labels = game.cards.labels
        self._card_choices = [Choice(c, labels[c]) for c in range(len(labels))]  # (the deck is known now)
        return []

    def policy_binds(self) -> dict[str, Type]:
        return dict(self.names, legal=list_of(self.option_type))

    def outer_values(self, state: State) -> dict[str, Any] | None:
        """The names an enclosing trick binds, as the written code takes them (None for a step of the round)."""
        return None if self.outer is None else self.outer(state)
