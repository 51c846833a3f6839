"""Playing one game: agents act, chance is drawn from a seeded source, events are recorded.

The same game, seed and agents always give the same record: chance uses its
own ``random.Random(seed)``, and each random agent is seeded from the game seed
and its seat.
"""

from __future__ import annotations

import contextlib
import random
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.engine.game import Game
from interpreter.engine.knowledge import Knowledge
from interpreter.engine.observation import held as held_cards
from interpreter.engine.observation import received
from interpreter.engine.state import CHANCE, State
from interpreter.errors import TrickbookError
from interpreter.harness.agents import Agent, RandomAgent, Turn

if TYPE_CHECKING:
    from interpreter.harness.deal_files import FixedDeal

RECORD_FORMAT = "trickbook-record"
RECORD_VERSION = 1


@dataclass
class Outcome:
    totals: list[int]
    winners: list[int]
    rounds: int
    round_results: list[list[int]]
    record: list[dict[str, Any]] = field(default_factory=list)


def random_agents(game: Game, seed: Any) -> list[Agent]:
    return [RandomAgent(f"{seed}:{s}") for s in range(game.players)]


def header(game: Game, seed: Any, rules_file: str | None = None) -> dict[str, Any]:
    h: dict[str, Any] = {
        "type": "game", "format": RECORD_FORMAT, "version": RECORD_VERSION,
        "rules": game.name, "rules_id": game.identity, "players": game.player_count,
        "seats": list(game.seat_names), "options": dict(game.options),
    }
    if rules_file:
        h["rules_file"] = rules_file
    if seed is not None:
        h["seed"] = seed
    return h


def start_entry(game: Game, state: State, hand: int = 1, dealer: int | None = None,
                totals: list[int] | None = None) -> dict[str, Any] | None:
    """The header's ``start`` of a game picked up at round ``hand`` (``state`` just made by ``Game.new_state`` with
    these arguments), or None for a game from its start (docs/records.md)."""
    if hand == 1 and dealer is None and totals is None:
        return None
    names = game.seat_names
    return {"hand": hand, "dealer": names[state.dealer], "totals": dict(zip(names, state.totals))}


def round_event(game: Game, state: State, n: int, first: int = 1) -> dict[str, Any]:
    """The ``n``-th round played has just been scored (the state may already be in the next round); ``first``:
    the number of the round the game was picked up at (see ``Game.new_state``)."""
    names = game.seat_names
    return {"type": "round", "round": n + first - 1,
            "scores": dict(zip(names, state.round_results[n - 1])), "totals": dict(zip(names, state.totals))}


def result_event(game: Game, state: State) -> dict[str, Any]:
    names = game.seat_names
    return {"type": "result", "rounds": state.round_number, "totals": dict(zip(names, state.totals)),
            "winners": [names[s] for s in game.winners(state)]}


def play_game(game: Game, agents: Sequence[Agent] | None = None, seed: Any = 0, *, record: bool = False,
              rules_file: str | None = None, narrate: Callable[[str], None] | None = None,
              after_each: Callable[[State], None] | None = None, viewer: int | None = None,
              round_values: list[dict[str, Any]] | None = None, deal: FixedDeal | None = None,
              events: list[dict[str, Any]] | None = None) -> Outcome:
    """Play one full game. With ``record`` the outcome holds the JSON Lines events.

    ``deal``: a start read from a deal file (deal_files.py): the game starts at its round with its dealer, and its
    first deal gives the hands written there.
    ``round_values``: a list that gets the round values of each round as it ended.
    ``after_each`` is called with the state after every action and chance event (for checks).
    ``viewer``: the seat the account is told to; what that seat may not see is not narrated.
    ``events``: with ``record``, the list the events are written to as the game goes, so that a game stopped by
    an error (or Ctrl-C) leaves its record so far there.

    When the game is over each agent's ``game_over()`` is called, when it stops on an error or an interrupt its
    ``stop()`` (where it has them: an agent of your own ends its processes then, harness/remote.py).
    """
    agents = list(agents) if agents is not None else random_agents(game, seed)
    try:
        out = _play_game(game, agents, seed, record=record, rules_file=rules_file, narrate=narrate,
                         after_each=after_each, viewer=viewer, round_values=round_values, deal=deal,
                         events=[] if events is None else events)
    except BaseException:
        _agents_call(agents, "stop")
        raise
    _agents_call(agents, "game_over")
    return out


def _agents_call(agents: list[Agent], method: str) -> None:
    for agent in agents:
        call = getattr(agent, method, None)
        if call is not None:
            call()


