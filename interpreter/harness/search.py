"""Players that search: information-set Monte Carlo tree search over states sampled from what a seat knows.

Each iteration draws one state the seat cannot tell from the real one (``Turn.samples``: the cards it has not
seen dealt again, never where a seat has shown it holds none, and so that the public values worked out from
hidden cards, such as hints, come out as everyone was told them; drawn into the compact slots where the game has
them, runtime/slot_samples.py), walks down one tree shared by all samples (single-observer ISMCTS, Cowling,
Powley and Whitehouse 2012), picking each seat's actions by UCB among those legal in this sample, adds one node,
plays the round out at random (the sampled game's ``playout``: the compact game's on the slots) and credits every
seat on the way with its score for the round against the others'. Actions are told apart by their labels, so
"play the red 7" is one branch whichever red 7 the sample holds.

The search looks as far as the end of the round: the round's score is what a move changes most, and a
whole game of random play afterwards would drown it in noise.

Where the engine asked for (``engine``, else ``TRICKBOOK_ENGINE``; harness/engines.py's ``search_machine``) is
``compiled`` (llvmlite, and a game the compiled backend writes), the same search runs compiled, all of a decision's
iterations in one call (compiled/search.py): the game, played by the Python backend, is followed on the compiled
machine (harness/following.py), what the seat does not know is gathered once a decision, and each child of the
tree is the action's whole number there (a card's kind and zone, a choice's value) instead of its label. A decision
it does not write (compiled/search.py's ``refusal``) is searched here, said once on standard error.
"""

from __future__ import annotations

import math
import random
import sys
import time
from typing import Any

from interpreter.engine.samples import StateSamples
from interpreter.engine.state import CHANCE
from interpreter.errors import GameError
from interpreter.runtime.slot_samples import SlotSamples

Samples = StateSamples | SlotSamples

ITERATIONS = 50  # samples per move by default: 25 already beat random play in every bundled game
EXPLORE = 0.7  # UCB's exploration constant, for rewards scaled to about -1..1


class _Node:
    __slots__ = ("children", "visits", "available", "reward", "actor")

    def __init__(self, actor: int):
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.available = 0  # iterations in which this node's action was legal (its parent was reached)
        self.reward = 0.0  # the sum of the acting seat's rewards
        self.actor = actor


