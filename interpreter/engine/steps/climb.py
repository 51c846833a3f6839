"""``climb``: climbing tricks: plays of several cards, each beating the one before.

The seat whose turn it is plays a combination (the rule file's ``combinations`` section) that beats the play on
top, picked card by card, or passes (not when leading, nor while an obligation binds). After each turn, plays of
the kinds ``out_of_turn`` names (bombs) may be made out of turn by any seat holding one, in playing order from
the next. When every other seat still holding cards has passed in a row since the top play, or after a play that
``ends_trick``, the trick is over: ``taker`` takes it, ``next_leader`` (or, out of cards, the next seat holding
some) leads the next. Seats out of cards are skipped and listed in ``round.out`` in the order they went out; the
round's play ends when ``until`` holds (by default when one seat or none holds cards).

The step says the turn once and the engine writes it as steps of the general kinds, run as a repeat: the turn
and the plays out of turn are ``choose`` steps (``may_stop``: a play is complete when its cards are a
combination), the bookkeeping ``set`` and ``move`` steps, and the rule file's own steps run at the named moments
(``before_turn``, ``after_play``, ``after_trick``). So the checked path, the playout loop, records, samples for
search and the public API's fixed action ids are those of every other choice; what each written expression
says is in ``turn_steps`` below, and ``explain`` shows the step as written.
"""

from __future__ import annotations

from typing import Any, ClassVar

from interpreter.dsl.names import Define
from interpreter.engine.steps.base import (
    COMMON,
    REGISTRY,
    Step,
    bind_nested,
    build_steps,
    declared,
    finish_steps,
    register,
)
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.engine.steps.repeat import Repeat
from interpreter.errors import Position
from interpreter.plan.declaration import Opt

# the moments the rule file's own steps run at, and the condition each adds to their when
HOOKS = {"before_turn": None, "after_play": "round.play != []", "after_trick": "round.trick_over or round.play_over"}