def _play_game(game: Game, agents: list[Agent], seed: Any, *, record: bool, rules_file: str | None,
               narrate: Callable[[str], None] | None, after_each: Callable[[State], None] | None,
               viewer: int | None, round_values: list[dict[str, Any]] | None, deal: FixedDeal | None,
               events: list[dict[str, Any]]) -> Outcome:
    rng = random.Random(seed)
    first = 1 if deal is None else deal.hand
    state = game.new_state(first, None if deal is None else deal.dealer)
    start = None if deal is None else start_entry(game, state, deal.hand, deal.dealer)
    if record:
        events.append(header(game, seed, rules_file) | ({} if start is None else {"start": start}))
    if narrate is not None:
        state.notes = []
        auto = [game.seat_names[s] for s in sorted(game.automatic)]
        extra = f"; {', '.join(auto)} plays by rule" if auto else ""
        narrate(f"{game.title}: {game.player_count} players ({', '.join(game.seat_names)}{extra}), seed {seed}")
        narrate(f"Round {first}, dealer {game.seat_names[state.dealer]}")
    rounds_seen = 0
    apply_fast = game.apply_fast

    fixed = None if deal is None else deal.outcome(game, state, rng)  # the first deal, as the file gives it
    held = held_cards(game, state, viewer) if narrate is not None and viewer is not None else None
    knowledge = Knowledge(game, state) if any(getattr(a, "samples", False) for a in agents) else None
    picks = [pick for pick in (getattr(a, "pick", None) for a in agents) if pick is not None]
    if not record and narrate is None and after_each is None and knowledge is None and len(picks) == len(agents):
        if fixed is not None:
            apply_fast(state, fixed)
        return _played_out(game, state, rng, picks, round_values)
    while not state.finished:
        d = state.pending
        assert d is not None, "a game not finished waits for a decision"
        step = d.step
        if d.actor == CHANCE:
            outcome = step.sample(game, state, rng) if fixed is None else fixed
            if record:
                events.append({"type": "chance", "round": state.round_number, "step": step.name,
                               "outcome": step.outcome_to_record(game, state, outcome)})
            if narrate is not None:
                narrate(f"  ({step.name}{'' if fixed is None else ': the deal file gives it'})")
            fixed = None
            apply_fast(state, outcome)
        else:
            seat = d.actor
            action = agents[seat].act(Turn(game, state, seat, d.actions, d.prompt, knowledge, d.kind))
            if record:
                events.append({"type": "action", "round": state.round_number, "step": step.name,
                               "seat": game.seat_names[seat], "action": step.label(game, action)})
            if narrate is not None:
                text = step.describe(game, state, d, action, viewer)
                if text:
                    narrate(f"  {game.seat_names[seat]} {text}")
            if action in d.actions:
                apply_fast(state, action)
            else:
                game.apply(state, action)  # refuses with the list of legal actions
        if held is not None:
            assert viewer is not None and narrate is not None, "held is kept only when narrating to a viewer"
            now = held_cards(game, state, viewer)
            if d.actor != CHANCE:  # cards the viewer could not see before, now in its hand (a pass)
                new = received(held, now)
                if new:
                    narrate(f"  you receive: {', '.join(game.cards.labels[c] for c in new)}")
            held = now
        if knowledge is not None:
            knowledge.update(state)
        if round_values is not None and state.ended is not None and (
                not round_values or state.ended is not round_values[-1]):
            round_values.append(state.ended)
        if after_each is not None:
            after_each(state)
        if len(state.round_results) != rounds_seen:
            rounds_seen = len(state.round_results)
            if record:
                events.append(round_event(game, state, rounds_seen, first))
            if narrate is not None:
                _flush(state, narrate)
                if not state.finished:
                    narrate(f"Round {state.round_number}, dealer {game.seat_names[state.dealer]}")
        elif narrate is not None:
            _flush(state, narrate)
    if record:
        events.append(result_event(game, state))
    if narrate is not None:
        _flush(state, narrate)
        winners = ", ".join(game.seat_names[s] for s in game.winners(state))
        narrate(f"Game over after {state.round_number} rounds. Winner(s): {winners}")
    return Outcome(list(state.totals), game.winners(state), state.round_number,
                   [list(r) for r in state.round_results], events)


