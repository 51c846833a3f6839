"""A whole game on the compiled backend: the machine that drives the round's step templates (steps.py) from step to
step and from round to round, written as one module with them (the second template of engine/rounds.py's loop and
engine/round_code.py's entering of steps).

The progress array ``p``: ``p[STEP]`` the round's step running (-1 between rounds), ``p[FINISHED]`` 1 once the game is
over (OVERRUN: stopped, its end not held within MAX_ROUNDS rounds, an error on the Python backend), ``p[TAKEN]`` the
actions taken, ``p[STATUS]`` what the game waits for (DECIDES: a seat, CHANCE: a deal, DONE: nothing, the game is over);
then each step's own slots. The machine's functions, each over the arrays and ``p``: ``begin`` (a new game: the first
round started, the game's values, the steps entered until one waits), ``actor`` (the seat to act, -1 for chance, -2 when
over), ``legal``, ``apply``, ``pack`` and ``deal`` (the running step's), and ``playout``: the game played to its end in
one call, every decision uniform among the legal ones and every deal a shuffle, drawn from the compiled random stream
(numpy's legacy one, which the plain module draws from), seeded by ``seed``.

A decision no agent takes is taken by the machine itself (settling.py): an automatic seat's, by its policy, and a
seat's stuck with no legal play, which ends its step; so ``actor`` never names an automatic seat.

``Machine(game)`` writes it, or raises NotWritten naming the first part of the game not written yet: the game is then
played by the Python backend.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from interpreter.compiled import agents_template
from interpreter.compiled.agents import agent_codes
from interpreter.compiled.arrays import Arrays, array_layout, pack_arrays
from interpreter.compiled.kinds import step_code
from interpreter.compiled.lower import Lowerer
from interpreter.compiled.module import is_kept, made, module_text, source_of
from interpreter.compiled.round_template import round_source
from interpreter.compiled.search_checks import prefixed_steps
from interpreter.compiled.search_template import search_source
from interpreter.compiled.settling import NO_ACTION, Settling
from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.compiled.values import NotWritten, Values
from interpreter.dsl.types import NUMBER as NUMBER_TYPE
from interpreter.dsl.types import VALUE, Type
from interpreter.engine.game import Game
from interpreter.engine.made_texts import made_texts
from interpreter.engine.state import State
from interpreter.errors import GameError
from interpreter.limits import MAX_ROUNDS
from interpreter.runtime.layout import DEALER, NUMBER, ROUND, TEAM, TOTAL, pack
from interpreter.runtime.slots import Slots

STEP, FINISHED, TAKEN, STATUS, LOGGED = range(5)
OVERRUN = 2  # p[FINISHED] of a game stopped because its end did not hold within MAX_ROUNDS
HEAD = 5  # the machine's own progress slots, before the steps'


TRACE = 1 << 14  # the room first given to a game's draws (more when they do not fit)


@dataclass
class Finished:
    """One game the compiled backend played (``Machine.play_seeded``, batch.py): the seed of its random stream, each
    seat's total, the winners, the rounds played, the public round values at each round's end (as the Python
    backend's RoundValues keeps them, those the arrays hold as one value), and, when kept, its draws: ``trace[0]``
    their length, then ``0, action`` for a decision and ``1, n, kinds...`` for a deal (replay.py follows them)."""

    seed: int
    totals: list[int]
    winners: list[int]
    rounds: int
    ended: list[dict[str, Any]]
    trace: list[int]
    teams: list[list[int]] = field(default_factory=list)  # each seat's team at each logged round's end (a teams step)


class Machine:
    """``game`` written for the compiled backend (see the module's docstring); ``compiled``: its functions compiled
    (interpreter/compiled/ir; else run as plain Python)."""

    def __init__(self, game: Game, compiled: bool = False):
        self.game, self.compiled = game, compiled
        self.lay = array_layout(game)
        self.values = Values()
        lowerer = Lowerer(self.lay, self.values)
        self.codes: list[StepCode] = []
        self.bases: list[int] = []
        base = HEAD
        whens: list[str | None] = []
        for i, step in enumerate(game.steps):
            w = Writing(self.lay, lowerer, f"s{i}", base)
            code = step_code(step, w)
            whens.append(None if step.when is None else w.call(step.when, {}, {}, "when"))
            self.codes.append(code)
            self.bases.append(base)
            base += code.size
        # the public round values kept at each round's end (for a summary's round outcomes), after the steps' slots
        self.logged = logged_values(game, self.lay)
        self.log = base
        self.size = base + len(self.logged) * MAX_ROUNDS
        rounds = Writing(self.lay, lowerer, "r", 0)
        round_src = round_source(game, rounds)
        self.settling = Settling(game, Writing(self.lay, lowerer, "a", 0), self.actions, (STEP, FINISHED, STATUS))
        self.expressions = [e for code in self.codes for e in code.expressions] + rounds.expressions
        self.expressions += self.settling.w.expressions
        steps = [(step, prefix) for step, prefix in prefixed_steps(game)  # (those a run can be: search_checks.py)
                 if any(f"def {prefix}_start(" in code.source for code in self.codes)]
        redraws = [(step, prefix) for step, prefix in prefixed_steps(game, ("choose",))  # (choose_template's _redraw)
                   if any(f"def {prefix}_redraw(" in code.source for code in self.codes)]
        self.checked = {id(step): k for k, (step, _) in enumerate(steps)}
        self.redrawing = {id(step): k for k, (step, _) in enumerate(redraws)}
        searching = search_source(self.lay, self.actions, self.log, (STEP, FINISHED, STATUS),
                                  len(self.lay.layout.zones), [prefix for _, prefix in steps],
                                  [prefix for _, prefix in redraws])
        self.source = source_of(self.expressions, *(c.source for c in self.codes), round_src, self._machine(whens),
                                self._seated(), searching)
        self._module: types.SimpleNamespace | None = None
        self._box: Arrays | None = None
        self._written: tuple[tuple[str, int], str] | None = None  # the module's text, and what it was written from
        self.held = 0  # the values interned when the module was made: those its tables hold (values.py)
        self._text()  # (its tables linked now: a value they cannot hold is NotWritten here, not when it is made)

    @property
    def kept(self) -> bool:
        """Whether the compiled module is kept in the user's cache already (loaded in under a second, not compiled)."""
        return is_kept(self._text())

    @property
    def module(self) -> types.SimpleNamespace:
        """The module's functions (made when first asked for: each compiled on its first call)."""
        if self._module is None:
            text = self._text()
            box = self.box()
            shapes = {**{name: a.shape for name, a in box._asdict().items()}, "p": (self.size,)}  # (pointers.py)
            self._module = made(self.source, self.expressions, self.values, self.compiled, shapes, text)
            self.held = len(self.values.interned)
        return self._module

    def extend(self, write: Callable[[], str]) -> None:
        """More functions in the module (a vector environment's: toolkits/vector.py), before it is made: ``write``
        gives their source once every value of the module's text is interned (the text made once first), so that
        its tables of interned values are whole."""
        if self._module is not None:
            raise RuntimeError("the module is made already")
        self._text()
        self.source = "\n\n".join([self.source, write()])

    def _text(self) -> str:
        """The module's text: the values of the game's start interned first (``box``), so that its tables, and the
        name it is kept by, are the same whatever was asked of the machine before. Written again only when its
        source changed or more values were interned since (a tenth of a second for a large game)."""
        self.box()
        key = (self.source, len(self.values.interned))
        if self._written is None or self._written[0] != key:
            self._written = (key, module_text(self.source, self.expressions, self.values))
        return self._written[1]

    def new_game(self) -> tuple[Arrays, Any]:
        """The arrays and progress of a new game at its start (the first round begun, as ``Game.new_state``), the
        game waiting for its first deal or decision."""
        arrays = Arrays(*(a.copy() for a in self.box()))
        p = np.zeros(self.size, np.int64)
        self.module.begin(*arrays, p)
        return arrays, p

    def box(self) -> Arrays:
        """The arrays of a game before it begins (the cards in the box, no round played; ``new_game`` and
        ``play_many`` begin from a copy): made once."""
        if self._box is None:
            game = self.game
            state = State(game)
            if game.deck_start is not None:
                state.shared[game.deck_start].extend(game.deck)
            state.game_vars = dict.fromkeys(game.flow.game_values)
            state.round_number = 0
            state.dealer = game.first_dealer
            self._box = pack_arrays(self.lay, Slots.of(game, pack(game, state)), self.values)
        return self._box

    def play_many(self, games: int) -> tuple[int, int]:
        """``games`` random games in one call (the compiled random stream, see ``seed``): the rounds and the decisions
        played."""
        rounds = np.zeros(1, np.int64)
        box = self.box()
        work = Arrays(*(a.copy() for a in box))
        taken = self.module.play_many(*box[:5], work.h, games, rounds, *work[:5], np.zeros(self.size, np.int64))
        return int(rounds[0]), int(taken)

    @property
    def actions(self) -> int:
        """The most actions a decision may offer: every card, or every slot a step keeps (a board's spaces; a step
        that holds others, as many as they offer: ``StepCode.actions``)."""
        return max([self.lay.capacity, *(c.size if c.actions is None else c.actions for c in self.codes)]) + 64

    def action_of(self, step_index: int, action: Any, step: Any = None) -> int:
        """The Python backend's action of the round's step ``step_index`` as the int its template takes (``step``:
        the step deciding, when the round's step holds it: a repeat's, a trick's hook)."""
        code = self.codes[step_index]
        if code.action_of is None:
            raise NotWritten(f"the actions of step {self.game.steps[step_index].name!r}")
        if step is None or step is self.game.steps[step_index]:
            return code.action_of(action)
        return code.action_of(action, step)

    def play_seeded(self, seed: int, traced: bool = False, agents: Sequence[str] = (), pays: bool = True) -> Finished:
        """One game played, its draws from the compiled random stream seeded with ``seed`` (the same game for the same
        seed and agents, compiled or run as plain Python, in this call or in a batch: batch.py); ``traced``: with its
        draws kept (``Finished.trace``). ``agents``: each seat's (agents.AGENTS; none: every seat random), ``pays``:
        whether taking cards pays, for greedy agents (harness/greedy.py's takes_pay)."""
        size = TRACE if traced else 1
        codes = np.asarray(agent_codes(list(agents)), np.int64)
        if len(codes) not in (0, self.game.players):  # (the written code reads an agent for every seat that acts)
            raise ValueError(f"one agent per seat ({self.game.players}), not {len(codes)}")
        while True:
            arrays, p = self.new_game()
            self.module.seed(seed)
            trace = np.zeros(size, np.int64)
            trace[0] = 1
            self.module.play_seated(*arrays, p, trace, codes, int(pays))
            if trace[0] >= 0 or not traced:
                break
            size *= 4  # (the draws did not fit: the same game played again with room for them)
        players, logged = self.game.players, len(self.logged)
        totals = [int(arrays.v[self.lay.value(TOTAL, "", s)]) for s in range(players)]
        eligible = [bool(self.module.can_win(*arrays, s)) for s in range(players)]
        ends = [int(x) for x in p[self.log:self.log + int(p[LOGGED]) * logged]]
        return self.finished(seed, int(p[FINISHED]), totals, eligible, int(arrays.v[self.lay.value(NUMBER)]),
                             int(p[LOGGED]), ends, [int(x) for x in trace[:trace[0]]] if traced else [])

    def finished(self, seed: int, status: int, totals: list[int], eligible: list[bool], rounds: int, ended: int,
                 ends: list[int], trace: list[int]) -> Finished:
        """The game the compiled backend played with ``seed``: its ``p[FINISHED]`` (an error unless 1), each seat's
        total and whether it may win, its rounds, the rounds whose ends were logged and their round values
        (``logged``'s at each round's end, one after the other), and its draws."""
        if status == OVERRUN:
            raise GameError(f"the game did not end within {MAX_ROUNDS} rounds (seed {seed} of the compiled backend's "
                            "stream); its end condition never held")
        if status == NO_ACTION:
            raise GameError(f"an automatic seat's policy gave no action it may take (seed {seed} of the compiled "
                            "backend's stream)")
        logged = len(self.logged)
        pick = max if self.game.flow.winners == "highest_total" else min
        best = pick((t for t, may in zip(totals, eligible) if may), default=None)
        values = [{name: self.values.decode(ends[r * logged + j], type_)
                   for j, (name, _, type_) in enumerate(self.logged) if name != TEAM_LOGGED} for r in range(ended)]
        teams = [[ends[r * logged + j] for j, (name, _, _) in enumerate(self.logged) if name == TEAM_LOGGED]
                 for r in range(ended)]
        return Finished(seed, totals, [s for s, (t, may) in enumerate(zip(totals, eligible)) if may and t == best],
                        rounds, values, trace, teams if any(teams) else [])

    # ------------------------------------------------------------------------------------------------ the source

    def _machine(self, whens: list[str | None]) -> str:
        settles = self.settling.source(took, listing) if self.settling.needed else []
        return "\n".join(self._entering(whens) + self._dispatches() + settles + self._playing())

    def _entering(self, whens: list[str | None]) -> list[str]:
        """``advance`` (the round's steps entered from step i until one waits: a round over, the next begun, or the
        game over) and ``begin``. (Each function that calls the steps' is compiled with all they call again, so the
        machine's functions are few: entering the steps is written in ``advance``, not a function of its own.)"""
        number, dealer = self.lay.value(NUMBER), self.lay.value(DEALER)
        lines = [f"def advance({ARRAYS}, p, i):",
                 "    mark = h[0]",
                 "    r = DONE",
                 "    while True:",
                 f"        while i < {len(self.codes)}:",
                 f"            p[{STEP}] = i"]
        for i, (code, when) in enumerate(zip(self.codes, whens, strict=True)):
            lines.append(f"            {'if' if i == 0 else 'elif'} i == {i}:")
            pad = "                "
            if when is not None:
                lines.append(f"                if truth({when}):")
                pad += "    "
            lines += [f"{pad}r = {code.prefix}_start({ARRAYS}, p)", f"{pad}if r != DONE:", f"{pad}    break"]
        return [*lines, "            i += 1",
                "        if r != DONE:",
                "            break",
                f"        p[{STEP}] = -1",
                *_logging(self.logged, self.log),
                f"        if round_over({ARRAYS}) == 1 or v[{number}] >= {MAX_ROUNDS}:",
                # (2: stopped, the game's end never held within MAX_ROUNDS: an error on the Python backend)
                f"            p[{FINISHED}] = 1 if round_over({ARRAYS}) == 1 else {OVERRUN}",
                f"            p[{STATUS}] = DONE",
                "            h[0] = mark",
                "            return DONE",
                f"        v[{dealer}] = next_dealer({ARRAYS})",
                f"        round_start({ARRAYS})",
                "        i = 0",
                f"    p[{STATUS}] = r",
                "    h[0] = mark",
                "    return r", "",
                f"def begin({ARRAYS}, p):",  # (a game's first round started, its values, the steps entered)
                f"    round_start({ARRAYS})",
                f"    game_begin({ARRAYS})",
                f"    advance({ARRAYS}, p, 0)",
                *settled_by(self.settling, "    "),
                f"    return p[{STATUS}]", ""]

    def _dispatches(self) -> list[str]:
        """``actor``, ``legal`` and ``pack``: the running step's, by ``p[STEP]``; ``apply_on`` and ``deal_on`` (what
        ``apply`` and ``deal`` call): the running step's, then the
        steps after it entered when it is done (``taking``); ``apply`` and ``deal``: those, then the decisions no agent
        takes taken (``settle``, settling.py). Each is one level: the step's function is chosen in place, not through
        another function of the machine (each level is compiled with all it calls linked in again)."""
        steps = list(zip(self.codes, self.bases, strict=True))
        deciding = [(c, b) for c, b in steps if c.decides]
        dealing = [(c, b) for c, b in steps if c.deals]
        lines = _dispatch("actor", "", deciding, lambda c, b: f"p[{b}]", f"-2 if p[{FINISHED}] != 0 else -1",
                               head=f"    if p[{STATUS}] != DECIDES:\n        return -2 if p[{FINISHED}] != 0 else -1")
        lines += _dispatch("legal", ", out", deciding, lambda c, b: f"{c.prefix}_legal({ARRAYS}, p, out)", "-1")
        lines += _dispatch("pack", ", out", dealing, lambda c, b: f"{c.prefix}_pack({ARRAYS}, p, out)", "0")
        for name, arg in (("apply", "action"), ("deal", "order")):
            steps = list(zip(self.codes, self.bases, strict=True))
            lines += [f"def {name}_on({ARRAYS}, p, {arg}):", *taking(steps, name, arg, "    "),
                      f"    return p[{STATUS}]", "",
                      f"def {name}({ARRAYS}, p, {arg}):", *took(name, arg, "    "), *settled_by(self.settling, "    "),
                      f"    return p[{STATUS}]", ""]
        return lines

    def _playing(self) -> list[str]:
        """``playout`` (a game to its end, every decision and deal drawn at random: agents_template.py's
        ``play_seated`` with every seat random) and ``play_many``."""
        number = self.lay.value(NUMBER)
        return [f"def playout({ARRAYS}, p, trace):",  # (trace: see Finished; of one item, nothing kept)
                f"    return play_seated({ARRAYS}, p, trace, trace[:0], 0)", "",  # (every seat random)
                # games from the arrays of a new game (z..ln), each played in z1..ln1 and p: its decisions
                f"def play_many({ARRAYS}, games, rounds, z1, zn1, v1, l1, ln1, p):",
                "    taken = 0",
                "    for g in range(games):",
                "        for a in range(z.shape[0]):",
                "            for b in range(z.shape[1]):",
                "                z1[a, b] = z[a, b]",
                "        for a in range(l.shape[0]):",
                "            for b in range(l.shape[1]):",
                "                l1[a, b] = l[a, b]",
                "        for a in range(len(zn)):",
                "            zn1[a] = zn[a]",
                "        for a in range(len(v)):",
                "            v1[a] = v[a]",
                "        for a in range(len(ln)):",
                "            ln1[a] = ln[a]",
                "        for a in range(len(p)):",
                "            p[a] = 0",
                "        begin(z1, zn1, v1, l1, ln1, h, p)",
                "        taken += play_seated(z1, zn1, v1, l1, ln1, h, p, p[:1], p[:0], 0)",  # (playout, one call less)
                f"        rounds[0] += v1[{number}]",
                "    return taken", ""]

    def _seated(self) -> str:
        """The source of games played by agents, and of many games a call (agents_template.py)."""
        lay = self.lay
        slots = {"step": STEP, "finished": FINISHED, "status": STATUS, "logged": LOGGED, "log": self.log,
                 "number": lay.value(NUMBER)}
        totals = [lay.value(TOTAL, "", s) for s in range(self.game.players)]
        return agents_template.source(self.codes, self.actions, slots, totals, len(self.logged))


TEAM_LOGGED = "#team"  # a logged seat's team at a round's end (no round value has this name)


def logged_values(game: Game, lay: Any) -> list[tuple[str, int, Type]]:
    """The round values a round's end keeps (as the Python backend's RoundValues hears them, for a summary's round
    outcomes): the public ones held as one value, each with its index in v and its type (a text made in play is
    held as only that there is one: not kept); then, where a ``teams`` step sets the teams, each seat's team
    (``TEAM_LOGGED``, as the Python backend's ``State.ended_teams``: a summary's sides)."""
    out = []
    made = made_texts(game)
    for name in game.round_fields:
        if name in ("number", "dealer") or game.visibility.get(name, "all") != "all" or name in made:
            continue
        try:
            out.append((name, lay.value(ROUND, name), game.value_types.get(name, VALUE)))
        except KeyError:  # (a list: a summary leaves lists out)
            continue
    if any(step.kind == "teams" for step in game.every_step()):
        out += [(TEAM_LOGGED, lay.value(TEAM, "", s), NUMBER_TYPE) for s in range(game.players)]
    return out


def _logging(logged: list[tuple[str, int, Type]], log: int) -> list[str]:
    """The lines of ``advance`` that keep the logged round values of a round just ended (``p[LOGGED]`` rounds so far,
    each ``len(logged)`` slots from ``p[log]``)."""
    k = len(logged)
    if not k:
        return []
    return [f"        if p[{LOGGED}] < {MAX_ROUNDS}:",
            *(f"            p[{log} + p[{LOGGED}] * {k} + {j}] = v[{index}]" for j, (_, index, _) in enumerate(logged)),
            f"            p[{LOGGED}] += 1"]


def _dispatch(name: str, extra: str, codes: list[tuple[StepCode, int]], call: Any, otherwise: str,
              head: str = "") -> list[str]:
    """``def NAME(arrays, p EXTRA)``: the running step's function, by ``p[STEP]``."""
    lines = [f"def {name}({ARRAYS}, p{extra}):"]
    if head:
        lines.append(head)
    return [*lines, *switch(codes, call, "r", otherwise, "    "), "    return r", ""]


def taking(steps: list[tuple[StepCode, int]], name: str, arg: str, pad: str) -> list[str]:
    """The lines that give ``arg`` to the running step's ``PREFIX_NAME`` (``apply``: an action, counted; ``deal``: the
    order of a deal), and enter the steps after it when it is done (else the game waits for what it says): the body
    of ``apply_on`` and ``deal_on``."""
    codes = [(c, b) for c, b in steps if (c.decides if name == "apply" else c.deals)]
    lines = switch(codes, lambda c, b: f"{c.prefix}_{name}({ARRAYS}, p, {arg})", "r", "DONE", pad)
    more = [*([f"p[{TAKEN}] += 1"] if name == "apply" else []),
            "if r == DONE:", f"    advance({ARRAYS}, p, p[{STEP}] + 1)", "else:", f"    p[{STATUS}] = r"]
    return lines + [pad + line for line in more]


def settled_by(settling: Settling, pad: str) -> list[str]:
    """The line that takes the decisions no agent takes after a step entered, an action or a deal (settling.py),
    when the game has any."""
    return [f"{pad}settle({ARRAYS}, p)"] if settling.needed else []


def took(name: str, arg: str, pad: str) -> list[str]:
    """The line that gives ``arg`` to the machine's own ``apply_on`` (an action) or ``deal_on`` (a deal)."""
    return [f"{pad}{name}_on({ARRAYS}, p, {arg})"]


def listing(name: str, arg: str, result: str, pad: str) -> list[str]:
    """The line that sets ``result`` to the number of legal actions the machine's ``legal`` lists into ``arg``."""
    return [f"{pad}{result} = {name}({ARRAYS}, p, {arg})"]


def switch(codes: list[tuple[StepCode, int]], call: Any, result: str, otherwise: str, pad: str) -> list[str]:
    """The lines that set ``result`` to ``call(code, base)`` of the running step (by ``p[STEP]``) among ``codes``,
    else ``otherwise``; what the step takes of the scratch space given back."""
    lines = [f"st = p[{STEP}]", "mk = h[0]", f"{result} = {otherwise}"]
    for k, (code, base) in enumerate(codes):
        lines += [f"{'if' if k == 0 else 'elif'} st == {int(code.prefix[1:])}:",
                  f"    {result} = {call(code, base)}"]
    return [pad + line for line in [*lines, "h[0] = mk"]]
