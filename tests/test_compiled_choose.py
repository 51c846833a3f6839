"""The compiled backend's choose template (interpreter/compiled/choose_template.py) in lockstep with the Python
backend: every choose step of the bundled games that the template writes, at the fewest players and at 4, entered on
both from states of random games (where the game plays it, and elsewhere where the Python backend can enter it) and
played to its end with the same actions (tests/compiled_steps.py); what it does not write is said."""

from __future__ import annotations

import random

import numpy as np
import pytest

from interpreter.compiled.choose_template import PASS, STOP
from interpreter.compiled.steps import DECIDES
from interpreter.compiled.values import INTERNED, NotWritten
from interpreter.engine.steps.action_types import Choice, Pass

from .compiled_steps import StepOnBoth, compiled_or_skip, short_list
from .conftest import ROOT, game_of

# the bundled games with choose steps, at their fewest players
FEWEST = {"belote": 4, "bridge": 4, "doppelkopf": 4, "euchre": 4, "french-tarot": 4, "hearts": 4, "meinz": 3,
          "mit-list-und-tuecke": 4, "mue-riogrande": 4, "mue": 3, "njet-goldsieber": 3, "njet-riogrande": 2,
          "oh-hell": 3, "president": 4, "schafkopf": 4, "skat": 3, "spades": 4, "tichu": 4, "was-sticht": 3}

# what the template does not write yet, by step (the Python backend plays those)
NOT_WRITTEN = {"announce_next": "names an enclosing trick binds",
               "announce_lead": "names an enclosing trick binds", "meinz": "names an enclosing trick binds",
               "exchange": "names an enclosing trick binds", "keep": "names an enclosing trick binds"}
# (no vice at 3 players: the step never runs; a moon shot is rare in random play: see the test of auto below)
NEVER_PLAYED = {("mue", 3, "vice_trump"), ("hearts", 4, "moon")}


def _steps() -> list[tuple[str, int, str]]:
    out = []
    for name, fewest in FEWEST.items():
        for players in sorted({fewest, 4}):
            for step in game_of(name, players).every_step():
                if step.kind == "choose":
                    out.append((name, players, step.name))
    return out


STEPS = _steps()


def _not_written(name: str, step: str) -> str | None:
    return NOT_WRITTEN.get(f"{step}@{name}", NOT_WRITTEN.get(step))


WRITTEN = [case for case in STEPS if _not_written(case[0], case[2]) is None]


@pytest.mark.parametrize(("name", "players", "step"), short_list(WRITTEN))
def test_choices_agree_with_the_python_backend(name, players, step):
    both = StepOnBoth(name, players, step, kind="choose")
    rng = random.Random(5)
    states = (both.states(rng, 3, every=1, where=both.at_step, games=3)
              + both.states(rng, 3, every=7, where=both.enterable, games=2))
    taken = [both.lockstep(state, rng) for state in states]
    entered = [t for t in taken if t is not None]
    assert entered or (name, players, step) in NEVER_PLAYED, taken


@pytest.mark.parametrize(("name", "players", "step"), [c for c in STEPS if c not in WRITTEN])
def test_what_the_template_does_not_write_is_said(name, players, step):
    with pytest.raises(NotWritten, match=_not_written(name, step)):
        StepOnBoth(name, players, step, kind="choose")


@pytest.mark.parametrize(("moon", "asked"), [("shooter chooses", 1), ("others +26", 0)])
def test_a_seat_with_one_choice_is_not_asked_with_auto(moon, asked):
    """Hearts' moon (auto): the shooter chooses when the rule lets it, else its one choice is made for it."""
    both = StepOnBoth("hearts", 4, "moon", moon=moon)
    rng = random.Random(2)
    (state,) = both.states(rng, 1, every=9)
    state.vars["shooter"] = 2
    assert both.lockstep(state, rng) == asked  # (the value set compared on both after the step)


def test_actions_are_values_kinds_and_a_pass():
    """A choice of values acts with the values as numbers, a choice of cards with their kinds (identical cards
    alike), a pass with PASS."""
    both = StepOnBoth("skat", 3, "middlehand_bids", kind="choose")
    assert both.code.action_of(Pass("pass")) == PASS
    assert both.code.action_of(Choice(18, "18")) == 18
    cards = StepOnBoth("njet-riogrande", 4, "discard", kind="choose")
    kinds = cards.game.cards.kinds
    twins = [c for c in cards.game.deck if kinds[c] != c]
    assert twins and all(cards.code.action_of(Choice(c, "")) == kinds[c] for c in twins)


