"""The code written for a trick step (engine/steps/trick_code.py): one source for the checked path and playouts,
with only the parts the trick has."""

from __future__ import annotations

import random
import textwrap

from interpreter.engine.state import CHANCE

from .conftest import game_of
from .test_playout import TRICK_VARIANTS
from .test_steps import DEAL_3, TRICKS, make


def _functions(source: str) -> dict[str, str]:
    """Each written function's body, dedented, by name."""
    out: dict[str, list[str]] = {}
    name = ""
    for line in source.splitlines():
        if line.startswith("def "):
            name = line[4:line.index("(")]
            out[name] = []
        else:
            out[name].append(line)
    return {k: textwrap.dedent("\n".join(v)) for k, v in out.items()}


def test_the_playout_loop_runs_the_very_code_of_play_and_actions():
    """Written once, placed twice: the loop holds the bodies of ``play`` and of ``actions`` line for line; only the
    entering of a trick's hooks is placed as the loop takes it (their decisions taken there and then: run_)."""
    import re

    for name in ("njet-riogrande", "hearts", "mit-list-und-tuecke", "meinz"):
        step = next(s for s in game_of(name, 4).steps if s.kind == "tricks")
        functions = _functions(game_of(name, 4).module().source_of(step))
        loop = "\n".join(re.sub(r"taken \+= run_(\w+)\(game, state, p, 0, policy, random, room - taken\)",
                                r"p.hook = enter_\1(state.game, state, p, 0)", line.strip())
                         for line in functions["playout"].splitlines())
        prologue = ["hands = state.per_seat[Z0]", "trick = state.shared[TRICK]"]  # looked up once per function
        for part in ("play", "actions"):
            body = [line.strip() for line in functions[part].splitlines() if line.strip() != "return actions"]
            assert body[:2] == prologue and "\n".join(prologue) in loop
            assert "\n".join(body[2:]) in loop, (name, part)


def test_a_trick_s_code_has_only_the_parts_it_has(tmp_path):
    game = make(tmp_path, DEAL_3, TRICKS)
    plain = game.steps[1]
    source = game.module().source_of(plain)
    for absent in ("enter_BETWEEN(", "enter_AFTER(", "def hook(", "ROUTE_", "WON_BY", "ZONES[zone]", "p.active",
                   "step._allowed", "step._shares",
                   "PER_TRICK", "step._led", "ORDERING.best(state, plays, led, CAN_WIN)"):
        assert absent not in source, absent
    game = make(tmp_path, DEAL_3, TRICKS + "  " + "\n  ".join(
        [TRICK_VARIANTS["claim"], TRICK_VARIANTS["route"], TRICK_VARIANTS["between plays"]]) + "\n",
        zones="out: {visible: all}")
    claim = game.steps[1]
    source = game.module().source_of(claim)
    for present in ("enter_BETWEEN(state.game, state, p, 0)", "def hook(game, state, p, action):",
                    "state.shared[ROUTE_TO[0]].append(_v_card)",
                    "WON_BY({'$s': state})"):
        assert present in source, present


def test_a_route_that_fails_in_play_names_its_expression_and_line(tmp_path):
    """Written in place, a route's ``when`` still fails as every expression does: the file, the line and the
    expression, in the words of the rules."""
    import pytest

    from interpreter.dsl.compiler import ExpressionFailed

    game = make(tmp_path, DEAL_3, TRICKS + '  route: [{when: "1 // (card.rank - card.rank) == 0", to: out}]\n',
                zones="out: {visible: all}")
    state, rng = game.new_state(), random.Random(1)
    with pytest.raises(ExpressionFailed) as failed:
        while True:
            if state.pending.actor == CHANCE:
                game.apply_chance(state, game.sample_chance(state, rng))
            else:
                game.apply(state, game.legal_actions(state)[0])
    message = str(failed.value)
    assert message.startswith(f"{tmp_path / 'tiny.yaml'}:") and ":error: expression " not in message
    assert "error: expression '1 // (card.rank - card.rank) == 0' failed: integer division or modulo by zero" in message


def test_a_follow_rule_reading_a_value_a_step_between_plays_sets_reads_it_as_it_is_now(tmp_path):
    """The follow rules' tables are kept for a trick once it is led only when nothing between plays can change
    what they read: here the rank of the card just played is wild for the next seat, so every seat's legal cards
    are those the rule gives with the value as it is when the seat plays (the trick's first table was kept for
    the whole trick before, and the seats after the second followed the first card's value)."""
    tricks = TRICKS + ('  follow: "card.suit == led.suit or card.rank == round.wild"\n'
                       '  between_plays: {wild: {do: set, round: {wild: "last(trick).rank"}}}\n')
    game = make(tmp_path, DEAL_3, tricks, game="rounds: 3")
    labels = game.cards.labels
    rng, checked = random.Random(7), 0
    state = game.new_state()
    while not state.finished:
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
            continue
        p = state.progress
        if p.plays:
            hand = state.per_seat["hand"][d.actor]
            led, wild = labels[p.plays[0][1]], state.vars["wild"]
            want = [c for c in hand if labels[c][0] == led[0] or int(labels[c][1]) == wild] or hand
            assert sorted(a.card for a in d.actions) == sorted(want)
            checked += 1
        game.apply(state, rng.choice(d.actions))
    assert checked > 10