@register
class Climb(Repeat):
    kind = "climb"
    nested = False
    summary = ("Climbing tricks: each turn a play of several cards (the combinations section) that beats the one "
               "before, or a pass; the trick ends when every other seat holding cards has passed, and seats out "
               "of cards are skipped (the ladder and shedding games).")
    options: ClassVar[tuple[Opt, ...]] = COMMON + (
        Opt("table", "zone", "The shared zone the trick's plays lie in.", required=True),
        Opt("to", "zone", "Where a trick goes when it is over (a per-seat zone: the taker's).", required=True),
        Opt("hand", "zone", "The per-seat zone plays are made from (default hand).", default="hand"),
        Opt("leader", "seat", "Who leads the first trick (default the seat left of the dealer), e.g. "
            "\"first([s for s in seats if any(c.rank == 1 for c in s.hand)])\"."),
        Opt("must_include", "condition", "An obligation: while the seat can make a play that includes a card for "
            "which this holds, it must make such a play and may not pass (card and seat are bound), e.g. "
            "\"card.rank == round.wish\".", binds=("card", "seat")),
        Opt("ends_trick", "condition", "A play after which the trick is over at once (round.top is that play), "
            "e.g. \"round.top.kind == 'dog'\"."),
        Opt("out_of_turn", "constant", "The kinds of play any seat holding one may make out of turn, after any "
            "turn (in playing order from the next seat; the first such play ends the offers), e.g. [bomb]."),
        Opt("out_of_turn_step", "text", "The name of the decision to play out of turn (its records, policies and "
            "the label of playing; default: this step's name and _out_of_turn)."),
        Opt("out_of_turn_verb", "text", "The narration's verb of a play out of turn (default: plays out of turn).",
            default="play out of turn"),
        Opt("taker", "seat", "Who takes a trick that is over (default round.top_player, who made the top play).",),
        Opt("next_leader", "seat", "Who leads the next trick (default round.top_player); a seat out of cards "
            "passes the lead to the next seat holding some."),
        Opt("until", "condition", "Checked after each play: the round's play ends when it holds (default: one "
            "seat or none holds cards), e.g. \"len(round.out) >= 3\"."),
        Opt("pass", "text", "The label of passing (default pass).", default="pass"),
        Opt("stop", "text", "The label of playing the cards picked (default play).", default="play"),
        Opt("verb", "text", "The narration's verb of a play (default play).", default="play"),
        Opt("before_turn", "steps", "Steps run at the start of each turn (round.turn is the seat whose turn it "
            "is), e.g. a call before one's first play."),
        Opt("after_play", "steps", "Steps run after each play made in turn (round.play: its cards, round.top: "
            "what they are), e.g. a wish."),
        Opt("after_trick", "steps", "Steps run when a trick is over, before it is taken (round.top_player made "
            "the top play), e.g. choosing who takes it."),
    )

    def declare(self, ctx: StepContext, opts: Options) -> None:
        name = self.name
        if ctx.combinations is None:
            raise ctx.error("a climb step needs the combinations section: what a play of several cards is",
                            self.path)
        # its zones are checked here, each with what it is for (a zone written is read as written)
        said = {"table": opts.plain("table"), "hand": opts.plain("hand"), "to": opts.plain("to"),
                "pass": opts.plain("pass"), "stop": opts.plain("stop"), "verb": opts.plain("verb"),
                "out_of_turn_verb": opts.plain("out_of_turn_verb")}
        self._check_keys(ctx, opts, said)
        if opts.found:  # (the turn's steps are written from these keys: not with a mistake in them)
            return
        # its expressions are compiled as defines of their own (see _defines), so they are read as written
        written = {"leader": opts.plain("leader"), "ends_trick": opts.plain("ends_trick"), "taker": opts.plain("taker"),
                   "next_leader": opts.plain("next_leader"), "until": opts.plain("until"),
                   "must_include": opts.plain("must_include")}
        calls = self._defines(ctx, opts, {k: v for k, v in written.items() if v is not None}, said["hand"])
        # each written expression is checked to give what its key's declaration says (must_include's condition is
        # the filter of the define's list, a test already)
        self.checked = {k: c for k, c in calls.items() if k != "must_include"}
        generated = turn_steps(name, self.out_step, said, calls, self.out_kinds, said["to"] in ctx.seat_zones)
        where = self.path + ("(turn)",)
        ctx.source.generated[where] = generated
        own = {"before_turn": opts.plain("before_turn"), "after_play": opts.plain("after_play"),
               "after_trick": opts.plain("after_trick")}
        hooks = {h: build_steps(ctx, steps, self.path + (h,), True, inside="a climb") if steps else []
                 for h, steps in own.items()}
        self.inner = []
        self.guarded: list[tuple[Step, str]] = []  # the file's own steps and the moment they run at
        for sname, data in generated.items():
            if data is None:  # the rule file's own steps of a moment: "(HOOK)"
                hook = sname[1:-1]
                guard = HOOKS[hook]
                self.guarded += [(step, guard) for step in hooks[hook] if guard is not None]
                self.inner += hooks[hook]
                continue
            step = REGISTRY[data["do"]](sname, where + (sname,))
            step.where = str(ctx.source.key_pos(self.path))
            self.inner.append(declared(ctx, step))
        bind_nested(self.inner, {})
        self.counter = None

    def _check_keys(self, ctx: StepContext, opts: Options, said: dict[str, Any]) -> None:
        """Its zones, each of the kind it needs, and its plays out of turn, kinds of the combinations section:
        every mistake collected by ``opts``."""
        assert ctx.combinations is not None
        for zkey, zones in (("table", ctx.shared_zones), ("hand", ctx.seat_zones),
                            ("to", {**ctx.shared_zones, **ctx.seat_zones})):
            if said[zkey] not in zones:
                opts.mistake(f"{zkey} must name a zone of the kind it needs, not {said[zkey]!r} "
                             f"({', '.join(zones) or 'none'})", zkey)
        kinds = ctx.combinations.by_name
        out_of_turn = opts.plain("out_of_turn") or []
        self.out_kinds: list[str] = []
        if not isinstance(out_of_turn, list) or not all(isinstance(k, str) for k in out_of_turn):
            opts.mistake(f"out_of_turn must be a list of kinds of the combinations section, e.g. [bomb], not "
                         f"{out_of_turn!r}", "out_of_turn")
        else:
            self.out_kinds = list(out_of_turn)
        for k in self.out_kinds:
            if k not in kinds:
                opts.mistake(f"out_of_turn names {k!r}, which is not a kind of the combinations section "
                             f"({', '.join(kinds)})", "out_of_turn")
        self.out_step = opts.plain("out_of_turn_step") or f"{self.name}_out_of_turn"
        if self.out_kinds:
            if self.out_step in ctx.step_names:
                opts.mistake(f"two steps are named {self.out_step!r}; give out_of_turn_step another name",
                             "out_of_turn_step")
            else:
                ctx.step_names[self.out_step] = self.path + ("out_of_turn_step",)

    def _defines(self, ctx: StepContext, opts: Options, written: dict[str, Any], hand: str) -> dict[str, str]:
        """The rule file's expressions of this step as defines of their own, so that each is compiled at its own
        place in the file (its mistakes reported there) and the written steps call it by name (a name taken: the
        mistake collected, the key left out)."""
        defines = ctx.compiler.g.defines
        calls = {}
        for key, text in written.items():
            params, before, after = ((("seat",), f"[card for card in seat.{hand} if (", ")]")
                                     if key == "must_include" else ((), "", ""))
            dname = f"{key}__{self.name}".replace("-", "_")
            if dname in defines:
                opts.mistake(f"the define {dname!r} is taken by this climb step's {key}; choose another name for "
                             "the define", key)
                continue
            locate = ctx.source.locator(self.path + (key,))
            shift, here = len(before), ctx.source.pos(self.path + (key,))

            def shifted(offset: int, locate: Any = locate, shift: int = shift, here: Position = here) -> Position:
                return locate(offset - shift) if offset >= shift else here

            defines[dname] = Define(dname, params, before + str(text) + after, shifted)
            calls[key] = f"{dname}({', '.join(params)})"
        return calls

    def build(self, ctx: StepContext, opts: Options) -> None:
        for key, call in self.checked.items():
            ctx.compiler.compile(call, {}, ctx.source.locator(self.path + (key,)), self.declared(key).expects)
        self.times = None
        self.until = ctx.compiler.compile("round.play_over", {}, ctx.source.locator(self.path))
        for step, text in self.guarded:
            step.guard = ctx.compiler.compile(text, step.bound, ctx.source.locator(self.path))
        self.where = str(ctx.source.pos(self.path))
        finish_steps(ctx, self.inner)