def _played_out(game: Game, state: State, rng: random.Random, picks: list[Callable[[list[Any]], int]],
                round_values: list[dict[str, Any]] | None) -> Outcome:
    """``play_game`` when nothing is recorded or told and every agent picks from the list of actions alone (its
    ``pick``): the game played on by ``Game.playout``, round by round, with the same draws, so the same game."""

    def policy(_state: State, seat: int, actions: list[Any]) -> int:
        return picks[seat](actions)

    while not state.finished:
        game.playout(state, rng, policy, round_end=True)
        if round_values is not None and state.ended is not None:
            round_values.append(state.ended)
    return Outcome(list(state.totals), game.winners(state), state.round_number,
                   [list(r) for r in state.round_results])


def _flush(state: State, narrate: Callable[[str], None]) -> None:
    if state.notes:
        for note in state.notes:
            narrate("  " + note)
        state.notes.clear()


# ---------------------------------------------------------------- worker processes (simulate, conformance)


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Hold Ctrl-C back while the body runs; one that came meanwhile is handled at the end, as it would have been.

    Two holds, because either alone leaks: this thread's signal mask blocks SIGINT, so processes and threads
    started meanwhile inherit the blocked signal (a Ctrl-C to the group then reaches this process only, which
    stops them); and this process's handler only notes a Ctrl-C meanwhile, because the kernel hands the signal
    to any thread that does not block it (a thread of a library: OpenBLAS starts some when NumPy is imported)
    and Python then runs the handler in this thread all the same, in the middle of the body."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows: no signal masks
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # started later, it would let SIGINT through again in the thread starting it
    came: list[Any] = []
    handler = _note_sigint(came)
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)  # one blocked meanwhile is noted now, at the latest
        if handler is not None:
            signal.signal(signal.SIGINT, handler)
            if came:
                handler(signal.SIGINT, came[0])


def _note_sigint(came: list[Any]) -> Any:
    """Replace this process's Python handler of SIGINT by one that notes each signal in ``came``; return the
    handler replaced (None: nothing replaced, as when Ctrl-C is ignored or this is not the main thread)."""
    try:
        handler = signal.getsignal(signal.SIGINT)
        if not callable(handler):  # ignored, or Python's default action: nothing to hold back from Python
            return None
        signal.signal(signal.SIGINT, lambda signum, frame: came.append(frame))
    except ValueError:  # not the main thread: only the main thread runs Python's handlers
        return None
    return handler


def ignore_sigint() -> None:
    """The initializer of a worker process: Ctrl-C is for the process that started it, which stops it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def process_pool(workers: int) -> Iterator[Any]:
    """A pool of ``workers`` processes (spawned, so nothing of this process leaks into them) that ignore Ctrl-C:
    on an interrupt or an error this process stops them (the pool is terminated when the body ends, a second
    Ctrl-C held back until it is)."""
    import multiprocessing

    with contextlib.ExitStack() as stack:
        with sigint_held():
            try:
                pool = multiprocessing.get_context("spawn").Pool(workers, initializer=ignore_sigint)
            except OSError as exc:
                raise TrickbookError(f"cannot start {workers} worker processes: {exc.strerror or exc}") from None
            stack.callback(stop_with_sigint_held, pool.terminate, lambda: _kill(pool))
        yield pool


STOP_WAIT = 10.0  # seconds the end of worker processes may take before they are killed and left behind


def stop_with_sigint_held(stop: Callable[[], Any], otherwise: Callable[[], Any] | None = None) -> None:
    """Call ``stop`` (the end of worker processes) with SIGINT held back: a second Ctrl-C does not leave them
    half stopped; it is raised when they are gone. With ``otherwise``, ``stop`` runs in a thread of its own and
    is given up after STOP_WAIT seconds, ``otherwise`` called instead: a pool's terminate can wait for ever for
    its queue's lock when a Ctrl-C came at the wrong moment (the signals fuzzer, case 4725)."""
    with sigint_held():
        if otherwise is None:
            stop()
            return
        failed: list[BaseException] = []

        def run() -> None:
            try:
                stop()
            except BaseException as exc:  # noqa: BLE001 - raised here, in the caller's thread, below
                failed.append(exc)

        done = threading.Thread(target=run, name="stop workers", daemon=True)
        done.start()
        done.join(STOP_WAIT)
        if done.is_alive():
            otherwise()
        elif failed:
            raise failed[0]


def _kill(pool: Any) -> None:
    """The pool's worker processes killed (a terminate that hung has stopped nothing else that matters)."""
    for process in list(getattr(pool, "_pool", [])):
        with contextlib.suppress(Exception):
            process.kill()
