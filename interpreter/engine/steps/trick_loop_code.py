"""The playout loop of a ``tricks`` step (``playout`` in the code trick_code.py writes): the fragments a
:class:`~interpreter.engine.steps.trick_code.TrickWriter` writes for the checked path (``play``, ``resolve``,
``close``, ``new_trick``, ``route``, the seat's plays), placed in a loop of its own with the decisions of the steps the
trick runs (its hooks) and of its takers, without Decision objects, until the step needs the engine (see
trick_code.py's docstring)."""

from __future__ import annotations

from typing import Any

from interpreter.engine.faults import deciding, no_card
from interpreter.engine.steps.writer import Lines

# the writer of the trick's fragments, trick_code.TrickWriter (not imported: trick_code.py imports this module)
TrickWriter = Any


def write_playout(t: TrickWriter, w: Lines) -> None:
    """``play`` and ``actions`` in a loop: the decisions the seats take one after the other in this step,
    with those of the steps it runs between plays and after a trick (its hooks) and the takers' choices of
    cards among them. ``kind`` says what the decision in hand is: 0 a card to play, 1 a hook's, 2 a take."""
    hooks = bool(t.step.between or t.step.after)
    takes = not t.sole_taker
    w("p = state.progress")
    # (p.hook is set only by a step's hooks, p.taking only by several takers; the loop takes both)
    with w.block("if p.over:"):
        w("return 0")
    t.prologue(w)
    w("automatic = game.automatic", "d = state.pending", "seat, actions = d.actor, d.actions",
      "room = MAX_ACTIONS - state.actions_taken", "taken = 0")
    if t.shape.edges:
        w("followed = state.seen")
    if t.plays.cached_follow:
        w("answers = p.answers")
    if hooks or takes:
        w("kind = 1 if p.hook is not None else 2 if p.taking >= 0 else 0")
    if t.one_zone:  # the loop holds the cards a seat's plays play (see trick_plays_code.py's as_cards)
        t.plays.as_cards = True
        if hooks or takes:
            with w.block("if kind == 0:"):
                w("actions = [a.card for a in actions]")
        else:
            w("actions = [a.card for a in actions]")
    t.looping, t.plays.answers = True, "answers"
    if t.local_plays:  # the trick's plays in a local, kept as p.plays
        w("plays = p.plays")
        t.plays.trick = "plays"
    if t.hand_held:
        w("hand = hands[seat]")
    _loop(t, w, hooks, takes)
    t.looping, t.plays.trick, t.plays.answers, t.plays.as_cards = False, "p.plays", "p.answers", False
    w("state.actions_taken += taken", "game.rounds.go_on(state, step.decision(game, state, p))", "return taken")


def _loop(t: TrickWriter, w: Lines, hooks: bool, takes: bool) -> None:
    """The playout's loop (see ``write_playout``): a decision taken, then the next one found, until the engine is
    needed."""
    cards = t.one_zone  # a play is its card (see write_playout); the policy is shown the plays
    shown = None if not cards else "actions if kind else [PLAYS[c] for c in actions]" if hooks or takes \
        else "[PLAYS[c] for c in actions]"
    with w.block("while True:"):
        picked = "action" if hooks or takes or not cards else "card"
        w(f"{picked} = actions[{t.pick('seat', 'actions', shown)}]", "taken += 1")
        with w.block("if taken > room:"):
            w("state.actions_taken += taken", "game.rounds.too_long(step)")
        w("BUDGET[0] = WORK  # as apply_fast: the expressions' budget is per action")
        if hooks:
            with w.block("if kind == 1:"):
                t.hook_apply(w)
        if takes:
            with w.block(("elif" if hooks else "if") + " kind == 2:"):
                w("step.sharing.apply(game, state, p, action)")
        if hooks or takes:
            w("else:")
            w.depth += 1
        if not cards:
            w("card = action.card")
        elif hooks or takes:
            w("card = action")
        if not t.one_zone:
            w("zone = action.zone")
        t.play(w)
        if hooks or takes:
            w.depth -= 1
        if hooks:
            with w.block("if p.hook is not None:"):  # a hook's decision: the same loop takes it
                w("d = pending(game, state, p.hook)", "seat, actions = d.actor, d.actions", "kind = 1")
                with w.block("if seat in automatic:"):
                    w("break")
                w("continue")
        if takes:
            with w.block("if p.taking >= 0:"):  # a taker chooses cards of the trick
                w("d = step.sharing.decision(game, state, p)", "seat, actions = d.actor, d.actions", "kind = 2")
                with w.block("if seat in automatic:"):
                    w("break")
                w("continue")
        if hooks or takes:
            w("kind = 0")
        if t.stops_inside:
            with w.block("if p.over:"):
                w("break")
        w("seat = p.turn")
        if t.step.decided_by is None:
            with w.block("if seat in automatic:"):
                w("break")
        else:  # another seat may decide this one's card: it is the one asked
            w(f"actor = {t.ref(deciding)}(state, seat, DECIDED_BY)")
            with w.block("if actor in automatic:"):
                w("break")
        t.plays.actions(w)
        if t.may_stick:
            with w.block("if actions is None:"):
                w("break")
        with w.block("if not actions:"):  # as the checked path's decision says
            w(f"raise {t.ref(no_card)}({t.step.where!r}, NAMES[seat], {list(t.step.zones)!r})")
        if t.step.decided_by is not None:
            w("seat = actor")
