"""The ids of the legal actions through the public API (api/actions.py): looked up in the table of each step's
actions seen so far (ActionSpace.table), the same ids the action space gives, and the space asked only for an
action the table lacks; and apply by id the quick way (no history followed), all or nothing as well."""

from __future__ import annotations

import random

import pytest

import interpreter as tb
from interpreter.engine.actions import ActionSpace

from .conftest import api_decisions, failing_duel


@pytest.mark.parametrize("name", ["hearts", "njet-riogrande", "meinz"])  # meinz: choices of lists (unhashable)
def test_legal_actions_are_the_ids_a_new_action_space_gives(name):
    game = tb.load(name, 4)
    fresh = ActionSpace(game.engine)  # nothing seen yet: every action found by its key
    rng = random.Random(3)
    steps = set()
    for state, d in api_decisions(game, (1, 2)):
        steps.add(d.step.name)
        legal = state.legal_actions()
        assert legal == fresh.ids(d.step, d.actions)
        assert state.legal_actions() == legal  # asked again: the same, kept for the decision
        state.apply(legal[rng.randrange(len(legal))])
    assert len(steps) >= 2  # several steps, each its own table


def test_the_action_space_is_asked_only_for_an_action_its_table_lacks(monkeypatch):
    game = tb.load("hearts", 4)
    space = game.actions
    asked: list[bool] = []
    ids = space.ids

    def counted(step, actions):
        table = space.table(step)
        asked.append(any(a not in table for a in actions))  # a miss: an action not seen before
        return ids(step, actions)

    monkeypatch.setattr(space, "ids", counted)
    rng = random.Random(5)
    decisions = 0
    for state, _ in api_decisions(game, range(3)):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        decisions += 1
    assert asked and all(asked)  # asked only on a miss
    assert len(asked) < decisions // 10  # most decisions answered by the table alone


def test_a_copied_state_looks_its_ids_up_as_the_original():
    game = tb.load("hearts", 4)
    state = game.new_state(seed=4)
    while state.is_chance():
        state.apply_chance()
    legal = state.legal_actions()
    other = state.clone()
    assert other.legal_actions() == legal
    other.apply(legal[-1])
    assert state.legal_actions() == legal and other.legal_actions() != legal


def test_an_action_that_fails_with_no_history_followed_leaves_the_state_as_it_was(tmp_path):
    """The quick way of apply (no history asked for, not a sample: nothing kept but the moves) is all or nothing as
    well: what the state shows after the failure is what it showed before, and the same action fails again."""
    _, state = failing_duel(tmp_path)

    def shown():
        return (state.current_player, state.legal_actions(), state.labels(), state.observation(None),
                [state.observation(s) for s in range(2)], state.returns())

    before = shown()
    assert state._writer is None and not state._sample  # the quick way
    for _ in range(2):
        with pytest.raises(tb.TrickbookError, match=r"failing\.yaml:\d+:\d+: error: .*division"):
            state.apply(state.legal_actions()[0])
        assert shown() == before


@pytest.mark.parametrize("name", ["hearts", "njet-riogrande", "meinz"])
def test_labels_are_the_step_words_labels_each_made_once(name):
    """The labels of the legal actions come from a table of each step's labels made so far (ActionSpace.labels):
    the same as the step's words give, the words asked once an action (a choice of a list: every time)."""
    game = tb.load(name, 4)
    space = game.actions
    made, seen = 0, set()
    rng = random.Random(9)
    for state, d in api_decisions(game, (1, 2)):
        before = sum(map(len, space._labels.values()))
        labels = state.labels()
        assert labels == [d.step.words.label(game.engine, a) for a in d.actions]
        made += sum(map(len, space._labels.values())) - before
        for a in d.actions:
            try:
                seen.add((d.step.name, a))
            except TypeError:  # a choice of a list: not kept
                pass
        state.apply(labels[rng.randrange(len(labels))])
    assert made == len(seen) > 0  # each label made once, kept in its step's table