TURNS = str(ROOT / "tests" / "data" / "choose-turns.yaml")  # stops, a pass one seat may not make, lists set per seat
LISTS = str(ROOT / "tests" / "data" / "choose-lists.yaml")  # options that are lists: pairs swapped, combinations


def test_turns_of_several_picks_agree_with_the_python_backend():
    """What no bundled choice the template writes uses: a turn of picks ended by a stop when may_stop allows it, a
    pass that may_pass refuses the dealer, the picks set per seat as lists, repeat until everyone passes."""
    both = StepOnBoth(TURNS, 3, "reveal")
    taken: list[int] = []
    both.code.action_of = _noting(both.code.action_of, taken)
    rng = random.Random(5)
    states = (both.states(rng, 4, every=1, where=both.at_step, games=4)
              + both.states(rng, 4, every=3, where=both.enterable, games=3))
    assert all(both.lockstep(state, rng) is not None for state in states)
    assert taken.count(PASS) > 0 and taken.count(STOP) > 0 and len(taken) > 50, taken  # (each action offered)


def _noting(action_of, taken: list[int]):
    """``action_of``, noting each action it is asked for (every action offered, in the lockstep)."""
    def noted(action):
        taken.append(action_of(action))
        return taken[-1]
    return noted


def test_compiled_compiles_the_choose_template():
    compiled_or_skip(everywhere=True)
    both = StepOnBoth("njet-riogrande", 4, "discard", compiled=True)  # (a count worked out, must, cards moved)
    rng = random.Random(3)
    (state,) = both.states(rng, 1, every=1, where=both.at_step)
    assert both.lockstep(state, rng)


def test_legal_actions_are_written_as_far_as_out_holds():
    """Skat's bids are more than a row of its arrays holds: all of them given to an array that holds them, the
    first of them to a shorter one (never past its end)."""
    both = StepOnBoth("skat", 3, "middlehand_bids", kind="choose")
    (state,) = both.states(random.Random(5), 1, every=1, where=both.at_step)
    arrays, p, module = both.arrays(state), np.zeros(both.code.size, np.int64), both.module()
    assert module.s_start(*arrays, p) == DECIDES
    full, short = np.empty(100, np.int64), np.empty(3, np.int64)
    n = module.s_legal(*arrays, p, full)
    assert n > both.lay.capacity and full[0] == PASS
    assert module.s_legal(*arrays, p, short) == 3 and short.tolist() == full[:3].tolist()


@pytest.mark.parametrize(("name", "players", "history"), [("bridge", 4, "calls"), ("mue", 4, "reveals")])
def test_a_history_set_is_the_python_backends_at_every_pick(name, players, history):
    """set_history: every pick of the auction as a record of its seat and its value (a call; a card, as its kind),
    compared as a list row after each action; Bridge's contract, read from it by the next step, worked out alike."""
    game = game_of(name, players)
    after = [s for s in game.every_step() if s.name == "contract"]  # (what reads the calls: Bridge's next step)
    reads = [e for s in after for e in (s.when, *(expr for _, _, expr in s.assign)) if f"round:{history}" in e.deps]
    both = StepOnBoth(game, players, "auction", reads=reads)
    row = both.lay.list_of("round", history)
    rng = random.Random(4)
    longest = 0
    for state in both.states(rng, 4, every=1, where=both.at_step, games=4):
        assert both.lockstep(state, rng) is not None
        longest = max(longest, int(both._last.ln[row]))  # (the arrays of the Python backend's state, compared)
    assert longest >= 3
    assert all(both.read_counts), both.read_counts


def test_the_dealer_may_not_bid_what_the_history_adds_up_to():
    """Oh Hell's hook reads the history: the dealer, bidding last, may not bid what makes the bids add up to the
    cards in hand; every other seat may bid anything from 0 to them."""
    both = StepOnBoth("oh-hell", 4, "bids")
    (state,) = both.states(random.Random(6), 1, every=1, where=both.at_step)
    arrays, p, module = both.arrays(state), np.zeros(both.code.size, np.int64), both.module()
    assert module.s_start(*arrays, p) == DECIDES
    hand = both.lay.layout.zone_slot("hand", 0)
    out, bids = np.empty(64, np.int64), []
    for turn in range(4):
        n = module.s_legal(*arrays, p, out)
        cards = int(arrays.zn[hand + p[0]])
        if turn < 3:
            assert sorted(out[:n].tolist()) == list(range(cards + 1))
            bids.append(min(1, cards))
            module.s_apply(*arrays, p, bids[-1])
        else:
            assert p[0] == state.dealer
            assert sorted(out[:n].tolist()) == [b for b in range(cards + 1) if sum(bids) + b != cards]


