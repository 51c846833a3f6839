"""Shared helpers: load bundled games and put a state at a chosen point of a round."""

from __future__ import annotations

import functools
import gc
import os
import signal
import tempfile
from pathlib import Path

import pytest

# the suite keeps its own cache folder (parse tables, trees, generated code, valid digests), never the user's:
# started empty in every run, and the many small rule files of the tests leave nothing behind
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="trickbook-tests-")
os.environ.pop("TRICKBOOK_NO_CACHE", None)
# the Python engine unless a test chooses the compiled one (the compiled backend compiles a game for a second or more)
os.environ["TRICKBOOK_ENGINE"] = "python"

from interpreter.engine.compile import compile_game, supported_players
from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE, State
from interpreter.rules.loader import load_rules

from .snapshot import snapshot  # noqa: F401  (the tests import it from here)

# Python's collector less often: at its defaults it took about a fifth of the suite's CPU time (the tests make many
# short-lived objects, and every full collection went through the compiled games the test process keeps); the
# objects made by collecting the tests are set aside from it once collected (pytest_collection_finish)
gc.set_threshold(10_000, 10, 10)

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted((ROOT / "games").glob("*.yaml"))

# the default suite takes a fixed share of its two largest property checks (the golden records played again: one
# seed in ten; the values of every kind a declared option refuses: one in four); TRICKBOOK_SUITE=long takes all
# of them (docs/testing.md)
LONG = os.environ.get("TRICKBOOK_SUITE") == "long"


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


def one_in(n: int, i: int) -> bool:
    """Whether the default suite takes the ``i``-th case of a check it takes one case in ``n`` of (all with LONG)."""
    return LONG or i % n == 0


@functools.cache
def counts_of(path: Path | str) -> list[int]:
    """The player counts a rule file supports (read once a test process: many modules parametrize by them)."""
    return supported_players(load_rules(path))


def suite_counts(path: Path) -> list[int]:
    """The player counts of a bundled game that a check of every game and count takes: every one with LONG, else
    the fewest, 4 and the most (conformance and the golden records always take every count)."""
    counts = counts_of(path)
    return counts if LONG else sorted({counts[0], counts[-1]} | ({4} & set(counts)))


@pytest.fixture
def kept_folder(tmp_path, monkeypatch):
    """The compiled backend's folder of kept modules in an empty cache folder (llvmlite needed, else skipped)."""
    pytest.importorskip("llvmlite")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "trickbook" / "compiled"


@pytest.fixture(scope="session")
def sources():
    cache = {}

    def get(name: str):
        if name not in cache:
            cache[name] = load_rules(name)
        return cache[name]

    return get


# the long bundled games played shorter where a test plays whole games (the same rounds, fewer of them): a Skat
# series of 12 deals, Mü for 4 hands, Tichu to 500, Bridge for 4 boards, President for 2 deals, French Tarot for 1
# deal (72 cards played), Hearts to 50, Spades to 300, Schafkopf one deal by each player
SHORTER: dict[str, dict[str, object]] = {"skat": {"deals": 12}, "mue": {"hands": 4}, "mue-riogrande": {"hands": 4},
                                         "tichu": {"target": 500}, "bridge": {"boards": 4}, "president": {"deals": 2},
                                         "french-tarot": {"deals": 1}, "hearts": {"target": 50},
                                         "spades": {"target": 300}, "schafkopf": {"deals": 4}}


def game_of(name: str, players: int, **options) -> Game:
    """A bundled game compiled for a player count (once per test run: playing never changes a Game)."""
    return _compiled(name, players, tuple(sorted(options.items())))


@functools.cache
def _compiled(name: str, players: int, options: tuple[tuple[str, object], ...]) -> Game:
    return compile_game(load_rules(name), players, dict(options))


def card(game: Game, label: str, taken: set[int] | None = None) -> int:
    """A card id with this label (not yet in ``taken``)."""
    for c in game.deck:
        if game.cards.labels[c] == label and (taken is None or c not in taken):
            if taken is not None:
                taken.add(c)
            return c
    raise KeyError(label)


def play(game: Game, state: State, *labels: str) -> None:
    """Take the legal actions with these labels, one after another, through the checked path."""
    for label in labels:
        game.apply(state, game.action_for_label(state, label))


def random_decisions(game: Game, state: State, rng):
    """Each decision of ``state``'s game to its end, the chance events drawn from ``rng`` between them; the caller
    looks at each and applies one of its actions."""
    while not state.finished:
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
            continue
        yield d


