"""The code of a ``tricks`` step's play, written for each step from its parts: one source for the checked path
and for playouts.

Once a game is compiled a trick step's configuration is known: its zones, its play obligations, its ordering,
its takers and routes, its hooks. ``write`` writes Python functions specialised to it, each fragment written
once by a method of :class:`TrickWriter` and placed wherever it runs:

* ``start(state)``: the first leader and the seats that play (the step's ``start``);
* ``play(state, p, card, zone)``: the seat to play plays ``card`` (the step's ``apply``); after the last card
  of a trick the winner is found, the cards are taken, and the next trick begins (``resolve`` and ``close``
  below, written in place);
* ``actions(state, p, seat)``: the seat's legal plays (identical cards: one), or None when an
  ``otherwise: end`` rule leaves it none (the step's ``decision``; written by trick_plays_code.py's
  ``PlaysWriter``);
* ``close(state, p)``: after the cards are taken (also after a taker's choice or a hook): who leads next, and
  whether a trick can start (``new_trick``, also run when the step starts);
* ``playout(game, state, policy, random)``: for ``Game.playout``, the bodies of ``play`` and ``actions`` in a loop of
  its own, without Decision objects, until the step needs the engine (a hook's or a taker's decision, an
  automatic seat, an ``otherwise: end``, the end of trick play). What only the loop changes is kept in locals
  there (the trick's plays, its follow tables, the seat's cards; see ``local_plays``, ``hand_held``), each also
  written to the progress where it changes, so the state is whole wherever the loop leaves; a play from one zone
  is held there as the card it plays (trick_plays_code.py's ``as_cards``; a policy is still shown the plays), and
  the card is known to be in the hand it is taken from (trick_loop_code.py writes the loop around these
  fragments).

What only some tricks need (a second zone, seats that sit out, a claim, a ``led`` rule, hooks, routes, more
takers) is written only into the code of the tricks that have it; what is not worth writing out (takers after
the winner, orderings read per card) is a call of the step's own method. What
the checked path adds, narration and what a Knowledge is told, is written in too, behind a test of the
state (``state.notes``, ``state.seen``), so a playout with narration takes the same code.

The source is made only from the step's compiled parts, referred to by fixed names (see ``_globals``); no
rule text is pasted in. Its code object is kept with the game's expressions (dsl/codegen.py).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from interpreter.dsl.codegen import Namespace, local_name
from interpreter.engine.faults import bad_leader, bad_seats, deciding, no_card
from interpreter.engine.game_view import GameView
from interpreter.engine.state_shape import STATE_SHAPE, StateShape
from interpreter.engine.steps.steps_code import StepsWriter
from interpreter.engine.steps.trick_code_names import trick_globals, written_for_shapes
from interpreter.engine.steps.trick_loop_code import write_playout
from interpreter.engine.steps.trick_parts import ROUTE_FIELDS
from interpreter.engine.steps.trick_plays_code import PlaysWriter, look_up, rule_tables
from interpreter.engine.steps.trick_shares_code import SharesCode, write_shares
from interpreter.engine.steps.tricks import Tricks
from interpreter.engine.steps.writer import Lines, Part, Writer
from interpreter.plan.declaration import declared_in


class TrickCode(NamedTuple):
    """The functions written for one trick step (see the module's docstring)."""

    start: Any
    play: Any
    actions: Any
    close: Any
    new_trick: Any
    route: Any
    led_of: Any
    hook: Any
    enter_after: Any  # the steps after a trick, entered (when a taker's choice ends the trick's sharing)
    between_names: Any
    after_names: Any
    run: Any  # playout(game, state, policy, random): the step's loop for Game.playout
    decision: Any  # decision(state, p, o): the pending decision (the step's decision)
    apply: Any  # apply(state, p, action, o): the decision taken (the step's apply)
    shares: Any  # for a trick of several takers, what trick_takers.py reads and changes (see SharesCode)
    zone_index: Any  # zone_index(state, seat, card): the first zone the trick is played from holding it (-1: none)


def part(step: Tricks, game: GameView, gen: Namespace, shape: StateShape = STATE_SHAPE) -> Part:
    """The functions of ``step`` for ``game``; ``gen``: the namespace of the game's expressions (those written in
    place refer to its helpers); ``shape``: how the state is held (the playout loop, over today's only)."""
    if shape is not STATE_SHAPE:
        written_for_shapes(step)
    writer = TrickWriter(step, game, gen, shape)
    hooks = {name: value for hook in writer.hooks.values() for name, value in hook.globals().items()}
    return Part(writer.source(), {**trick_globals(step, game, shape), **hooks}, lambda f: TrickCode(
        f["start"], f["play"], f["actions"], f["close"], f["new_trick"], f["route"], f["led_of"], f.get("hook"),
        f.get("enter_AFTER"), f.get("between_names"), f.get("after_names"), f.get("playout"), f["decision"],
        f["apply"], SharesCode(f["trick_of"], f["won_of"], f["unclaimed_of"], f["take_from_trick"], f["later_best"],
                               f["takes_of"]) if "trick_of" in f else None, f["zone_index"]))


class TrickWriter(Writer):
    """Writes the functions of one trick step; each method writes one fragment (see the module's docstring)."""

    def __init__(self, step: Tricks, game: GameView, gen: Namespace, shape: StateShape = STATE_SHAPE):
        super().__init__(gen, shape)
        self.step = step
        self.players = game.players
        self.looping = False  # writing the playout loop (see hook_entry)
        # the steps run between plays and after a trick: their entering and advancing (see steps_code.py)
        self.hooks = {name: StepsWriter(name, steps, gen, game, self.name_sources(which), shape)
                      for name, which, steps in (("BETWEEN", "between", step.between), ("AFTER", "after", step.after))
                      if steps}
        self.one_zone = len(step.zones) == 1
        self.sole_taker = len(step.takers) == 1 and step.takers[0].takes is None
        self.plain_best = step.ordering.static and step.can_win is None
        self.plays = PlaysWriter(step, shape)  # a seat's legal plays (trick_plays_code.py)
        # a seat may have nothing to play: a rule with otherwise: end, or plays from several zones
        self.may_stick = not self.one_zone or any(r.end for r in step.lead_rules + step.follow_rules)
        # in the playout loop, trick play may end elsewhere than at the end of a trick (a hook, a taker's choice)
        self.stops_inside = bool(step.between or step.after) or not self.sole_taker

    def source(self) -> str:
        w = Lines()
        with w.block("def start(state, o):"):
            self.start(w)
        with w.block("def decision(state, p, o):"):
            self.decision(w)
        with w.block("def apply(state, p, action, o):"):
            self.apply(w)
        with w.block("def play(state, p, card, zone):"):
            self.prologue(w)
            self.play(w)
        with w.block("def actions(state, p, seat):"):
            self.prologue(w)
            self.plays.actions(w)
            w("return actions")
        with w.block("def close(state, p):"):
            self.prologue(w)
            self.close(w)
        with w.block("def new_trick(state, p):"):
            self.prologue(w)
            self.new_trick(w)
            w("return None")
        with w.block("def route(state, cards, taker, winner, default):"):
            self.route(w, "cards", "taker", "winner", "default")
            w("return None")
        with w.block("def led_of(state, plays):"):
            self.led_of(w)
        if not self.sole_taker:
            write_shares(w, self.step, self.shape, self.ref)
        with w.block("def zone_index(state, seat, card):"):  # (an automatic seat's policy names a card)
            self.prologue(w)
            if self.one_zone and self.step.active is None:  # (the prologue names every seat's cards of each zone)
                w("zones = (hands,)")
            with w.block("for z, cards in enumerate(zones):"):
                with w.block("if card in cards[seat]:"):
                    w("return z")
            w("return -1")
        if self.step.between or self.step.after:
            with w.block("def hook(game, state, p, action):"):
                self.prologue(w)
                self.hook_apply(w)
        for hook in self.hooks.values():
            hook.running(w)
        for which, steps in (("between", self.step.between), ("after", self.step.after)):
            if steps:
                with w.block(f"def {which}_names(state, p):"):
                    items = ", ".join(f"{name!r}: {src}" for name, src in self.name_sources(which).items())
                    w(f"return {{{items}}}")
        with w.block("def playout(game, state, policy, random):"):
            write_playout(self, w)
        return "\n".join(w.out) + "\n"

    # ------------------------------------------------------------------ fragments

    def start(self, w: Lines) -> None:
        """The trick play begins: the first leader, the seats that play (every seat unless ``seats`` says), and
        whether a trick can start."""
        step = self.step
        w("e = {'$s': state}")
        self.assign(w, "leader", step.leader, {}, "seat")
        w("p = T(leader)")
        if step.active is not None:
            self.assign(w, "active", step.active, {})
            w("active = sorted(set(active if isinstance(active, (list, tuple)) else [active]))")
            with w.block("if not all(isinstance(s, int) and 0 <= s < N for s in active) or leader not in active:"):
                w(f"raise {self.ref(bad_seats)}({str(step.active.position)!r}, active)")
            with w.block("if len(active) < N:"):
                w("p.active = active")
        w("new_trick(state, p)", "return p")

    def prologue(self, w: Lines) -> None:
        """The lists every fragment reads, looked up once per function (a state's zones are never replaced): every
        seat's cards of each zone the trick is played from (``zones``; ``hands``: of the first), the trick."""
        shape, step = self.shape, self.step
        if not self.one_zone or step.active is not None:
            w(f"zones = ({''.join(shape.seat_lists('state', z) + ', ' for z in step.zones)})", "hands = zones[0]")
        else:
            w(f"hands = {shape.seat_lists('state', step.zones[0])}")
        w(f"trick = {shape.zone('state', step.trick_zone)}")

    def decision(self, w: Lines) -> None:
        """The pending decision: a hook's, a taker's, or the seat to play's plays (None once trick play is over)."""
        step = self.step
        if step.between or step.after:  # a step the trick runs: its decision, found when it was entered or now
            with w.block("if p.hook is not None:"):
                w("r = p.hook", "d, r.d = r.d, None")
                with w.block("if d is None:"):
                    names = " if r.steps is BETWEEN else ".join(
                        f"{which}_names(state, p)" for which, steps in (("between", step.between),
                                                                        ("after", step.after)) if steps)
                    w("game = state.game", f"d = {self.shape.code_of('r.steps[r.index]', self.ref)}.decision("
                      f"state, r.p, {names})")
                with w.block("if d is not None:"):
                    w("return d")
        if not self.sole_taker:
            with w.block("if p.taking >= 0:"):
                w("return step.sharing.decision(state.game, state, p)")
        with w.block("if p.over:"):
            w("return None")
        self.prologue(w)
        w("seat = p.turn")
        self.plays.actions(w)
        if self.may_stick:
            with w.block("if actions is None:"):  # stuck: trick play ends
                w("p.over = True")
                if self.shape.edges:
                    w("state.note(NAMES[seat] + ' cannot play: trick play ends')")
                w("return None")
        with w.block("if not actions:"):
            w(f"raise {self.ref(no_card)}({step.where!r}, NAMES[seat], {list(step.zones)!r})")
        if step.decided_by is None:
            w(f"return {self.shape.decision('seat', 'actions', 'step', repr('play a card'), repr('play'))}")
            return
        w(f"actor = {self.ref(deciding)}(state, seat, DECIDED_BY)")
        prompt = "'play a card' if actor == seat else 'play a card for ' + NAMES[seat]"
        w(f"return {self.shape.decision('actor', 'actions', 'step', prompt, repr('play'))}")

    def apply(self, w: Lines) -> None:
        """The decision taken: a hook's, a taker's, or a card played."""
        if self.step.between or self.step.after:
            with w.block("if p.hook is not None:"):
                w("hook(state.game, state, p, action)", "return None")
        if not self.sole_taker:
            with w.block("if p.taking >= 0:"):
                w("step.sharing.apply(state.game, state, p, action)", "return None")
        w("play(state, p, action.card, action.zone)", "return None")

    def play(self, w: Lines) -> None:
        """The seat to play plays ``card`` from its ``zone``-th zone; then the next seat, or the trick's end."""
        step = self.step
        shape = self.shape
        if not self.looping or step.decided_by is not None:  # (in the loop, the seat to play is the one asked)
            w("seat = p.turn")
        if not self.local_plays:
            w("plays = p.plays")
        if shape.edges:  # (the playout loop reads state.seen once, as followed: nothing in it changes it)
            with w.block(f"if {'followed' if self.looping else 'state.seen'} is not None:"):  # what the card tells
                w("step.search.saw(state.game, state, p, seat, card)")
        # the card a play names: of identical cards in one zone, the last (as the plays offer them); in several
        # zones, the first of each zone
        # (in the loop, the card was taken from the plays made from the seat's cards: they hold it)
        if self.one_zone and not self.hand_held:
            w("hand = hands[seat]")
        w(shape.remove_card("hand", "card", True, self.ref, self.looping, step.zones[0]) if self.one_zone
          else shape.remove_card("zones[zone][seat]", "card", False, self.ref, self.looping))
        w("trick.append(card)", "plays.append((seat, card))")
        w("played = len(plays)")
        if self.plays.cached_follow:
            with w.block("if played == 1:"):  # the follow rules' tables of this trick, fixed once it is led
                tables = rule_tables("F", step.follow_rules)
                for name, local, table in tables:
                    look_up(w, local, name, table, "card", shape)
                w(f"p.answers = {'answers = ' if self.looping else ''}({', '.join(local for _, local, _ in tables)},)")
        if step.active is None:
            head, turn = "if played < N:", "p.turn = NEXT[seat]"
        else:
            w("active = p.active", "n = N if active is None else len(active)")
            head, turn = "if played < n:", \
                "p.turn = NEXT[seat] if active is None else active[(active.index(seat) + 1) % n]"
        with w.block(head):
            w(turn)
            if step.between:
                self.hook_entry(w, "BETWEEN")
        with w.block("else:"):
            self.resolve(w)
            if self.looping and not self.stops_inside:  # only the end of a trick ends trick play
                with w.block("if p.over:"):
                    w("break")

    def resolve(self, w: Lines) -> None:
        """After the last card: the winner, who takes the cards, and (unless a hook or a taker decides) the next
        trick."""
        step = self.step
        w("led = plays[0][1]" if step.led is None else "led = led_of(state, plays)")
        if step.won_by is not None:  # a claim, else the best card
            w("winner = WON_BY({'$s': state})", "claimed = winner is not None")
            with w.block("if winner is None:"):
                self.best(w)
        else:
            w("claimed = False")
            self.best(w)
        w("p.winner = winner", f"{self.shape.counter('state', step.counter, 'winner')} += 1")
        if not self.sole_taker:
            w("step.sharing.shares(state.game, state, p, plays, led, winner, claimed)")
            return
        w("p.takers = [winner]")
        if self.shape.edges:
            with w.block("if state.notes is not None:"):
                w("step.words.tell(state.game, state, p, plays, winner, claimed)")
        w("p.last = plays", "p.plays = []", "trick.clear()")
        w(f"won = {self.shape.seat_zone('state', step.won, 'winner')}")
        self.route(w, "plays", "winner", "winner", "won")
        if step.after:
            self.hook_entry(w, "AFTER")
            with w.block("if p.hook is None:"):
                self.close(w)
        else:
            self.close(w)

    @property
    def local_plays(self) -> bool:
        """Whether the code being written holds the trick's plays in the local ``plays`` (kept as ``p.plays``): in
        the playout loop of a step where nothing but the loop changes them (no hooks, no takers' choices)."""
        return self.looping and not self.stops_inside

    @property
    def hand_held(self) -> bool:
        """Whether the code being written has the cards of the seat to play in the local ``hand`` when it plays: in
        the playout loop of a step played from one zone, where the seat asked is the seat to play and only the loop
        finds the next decision (its plays were found from ``hand``)."""
        return self.local_plays and self.one_zone and self.step.decided_by is None

    def hook_entry(self, w: Lines, which: str) -> None:
        """The steps run ``which`` (BETWEEN plays, AFTER the trick) are entered: in the playout loop their
        decisions are taken there and then (``run_``, see steps_code.py); ``p.hook`` holds the step that waits for
        a decision, if any."""
        if self.looping:
            w(f"taken += run_{which}(game, state, p, 0, policy, random, room - taken)")
        else:
            w(f"p.hook = enter_{which}(state.game, state, p, 0)")

    def route(self, w: Lines, cards: str, taker: str, winner: str, default: str) -> None:
        """The ``(player, card)`` pairs of ``cards`` to the zone of the first route whose ``when`` holds (the
        taker's, for a per-seat zone), else to ``default``; each ``when`` written in place."""
        routes = self.step.routes
        if not routes:
            w(f"{default}.extend([c for _, c in {cards}])")
            return
        names = {name: local_name(name) for name in declared_in(ROUTE_FIELDS, "when").binds}
        assert set(names) == {"card", "player", "taker", "winner"}, "each name a route binds is given below"
        w("e = {'$s': state}", f"{names['taker']} = {taker}", f"{names['winner']} = {winner}")
        with w.block(f"for {names['player']}, {names['card']} in {cards}:"):
            for i, route in enumerate(routes):
                with w.block("try:"):
                    w(f"hit = {self.expr(route.when, names)}")
                with w.block("except RUNTIME_ERRORS as exc:"):
                    w(f"raise ROUTE_WHEN[{i}].failure(exc) from None")
                with w.block("if hit:"):
                    if route.owner is not None:  # a per-seat zone of the seat owner gives (checked to be a seat)
                        with w.block("try:"):
                            w(f"owner = {self.expr(route.owner, names)}")
                        with w.block("except RUNTIME_ERRORS as exc:"):
                            w(f"raise ROUTE_OWNER[{i}].failure(exc) from None")
                        with w.block(f"if not isinstance(owner, int) or not 0 <= owner < {self.players}:"):
                            w(f"raise ROUTE_NO_SEAT({str(route.owner.position)!r}, {route.zone!r}, owner)")
                    whose = "owner" if route.owner is not None else taker
                    zone = self.shape.seat_zone("state", route.zone, whose) if route.per_seat else \
                        self.shape.zone("state", route.zone)
                    w(f"{zone}.append({names['card']})", "continue")
            w(f"{default}.append({names['card']})")

    def led_of(self, w: Lines) -> None:
        """The card of ``plays`` that sets the suit: the first, or as the trick's ``led`` says (none before a
        card is played)."""
        with w.block("if not plays:"):
            w("return None")
        led = self.step.led
        if led is None:
            w("return plays[0][1]")
            return
        names = {name: local_name(name) for name in self.step.declared("led").binds}
        assert set(names) == {"trick"}, "each name led binds is given below"
        w("e = {'$s': state}", f"{names['trick']} = [c for _, c in plays]")
        with w.block("try:"):
            w(f"return {self.expr(led, names)}")
        with w.block("except RUNTIME_ERRORS as exc:"):
            w("raise LED.failure(exc) from None")

    def best(self, w: Lines) -> None:
        """``winner``: the seat of the best card by the trick's ordering (the leader when no seat may win)."""
        if not self.plain_best:
            w("winner = ORDERING.best(state, plays, led, CAN_WIN)")
            with w.block("if winner is None:"):
                w("winner = plays[0][0]")
            return
        better = "v >= best" if self.step.ordering.later_wins else "v > best"
        look_up(w, "values", "STRENGTHS", self.step.ordering.combined, "led", self.shape)
        w("best = None")
        with w.block("try:"):
            with w.block("for s, c in plays:"):
                w("v = values[c]")
                with w.block("if v is None:"):
                    w("v = FILL(values, state, led, c)")
                with w.block(f"if best is None or {better}:"):
                    w("best, winner = v, s")
        with w.block("except TypeError:"):
            w("ORDERING.best(state, plays, led)  # says which strengths cannot be compared", "raise")

    def close(self, w: Lines) -> None:
        """The trick is taken: the next leader (``next_leader`` in place, checked), and whether another trick
        starts."""
        step = self.step
        if step.next_leader is None:
            w("leader = p.winner")
        else:
            names = self.names("winner", "takers")
            w("e = {'$s': state}", f"{names['winner']} = p.winner", f"{names['takers']} = list(p.takers)")
            self.assign(w, "leader", step.next_leader, names, "seat")
            with w.block("if leader is None:"):
                w("leader = p.winner")
            with w.block("elif not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < N "
                         "or (p.active is not None and leader not in p.active):"):
                w(f"raise {self.ref(bad_leader)}({str(step.next_leader.position)!r}, leader)")
        w("p.plays = plays = []" if self.local_plays else "p.plays = []", "p.answers = None", "p.number += 1",
          "p.leader = p.turn = leader")
        self.new_trick(w)

    def new_trick(self, w: Lines) -> None:
        """Before a lead: per-trick values back to none; trick play ends when a seat that plays has no card."""
        for name in self.step.per_trick:
            w(f"{self.shape.round('state', name)} = None")
        if self.step.active is not None:
            with w.block("if p.active is not None:"):
                held = "map(hands.__getitem__, p.active)" if self.one_zone else \
                    "(any(cards[s] for cards in zones) for s in p.active)"
                with w.block(f"if not all({held}):"):
                    w("p.over = True")
            head = "elif "
        else:
            head = "if "
        with w.block(head + self._empty_hand()):
            w("p.over = True")

    def _empty_hand(self) -> str:
        """A seat has no card in any zone it plays from (each seat's zones taken together, by zip)."""
        if self.one_zone:
            return "not all(hands):"
        return "not all(map(any, zip(*zones))):"

    def hook_apply(self, w: Lines) -> None:
        """The decision of a step the trick runs (between plays, after the trick) is taken, and the next one of its
        steps found; once the steps after the trick are done, the next trick begins (as the step's checked
        ``apply`` does)."""
        w("hook = p.hook")
        lists = list(self.hooks)
        for which in lists:
            head = "" if len(lists) == 1 else ("if hook.steps is BETWEEN:" if which == "BETWEEN" else "else:")
            if head:
                w(head)
                w.depth += 1
            w(f"p.hook = advance_{which}(game, state, p, hook, action)")
            if which == "AFTER":
                with w.block("if p.hook is None:"):
                    self.close(w)
            if head:
                w.depth -= 1

    @staticmethod
    def name_sources(which: str) -> dict[str, str]:
        """The source of each name the steps run ``which`` (between plays, after the trick) see, from ``p``."""
        if which == "between":
            return {"player": "p.plays[-1][0] if p.plays else None", "trick": "[c for _, c in p.plays]",
                    "trick_seats": "[s for s, _ in p.plays]", "led": "led_of(state, p.plays)"}
        return {"winner": "p.winner", "takers": "list(p.takers)", "last_trick": "[c for _, c in p.last]",
                "trick_seats": "[s for s, _ in p.last]"}