def turn_steps(name: str, out_step: str, said: dict[str, Any], calls: dict[str, str], out_kinds: list[str],
               owned: bool) -> dict[str, Any]:
    """The steps one turn is written as (a hook's place as ``(HOOK)``: None), each expression in the words of the
    language: what the engine says about a climbing trick, once. ``said``: the step's plain keys, ``calls``: the
    calls of its expressions (defines)."""
    hand, table = said["hand"], said["table"]

    def active_after(seat: str) -> str:  # the next seat after ``seat`` that holds cards
        return f"first([t for t in seats_from(left({seat})) if len(t.{hand}) > 0])"

    must = calls.get("must_include")
    obliged = f", {must}" if must else ""
    kinds = repr(out_kinds)
    ends = f"(round.play != [] and {calls['ends_trick']})" if "ends_trick" in calls else "false"
    until = calls.get("until", f"len([s for s in seats if len(s.{hand}) > 0]) <= 1")
    leader = calls.get("leader", "left(round.dealer)")
    went_out = f"round.out + [s for s in seats_from(round.turn) if len(s.{hand}) == 0 and s not in round.out]"
    out: dict[str, Any] = {
        # who leads is seen by every seat (a leader that holds a card shows that it holds it: the rules say so)
        f"{name}_begin": {"do": "set", "when": "round.turn == none or round.play_over", "narrate": False,
                          "discloses": True, "round": {
            "turn": f"let l = {leader} in l if len(l.{hand}) > 0 else {active_after('l')}",
            "top": "none", "top_player": "none", "play": "[]", "out_of_turn": "[]", "out_of_turn_player": "none",
            "passes": 0, "out": f"[s for s in seats if len(s.{hand}) == 0]", "trick_over": False,
            "play_over": False}},
        "(before_turn)": None,
        name: {"do": "choose", "who": "round.turn", "options": f"seat.{hand}",
               "allowed": f"value in next_picks(picked, seat.{hand}, round.top{obliged})",
               "count": f"len(seat.{hand})", "stop": said["stop"],
               "may_stop": f"is_play(picked, seat.{hand}, round.top{obliged})",
               "pass": said["pass"],
               "may_pass": "round.top != none" + (f" and not must_play(seat.{hand}, round.top, {must})"
                                                  if must else ""),
               "set": "play", "verb": said["verb"]},
        f"{name}_judge": {"do": "set", "narrate": False, "round": {
            "top": "combination(round.play, round.top) if round.play != [] else round.top",
            "top_player": "round.turn if round.play != [] else round.top_player",
            "out_of_turn": "[]"}},
        f"{name}_lay": {"do": "move", "cards": "round.play", "to": table},
        "(after_play)": None,
        f"{name}_gone_out": {"do": "set", "narrate": False, "round": {"out": went_out, "play_over": until}},
    }
    if out_kinds:
        out[out_step] = {
            "do": "choose", "when": f"round.top != none and not round.play_over and not {ends}",
            "who": f"[s for s in seats_from(left(round.turn)) if len(s.{hand}) > 0]", "options": f"seat.{hand}",
            "allowed": f"value in next_picks(picked, seat.{hand}, round.top, [], {kinds})",
            "count": f"len(seat.{hand})", "stop": out_step,
            "may_stop": f"is_play(picked, seat.{hand}, round.top, [], {kinds})",
            "pass": f"no {out_step}", "narrate_pass": False, "until": "len(history) > 0",
            "set": "out_of_turn", "set_chooser": "out_of_turn_player", "verb": said["out_of_turn_verb"]}
        out[f"{out_step}_judge"] = {"do": "set", "when": "round.out_of_turn != []", "narrate": False, "round": {
            "top": "combination(round.out_of_turn, round.top)", "top_player": "round.out_of_turn_player"}}
        out[f"{out_step}_lay"] = {"do": "move", "when": "round.out_of_turn != []", "cards": "round.out_of_turn",
                                  "to": table}
    out[f"{name}_after"] = {"do": "set", "narrate": False, "round": {
        "out": went_out, "play_over": until,
        "passes": "0 if round.play != [] or round.out_of_turn != [] else round.passes + 1",
        "trick_over": f"{ends} or round.passes >= len([s for s in seats if len(s.{hand}) > 0 "
                      "and s != round.top_player])",
        "turn": f"{active_after('round.top_player')} if round.passes == 0 else {active_after('round.turn')}"}}
    out["(after_trick)"] = None
    out[f"{name}_take"] = {"do": "move", "when": "round.trick_over or round.play_over", "from": table,
                           "to": said["to"]}
    if owned:
        out[f"{name}_take"]["owner"] = calls.get("taker", "round.top_player")
    out[f"{name}_next"] = {"do": "set", "when": "round.trick_over and not round.play_over", "narrate": False,
                           "discloses": True,
                           "round": {"turn": f"let l = {calls.get('next_leader', 'round.top_player')} in "
                                             f"l if len(l.{hand}) > 0 else {active_after('l')}",
                                     "top": "none", "passes": 0, "trick_over": False}}
    return out

