"""Playing one game: agents act, chance is drawn from a seeded source, events are recorded.

The same game, seed and agents always give the same record: chance uses its
own ``random.Random(seed)``, and each random agent is seeded from the game seed
and its seat.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from interpreter.engine.game import Game
from interpreter.engine.state import Decision, State
from interpreter.errors import TrickbookError
from interpreter.harness.agents import Agent, RandomAgent, Turn
from interpreter.harness.narrator import Narrator
from interpreter.match.driver import Each, Match
from interpreter.match.listeners import Knowing, RoundValues
from interpreter.match.together import ahead, made_together, same, together
from interpreter.match.writer import Outcome, RecordWriter, outcome_of

if TYPE_CHECKING:
    from interpreter.harness.deal_files import FixedDeal

def random_agents(game: Game, seed: Any) -> list[Agent]:
    return [RandomAgent(f"{seed}:{s}") for s in range(game.players)]


def play_game(game: Game, agents: Sequence[Agent] | None = None, seed: Any = 0, *, record: bool = False,
              rules_file: str | None = None, narrate: Callable[[str], None] | None = None,
              after_each: Callable[[State], None] | None = None, viewer: int | None = None,
              round_values: list[dict[str, Any]] | None = None, round_teams: list[list[int]] | None = None,
              deal: FixedDeal | None = None,
              events: list[dict[str, Any]] | None = None, told: bool = False,
              follow: Callable[[Match], None] | None = None, made_by: dict[str, Any] | None = None) -> Outcome:
    """Play one full game. With ``record`` the outcome holds the JSON Lines events (``told``: with the lines of
    what the rules made happen, tricks won and automatic decisions, as the API's history has them).

    ``deal``: a start read from a deal file (deal_files.py): the game starts at its round with its dealer, and its
    first deal gives the hands written there.
    ``round_values``: a list that gets the round values of each round as it ended; ``round_teams``: one that gets
    each seat's team as each round ended (with ``round_values``).
    ``after_each`` is called with the state after every action and chance event (for checks).
    ``viewer``: the seat the account is told to; what that seat may not see is not narrated.
    ``events``: with ``record``, the list the events are written to as the game goes, so that a game stopped by
    an error (or Ctrl-C) leaves its record so far there.

    Each agent is told when the game is over or stopped (see ``drive``). ``follow``: plays the match begun to its
    end instead of the agents (a compiled game's draws followed, compiled/replay.py), ``made_by`` saying so in the
    record's header.
    """
    agents = list(agents) if agents is not None else random_agents(game, seed)
    try:  # the agents are stopped when the game cannot even begin
        match = Match(game, seed) if deal is None else Match(game, seed, hand=deal.hand, dealer=deal.dealer)
        writer = RecordWriter(events, rules_file=rules_file, told=told, made_by=made_by) if record else None
        if writer is not None:
            match.listen(writer)
        if narrate is not None:
            match.listen(Narrator(narrate, viewer))
        if after_each is not None:
            match.listen(Each(after_each))
        if round_values is not None:
            match.listen(RoundValues(round_values, round_teams))
        match.begin()
    except BaseException:
        _agents_call(agents, "stop")
        raise
    if follow is not None:
        follow(match)
    else:
        drive(match, agents, deal)
    return outcome_of(game, match.state, None if writer is None else writer.lines)


def drive(match: Match, agents: Sequence[Agent], deal: FixedDeal | None = None) -> None:
    """Play ``match`` (begun) to its end with one agent a seat (``deal``: its first deal is the deal file's);
    a searching agent (``samples``) is given what its seat knows, followed from now on. When the game is over
    each agent's ``game_over()`` is called, when it stops on an error or an interrupt its ``stop()`` (where it
    has them: an agent of your own ends its processes then, harness/remote.py)."""
    try:
        game = match.game
        knowing = Knowing(match) if any(getattr(a, "samples", False) for a in agents) else None
        if knowing is not None:
            match.listen(knowing)
        knowledge = None if knowing is None else knowing.knowledge
        following = None
        if knowing is not None:  # a search that runs on the compiled backend follows the game there
            from interpreter.harness.search import following_for

            following = following_for(match, agents)
            if following is not None:
                match.listen(following)

        people = [s for s, a in enumerate(agents) if getattr(a, "person", False)]
        ahead = AskedAhead(game, agents, people, knowledge) if people else None

        def decide(m: Match, d: Decision) -> Any:
            if ahead is not None:
                kept = ahead.answer(m.state, d)
                if kept is not None:
                    return kept
            return agents[d.actor].act(Turn(game, m.state, d.actor, d.actions, d.prompt, knowledge, d.kind,
                                            following))

        picks = [pick for pick in (getattr(a, "pick", None) for a in agents) if pick is not None]
        match.play(decide, picks if len(picks) == len(agents) and knowledge is None else None,
                   None if deal is None else deal.outcome(game, match.state, match.rng))
    except BaseException:
        _agents_call(agents, "stop")
        raise
    _agents_call(agents, "game_over")


class AskedAhead:
    """The people (agents with ``person``) of a step whose choices are made together, asked at once when it begins,
    each in a copy of the game in which it is to act (match/together.py), before any seat of the step is told to
    act; their answers are taken when the engine's order reaches them, so the game is the one asked in turn."""

    def __init__(self, game: Game, agents: Sequence[Agent], people: list[int], knowledge: Any):
        self.game, self.agents, self.people, self.knowledge = game, agents, people, knowledge
        self.run: Any = None  # the run of the step the answers are of (its progress)
        self.answers: dict[int, list[Any]] = {}

    def answer(self, state: State, d: Decision) -> Any:
        """The answer kept for the seat to act at ``d``, asking the people of a step made together that has just
        begun first; None when none is kept (the seat is asked in its turn)."""
        run = made_together(self.game, state)
        if run is None:
            return None
        if run is not self.run:
            self.run, self.answers = run, {}
            for seat in together(self.game, state):
                if seat in self.people:
                    self.answers[seat] = self._ask(state, seat)
        kept = self.answers.get(d.actor)
        return same(d.actions, kept.pop(0)) if kept else None

    def _ask(self, state: State, seat: int) -> list[Any]:
        """Every answer of ``seat`` in the step, each asked in its copy of the game."""
        answers: list[Any] = []
        while (copy := ahead(self.game, state, seat, answers)) is not None:
            d = copy.pending
            assert d is not None  # (the seat is to act in its copy)
            answers.append(self.agents[seat].act(Turn(self.game, copy, seat, d.actions, d.prompt, self.knowledge,
                                                      d.kind, ahead_of=state)))
        return answers


def _agents_call(agents: Sequence[Agent], method: str) -> None:
    for agent in agents:
        call = getattr(agent, method, None)
        if call is not None:
            call()


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
