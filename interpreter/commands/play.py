"""The commands that play or replay one game: ``play`` (bots, and perhaps you, told as it happens; its record
with --record) and ``replay`` (a record played again and checked)."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path
from typing import Any

from interpreter.commands.common import agent_limits, allowed, deal, search_args, seed, setup
from interpreter.commands.output import writing
from interpreter.errors import TrickbookError
from interpreter.limits import whole_number


def play(args: argparse.Namespace) -> int:
    from interpreter.harness.agents import HumanAgent
    from interpreter.harness.engines import searched_compiled
    from interpreter.harness.players import agent_factory, parse_agents, play_command
    from interpreter.harness.runner import play_game
    from interpreter.match.records import write_record

    search_args(args)
    source, game = setup(args)
    fresh = args.seed is None
    chosen = secrets.randbelow(10**6) if fresh else seed(args.seed)
    lineup = parse_agents(args.agents, game.players)
    agents = agent_factory(lineup, args.iterations, args.move_time, agent_limits(args), args.engine)(chosen)
    viewer = None
    if args.human:
        viewer = seat_index(game.seat_names, args.human)
        if viewer in game.automatic:
            raise TrickbookError(f"{game.seat_names[viewer]} plays automatically; choose another seat")
        agents[viewer] = HumanAgent(out=sys.stdout)
    start = deal(args, game)
    narrate = None if args.quiet else print
    rules_file = args.game if args.game.endswith((".yaml", ".yml")) else None
    if rules_file and args.record:  # replay looks for it beside the record
        rules_file = os.path.relpath(Path(rules_file).resolve(), Path(args.record).resolve().parent)
    events: list[dict[str, Any]] = []
    follow = compiled_game(args, game, lineup, chosen, start is not None)
    with writing(args.record, "record") as record_file:
        try:
            out = play_game(game, agents, chosen, record=bool(args.record), rules_file=rules_file, narrate=narrate,
                            viewer=viewer, deal=start, events=events, follow=follow,
                            made_by=None if follow is None else COMPILED_DRAWS)
        except TrickbookError:  # the game stopped (an agent failed, a rule could not be worked out): its record so far
            if record_file is not None and events:
                write_record(record_file, events)
                print(f"the record of the game so far is written to {args.record}", file=sys.stderr)
            raise
        if record_file is not None:
            write_record(record_file, out.record)
    if record_file is not None:
        print(f"record written to {args.record}")
    if args.quiet:
        names = game.seat_names
        print("totals: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(out.totals)))
        print("winner(s): " + ", ".join(names[s] for s in out.winners))
    if fresh or args.human:
        given = {k: v for k, v in game.options.items() if any(o.split("=", 1)[0].strip() == k for o in args.option)}
        again = play_command(args.game, args.players, chosen, given, lineup, args.iterations, args.move_time,
                             args.human, args.deal, args.board, agent_limits(args),
                             "compiled" if follow is not None or searched_compiled(args.engine, lineup) else "python")
        mine = " (your own moves are yours to make again)" if args.human else ""
        print(f"seed {chosen}: play this game again with{mine}:\n  {again}")
    return 0


# a game the compiled backend drew: its record's header says so (the seed alone plays another game on the Python
# backend; the record holds every deal and action, so it replays as any other)
COMPILED_DRAWS = {"engine": "compiled", "stream": "numpy's legacy np.random (MT19937, as numba's), seeded with the "
                  "first 4 bytes of the SHA-256 of the seed, little-endian"}


def compiled_game(args: argparse.Namespace, game: Any, lineup: list[str], chosen: Any, dealt: bool) -> Any:
    """With ``--engine compiled``: the game the compiled backend plays with this seed (as a compiled run's game of
    that seed), followed by the Python backend, which tells and records it (compiled/replay.py); else None."""
    from interpreter.harness.engine_choice import chosen_engine
    from interpreter.harness.engines import requested, searches, stream_seed

    if requested(args.engine) != "compiled":  # (auto plays one game on the Python backend)
        return None
    if searches(lineup):  # the game on Python, its searches compiled
        chosen_engine("compiled", game, lineup, deal=dealt)  # (an error says why they cannot)
        return None
    if args.human:
        raise TrickbookError("--engine compiled plays bots only: --human plays on the Python engine")
    chosen_engine("compiled", game, lineup, deal=dealt)  # (an error says why it cannot)
    from interpreter.compiled.machine import Machine
    from interpreter.compiled.replay import follow
    from interpreter.harness.greedy import takes_pay

    machine = Machine(game, compiled=True)
    pays = takes_pay(game) if "greedy" in lineup else True
    done = machine.play_seeded(stream_seed(chosen), traced=True, agents=lineup, pays=pays)
    return lambda match: follow(machine, match, done.trace)


def seat_index(names: list[str], text: str) -> int:
    number = whole_number(text)
    if number is not None and 1 <= number <= len(names):
        return number - 1
    folded = [n.casefold() for n in names]
    if text.casefold() in folded:
        return folded.index(text.casefold())
    raise TrickbookError(f"no seat {text!r}; seats are {', '.join(names)} (or 1-{len(names)})")


def replay(args: argparse.Namespace) -> int:
    from interpreter.match.records import replay as replayed

    out = replayed(args.record, rules=args.rules, allow=allowed(args))
    rounds = f"{out.rounds} round" + ("" if out.rounds == 1 else "s")
    print(f"{args.record}: replay matches ({rounds}, totals {out.totals})")
    return 0