def test_a_record_of_a_value_outside_the_domain_is_none():
    """The records of a history are interned for every seat and every value of the step's domain, as it is written;
    a value outside it (which has no action id either) is recorded as none."""
    from interpreter.compiled.values import NONE

    both = StepOnBoth("bridge", 4, "auction")
    module, values = both.module(), both.values
    assert module.s_record(2, values.encode("1C")) == values.encode({"seat": 2, "value": "1C"})
    assert module.s_record(1, values.encode("redouble")) == values.encode({"seat": 1, "value": "redouble"})
    assert module.s_record(1, values.encode("no such call")) == NONE


def test_compiled_compiles_a_history():
    """A history kept, read by the options and set as a round value, compiled (Bridge's auction)."""
    compiled_or_skip(everywhere=True)
    both = StepOnBoth("bridge", 4, "auction", compiled=True)
    rng = random.Random(3)
    (state,) = both.states(rng, 1, every=1, where=both.at_step)
    assert both.lockstep(state, rng)


@pytest.mark.parametrize("step", ["swap", "keep"])
def test_choices_of_lists_agree_with_the_python_backend(step):
    """Options that are lists, outside a trick: pairs of cards made in play and swapped (the pair set as a round
    value), two suits among the combinations of the suits held (texts sorted, found among the step's domain; set
    per seat). The action is the list's interned number (values.py), as the Python backend's Choice of that list."""
    both = StepOnBoth(LISTS, 3, step)
    taken: list[int] = []
    both.code.action_of = _noting(both.code.action_of, taken)
    rng = random.Random(7)
    states = both.states(rng, 4, every=1, where=both.at_step, games=4)
    assert states and all(both.lockstep(state, rng) for state in states)
    lists = [a for a in taken if a not in (PASS, STOP)]
    assert lists and all(both.values.interned[a - INTERNED] is not None for a in lists)
    assert all(isinstance(both.values.interned[a - INTERNED], list) for a in lists)


def test_a_swap_changes_the_places_of_the_pairs_cards():
    """The pair's first card goes where the second was and the second where the first was (a hand card for a card
    of the open stock), on the compiled backend alone, read from the arrays."""
    both = StepOnBoth(LISTS, 3, "swap")
    (state,) = both.states(random.Random(2), 1, every=1, where=both.at_step)
    arrays, p, module = both.arrays(state), np.zeros(both.code.size, np.int64), both.module()
    assert module.s_start(*arrays, p) == DECIDES
    out = np.empty(64, np.int64)
    n = module.s_legal(*arrays, p, out)
    pair = next(int(a) for a in out[:n] if a != PASS)
    h, c = both.values.interned[pair - INTERNED]
    seat, hand, stock = int(p[0]), both.lay.layout.zone_slot("hand", 0), both.lay.layout.zone_slot("stock")
    module.s_apply(*arrays, p, pair)
    held, open_ = arrays.z[hand + seat, :arrays.zn[hand + seat]].tolist(), arrays.z[stock, :arrays.zn[stock]].tolist()
    assert c in held and h not in held and h in open_ and c not in open_


FINAL = str(ROOT / "docs" / "examples" / "auction.yaml")  # a pass is final: the seats out, the passes in history


@pytest.mark.parametrize("players", [3, 4])
def test_an_auction_where_a_pass_is_final_agrees_with_the_python_backend(players):
    """pass_is_final: a seat that passed is not asked again, its pass kept in the history (set as a round value and
    compared after each action), the step over when one bidder is left or all passed, the declarer none then."""
    both = StepOnBoth(FINAL, players, "auction")
    taken: list[int] = []
    both.code.action_of = _noting(both.code.action_of, taken)
    rng = random.Random(5)
    states = both.states(rng, 6, every=1, where=both.at_step, games=8)
    played = [both.lockstep(state, rng) for state in states]
    assert all(n is not None for n in played) and sum(played) > 10
    assert taken.count(PASS) > 5 and len(taken) > len(states) * 2, taken