def known_decisions(game: Game, rng, most: int):
    """Each decision of a random game of ``game`` (at most ``most`` deals and actions), with what its seat does not
    know (engine/samples.py's ``Unknown``, from a Knowledge that follows the game); the actions drawn from ``rng``."""
    from interpreter.engine.knowledge import Knowledge
    from interpreter.engine.samples import Unknown

    state = game.new_state()
    knowledge = Knowledge(game, state)
    for _ in range(most):
        if state.finished:
            return
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            yield d, Unknown(game, state, d.actor, knowledge)
            game.apply(state, d.actions[int(rng.random() * len(d.actions))])
        knowledge.update(state)


def failing_duel(folder: Path):
    """The docs' tiny duel, its score changed to divide by zero (the round's last card fails), loaded through the API
    for 2 players, dealt, three cards played: the next card played ends the round and fails."""
    import interpreter as tb

    duel = (ROOT / "docs" / "examples" / "tiny-duel.yaml").read_text(encoding="utf-8")
    failing = folder / "failing.yaml"
    failing.write_text(duel.replace("points: seat.tricks}", 'points: "seat.tricks // (seat.tricks - seat.tricks)"}'),
                       encoding="utf-8")
    game = tb.load(str(failing), players=2)
    state = game.new_state(1)
    state.apply_chance()
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    return game, state


def api_decisions(game, seeds):
    """Each decision of a game through the API (``game``: a loaded game) from each of ``seeds``, the deals drawn
    between them: the state and its pending engine decision; the caller applies an action."""
    for seed in seeds:
        state = game.new_state(seed=seed)
        while not state.is_over():
            if state.is_chance():
                state.apply_chance()
                continue
            yield state, state._state.pending


def take_random(game: Game, state: State, rng) -> None:
    """The pending decision taken: chance's outcome drawn from ``rng``, or one of the seat's actions picked by it."""
    d = state.pending
    if d.actor == CHANCE:
        game.apply_chance(state, game.sample_chance(state, rng))
    else:
        game.apply(state, d.actions[rng.randrange(len(d.actions))])


def names(game: Game, cards: list[int]) -> list[str]:
    """The labels of ``cards``, sorted."""
    return sorted(game.cards.labels[c] for c in cards)


def at_step(game: Game, step_name: str, hands: dict[int, list[str]], state: State | None = None,
            zones: dict[str, dict[int, list[str]] | list[str]] | None = None, **values) -> State:
    """A state whose round is at ``step_name`` with the given hands, other zones and round values.

    ``zones`` maps a per-seat zone to {seat: labels} and a shared zone to its labels, top first.

    Without ``state`` a fresh one (round 1); with it, that state's current round goes on from the step
    (its totals kept). Every zone not given is empty. Teams default to each seat alone; pass
    ``teams=[...]`` (team id per seat) to set them, ``game_values={...}`` for game values and
    ``seat_values={name: {seat: value}}`` for per-seat values.
    """
    if state is None:
        state = game.new_state()
    taken: set[int] = set()
    for zone in state.per_seat.values():
        for cards in zone:
            cards.clear()
    for zone in state.shared.values():
        zone.clear()
    for zname, content in {"hand": hands, **(zones or {})}.items():
        if isinstance(content, list):  # a shared zone: its cards, top first
            state.shared[zname][:] = [card(game, lab, taken) for lab in content]
            continue
        for seat, labels in content.items():
            state.per_seat[zname][seat] = [card(game, lab, taken) for lab in labels]
    if "dealer" in values:
        state.dealer = values["dealer"]
    teams = values.pop("teams", None)
    if teams is not None:
        state.teams = list(teams)
    game_values = values.pop("game_values", None)
    if game_values:
        state.game_vars.update(game_values)
    for name, per_seat in values.pop("seat_values", {}).items():  # {name: {seat: value}}
        for seat, value in per_seat.items():
            state.seat_vars[name][seat] = value
    state.vars.update(values)
    index = [s.name for s in game.steps].index(step_name)
    game.rounds.advance(state, game.rounds.enter(state, index))
    return state


def trick_progress(state: State):
    """The progress of the tricks step the state is in (plays so far, last trick, winner, takers)."""
    return state.progress


def terminal_sigint() -> None:
    """``preexec_fn`` of a child the tests press Ctrl-C at: started as a terminal starts a program, with SIGINT's
    default action (pytest-xdist's workers, and a script's background jobs, ignore it, and their children would
    inherit that: a program started with Ctrl-C ignored keeps ignoring it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