class IsmctsAgent:
    """Searches ``iterations`` samples per decision (or for ``seconds`` when given); one legal action: no search."""

    samples = True

    def __init__(self, seed: Any = None, iterations: int = ITERATIONS, seconds: float | None = None,
                 explore: float = EXPLORE, engine: str | None = None):
        if iterations < 1:
            raise GameError(f"ismcts needs at least 1 iteration per move, got {iterations}")
        if seconds is not None and not seconds > 0:
            raise GameError(f"ismcts needs a positive time per move, got {seconds}")
        self.rng = random.Random(seed)
        self.iterations, self.seconds, self.explore = iterations, seconds, explore
        self.engine = engine  # where it searches: auto, compiled or python (None: TRICKBOOK_ENGINE, else auto)
        self._search: Any = None  # its compiled search (compiled/search.py), made at its first decision there

    def act(self, turn: Any) -> Any:
        legal = turn.legal
        if len(legal) == 1:
            return legal[0]
        if turn.following is not None and self._where() == "compiled":
            visits = self._compiled(turn)
            if visits is not None:
                visited, keys = visits
                return legal[max(range(len(legal)), key=lambda i: visited.get(keys[i], -1))]
        rng = self.rng
        samples = turn.samples()  # drawn into the compact slots where the game has them
        sign = 1 if turn.game.flow.higher_wins else -1
        root = _Node(turn.seat)
        scale = 1.0  # the largest reward seen: rewards are divided by it for UCB
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < self.iterations if deadline is None else time.perf_counter() < deadline or done == 0:
            scale = max(scale, self._iterate(samples, samples.draw(rng), root, scale, sign))
            done += 1
        labels = turn.labels
        best = max(range(len(legal)), key=lambda i: _visits(root, labels[i]))
        return legal[best]

    def _where(self) -> str:
        """The engine it searches on, as asked (auto, compiled or python: only compiled searches compiled)."""
        from interpreter.harness.engines import requested

        return requested(self.engine)

    def _compiled(self, turn: Any) -> tuple[dict[int, int], list[int]] | None:
        """The search on the compiled backend (see the module's docstring): the visits of each root action by its
        whole number there, and the whole number of each legal action; None where it does not write the decision."""
        from interpreter.compiled.search import CompiledSearch, sample_plan
        from interpreter.compiled.values import NotWritten

        following = turn.following
        try:
            arrays, p, keys = following.position()
            plan = sample_plan(following.machine, arrays, turn.unknown(), self.rng)
            if self._search is None or self._search.machine is not following.machine:
                self._search = CompiledSearch(following.machine)
            search = self._search
            search.begin((arrays, p), plan, self.rng.getrandbits(31))
            sign = 1 if turn.game.flow.higher_wins else -1
            if self.seconds is None:
                return search.run(self.iterations, self.explore, sign), keys
            deadline = time.perf_counter() + self.seconds
            visits = search.run(1, self.explore, sign)
            step = 1
            while time.perf_counter() < deadline:  # in calls of about a tenth of the time left each
                start = time.perf_counter()
                visits = search.run(step, self.explore, sign)
                took = time.perf_counter() - start
                step = max(1, min(4 * step, int(step * (deadline - time.perf_counter()) / (10 * took + 1e-9))))
            return visits, keys
        except NotWritten as exc:  # (samples drawn in Python may name a value the module has no number for)
            say_once(f"search: python for some decisions (the compiled search does not write {exc} yet)")
            return None

    def _iterate(self, samples: Samples, state: Any, root: _Node, scale: float, sign: int) -> float:
        """One sample (today's state or the compact slots) played down the tree and on to the round's end; gives the
        largest reward it saw."""
        rng = self.rng
        game = samples.game
        rounds = len(state.round_results)
        path: list[_Node] = []
        node = root
        expanded = False
        while state.pending is not None and len(state.round_results) == rounds:
            d = state.pending
            if d.actor == CHANCE:
                game.apply_fast(state, d.step.chance.sample(game, state, rng))
                continue
            if expanded:
                break
            step, actions = d.step, d.actions
            keys = [step.words.label(game, a) for a in actions]
            children = node.children
            untried = [i for i, k in enumerate(keys) if k not in children]
            for k in keys:
                child = children.get(k)
                if child is not None:
                    child.available += 1
            if untried:
                i = untried[int(rng.random() * len(untried))]
                child = children[keys[i]] = _Node(d.actor)
                child.available = 1
                expanded = True
            else:
                i = self._select(node, keys, scale)
                child = children[keys[i]]
            path.append(child)
            game.apply_fast(state, actions[i])
            node = child
        if state.pending is not None and len(state.round_results) == rounds:
            game.playout(state, rng, round_end=True)
        rewards = _rewards(state.round_results, rounds, game.players, sign)
        for n in path:
            n.visits += 1
            n.reward += rewards[n.actor]
        return max(abs(r) for r in rewards)

    def _select(self, node: _Node, keys: list[str], scale: float) -> int:
        children = node.children
        best, best_value = 0, -math.inf
        explore = self.explore
        for i, k in enumerate(keys):
            child = children[k]
            value = child.reward / (child.visits * scale) + explore * math.sqrt(
                math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = i, value
        return best


_SAID: set[str] = set()


def say_once(line: str) -> None:
    """``line`` on standard error, once a process."""
    if line not in _SAID:
        _SAID.add(line)
        print(line, file=sys.stderr)


def following_for(match: Any, agents: Any) -> Any:
    """The game of ``match`` (begun) followed on the compiled machine, for the searching agents that search there
    (harness/following.py: a listener of the match); None when none does (said why, once)."""
    engines = [a.engine for a in agents if isinstance(a, IsmctsAgent)]
    if not engines:
        return None
    from interpreter.harness.engines import requested, search_machine

    engine = "compiled" if any(requested(e) == "compiled" for e in engines) else "python"
    machine = search_machine(engine, match.game)
    if machine is None:
        return None
    from interpreter.harness.following import Following

    following = Following(machine, match)
    if following.broken is not None:
        say_once(f"search: python (the compiled search does not follow {following.broken})")
        return None
    return following


def _visits(root: _Node, key: str) -> int:
    child = root.children.get(key)
    return -1 if child is None else child.visits


def _rewards(results: list[list[int]], rounds: int, players: int, sign: int) -> list[float]:
    """Each seat's score in the round just played (``results[rounds]``) against the mean of the other seats' (0 when
    no round ended), negated when the lowest total wins."""
    if len(results) <= rounds:
        return [0.0] * players
    scores = results[rounds]
    n = len(scores)
    total = sum(scores)
    if n == 1:
        return [float(sign * scores[0])]
    return [sign * (s - (total - s) / (n - 1)) for s in scores]
