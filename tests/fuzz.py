"""Fuzzing trickbook as a hostile stranger would: mutated rule files, hostile expressions, damaged records,
odd answers at the prompt, agents of one's own that misbehave, hostile messages to the web table.

Every case is made from a seed and its number alone, so a finding is reproduced by its kind, seed and number.
Cases run in a child process with a memory limit and a limit of CPU time per case (counted by the child's own
timer, so a busy machine does not make a case fail); the parent also watches the wall-clock time, ten times the
limit, for a case that blocks without using the CPU. A case fails when the command gives a Python traceback (an
exception escaping ``trickbook``'s ``main``), takes longer than the time limit, blows the memory limit, or a
play error names no place in the rule file.

The default test run makes a short seeded run (tests/test_fuzz.py). The long run:

    python tests/fuzz.py --cases 5000                 # every kind, 5,000 cases each
    python tests/fuzz.py --kind rules --cases 20000 --seed 7
    python tests/fuzz.py --kind rules --seed 7 --case 1234 --show   # one case: its input and what it gave
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import io
import json
import logging
import os
import random
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: the tests folder is importable as a package
    sys.path.insert(0, str(ROOT))

from tests.processes import marked  # noqa: E402
from tests.snapshot import differences, snapshot  # noqa: E402

KINDS = ("rules", "expressions", "records", "prompt")
# kinds that each look for one family of defect (see the section "the families" below)
NEW_KINDS = ("names", "huge", "outputs", "signals", "decks", "agents", "web")
ALL_KINDS = KINDS + NEW_KINDS
# per kind: the CPU time a case may use in the worker (seconds; run() allows ten times that of wall-clock time)
# and the worker's address-space limit (MB; 0: none, for signals, whose cases start process pools and Dask
# clusters of their own). The processes a case starts have limits of their own: huge's forked validate
# (HUGE_CPU_LIMIT, HUGE_MEMORY_MB), outputs' and signals' commands (OUTPUT_WAIT, SIGNAL_WAIT)
LIMITS = {"rules": (20.0, 2048), "expressions": (20.0, 2048), "records": (20.0, 2048), "prompt": (20.0, 2048),
          "names": (60.0, 2048), "huge": (60.0, 2048), "outputs": (60.0, 2048), "signals": (30.0, 0),
          "decks": (120.0, 3072), "agents": (30.0, 0), "web": (60.0, 2048)}
CORPUS = sorted((ROOT / "games").glob("*.yaml")) + sorted((ROOT / "docs" / "examples").glob("*.yaml"))
POSITIONED = re.compile(r"^\S[^\n]*:\d+:\d+: (error|warning): ", re.M)

# -- hostile pieces ------------------------------------------------------------------------------------------

NUMBERS = ["0", "-1", "1", "2.5", "1e9", "9" * 16, "9" * 5000, "-" + "9" * 30, "0x10", "²", "٣", "1_000", "+5"]
SCALARS = NUMBERS + [
    "''", '""', "null", "~", "true", "false", "no", "yes", "[]", "{}", "[1, [2, [3]]]", "{a: 1}", "seat", "card",
    "x" * 300, "'\\u0000'", "ÿ" * 50, "\"\\ud800\"", "!!python/object:os.system", "*anchor", "&a [1]", "'{'",
    "\"{card.nope}\"", "-", "?", "|", ">", "'  '", "[seat, seat]", "'../../../etc/passwd'", "/etc/passwd",
    "'/dev/zero'", "nine", "eight", "[1, 2, 3]"]
NAMES = ["seat", "card", "led", "value", "winner", "player", "seats", "players", "trick", "history", "legal",
         "round.dealer", "round.number", "round.trump", "game.x", "options.x", "setup.hand", "seat.hand",
         "seat.tricks", "seat.total", "seat.index", "seat.name", "card.suit", "card.rank", "card.colour",
         "card.number", "card.__class__", "led.suit", "stock", "nope", "x", "none", "true", "false"]
BUILTINS = ["len", "sum", "count", "max", "min", "abs", "distinct", "sort", "reverse", "place_award", "range",
            "first", "last", "combinations", "pairs", "join", "text", "any", "all", "seats_from", "team",
            "opponents", "same_team", "left", "right", "index", "concat", "slice", "eval", "__import__", "open"]
OPS = ["+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in", "not in", "/", "**", "|",
       "=", ":", "let"]
LITERALS = ["0", "1", "-1", "2", "13", "9" * 15, "9" * 16, "9" * 5000, "'a'", "''", "'x' * 3", "[]", "[1, 2]",
            "[seat, seat]", "range(0, 99999)", "range(0, 100001)", "none", "true", "²", "1.5", "'\\n'", "\"é\""]


# hostile wraps of a rule's own expression X that keep its type, so the file still validates and the damage
# shows in play: division by zero, none, huge numbers, loops in loops, lists that grow
WRAPS = [
    "{X} if seat.tricks // (seat.tricks - seat.tricks) > 0 else {X}",
    "{X} if len(combinations(seat.hand, 3)) > 0 else {X}",
    "{X} if sum(len(pairs(seat.hand, seat.hand)) for s in seats) > 0 else {X}",
    "{X} if count(x > y for x in range(0, 9000 + len(seat.hand)) for y in [1]) > 0 else {X}",
    "{X} if sum(count(y > x for y in range(0, 2000 + len(trick))) for x in range(0, 2000)) > 0 else {X}",
    "{X} if seat.tricks * 999999999999999 * 999999999999999 > 0 else {X}",
    "{X} if first([s for s in seats if s.tricks > 99]).index > 0 else {X}",
    "{X} if last(trick) != none and last(trick).rank > 0 else {X}",
    "{X} if round.dealer == first([s for s in seats if s.tricks > 99]) else {X}",
    "{X} if len(distinct(sort(reverse(seat.hand + seat.hand + seat.hand)))) > 0 else {X}",
    "{X} if text(seat.tricks) + text(players) == '' else {X}",
    "{X} if [s.tricks for s in seats][len(seat.hand)] > 0 else {X}",
    "{X} if max([s.tricks for s in seats if s.tricks > 99]) > 0 else {X}",
    "{X} if seats_from(first([s for s in seats if s.tricks > 99]))[0] == seat else {X}",
    "({X}) if true else ({X})",
]


def expression(rng: random.Random, depth: int = 0) -> str:
    """A random expression, sometimes broken, sometimes hostile (loops in loops, huge numbers)."""
    roll = rng.random()
    if depth > 4 or roll < 0.3:
        return rng.choice(NAMES if rng.random() < 0.6 else LITERALS)
    if roll < 0.5:
        return f"{expression(rng, depth + 1)} {rng.choice(OPS)} {expression(rng, depth + 1)}"
    if roll < 0.65:
        args = ", ".join(expression(rng, depth + 1) for _ in range(rng.randint(0, 3)))
        return f"{rng.choice(BUILTINS)}({args})"
    if roll < 0.75:
        var = rng.choice(["x", "c", "s", "seat", "card"])
        source = rng.choice(["seats", "seat.hand", "trick", "range(0, 9999)", "combinations(seat.hand, 3)",
                             "pairs(range(0, 999), range(0, 999))", expression(rng, depth + 1)])
        body = rng.choice([var, f"{var} * {var}", expression(rng, depth + 1)])
        wrap = rng.choice(["[{}]", "sum({})", "count({})", "max({})", "len([{}])", "any({})"])
        return wrap.format(f"{body} for {var} in {source}" + (f" if {expression(rng, depth + 1)}"
                                                               if rng.random() < 0.3 else ""))
    if roll < 0.82:
        return f"{expression(rng, depth + 1)} if {expression(rng, depth + 1)} else {expression(rng, depth + 1)}"
    if roll < 0.88:
        return f"{expression(rng, depth + 1)}[{expression(rng, depth + 1)}]"
    if roll < 0.93:
        return f"({expression(rng, depth + 1)})" + rng.choice(["", ")", "(", "]", ".", ".x", " for"])
    if roll < 0.97:  # let, slices, several fors each with its if
        kind = rng.random()
        if kind < 0.35:
            return f"let {rng.choice(['x', 'seat', 'let', 'in'])} = {expression(rng, depth + 1)} in " \
                   f"{expression(rng, depth + 1)}"
        if kind < 0.65:
            low, high = (rng.choice(["", expression(rng, depth + 1)]) for _ in range(2))
            return f"{expression(rng, depth + 1)}[{low}:{high}]"
        a, b = rng.choice(["x", "c", "s"]), rng.choice(["y", "x", "card"])
        test = f" if {expression(rng, depth + 1)}" if rng.random() < 0.5 else ""
        return (f"[[{a}, {b}] for {a} in {rng.choice(['seats', 'seat.hand', expression(rng, depth + 1)])}{test} "
                f"for {b} in {rng.choice(['seats', 'range(0, 999)', expression(rng, depth + 1)])}"
                + (f" if {expression(rng, depth + 1)}]" if rng.random() < 0.5 else "]"))
    return rng.choice(["not ", "-", "- -", "not not "]) + expression(rng, depth + 1)


# an option's value (its default, a choice, or given with -o) of every kind, and words YAML 1.1 read as true/false
OPTION_VALUES = ["no", "yes", "On", "OFF", "'no'", "\"yes\"", "y", "3", "-1", "0", "true", "false", "True", "[1]",
                 "{a: 1}", "''", "\"\\ud800\"", "\"\\udfff\"", "null", "nine", "1e3", "'3'", "9" * 20]
OPTION_TEXTS = ["no", "yes", "true", "False", "0", "1", "-1", "9" * 20, "", "nine", "3", "shooter chooses", "\udcff",
                "é", " true ", "1.5"]
SURROGATES = ["\\ud800", "\\udfff", "\\udc80x", "\\ud83d\\ude00"]  # escapes in double quotes; a pair too


def option_names(text: str) -> list[str]:
    """The options a rule file's text declares (its options section's keys), for -o values."""
    section = re.search(r"^options:\n((?:[ #].*\n|\n)*)", text, re.M)
    return re.findall(r"^  ([A-Za-z_]\w*):", section.group(1), re.M) if section else []


def mutate_rules(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        op = rng.random()
        i = rng.randrange(len(lines))
        line = lines[i]
        places = [j for j, x in enumerate(lines) if re.match(r"^\s+(default|choices):", x)]
        if op < 0.08 and places:  # an option's default or choices of another kind
            j = rng.choice(places)
            key = lines[j].partition(":")[0]
            value = rng.choice(OPTION_VALUES)
            lines[j] = f"{key}: " + (f"[{value}, {rng.choice(OPTION_VALUES)}]" if key.strip() == "choices" else value)
            continue
        quoted = [j for j, x in enumerate(lines) if x.count('"') >= 2]
        if op < 0.12 and quoted:  # a lone surrogate (or a pair) escaped in a double-quoted text
            j = rng.choice(quoted)
            head, _, rest = lines[j].partition('"')
            lines[j] = f'{head}"{rng.choice(SURROGATES)}{rest}'
            continue
        if op < 0.35 and ":" in line:  # a value replaced
            key, _, _ = line.partition(":")
            lines[i] = f"{key}: {rng.choice(SCALARS)}"
        elif op < 0.6 and '"' in line:  # an expression replaced or changed
            head, _, rest = line.partition('"')
            body, _, tail = rest.rpartition('"')
            roll = rng.random()
            if roll < 0.3:
                body = expression(rng)
            elif roll < 0.6:
                body = rng.choice(WRAPS).replace("{X}", body)
            else:
                words = re.findall(r"[A-Za-z_]+|\d+|\S", body) or ["x"]
                j = rng.randrange(len(words))
                words[j] = rng.choice(NAMES + LITERALS + OPS + BUILTINS)
                body = " ".join(words)
            lines[i] = f'{head}"{body.replace(chr(34), chr(39))}"{tail}'
        elif op < 0.7:
            del lines[i]
        elif op < 0.78:
            lines.insert(i, line)
        elif op < 0.85:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], line
        elif op < 0.9:
            lines[i] = " " * rng.choice([1, 2, 3, 4, 8]) + line
        elif op < 0.95:
            chain = "".join(f'  "h{k}(x)": "h{k - 1}(x) {rng.choice(["+", "*"])} h{k - 1}(x)"\n' for k in range(1, 30))
            lines.insert(0, f'define:\n  "h0(x)": "x + 1"\n{chain}')
        else:
            return "\n".join(lines)[: rng.randrange(len(text) + 1)]
    return "\n".join(lines)


# -- cases ---------------------------------------------------------------------------------------------------

@dataclass
class Case:
    kind: str
    seed: int
    number: int
    argv: list[str]
    files: dict[str, str]  # written into the case's folder before the command runs
    stdin: str = ""
    outcome: str = ""  # refused, accepted, played, stopped in play: how far the case got
    spec: dict = field(default_factory=dict)  # the new kinds: how the case is run (a fault, a signal's delay...)
    stats: dict = field(default_factory=dict)  # measured while it ran (CPU seconds, memory growth), for the summary

    def describe(self) -> str:
        shown = {k: (v if len(v) < 4000 else v[:4000] + "...") for k, v in self.files.items()}
        described = {"argv": self.argv, "files": shown, "stdin": self.stdin[:2000]}
        if self.spec:
            described["spec"] = self.spec
        if self.stats:
            described["stats"] = self.stats
        return json.dumps(described, indent=1)


def make_case(kind: str, seed: int, number: int) -> Case:
    rng = random.Random(f"{kind}:{seed}:{number}")
    if kind in NEW_KINDS:
        return _MAKERS[kind](kind, seed, number, rng)
    if kind == "rules":
        source = rng.choice(CORPUS)
        text = mutate_rules(rng, source.read_text())
        names = option_names(text) + ["nope"]
        spec = {"options": [f"{rng.choice(names)}={rng.choice(OPTION_TEXTS)}" for _ in range(rng.choice([1, 2]))]} \
            if rng.random() < 0.3 else {}
        return Case(kind, seed, number, ["validate+play", "rules.yaml"], {"rules.yaml": text}, spec=spec)
    if kind == "expressions":
        base = (ROOT / "docs" / "examples" / "bidding.yaml").read_text()
        slots = re.findall(r'^\s*[a-z_]+: "[^"\n]*"$|^\s*- "[^"\n]*"$', base, re.M)
        target = rng.choice(slots)
        head = target.split('"', 1)[0]
        own = target.split('"')[1]
        hostile = rng.choice(WRAPS).replace("{X}", own) if rng.random() < 0.5 else expression(rng)
        text = base.replace(target, f'{head}"{hostile.replace(chr(34), chr(39))}"', 1)
        return Case(kind, seed, number, ["validate+play", "rules.yaml"], {"rules.yaml": text})
    if kind == "records":
        game = rng.choice(_GAMES_OF_RECORDS)
        return Case(kind, seed, number, ["replay", "record.jsonl"], {"record.jsonl": f"@record {game} {seed}:{number}"},
                    spec={"game": game})
    if kind == "prompt":
        answers = [rng.choice(["1", "2", "0", "-1", "99", "²", "٣", "9" * 5000, "", " ", "\t", "x", "a", "P",
                               "\x00", "\x1b[A", "é" * 100, "1 2", "01", "+1", "Pass", "pass", "bid 1", "bid",
                               "yellow", "red", "1" * 16, "qs", "10h", "2c", "ac", "h10", "q", "sq", "jd", "3"])
                   for _ in range(rng.randint(0, 400))]
        game = rng.choice([("meinz", "4"), ("njet-riogrande", "3"), ("bidding.yaml", "4"), ("mue", "3"),
                           ("hearts", "4"), ("doppelkopf", "4"), ("skat", "3"), ("bridge", "4")])
        return Case(kind, seed, number, ["play", game[0], "-p", game[1], "--human", "1", "--seed", str(number)],
                    {}, "\n".join(answers) + ("\n" if answers and rng.random() < 0.5 else ""))
    raise ValueError(f"unknown kind {kind!r}")


# GAME:PLAYERS, a record trickbook play writes; GAME:PLAYERS:saved, a state the API saves (with its trick lines and
# the card monster's automatic ones), from round 3 (a header with "start")
_GAMES_OF_RECORDS = ["meinz:4", "njet-riogrande:3", "mue:5", "was-sticht:3", "bidding.yaml:4", "meinz:3:saved"]


# -- the child process ---------------------------------------------------------------------------------------

def _damage(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    op = rng.random()
    i = rng.randrange(len(lines))
    if op < 0.3:  # a JSON value replaced
        tokens = list(re.finditer(r'"[^"]*"|-?\d+|true|false|null', lines[i]))
        if tokens:
            t = rng.choice(tokens)
            hostile = rng.choice(['"' + "9" * 5000 + '"', "9" * 5000, "[" * 5000 + "]" * 5000, '"../../etc/passwd"',
                                  '"/etc/passwd"', "-1", "1e308", '"\\ud800"', "null", "{}", "[]", '"x"', "3.5",
                                  '"' + "é" * 200000 + '"', "99", "0"])
            lines[i] = lines[i][: t.start()] + hostile + lines[i][t.end():]
    elif op < 0.45:
        del lines[i]
    elif op < 0.55:
        lines.insert(i, lines[i])
    elif op < 0.65:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op < 0.75:
        return text[: rng.randrange(len(text) + 1)]
    elif op < 0.85:
        lines.insert(i, rng.choice(["", "{", "[]", "{\"type\": \"result\"}", "x" * 200000, "\x00\x01", "{\"a\":" * 30]))
    else:
        lines[0] = lines[0].replace('"rules_file": "', '"rules_file": "' + rng.choice(["../", "/", "../../", "x/"]))
    return "\n".join(lines)


_RECORDS: dict[str, str] = {}


def _good_record(game: str, folder: Path) -> str:
    """A good record of one game (made once per worker), naming its rule file relative to itself."""
    from interpreter.cli import main

    name, players, *saved = game.split(":")
    if name.endswith(".yaml"):  # the record names it beside itself
        shutil.copy(ROOT / "docs" / "examples" / name, folder / name)
    if game not in _RECORDS and saved:
        import interpreter as tb

        state = tb.load(name, int(players)).new_state(seed=1, hand=3, dealer=1)
        rng = random.Random(1)
        while not state.is_over():
            state.apply_chance() if state.is_chance() else state.apply(rng.choice(state.legal_actions()))
        _RECORDS[game] = state.serialize()
    if game not in _RECORDS:
        path = folder / "good.jsonl"
        rules = str(folder / name) if name.endswith(".yaml") else name
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            if main(["play", rules, "-p", players, "--quiet", "--seed", "1", "--record", str(path)]) != 0:
                raise RuntimeError(f"could not record a game of {game}")
        _RECORDS[game] = path.read_text()
    return _RECORDS[game]


def run_case(case: Case, folder: Path) -> str | None:
    """Run one case in this process; a problem as text, or None when the tool behaved."""
    from interpreter.cli import main

    if case.kind in NEW_KINDS:
        return _RUNNERS[case.kind](case, folder)
    for name, text in case.files.items():
        if text.startswith("@record "):
            _, game, key = text.split(" ")
            text = _damage(random.Random(f"damage:{key}"), _good_record(game, folder))
            case.files[name] = text  # for --show
        (folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    argv = [str(folder / a) if (folder / a).exists() else a for a in case.argv]
    if case.kind == "prompt" and argv[1].endswith(".yaml"):
        argv[1] = str(ROOT / "docs" / "examples" / argv[1])
    runs = [argv]
    if argv[0] == "validate+play":
        runs = [["validate", argv[1]]]
        disagreement = _parsers_disagree(case.files["rules.yaml"])
        if disagreement:
            return disagreement
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(case.stdin)
    try:
        for run in runs:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(run)
            if code not in (0, 1, 130):
                return f"exit code {code}"
            case.outcome = "refused" if code else "accepted"
            if run[0] == "validate" and code == 0:  # valid: play one game at one of its player counts
                count = _player_count(argv[1], case)
                chosen = [a for o in case.spec.get("options", []) for a in ("-o", o)]
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    code = main(["play", argv[1], "-p", str(count), "--quiet", "--seed", str(case.number), *chosen])
                case.outcome = "stopped in play" if code else "played"
                if code == 1 and chosen and re.search(r"error: (unknown )?option ", err.getvalue()):
                    case.outcome = "refused"  # an option's value of another kind: said in words, no place needed
                elif code == 1 and not POSITIONED.search(err.getvalue()):
                    return "a play error names no place in the rule file:\n" + err.getvalue()[-2000:]
    except SystemExit as exc:  # argparse refusing an argument: fine, it prints usage
        if exc.code not in (0, 2):
            return f"exit {exc.code}"
    except BaseException:  # noqa: BLE001 - this is what the fuzzer looks for
        return "traceback:\n" + traceback.format_exc()[-4000:]
    finally:
        sys.stdin = old_stdin
    if "Traceback" in err.getvalue():
        return "a traceback printed:\n" + err.getvalue()[-4000:]
    if "root:x:0:0" in err.getvalue() + out.getvalue():
        return "an error showed the content of a file that is not a rule file"
    if case.kind == "records":
        return _read_as_saved_state(case, folder, err.getvalue())
    return None


_LOADED: dict[str, Any] = {}  # the game of each good record, loaded once per worker


def _read_as_saved_state(case: Case, folder: Path, replayed: str) -> str | None:
    """The damaged record read by the API as a saved state too: ``load_serialized`` (the rules the header names)
    must say what ``trickbook replay`` said (``replayed``: its standard error), and ``deserialize`` on the good
    record's game what ``replay(path, game=...)`` says. No traceback, and the same words from each pair (a saved
    state, unlike a record, may end before the game does; a text that is no UTF-8 is refused in words of its
    own)."""
    import interpreter as tb
    from interpreter.errors import RecordError
    from interpreter.match.records import replay

    path, text = folder / "record.jsonl", case.files["record.jsonl"]
    place = rf"^({re.escape(str(path))}|serialized state)(:\d+)?: "
    if case.spec["game"] not in _LOADED:
        name, players, *_ = case.spec["game"].split(":")
        good = json.loads(_good_record(case.spec["game"], folder).split("\n", 1)[0])
        _LOADED[case.spec["game"]] = tb.load(folder / name if name.endswith(".yaml") else name, int(players),
                                             good["options"])
    game = _LOADED[case.spec["game"]]

    def said(read: Any) -> str:
        try:
            read()
            return "ok"
        except RecordError as exc:
            return re.sub(place, "", str(exc))
        except BaseException:  # noqa: BLE001 - this is what the fuzzer looks for
            return "traceback:\n" + traceback.format_exc()[-4000:]

    with contextlib.chdir(folder):  # load_serialized finds a rule file the header names in the current folder
        pairs = {"replay(path, game=...) and deserialize": (said(lambda: replay(path, game=game.engine)),
                                                            said(lambda: game.deserialize(text))),
                 "trickbook replay and load_serialized": (
                     re.sub(place, "", replayed.strip().removeprefix("trickbook: error: ")) or "ok",
                     said(lambda: tb.load_serialized(text)))}
    for readers, (as_record, as_state) in pairs.items():
        for words in (as_record, as_state):
            if words.startswith("traceback:"):
                return words
        if as_record.startswith("the record ends before the game does"):
            as_record = "ok"
        if as_record != as_state and not ("cannot read record" in as_record and "cannot read record" in as_state):
            return f"{readers} disagree: {as_record!r} against {as_state!r}"
    return None


def _parsers_disagree(text: str) -> str | None:
    """libyaml reads a file when it can; the pure-Python parser must read it the same way."""
    from interpreter.rules import yaml_loader

    if yaml_loader._FastLoader is None:
        return None
    try:
        fast = yaml_loader._load(text, "rules.yaml", yaml_loader._FastLoader)
    except Exception:  # noqa: BLE001 - the Python parser words the error: nothing to compare
        return None
    try:
        slow = yaml_loader._load(text, "rules.yaml", yaml_loader._Loader)
    except Exception as exc:  # noqa: BLE001
        return f"libyaml reads the file, the Python parser refuses it: {exc}"
    if fast != slow:
        return "libyaml and the Python parser read the file differently"
    return None


def _player_count(path: str, case: Case) -> int:
    from interpreter.engine.compile import supported_players
    from interpreter.rules.loader import load_rules

    counts = supported_players(load_rules(path))
    return random.Random(f"count:{case.kind}:{case.seed}:{case.number}").choice(counts)


# -- the families: names, huge, outputs, signals, decks, web -------------------------------------------------
#
# Each looks for one family of defect, with cases made from kind, seed and number like the others:
#
# names    defines and comprehension variables whose names look alike once written as Python locals; the game is
#          played as compiled and compiled again with every local numbered afresh (_v0, _v1...), in step: any
#          difference is a finding (the locals' names changed what the game does)
# huge     a rule file just under the 1 MB limit made of one huge expression or section; validate must accept or
#          refuse it with a positioned error within HUGE_CPU seconds of CPU and HUGE_MEMORY_MB of memory
# outputs  play, simulate, replay, conformance, validate and list writing to targets that fail (/dev/full, a
#          folder, a missing folder, a name too long, standard output or error raising ENOSPC or EPIPE...)
# signals  SIGINT (once or twice) to `trickbook simulate --workers 2` run as a process of its own: exit 130, one
#          line on standard error, no process of its group left behind
# decks    a generated game with a deck of 200-10,000 cards, 1-4 dealt to each seat, the rest in a hidden stock,
#          played by ismcts (which samples the hidden cards)

# -- names ---------------------------------------------------------------------------------------------------

# names that look alike once they are Python locals (``_v_`` + the name, ``f.x`` for the parameter x of f), or
# that are names of the generated code itself (e, _k0, _hs, _items, _t, _k), or Python's own words
NAME_VARS = ["x", "f_x", "_v_f_x", "_v_x", "f_0x", "f__x", "_0x", "x_", "_x", "_", "__", "_v_", "e", "_e", "e_",
             "_k0", "_k1", "_k", "_hs", "_items", "_t", "s", "seat", "v", "c", "card", "value", "lambda", "None",
             "True", "def", "print", "__builtins__", "__class__", "self", "g_x", "f", "g", "y", "f_y", "g_s"]
NAME_DEFINES = ["f", "g", "f_x", "g_x", "x", "e", "_k0", "_hs", "s", "seat", "card", "value", "sum_", "len2",
                "maxi", "count_", "total", "index_", "tricks", "lambda", "None", "_v_f", "f_0", "f_", "_items", "v",
                "round_", "text_", "y"]


class _Names:
    """Valid, deterministic expressions (numbers, tests, seats and lists of them) over round and seat values,
    whose comprehension variables and define parameters take the look-alike names above."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.defines: list[tuple[str, list[tuple[str, str]]]] = []  # name, [(parameter, kind)]
        self.callable = 0  # how many of the defines the expression being made may call

    def var(self, scope: dict[str, str], avoid: str = "") -> str:
        rng = self.rng
        if scope and rng.random() < 0.25:  # the same name as an outer one: it hides it inside
            return rng.choice(sorted(scope))
        if avoid and rng.random() < 0.4:  # the define's own name and parameter run together: f + x -> f_x
            return avoid
        return rng.choice(NAME_VARS)

    def num(self, scope: dict[str, str], depth: int) -> str:
        rng = self.rng
        roll = rng.random()
        if depth <= 0 or roll < 0.3:
            return self.num_atom(scope)
        if roll < 0.45:
            a, b = self.num(scope, depth - 1), self.num(scope, depth - 1)
            return f"({a} {rng.choice(['+', '-', '+'])} {b})"
        if roll < 0.52:
            return f"({self.num(scope, depth - 1)} {rng.choice(['*', '//', '%'])} {rng.randint(1, 7)})"
        if roll < 0.6:
            return f"({self.num(scope, depth - 1)} if {self.cond(scope, depth - 1)} else {self.num(scope, depth - 1)})"
        if roll < 0.8:
            return self.fold(scope, depth - 1)
        if roll < 0.9 and self.callable:
            return self.call(scope, depth - 1)
        if roll < 0.92:
            return f"{rng.choice(['max', 'min'])}({self.num(scope, depth - 1)}, {self.num(scope, depth - 1)})"
        if roll < 0.95:
            return f"abs({self.num(scope, depth - 1)})"
        items = [self.num(scope, depth - 1) for _ in range(rng.randint(1, 3))]
        return f"[{', '.join(items)}][{self.num(scope, depth - 1)} % {len(items)}]"

    def num_atom(self, scope: dict[str, str]) -> str:
        rng = self.rng
        options = [str(rng.randint(0, 9)), "round.number", "players", "len(trick)", "round.dealer.index"]
        for name, kind in scope.items():
            if kind == "num":
                options += [name, name]
            elif kind == "seat":
                options.append(f"{name}.{rng.choice(['index', 'tricks', 'total', 'index'])}")
                options.append(f"len({name}.{rng.choice(['hand', 'won'])})")
            elif kind == "card":  # in a sum: compared with a number no card has, a bare attribute is refused
                options.append(f"({name}.{rng.choice(['rank', 'rank', 'copy'])} + {rng.randint(0, 3)})")
        return rng.choice(options)

    def cond(self, scope: dict[str, str], depth: int) -> str:
        rng = self.rng
        roll = rng.random()
        seats = [n for n, k in scope.items() if k == "seat"]
        cards = [n for n, k in scope.items() if k == "card"]
        if depth <= 0 or roll < 0.35:
            return f"{self.num(scope, 0)} {rng.choice(['==', '!=', '<', '<=', '>', '>='])} {self.num(scope, 0)}"
        if roll < 0.45 and seats:
            return f"{rng.choice(seats)} {rng.choice(['==', '!='])} {self.seat(scope, depth - 1)}"
        if roll < 0.5 and cards:
            return f"{rng.choice(cards)}.suit {rng.choice(['==', '!='])} '{rng.choice(['hearts', 'spades'])}'"
        if roll < 0.65:
            return f"({self.cond(scope, depth - 1)} {rng.choice(['and', 'or'])} {self.cond(scope, depth - 1)})"
        if roll < 0.7:
            return f"not {self.cond(scope, depth - 1)}"
        if roll < 0.85:
            source, kind, _ = self.any_list(scope, depth - 1)
            var = self.var(scope)
            inner = dict(scope, **{var: kind})
            return f"{rng.choice(['any', 'all'])}({self.cond(inner, depth - 1)} for {var} in {source})"
        return f"{self.num(scope, depth - 1)} in {self.num_list(scope, depth - 1)[0]}"

    def seat(self, scope: dict[str, str], depth: int) -> str:
        rng = self.rng
        seats = [n for n, k in scope.items() if k == "seat"]
        roll = rng.random()
        if depth <= 0 or roll < 0.4:
            return rng.choice(seats + ["round.dealer"] * (1 + (not seats)))
        if roll < 0.7:
            return f"{rng.choice(['left', 'right'])}({self.seat(scope, depth - 1)})"
        if roll < 0.85:
            return f"seats[{self.num(scope, depth - 1)} % players]"
        return f"first(seats_from({self.seat(scope, depth - 1)}))"

    def num_list(self, scope: dict[str, str], depth: int) -> tuple[str, bool]:
        """A list of numbers, and whether it is sure to have an item (max and min need one)."""
        rng = self.rng
        roll = rng.random()
        if depth <= 0 or roll < 0.3:
            return f"[{', '.join(str(rng.randint(0, 20)) for _ in range(rng.randint(1, 4)))}]", True
        if roll < 0.45:
            return f"range({rng.randint(0, 2)}, {rng.randint(3, 6)})", True
        if roll < 0.55:
            return f"range({self.num(scope, depth - 1)} % 3, 4)", True
        if roll < 0.85:
            source, kind, full = self.any_list(scope, depth - 1)
            var = self.var(scope)
            inner = dict(scope, **{var: kind})
            body = self.num(inner, depth - 1)
            if rng.random() < 0.3:
                return f"[{body} for {var} in {source} if {self.cond(inner, depth - 1)}]", False
            return f"[{body} for {var} in {source}]", full
        inner_list, full = self.num_list(scope, depth - 1)
        return f"{rng.choice(['sort', 'reverse', 'distinct'])}({inner_list})", full

    def any_list(self, scope: dict[str, str], depth: int) -> tuple[str, str, bool]:
        """A list to loop over: its source, the kind of its items, and whether it is sure to have one."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.45:
            source, full = self.num_list(scope, depth)
            return source, "num", full
        if roll < 0.8:
            return self._seat_list(scope, depth)
        seats = [n for n, k in scope.items() if k == "seat"] or ["round.dealer"]
        return rng.choice(["trick", "stock", f"{rng.choice(seats)}.hand", f"{rng.choice(seats)}.won"]), "card", False

    def _seat_list(self, scope: dict[str, str], depth: int) -> tuple[str, str, bool]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.4:
            return "seats", "seat", True
        if roll < 0.6:
            return f"seats_from({self.seat(scope, depth)})", "seat", True
        if roll < 0.75:
            return f"team({self.seat(scope, depth)})", "seat", True
        var = self.var(scope)
        inner = dict(scope, **{var: "seat"})
        return f"[{var} for {var} in seats if {self.cond(inner, depth - 1)}]", "seat", False

    def fold(self, scope: dict[str, str], depth: int) -> str:
        """sum, count, len, max or min of a comprehension, its variable named like the others."""
        rng = self.rng
        source, kind, full = self.any_list(scope, depth)
        var = self.var(scope)
        inner = dict(scope, **{var: kind})
        body = self.num(inner, depth)
        how = rng.choice(["sum", "sum[]", "len", "count", "max", "min"])
        if how in ("max", "min"):
            if not full:
                source, kind, full = "range(0, 3)", "num", True
                inner = dict(scope, **{var: kind})
                body = self.num(inner, depth)
            return f"{how}({body} for {var} in {source})"
        if how == "sum":
            return f"sum({body} for {var} in {source}" + (f" if {self.cond(inner, depth)})" if rng.random() < 0.3
                                                            else ")")
        if how == "sum[]":
            return f"sum([{body} for {var} in {source}])"
        if how == "len":
            return f"len([{body} for {var} in {source} if {self.cond(inner, depth)}])"
        return f"count({self.cond(inner, depth)} for {var} in {source})"

    def call(self, scope: dict[str, str], depth: int) -> str:
        name, params = self.defines[self.rng.randrange(self.callable)]
        args = []
        for _, kind in params:
            if kind == "num":
                args.append(self.num(scope, depth))
            elif kind == "seat":
                args.append(self.seat(scope, depth))
            else:
                cards = [n for n, k in scope.items() if k == "card"]
                args.append(self.rng.choice(cards) if cards else "first(stock)")
        return f"{name}({', '.join(args)})"

    def define(self, name: str) -> tuple[str, str]:
        """A define's key and body; sometimes with a comprehension variable named NAME_PARAM (the local its
        parameter once became: ``f(x): "sum([x for f_x in [10, 20]])"``)."""
        rng = self.rng
        count = rng.choice([0, 1, 1, 2, 2, 3])
        params: list[tuple[str, str]] = []
        pool = NAME_VARS + [d for d, _ in self.defines] + [p for _, ps in self.defines for p, _ in ps]
        while len(params) < count:
            p = rng.choice(pool)
            if p not in [q for q, _ in params]:
                params.append((p, rng.choice(["num", "num", "seat", "card"])))
        scope = dict(params)
        if params and rng.random() < 0.4:
            p, kind = rng.choice(params)
            read = {"num": p, "seat": f"{p}.index", "card": f"{p}.rank"}[kind]
            joined = f"{name}_{p}"
            inner = dict(scope, **{joined: "num"})
            body = rng.choice([f"sum([{read} for {joined} in [10, 20]])",
                               f"sum({read} + {joined} for {joined} in {self.num_list(scope, 1)[0]})",
                               f"len([{joined} for {joined} in [{read}, {read}] if {self.cond(inner, 1)}])"])
            if rng.random() < 0.5:
                body = f"{body} + {self.num(scope, 2)}"
        else:
            body = self.num(scope, rng.randint(1, 3))
        self.defines.append((name, params))
        key = f"{name}({', '.join(p for p, _ in params)})" if params or rng.random() < 0.7 else name
        return key, body


NAMES_BASE = ROOT / "docs" / "examples" / "bidding.yaml"


def _names_rules(rng: random.Random) -> str:
    """The bidding example with look-alike defines used in its score, its bids, its trick winner, its deal."""
    gen = _Names(rng)
    names = rng.sample(NAME_DEFINES, rng.randint(1, 6))
    lines = []
    for i, name in enumerate(names):
        gen.callable = i  # a define calls only those before it: never itself
        key, body = gen.define(name)
        lines.append(f'  "{key}": "{body}"')
    gen.callable = len(gen.defines)
    text = NAMES_BASE.read_text()
    text = text.replace("\ngame:\n", "\ndefine:\n" + "\n".join(lines) + "\n\ngame:\n", 1)
    points = gen.num({"seat": "seat"}, rng.randint(1, 4))
    text = text.replace('points: "10 + seat.bid if seat.tricks == seat.bid else 0"',
                        f'points: "({points}) % 97 + (10 + seat.bid if seat.tricks == seat.bid else 0)"', 1)
    if rng.random() < 0.6:  # the bids allowed: 0 or 1 always, as the hook forbids only one
        allowed = gen.cond({"seat": "seat", "value": "num"}, rng.randint(1, 3))
        text = text.replace('allowed: "seat != round.dealer or sum(h.value for h in history) + value != 5"',
                            'allowed: "(seat != round.dealer or sum(h.value for h in history) + value != 5) and '
                            f'(value < 2 or {allowed})"', 1)
    if rng.random() < 0.5:
        label = gen.num({"seat": "seat", "value": "num"}, rng.randint(0, 2))
        text = text.replace('''label: "'bid ' + text(value)"''',
                            f'''label: "'bid ' + text(value) + ' ' + text({label})"''', 1)
    if rng.random() < 0.6:  # the trick's winner
        strength = gen.num({"card": "card", "led": "card", "seat": "seat"}, rng.randint(1, 3))
        text = text.replace('      - "card.suit == led.suit"\n',
                            f'      - "({strength}) % 3"\n      - "card.suit == led.suit"\n', 1)
    if rng.random() < 0.5:  # the deal: 3 to 5 cards
        hand = gen.num({}, rng.randint(1, 3))
        text = text.replace("    hand: 5\n", f'    hand: "({hand}) % 3 + 3"\n', 1)
    return text


def _make_names(kind: str, seed: int, number: int, rng: random.Random) -> Case:
    return Case(kind, seed, number, ["locals as compiled vs numbered", "rules.yaml"], {"rules.yaml": _names_rules(rng)},
                spec={"players": rng.choice([3, 4]), "play": f"names/{seed}/{number}"})


def _labels(game: Any, decision: Any) -> list[str]:
    return [decision.step.words.label(game, x) for x in decision.actions]


def _in_step(fast: Any, slow: Any, key: str) -> tuple[str | None, str]:
    """Play the two compiled games in step (random choices from ``key``): a difference (or None), and how far
    the game got."""
    from interpreter.engine.state import CHANCE
    from interpreter.errors import TrickbookError

    rng = random.Random(key)

    def both(fa: Any, fb: Any) -> tuple[Any, Any, str | None, str | None]:
        got = []
        for fn in (fa, fb):
            try:
                got.append((fn(), None))
            except TrickbookError as exc:
                got.append((None, str(exc)))
        return got[0][0], got[1][0], got[0][1], got[1][1]

    def judged(what: str, ea: str | None, eb: str | None) -> tuple[str | None, str] | None:
        """None while both went on; else the end of the comparison."""
        if ea is None and eb is None:
            return None
        if ea != eb:
            return (f"{what}: as compiled {'it fails: ' + ea if ea else 'it does not fail'}; with numbered locals "
                    f"{'it fails: ' + eb if eb else 'it does not'}"), "disagree"
        if not POSITIONED.search(ea or ""):
            return f"{what}: a play error names no place in the rule file: {ea}", "stopped in play"
        return None, "stopped in play"

    a, b, ea, eb = both(fast.new_state, slow.new_state)
    end = judged("starting the game", ea, eb)
    if end:
        return end
    actions = 0
    while True:
        sa, sb = snapshot(a), snapshot(b)
        if sa != sb:
            return f"the states differ after {actions} actions: {differences(sa, sb)}", "disagree"
        if a.finished:
            break
        d, e = a.pending, b.pending
        if d.actor == CHANCE:
            try:
                outcome = d.step.chance.sample(fast, a, rng)
            except TrickbookError as exc:
                return judged(f"chance event after {actions} actions", str(exc), str(exc))  # type: ignore[return-value]
            chosen = (outcome, outcome)
        else:
            la, lb, ea, eb = both(functools.partial(_labels, fast, d), functools.partial(_labels, slow, e))
            end = judged(f"labels after {actions} actions", ea, eb)
            if end:
                return end
            if la != lb:
                return f"the labels of the legal actions differ after {actions} actions: {la} vs {lb}", "disagree"
            i = rng.randrange(len(d.actions))
            chosen = (d.actions[i], e.actions[i])
        _, _, ea, eb = both(functools.partial(fast.apply_fast, a, chosen[0]),
                            functools.partial(slow.apply_fast, b, chosen[1]))
        end = judged(f"action {actions} ({chosen[0]!r})", ea, eb)
        if end:
            return end
        actions += 1
    if a.totals != b.totals or fast.winners(a) != slow.winners(b):
        return f"totals or winners differ: {a.totals} vs {b.totals}", "disagree"
    return None, "played"


def _with_numbered_locals(compile_game: Any, *args: Any) -> Any:
    """``compile_game(*args)`` with each comprehension variable and define parameter made the Python local
    ``_v0``, ``_v1``... in the order they are met: one-to-one whatever the names look like, so a game that
    plays otherwise than the one compiled with codegen.local_name's locals shows two names sharing one."""
    from interpreter.dsl import emit

    numbered: dict[str, str] = {}
    real = emit.local_name
    emit.local_name = lambda name: numbered.setdefault(name, f"_v{len(numbered)}")
    try:
        return compile_game(*args)
    finally:
        emit.local_name = real


def _run_names(case: Case, folder: Path) -> str | None:
    from interpreter.cli import main
    from interpreter.engine.compile import compile_game
    from interpreter.errors import TrickbookError
    from interpreter.harness.agents import RandomAgent
    from interpreter.harness.runner import play_game
    from interpreter.rules.loader import load_rules

    path = folder / "rules.yaml"
    path.write_text(case.files["rules.yaml"], encoding="utf-8")
    err = io.StringIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(["validate", str(path)])
        if code != 0:  # the generator's slip (or the compiler refusing a valid file): counted, shown by --show
            case.outcome = "refused"
            case.stats = {}
            case.spec["refused"] = err.getvalue()[-2000:]
            return None
        source = load_rules(str(path))
        players = case.spec["players"]
        fast, slow = compile_game(source, players), _with_numbered_locals(compile_game, source, players)
        problem, case.outcome = _in_step(fast, slow, case.spec["play"])
        if problem:
            return ("the names of the locals change the game: " if case.outcome == "disagree" else "") + problem
        if case.outcome == "played":  # and the same game through the runner, recorded
            records = []
            for game in (fast, slow):
                try:
                    out = play_game(game, [RandomAgent(f"{case.number}:{s}") for s in range(players)], case.number,
                                    record=True)
                    records.append((out.record, out.totals, out.winners))
                except TrickbookError as exc:
                    records.append(str(exc))
            if records[0] != records[1]:
                return "the names of the locals change the game: the records of one seeded game differ"
    except BaseException:  # noqa: BLE001 - a traceback is a finding
        return "traceback:\n" + traceback.format_exc()[-4000:]
    if "Traceback" in err.getvalue():
        return "a traceback printed:\n" + err.getvalue()[-4000:]
    return None


# -- huge ----------------------------------------------------------------------------------------------------

HUGE_LIMIT = 1_000_000  # interpreter/rules/yaml_loader.py: MAX_BYTES, the largest rule file read
HUGE_CPU = 4.0  # seconds of CPU a validate of one file may take before it is a finding (the aim is 2 s)
HUGE_MEMORY_MB = 300  # memory one validate may add to the process's own before it is a finding
HUGE_CPU_LIMIT = 60  # a case's process is stopped (SIGXCPU) after this much CPU: a finding in any case


def _huge_expression(shape: str, n: int, rng: random.Random) -> tuple[str, str]:
    """One huge expression of ``shape`` with ``n`` repeated parts: its text and its kind (number or test)."""
    item = rng.choice(["1", "0", "7", "seat.tricks", "round.number"])
    if shape == "list":
        return f"len([{', '.join([item] * n)}])", "number"
    if shape == "sum-list":
        return f"sum([{', '.join([item] * n)}])", "number"
    if shape == "plus":
        op = rng.choice([" + ", "+", " - ", " * ", " + 2 * "])
        return op.join(["1" if op == " * " else item] * n), "number"
    if shape == "and":
        part = rng.choice(["true", "seat.tricks >= 0", "1 < 2", "not false"])
        return f" {rng.choice(['and', 'or'])} ".join([part] * n), "test"
    if shape == "parens":
        return "(" * n + item + ")" * n, "number"
    if shape == "brackets":
        return "len(" + "[" * n + item + "]" * n + ")", "number"
    if shape == "calls":
        f = rng.choice(["abs", "len", "max", "sum", "first", "text"])
        return f"{f}(" * n + item + ")" * n, "number"
    if shape == "unary":
        return (rng.choice(["- ", "-", "not "]) * n) + rng.choice(["1", "true"]), "number"
    if shape == "compare":
        return " < ".join(str(i % 10) for i in range(n)), "test"
    if shape == "string":
        return f"'{rng.choice('xé€') * n}' == 'x'", "test"
    if shape == "comprehensions":
        return "sum(" * n + item + "".join(f" for v{i} in [1])" for i in range(n)), "number"
    if shape == "lists-in-lists":
        return "len(" + "[" * n + "1" + "".join(f" for v{i} in [1]]" for i in range(n)) + ")", "number"
    if shape == "if-else":
        return f"{item} if true else " * n + "0", "number"
    if shape == "index":
        return "[1]" + "[0]" * n, "number"
    if shape == "attributes":
        return "seat" + ".index" * n, "number"
    if shape == "big-numbers":
        return " + ".join(["999999999999999"] * n), "number"
    if shape == "names":
        return " + ".join(f"v{i}" for i in range(n)), "number"
    raise ValueError(shape)


HUGE_EXPRESSIONS = ("list", "sum-list", "plus", "and", "parens", "brackets", "calls", "unary", "compare", "string",
                    "comprehensions", "lists-in-lists", "if-else", "index", "attributes", "big-numbers", "names")
HUGE_SECTIONS = ("define-chain", "defines", "define-fanout", "setup-keys", "options", "zones", "steps",
                 "unknown-keys", "yaml-flow-deep", "yaml-map-deep", "yaml-block-deep", "yaml-seq-deep", "folded",
                 "deck", "many-errors", "comment")


def _huge_file(shape: str, n: int, rng: random.Random, copies: int = 0) -> str:
    """The bidding example with one huge part of ``shape``, ``n`` repeated parts (an expression: and ``copies``
    more score steps with it)."""
    base = NAMES_BASE.read_text()
    score = 'points: "10 + seat.bid if seat.tricks == seat.bid else 0"'
    if shape in HUGE_EXPRESSIONS:
        text, kind = _huge_expression(shape, n, rng)
        body = text if kind == "number" else f"1 if {text} else 0"
        base += "".join(f'  more{i}: {{do: score, points: "{body}"}}\n' for i in range(copies))
        slot = rng.choice(["points", "allowed", "follow"] if kind == "test" else ["points", "points", "strength"])
        if slot == "points":
            return base.replace(score, f'points: "{body}"', 1)
        if slot == "strength":
            return base.replace('      - "card.rank"\n', f'      - "{text}"\n', 1)
        if slot == "allowed":
            return base.replace('allowed: "seat != round.dealer or sum(h.value for h in history) + value != 5"',
                                f'allowed: "{text}"', 1)
        return base.replace('follow: "card.suit == led.suit"', f'follow: "{text}"', 1)
    if shape == "define-chain":  # each define calls the one before
        defines = '  d0: "1"\n' + "".join(f'  d{i}: "d{i - 1}() + 1"\n' for i in range(1, n))
        return base.replace("\ngame:\n", f"\ndefine:\n{defines}\ngame:\n", 1).replace(score, f'points: "d{n - 1}()"')
    if shape == "defines":  # many defines, all called
        defines = "".join(f'  d{i}(x): "x + {i}"\n' for i in range(n))
        calls = " + ".join(f"d{i}(seat.tricks)" for i in range(0, n, max(1, n // 2000)))
        return base.replace("\ngame:\n", f"\ndefine:\n{defines}\ngame:\n", 1).replace(score, f'points: "{calls}"')
    if shape == "define-fanout":  # each define calls the one before twice: 2**n calls
        defines = '  d0(x): "x"\n' + "".join(f'  d{i}(x): "d{i - 1}(x) + d{i - 1}(x + 1)"\n' for i in range(1, n))
        return base.replace("\ngame:\n", f"\ndefine:\n{defines}\ngame:\n", 1).replace(score, f'points: "d{n - 1}(1)"')
    if shape == "setup-keys":
        keys = ", ".join(f"k{i}: {i}" for i in range(n))
        return base.replace("  4: {}\n", f"  4: {{{keys}}}\n", 1)
    if shape == "options":
        options = "".join(f"  o{i}: {{description: option {i}, default: {i}}}\n" for i in range(n))
        return base.replace("\ndeck:\n", f"\noptions:\n{options}\ndeck:\n", 1)
    if shape == "zones":
        zones = "".join(f"  z{i}: {{visible: nobody}}\n" for i in range(n))
        return base.replace("  trick: {visible: all}\n", "  trick: {visible: all}\n" + zones, 1)
    if shape == "steps":
        steps = "".join(f"  s{i}: {{do: score, points: \"seat.tricks + {i}\"}}\n" for i in range(n))
        return base + steps
    if shape == "unknown-keys":
        return base + "".join(f"x{i}: {i}\n" for i in range(n))
    if shape == "yaml-flow-deep":
        return base.replace("  4: {}\n", "  4: {deep: " + "[" * n + "1" + "]" * n + "}\n", 1)
    if shape == "yaml-map-deep":
        return base.replace("  4: {}\n", "  4: {deep: " + "{a: " * n + "1" + "}" * n + "}\n", 1)
    if shape == "yaml-block-deep":
        nested = "".join(" " * (4 + i) + f"a{i}:\n" for i in range(n)) + " " * (4 + n) + "x: 1\n"
        return base.replace("  4: {}\n", "  4:\n    deep:\n" + nested, 1)
    if shape == "yaml-seq-deep":
        return base.replace("  4: {}\n", "  4:\n    deep:\n      " + "- " * n + "1\n", 1)
    if shape == "folded":  # one expression over many lines (positions in folded text)
        lines = "".join(f"      {rng.choice(['seat.tricks', '1', 'nope'])} +\n" for _ in range(n))
        return base.replace(score, "points: >-\n" + lines + "      0", 1)
    if shape == "deck":
        numbers = ", ".join(str(i) for i in range(n))
        return base.replace("      rank: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]", f"      rank: [{numbers}]", 1)
    if shape == "many-errors":
        steps = "".join(f"  s{i}: {{do: score, points: \"seat.nope{i}\"}}\n" for i in range(n))
        return base + steps
    if shape == "comment":
        return base + "# " + "x" * n + "\n"
    raise ValueError(shape)


def _most_parts(size: Any, target: int) -> int:
    """About the largest n with ``size(n) <= target`` (sizes grow with n, linearly or faster): steps scaled by
    the size so far (at most 8 times larger), then halving between what fits and what does not."""
    low, low_size, high = 1, size(1), None
    if low_size > target:
        return 1
    for _ in range(60):
        if high is None:
            guess = min(8 * low, max(low + 1, int(low * target / low_size)))
        elif high - low <= 1:
            break
        else:
            guess = (low + high) // 2
        got = size(guess)
        if got <= target:
            low, low_size = guess, got
            if target - got <= max(64, target // 2000):  # within 0.05%: close enough
                break
        else:
            high = guess
    return low


# nested shapes: their parts are levels of the expression's tree (a chain of operators too: 1 + 1 + 1 is a tree)
HUGE_NESTED = ("plus", "and", "parens", "brackets", "calls", "unary", "compare", "comprehensions", "lists-in-lists",
               "if-else", "index", "attributes", "big-numbers", "names")


def _rule_limits() -> dict[str, int]:
    """The loader's limits as they are now (read at run time: they are being tuned), with defaults."""
    from interpreter import limits
    from interpreter.dsl import parser
    from interpreter.rules import yaml_loader

    return {"nodes": getattr(limits, "MAX_YAML_NODES", 10_000),
            "chars": getattr(limits, "MAX_EXPRESSION_CHARS", 10_000),
            "tokens": getattr(limits, "MAX_EXPRESSION_TOKENS", 2_000),
            "file tokens": getattr(limits, "MAX_RULE_TOKENS", 30_000),
            "checked tokens": getattr(limits, "MAX_CHECKED_TOKENS", 100_000) // 2,  # bidding: 2 player counts
            "nesting": getattr(parser, "MAX_NESTING", 100), "yaml depth": getattr(yaml_loader, "MAX_DEPTH", 64)}


def _tokens(text: str) -> int:
    from interpreter import limits

    pattern = getattr(limits, "TOKEN", None) or re.compile(r"""'[^'\n]*'?|"[^"\n]*"?|\w+|//|[=!<>]=|\S""")
    return len(pattern.findall(text))


def _yaml_counts(text: str) -> tuple[int, int]:
    """The YAML nodes of a file and the tokens of its text values, as the loader counts them (about)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    kinds = (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)
    nodes = tokens = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, kinds):
                nodes += 1
                if isinstance(event, yaml.ScalarEvent):
                    tokens += _tokens(event.value)
    except yaml.YAMLError:
        pass
    return nodes, tokens


def _make_huge(kind: str, seed: int, number: int, rng: random.Random) -> Case:
    """Two modes: the file's bytes just under (or just over) the 1 MB limit, most cases refused cheaply by the
    limits the loader counts first; or the file just under every one of those limits (expression characters and
    tokens, nesting, tokens of the file, YAML nodes and depth), so the work they bound is done in full."""
    shape = rng.choice(HUGE_EXPRESSIONS + HUGE_SECTIONS)
    key = f"huge:{seed}:{number}"
    mode = "limits" if rng.random() < 0.6 else "bytes"
    roll = rng.random()
    if mode == "limits" or roll < 0.75:
        target = HUGE_LIMIT - rng.randint(0, 2000)  # just under the limit
    elif roll < 0.95:
        target = rng.randint(5000, HUGE_LIMIT)
    else:
        target = HUGE_LIMIT + rng.randint(1, 10)  # just over: refused before it is read
    share = rng.choice([1.0, 1.0, rng.uniform(0.9, 1.0)])  # of each limit
    lim = _rule_limits()
    spec: dict[str, Any] = {"shape": shape, "mode": mode}
    if mode == "bytes":
        parts = _most_parts(lambda n: len(_huge_file(shape, n, random.Random(key)).encode()), target)
        copies = 0
    else:
        def fill(n: int, copies: int = 0, whole: bool = True) -> float:  # the largest share of a limit taken
            text = _huge_file(shape, n, random.Random(key), copies)
            nodes, tokens = _yaml_counts(text)
            used = [len(text.encode()) / target, tokens / lim["file tokens"], tokens / lim["checked tokens"],
                    nodes / lim["nodes"]]
            if not whole:  # the file's limits only
                return max(used)
            if shape in HUGE_EXPRESSIONS:
                expression = _huge_expression(shape, n, random.Random(key))[0]
                used += [len(expression) / lim["chars"], _tokens(expression) / lim["tokens"]]
            if shape == "folded":
                expression = " ".join(x.strip() for x in text.split("points: >-\n", 1)[1].split("\n")[:n + 1])
                used += [len(expression) / lim["chars"], _tokens(expression) / lim["tokens"]]
            if shape in HUGE_NESTED:
                used.append((n + 1) / lim["nesting"])
            if shape.startswith("yaml-") and shape.endswith("-deep"):
                used.append((n + 4) / lim["yaml depth"])
            return max(used)

        scale = 100_000  # _most_parts compares whole numbers
        parts = _most_parts(lambda n: int(fill(n) * scale), int(share * scale))
        copies = 0
        if shape in HUGE_EXPRESSIONS:  # as many more score steps with it as the file's limits leave room for
            copies = _most_parts(lambda m: int(fill(parts, m - 1, whole=False) * scale), int(share * scale)) - 1
        spec["share"] = round(share, 3)
    text = _huge_file(shape, parts, random.Random(key), copies)
    if target > HUGE_LIMIT:
        text += "#" * (target - len(text.encode()))
    spec.update({"parts": parts, "copies": copies, "bytes": len(text.encode())})
    return Case(kind, seed, number, ["validate", "rules.yaml"], {"rules.yaml": text}, spec=spec)


def _memory_now() -> tuple[int, int]:
    """This process's resident and virtual size, in bytes."""
    with open("/proc/self/statm") as f:
        size, resident = (int(x) for x in f.read().split()[:2])
    page = os.sysconf("SC_PAGE_SIZE")
    return resident * page, size * page


def _forked(argv: list[str], extra_mb: int, cpu_seconds: int) -> dict[str, Any]:
    """``trickbook ARGV`` in a fork of this process: its exit code, output, traceback, CPU seconds and peak
    memory growth.

    A fork starts with everything this worker has imported and holds, so what it adds is the case's own: its
    address space is limited to this process's size plus ``extra_mb`` (RLIMIT_AS: an allocation past it fails
    with MemoryError at once), its CPU to ``cpu_seconds`` (RLIMIT_CPU: SIGXCPU), and ``os.wait4`` gives the
    resource use of that one child: its CPU time and its peak resident size (ru_maxrss), from which the
    resident size at the fork is taken away. (RUSAGE_CHILDREN would give the largest child of all the cases, and
    ru_maxrss of the worker itself only ever grows, so neither tells one case from the others.)
    """
    import resource

    from interpreter.cli import main

    resident, virtual = _memory_now()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, tell, and leave without running the parent's exit handlers
        try:
            os.close(read_end)
            hard = resource.getrlimit(resource.RLIMIT_AS)[1]
            soft = virtual + extra_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
            out, err = io.StringIO(), io.StringIO()
            result: dict[str, Any] = {"code": None, "traceback": None}
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    result["code"] = main(argv)
            except SystemExit as exc:
                result["code"] = exc.code
            except BaseException:  # noqa: BLE001 - what the parent looks for
                result["traceback"] = traceback.format_exc()[-4000:]
            said = err.getvalue()
            result["out"] = out.getvalue()[-2000:]
            result["err"] = said if len(said) <= 6000 else said[:3000] + "\n[...]\n" + said[-3000:]
            with os.fdopen(write_end, "w") as tell:
                tell.write(json.dumps(result))
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as heard:
        text = heard.read()
    _, status, usage = os.wait4(pid, 0)
    result = json.loads(text) if text else {"code": None, "traceback": None, "out": "", "err": ""}
    result["signal"] = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    result["cpu"] = usage.ru_utime + usage.ru_stime
    result["memory_mb"] = max(0.0, (usage.ru_maxrss * 1024 - resident) / 2**20)
    return result


def _run_huge(case: Case, folder: Path) -> str | None:
    path = folder / "rules.yaml"
    path.write_text(case.files["rules.yaml"], encoding="utf-8")
    got = _forked(["validate", str(path)], HUGE_MEMORY_MB, HUGE_CPU_LIMIT)
    case.stats = {"cpu_s": round(got["cpu"], 3), "memory_mb": round(got["memory_mb"], 1)}
    case.spec.update(case.stats)
    where = (f"({case.spec['shape']}, {case.spec['parts']} parts, {case.spec['copies']} copies, "
             f"{case.spec['bytes']} bytes)")
    if got["signal"] is not None:
        case.outcome = "died"
        return f"validate died of signal {got['signal']} after {got['cpu']:.1f} s of CPU {where}"
    tb = got["traceback"]
    if tb:
        case.outcome = "traceback"
        if "MemoryError" in tb:
            return f"validate needed more than {HUGE_MEMORY_MB} MB {where}:\n{tb}"
        return f"traceback {where}:\n{tb}"
    code, err = got["code"], got["err"]
    case.outcome = {0: "accepted", 1: "refused"}.get(code, f"exit {code}")
    if code not in (0, 1):
        return f"validate exit code {code} {where}: {err[-1000:]}"
    if "Traceback" in err:
        return f"a traceback printed {where}:\n{err}"
    if code == 1 and not POSITIONED.match(err):
        return f"refused without a FILE:LINE:COL position {where}: {err[:1000]}"
    if got["cpu"] > HUGE_CPU:
        return f"validate took {got['cpu']:.1f} s of CPU (more than {HUGE_CPU:.0f} s) {where}"
    if got["memory_mb"] > HUGE_MEMORY_MB:
        return f"validate grew by {got['memory_mb']:.0f} MB (more than {HUGE_MEMORY_MB} MB) {where}"
    return None


# -- outputs -------------------------------------------------------------------------------------------------

# failing files for --record and --report; failing standard streams, in this process (a stream object that
# raises) or for real (a process of its own writing to /dev/full, a closed descriptor, a pipe nobody reads)
FILE_FAULTS = ("/dev/full", "directory", "missing folder", "read-only", "name too long", "path too long",
               "under a file")
# "closed": the stream is None, as Python has it when the descriptor is closed (print then writes nothing)
STREAM_FAULTS = ("ENOSPC on write", "ENOSPC on flush", "ENOSPC after some output", "EPIPE on write",
                 "EPIPE on flush", "EIO on write", "closed")
REAL_FAULTS = ("real /dev/full", "real closed", "real broken pipe")


def _make_outputs(kind: str, seed: int, number: int, rng: random.Random) -> Case:
    command = rng.choice(["play", "play", "simulate", "simulate", "replay", "conformance", "validate", "list"])
    game, players = rng.choice([("bidding.yaml", "4"), ("bidding.yaml", "3"), ("whist", "4")])
    bad = rng.random() < 0.2  # the command has something else to say on standard error too
    streams = ["stdout", "stdout", "stderr"] + {"play": ["record"] * 3, "simulate": ["report"] * 3}.get(command, [])
    stream = rng.choice(streams)
    if stream in ("record", "report"):
        fault = rng.choice(FILE_FAULTS)
    else:
        fault = rng.choice(STREAM_FAULTS + REAL_FAULTS if rng.random() < 0.3 else STREAM_FAULTS)
    files: dict[str, str] = {}
    if command == "play":
        argv = ["play", game, "-p", players, "--seed", str(number)] + (["--quiet"] if rng.random() < 0.5 else [])
        if stream == "record":
            argv += ["--record", "@target"]
        elif rng.random() < 0.3:
            argv += ["--record", "good.jsonl"]
    elif command == "simulate":
        argv = ["simulate", game, "-p", players, "-n", str(rng.randint(1, 4)), "--seed", str(number)]
        argv += (["--json"] if rng.random() < 0.3 else []) + (["--workers", "2"] if rng.random() < 0.1 else [])
        if stream == "report":
            argv += ["--report", "@target"]
        elif rng.random() < 0.2:
            argv += ["--report", "good.html"]
    elif command == "replay":
        argv = ["replay", "record.jsonl"]
        files["record.jsonl"] = "@record bidding.yaml:4 bad" if bad else "@record bidding.yaml:4"
    elif command == "conformance":
        argv = ["conformance", game, "-p", players, "-n", str(rng.randint(1, 2))] + (["--json"] if rng.random() < 0.3
                                                                                    else [])
    elif command == "validate":
        argv = ["validate", "rules.yaml"] + (["rules.yaml"] if rng.random() < 0.3 else [])
        text = NAMES_BASE.read_text()
        files["rules.yaml"] = text.replace('"card.rank"', '"card.nope"', 1) if bad else text
    else:
        argv = ["list"]
    if bad and command in ("play", "simulate"):
        argv += ["--option", "nope=1"]  # refused, one line on standard error
    if bad and command == "conformance":
        argv[3] = "9"  # a player count the game does not have: likewise
    if game.endswith(".yaml") and command in ("play", "simulate", "conformance"):
        files["bidding.yaml"] = "@copy"
        argv[1] = "bidding.yaml"
    spec = {"stream": stream, "fault": fault, "bad": bad, "tty": rng.random() < 0.3,
            "after": rng.randint(0, 400)}
    return Case(kind, seed, number, argv, files, spec=spec)


class _FaultyStream(io.TextIOBase):
    """A standard stream whose writes fail as ``fault`` says (the text before the failure is kept)."""

    def __init__(self, fault: str, after: int, tty: bool) -> None:
        self.fault, self.after, self.tty = fault, after, tty
        self.kept: list[str] = []
        self.pending: list[str] = []
        self.failed = 0  # writes and flushes that raised
        self.written = 0

    def _error(self) -> Exception:
        self.failed += 1
        if self.fault.startswith("EPIPE"):
            return BrokenPipeError(errno.EPIPE, "Broken pipe")
        code = errno.EIO if self.fault.startswith("EIO") else errno.ENOSPC
        return OSError(code, os.strerror(code))

    def write(self, text: str) -> int:
        if not text:
            return 0
        if self.fault in ("ENOSPC on write", "EPIPE on write", "EIO on write"):
            raise self._error()
        if self.fault == "ENOSPC after some output" and self.written + len(text) > self.after:
            raise self._error()
        self.written += len(text)
        (self.pending if self.fault.endswith("on flush") else self.kept).append(text)
        return len(text)

    def flush(self) -> None:
        if self.pending:  # Python's buffer drops what it failed to write (the next flush has nothing to do)
            self.pending.clear()
            raise self._error()

    def isatty(self) -> bool:
        return self.tty

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"


class _Kept(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def _file_target(fault: str, folder: Path) -> str:
    if fault == "/dev/full":
        return "/dev/full"
    if fault == "directory":
        (folder / "a folder").mkdir()
        return str(folder / "a folder")
    if fault == "missing folder":
        return str(folder / "no such folder" / "out.txt")
    if fault == "read-only":
        if os.geteuid() == 0 and os.path.exists("/sys/kernel/notes"):  # root writes a file of mode 0444
            return "/sys/kernel/notes"
        (folder / "read-only.txt").write_text("")
        os.chmod(folder / "read-only.txt", 0o444)
        return str(folder / "read-only.txt")
    if fault == "name too long":
        return str(folder / ("x" * 300 + ".txt"))
    if fault == "path too long":
        return str(folder / "/".join(["y" * 200] * 25))
    (folder / "a file").write_text("")
    return str(folder / "a file" / "out.txt")


def _lines(text: str) -> list[str]:
    """The lines of a standard error that say something (not the progress lines a terminal gets)."""
    return [line for line in text.split("\n") if line.strip() and "\r" not in line]


def _prepare_outputs(case: Case, folder: Path) -> list[str]:
    """Write the case's files (a good or damaged record, the bidding example) and give its command line."""
    for name, text in case.files.items():
        if text == "@copy":
            shutil.copy(NAMES_BASE, folder / name)
            continue
        if text.startswith("@record "):
            parts = text.split(" ")
            text = _good_record(parts[1], folder)
            if len(parts) > 2:  # damaged: replay refuses it, one line on standard error
                text = text.replace('"type": "result", "rounds": ', '"type": "result", "rounds": 9', 1)
        (folder / name).write_text(text, encoding="utf-8")
    target = _file_target(case.spec["fault"], folder) if case.spec["stream"] in ("record", "report") else None
    return [target if a == "@target" else str(folder / a) if (folder / a).exists() or a in _WRITTEN else a
            for a in case.argv]


def _run_outputs(case: Case, folder: Path) -> str | None:
    from interpreter.cli import main

    argv = _prepare_outputs(case, folder)
    spec = case.spec
    stream, fault = spec["stream"], spec["fault"]
    if fault in REAL_FAULTS:
        return _run_outputs_for_real(case, folder, argv)
    faulty = _FaultyStream(fault, spec["after"], spec["tty"]) if stream in ("stdout", "stderr") else None
    if fault == "closed":
        faulty = None
    out = faulty if stream == "stdout" else _Kept(spec["tty"])
    err = faulty if stream == "stderr" else _Kept(spec["tty"])
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO("")  # type: ignore[assignment]
    code: Any = None
    escaped = None
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    except BaseException:  # noqa: BLE001 - a traceback is a finding
        escaped = traceback.format_exc()[-4000:]
    unflushed = None
    for s in (out, err):  # what Python does at exit: flush both (a failure then is exit 120 and a message)
        try:
            if s is not None:
                s.flush()
        except (OSError, ValueError) as exc:
            unflushed = f"{exc!r}"
    sys.stdout, sys.stderr, sys.stdin = old
    said = err.getvalue() if isinstance(err, _Kept) else ""
    if escaped:
        case.outcome = "traceback"
        return f"traceback ({stream}: {fault}):\n{escaped}"
    # a closed standard output: whatever the command prints is lost (it prints on success)
    failed = faulty.failed if faulty else (1 if fault == "closed" else None)
    return _judge_outputs(case, code, said, unflushed, failed, argv)


def _judge_outputs(case: Case, code: Any, said: str, unflushed: str | None, failed: int | None,
                   argv: list[str]) -> str | None:
    """The findings of an output case: ``said`` is standard error (unless it is the failing stream), ``failed``
    how many writes to a failing standard stream raised (None: the target is a file)."""
    spec = case.spec
    stream, fault, bad = spec["stream"], spec["fault"], spec["bad"]
    what = f"({stream}: {fault}{', and an error of its own' if bad else ''})"
    lines = _lines(said)
    case.outcome = f"exit {code}"
    if code not in (0, 1):
        return f"exit code {code} {what}, standard error: {said[-1500:]!r}"
    if "Traceback" in said or "Exception ignored" in said:
        return f"a traceback printed {what}:\n{said[-3000:]}"
    if unflushed:
        return (f"output left unwritten when the command returned {code} {what}: Python's own flush at exit "
                f"fails with {unflushed} (exit 120 and an 'Exception ignored' message)")
    if stream in ("record", "report"):
        target = next((argv[i + 1] for i, a in enumerate(argv) if a in ("--record", "--report")), "")
        written = target and os.path.isfile(target) and os.path.getsize(target) > 0 and target != "/dev/full"
        if code == 0 and not written and not bad:
            return f"exit 0, but the {stream} could not be written to {target[:200]} {what}"
        if code == 1 and not bad and len(lines) != 1:
            return f"{len(lines)} lines on standard error for one write error {what}: {said[-1500:]!r}"
        case.outcome = "write error reported" if code == 1 else "written"
        return None
    if not failed:
        case.outcome = f"exit {code}, the failing stream not written"
        return None
    if stream == "stderr":
        case.outcome = f"exit {code}, standard error failing"
        return None
    if fault.startswith("EPIPE") or fault == "real broken pipe":
        if lines and not bad:
            return f"a broken pipe on standard output is not quiet {what}: {said[-1500:]!r}"
        case.outcome = "quiet broken pipe"
        return None
    if code == 0:
        return f"exit 0, but standard output could not be written {what}"
    if not lines:
        return f"exit 1 with nothing on standard error {what}"
    if not bad and len(lines) > 1:
        return f"{len(lines)} lines on standard error for one write error {what}: {said[-1500:]!r}"
    case.outcome = "write error reported"
    return None


OUTPUT_WAIT = 120.0  # seconds a command of outputs run as a process of its own may take


def _run_outputs_for_real(case: Case, folder: Path, argv: list[str]) -> str | None:
    """The command as a process of its own, its standard stream a real failing one."""
    fault, stream = case.spec["fault"], case.spec["stream"]
    command = [sys.executable, "-m", "interpreter.cli", *argv]
    sink = open(folder / "said.txt", "w+")
    full = open("/dev/full", "w")
    other, pipe = subprocess.DEVNULL, subprocess.PIPE
    if fault == "real /dev/full":
        streams = {"stdout": full if stream == "stdout" else other, "stderr": full if stream == "stderr" else sink}
    elif fault == "real closed":
        fd = 1 if stream == "stdout" else 2
        streams = {"stdout": other, "stderr": sink if stream == "stdout" else other,
                   "preexec_fn": lambda: os.close(fd)}
    else:  # a pipe whose reader has gone
        streams = {"stdout": pipe if stream == "stdout" else other, "stderr": pipe if stream == "stderr" else sink}
    try:
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, cwd=ROOT, **streams)
        if fault == "real broken pipe":
            (proc.stdout or proc.stderr).close()  # type: ignore[union-attr]
        try:
            proc.wait(timeout=OUTPUT_WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            sink.close()
            return f"did not end within {OUTPUT_WAIT:.0f} s ({stream}: {fault})"
    finally:
        full.close()
    sink.seek(0)
    said = sink.read() if stream == "stdout" else ""
    sink.close()
    code = proc.returncode
    if code == 120:  # Python's own flush at exit failed
        return (f"exit 120 ({stream}: {fault}): Python's own flush at exit failed, the output was left "
                f"unwritten; standard error: {said[-1500:]!r}")
    # standard output failing: the command prints on success, so something was lost (a closed standard output
    # is None in Python: print writes nothing, and says nothing)
    failed = 1
    if stream == "stderr":
        case.outcome = f"exit {code}, standard error failing"
        return f"exit code {code} (stderr: {fault})" if code not in (0, 1) else None
    return _judge_outputs(case, code, said, None, failed, argv)


# -- signals -------------------------------------------------------------------------------------------------

SIGNAL_WAIT = 30.0  # seconds a run may take to stop after SIGINT (a Dask cluster takes a few to close)
SIGNAL_LEFTOVERS = 20.0  # a backstop, not a timing: a process left behind stays; one still exiting on a busy machine
# gets the time it needs (the check polls and ends as soon as the group is gone)
SIGNAL_IGNORED = 2.0  # a run that ends with exit 0 after using this much more CPU time (its processes together)
# after a SIGINT did not see it; one that came as it was ending is ignored on purpose, so its results are kept


def _make_signals(kind: str, seed: int, number: int, rng: random.Random) -> Case:
    dask = rng.random() < 0.1
    game, players = rng.choice([("bidding.yaml", "4"), ("bidding.yaml", "3"), ("whist", "4"), ("oh-hell", "3")])
    # mostly runs of a few seconds, so that the signal comes in the middle; some short ones that end first
    games = rng.randint(2, 60) if dask else rng.choice([rng.randint(2, 40), rng.randint(1000, 6000),
                                                         rng.randint(1000, 6000)])
    argv = ["simulate", game, "-p", players, "-n", str(games), "--workers", "2", "--seed", str(number)]
    argv += ["--backend", "dask"] if dask else []
    argv += ["--json"] if rng.random() < 0.2 else []
    if game.endswith(".yaml"):
        argv[1] = str(ROOT / "docs" / "examples" / game)
    spec = {"delay": round(rng.uniform(0.0, 3.0), 2), "again": round(rng.uniform(0.0, 0.5), 2)
            if rng.random() < 0.25 else None, "to": "group" if rng.random() < 0.7 else "process"}
    return Case(kind, seed, number, argv, {}, spec=spec)


def _group_members(pgid: int) -> list[str]:
    """The live processes of a process group (zombies not counted: nobody may be left to reap them here)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    command = f.read().replace(b"\0", b" ").decode(errors="replace")
                members.append(f"{entry} {command[:200]}")
        except (OSError, ValueError, IndexError):
            continue
    return members


def _children_cpu() -> float:
    """CPU seconds of the child processes waited for so far (a run's, once it has ended: its own processes are
    waited for by it, so they count too)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _group_cpu(pgid: int) -> float:
    """CPU seconds a run's processes have used so far: each live one of its group, and those it waited for."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for member in _group_members(pgid):
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{member.split()[0]}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15 if member.split()[0] == str(pgid) else 13]) / tick
    return total


def _stacks(pgid: int) -> str:
    """Where each process of a hung run's group is, by py-spy when it is installed (pip install py-spy)."""
    spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(sys.executable).parent))
    if spy is None:
        return " (pip install py-spy to see where its processes were)"
    out = []
    for member in _group_members(pgid):
        pid = member.split()[0]
        dump = subprocess.run([spy, "dump", "--pid", pid], capture_output=True, text=True, timeout=60)
        out.append(f"--- {member}\n{dump.stdout or dump.stderr}")
    return "\n" + "\n".join(out)


def _terminal_sigint() -> None:
    """Start the command as a terminal starts a program, with SIGINT's default action: a fuzzer run in the
    background of a script has SIGINT ignored, and a program started so keeps ignoring it (every early SIGINT
    was then "lost")."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _run_signals(case: Case, folder: Path) -> str | None:
    spec = case.spec
    out, err = open(folder / "out.txt", "w+"), open(folder / "err.txt", "w+")
    waited_for = _children_cpu()
    proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", *case.argv], stdin=subprocess.DEVNULL,
                            stdout=out, stderr=err, cwd=ROOT, start_new_session=True, preexec_fn=_terminal_sigint)
    pgid = proc.pid
    problem = None
    try:
        sent = 0
        began = time.monotonic()
        cpu_at_signal = 0.0
        try:
            proc.wait(timeout=spec["delay"])
        except subprocess.TimeoutExpired:
            pass
        for pause in ([0.0] + ([spec["again"]] if spec["again"] is not None else [])):
            time.sleep(pause)
            if proc.poll() is not None:
                break
            if spec["to"] == "group":
                os.killpg(pgid, signal.SIGINT)  # as Ctrl-C at a terminal: every process of the group
            else:
                os.kill(proc.pid, signal.SIGINT)
            sent += 1
            cpu_at_signal = _group_cpu(pgid)
        try:
            code = proc.wait(timeout=SIGNAL_WAIT)
        except subprocess.TimeoutExpired:
            case.outcome = "hung"
            return (f"still running {SIGNAL_WAIT:.0f} s after SIGINT ({sent} sent to the {spec['to']} after "
                    f"{spec['delay']} s)" + _stacks(pgid))
        ended = time.monotonic()
        spec["seconds"] = round(ended - began, 2)
        out.seek(0)
        err.seek(0)
        said = err.read()
        lines = _lines(said)
        case.outcome = "finished first" if sent == 0 else f"exit {code} after {sent} SIGINT"
        how = f"({sent} SIGINT to the {spec['to']} after {spec['delay']} s" + (
            f" and again {spec['again']} s later" if sent > 1 else "") + ")"
        shown = len(out.read().splitlines())
        if sent and ("Fatal Python error" in said and "interpreter/" not in said
                     or code == -signal.SIGINT and not shown and not said
                     or code in (1, -signal.SIGINT) and _only_python_loading(said)  # 1: in site.py
                     or _in_site_pth(said)):
            case.outcome = "interrupted in Python's own start-up"  # before any of trickbook ran: nothing to handle it
        elif code == 0 and sent and (ran_on := _children_cpu() - waited_for - cpu_at_signal) > SIGNAL_IGNORED:
            problem = (f"the SIGINT was lost {how}: the run went on for {ran_on:.1f} s of CPU time and ended with "
                       f"exit 0, after {shown} lines of output; standard error: {said[-1500:]!r}")
        elif code not in ((0,) if sent == 0 else (0, 130)):
            killed = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
            problem = f"{killed} {how}, after {shown} lines of output; standard error: {said[-2000:]!r}"
        elif "Traceback" in said or "KeyboardInterrupt" in said:
            problem = f"a traceback or KeyboardInterrupt printed {how}:\n{said[-3000:]}"
        elif sent and len(lines) > 1:
            problem = f"{len(lines)} lines on standard error {how}: {said[-2000:]!r}"
        # every process of the run's group gone soon after it exits
        deadline = time.monotonic() + SIGNAL_LEFTOVERS
        left: list[str] = []
        while True:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                left = []
                break
            left = _group_members(pgid)
            if not left or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        if left and problem is None:
            problem = f"{len(left)} processes of the run left {SIGNAL_LEFTOVERS:.0f} s after it exited {how}: {left}"
        return problem
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)  # the run's own group, whatever it left
        out.close()
        err.close()


_WRITTEN = ("good.jsonl", "good.html")  # outputs that work, written in the case's folder (never the checkout)


def _in_site_pth(said: str) -> bool:
    """Python's ``site`` reading a ``.pth`` file (an editable install's, say) was interrupted: it prints "Error
    processing line" and goes on without the rest of the file (Python 3.11 wraps a KeyboardInterrupt raised
    in a class's ``__set_name__`` in a RuntimeError, which ``site`` catches): before any of Trickbook's code."""
    head = said.split("Remainder of file ignored", 1)[0]
    return said.startswith("Error processing line ") and "KeyboardInterrupt" in head and "/interpreter/" not in head


def _only_python_loading(said: str) -> bool:
    """A KeyboardInterrupt traceback from Python's own loading of the entry module (``-m``: runpy compiling it) or
    of what ``interpreter/cli.py`` loads before it can set its handler (the package, ``interrupts.py``): nothing
    of Trickbook's could handle it yet."""
    if not said.rstrip().endswith("KeyboardInterrupt"):
        return False
    cli = (ROOT / "interpreter" / "cli.py").read_text().splitlines()
    handler = next(n for n, line in enumerate(cli, 1) if "hold_while_loading()" in line)  # set by this line
    frames = re.findall(r'^  File "([^"]*)", line (\d+)', said, re.M)
    ours = [(f, int(n)) for f, n in frames if not f.startswith("<frozen ") and "/interpreter/" in f]
    before = ("interpreter/__init__.py", "interpreter/interrupts.py")
    return bool(frames) and all(f.endswith(before) or f.endswith("interpreter/cli.py") and n <= handler
                                for f, n in ours)


# -- decks ---------------------------------------------------------------------------------------------------

DECK_COLOURS = ["red", "blue", "green", "yellow", "black", "white", "pink", "grey"]
DECK_STRENGTHS = [
    ["card.number"],
    ["- card.number"],
    ["card.colour == led.colour", "card.number"],
    ["card.colour == 'red'", "card.colour == led.colour", "card.number"],
    ["card.colour == led.colour", "card.number % 7", "card.number"],
    ["card.colour == led.colour", "- card.number"],
    ["card.number == led.number", "card.colour == led.colour", "card.number"],
]
DECK_FOLLOWS = ["", "card.colour == led.colour", "card.colour == led.colour", "card.number % 2 == led.number % 2",
                "card.colour == led.colour or card.number == led.number"]


def _deck_rules(rng: random.Random) -> tuple[str, list[int], bool]:
    """A valid game with a big deck, a few cards to each seat and the rest in a hidden stock; its player counts,
    and whether it is one of the heavy cases: 2 or 3 colours to follow, 4 cards to each of 5 seats, so that the
    colours seats show they lack rule out most of the hidden cards for their hands."""
    heavy = rng.random() < 0.5
    size = rng.choice([rng.randint(200, 1000), rng.randint(1000, 10_000), rng.randint(5000, 10_000)])
    colours = DECK_COLOURS[:rng.choice([2, 3] if heavy else [1, 2, 3, 4, 6, 8])]
    shapes = [] if heavy else rng.choice([[], [], ["round", "square"]])
    count = max(1, size // (len(colours) * max(1, len(shapes))))
    longest = _rule_limits()["nodes"] // 2  # a list of values is that many YAML nodes: more is refused
    if count > longest:  # a third attribute multiplies the deck instead
        shapes = [f"s{i}" for i in range(-(-count * max(1, len(shapes)) // longest))]
        count = max(1, size // (len(colours) * len(shapes)))
    numbers = list(range(1, count + 1))
    if rng.random() < 0.2:  # copies: the same card twice
        numbers = sorted(numbers[: max(1, count // 2)] * 2)
    if rng.random() < 0.3:
        rng.shuffle(numbers)
    group = f"    - colour: [{', '.join(colours)}]\n      number: [{', '.join(map(str, numbers))}]\n"
    label = "{colour} {number}"
    if shapes:
        group += f"      shape: [{', '.join(shapes)}]\n"
        label += " {shape}"
    counts = [5] if heavy else sorted(rng.sample([2, 3, 4, 5], rng.randint(1, 3)))
    players = "".join(f"  {n}: {{}}\n" for n in counts)
    hand = "4" if heavy else rng.choice(["1", "2", "3", "4", '"1 + round.number % 4"'])
    won = rng.choice(["all", "nobody", "owner"])
    follow = "card.colour == led.colour" if heavy else rng.choice(DECK_FOLLOWS)
    strength = "".join(f'      - "{s}"\n' for s in rng.choice(DECK_STRENGTHS))
    rounds = rng.randint(2, 3) if heavy else rng.randint(1, 3)
    text = (f"trickbook: 1\nname: big-deck\n\ndeck:\n  label: \"{label}\"\n  cards:\n{group}\n"
            f"players:\n{players}\nzones:\n  hand: {{per_seat: true, visible: owner}}\n  stock: {{visible: nobody}}\n"
            f"  won: {{per_seat: true, visible: {won}}}\n  trick: {{visible: all}}\n\n"
            f"game:\n  rounds: {rounds}\n\nround:\n  deal: {{do: deal, hand: {hand}, rest: stock}}\n"
            f"  tricks:\n    do: tricks\n    leader: left(round.dealer)\n"
            + (f'    follow: "{follow}"\n' if follow else "")
            + f"    strength:\n{strength}"
            + (f"    equal_cards: {rng.choice(['later_wins', 'first_wins'])}\n" if rng.random() < 0.3 else "")
            + f"    to: won\n  score: {{do: score, points: \"{rng.choice(['seat.tricks', 'len(seat.won)'])}\"}}\n")
    return text, counts, heavy


def _make_decks(kind: str, seed: int, number: int, rng: random.Random) -> Case:
    text, counts, heavy = _deck_rules(rng)
    argv = ["simulate", "deck.yaml", "-p", str(rng.choice(counts)), "-n", "1", "--agents", "ismcts",
            "--iterations", str(rng.randint(1, 3)), "--seed", str(number)]
    return Case(kind, seed, number, argv, {"deck.yaml": text}, spec={"heavy": heavy})


def _run_decks(case: Case, folder: Path) -> str | None:
    from interpreter.cli import main
    from interpreter.engine.compile import compile_game
    from interpreter.errors import TrickbookError
    from interpreter.rules.loader import load_rules

    path = folder / "deck.yaml"
    path.write_text(case.files["deck.yaml"], encoding="utf-8")
    argv = [str(path) if a == "deck.yaml" else a for a in case.argv]
    try:
        compile_game(load_rules(str(path)), int(argv[3]), generate=False)
    except TrickbookError as exc:  # the generator's slip: counted, not a finding
        case.outcome = "invalid (generator)"
        case.spec["refused"] = str(exc)[:2000]
        return None
    except BaseException:  # noqa: BLE001
        return "traceback while loading:\n" + traceback.format_exc()[-4000:]
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except BaseException:  # noqa: BLE001 - RecursionError from sampling, say
        case.outcome = "traceback"
        return "traceback:\n" + traceback.format_exc()[-4000:]
    case.outcome = {0: "played", 1: "stopped in play"}.get(code, f"exit {code}")
    said = err.getvalue()
    if code not in (0, 1):
        return f"exit code {code}: {said[-2000:]}"
    if "Traceback" in said:
        return "a traceback printed:\n" + said[-4000:]
    if code == 1 and not POSITIONED.search(said):
        return "an error that names no place in the rule file:\n" + said[-2000:]
    return None


# -- web: the web table's messages -----------------------------------------------------------------------------
# A case is a table (Hearts with a person and random bots, a pasted rule file, or one whose scoring fails in play)
# and what a stranger sends it: WebSocket frames (actions with hostile fields, binary frames, deep nesting, long
# and broken text), lobby requests (hostile values, deep nesting, huge numbers, wrong types and content types),
# Host headers, Origins, paths and tokens, and a damaged setup file picked up by a restart. Through Starlette's
# TestClient, in this process: an exception out of the app, a 500, a log line with a traceback or at ERROR, a
# close code the page does not know, or a refused message that changed the table is a finding.

WEB_VALUES = [0, -1, 1, 2, 2**63, 10**30, 1.5, -0.0, "", "x", "\ud800", "9" * 5000, None, True, False, [], {}, [1],
              {"a": 1}, "<img src=x onerror=alert(1)>", "A" * 1001, "hearts", "person", "random", "greedy",
              "rules/" + "0" * 32 + ".yaml", "../../etc/passwd", [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]
WEB_TEXTS = ["", " ", "{", "}", "null", "1e999", "NaN", "-Infinity", "[]", '"act"', '{"type": "act"}', "\ud800",
             '{"type": "act", "seq": ' + "9" * 5000 + "}", "\x00", "{}" * 1000, '{"type": "act", "seq": 1e308}',
             '{"type": "act", "seq": true, "label": "2 of clubs"}', '{"type":"act","seq":0,"label":"x","type":"view"}',
             "\ufeff{}", '{"type": "act", "seq": 1, "label": "\\ud800"}']
WEB_HOSTS = ["evil.example", "evil.example:8000", "", "a b", "127.0.0.1:99999", "[::1", "localhost:0", "x" * 300,
             "127.0.0.1", "testserver", "LOCALHOST", "127.0.0.1.evil", "[::1]:80", "@", ":80", "testserver:1:2"]
WEB_ORIGINS = ["http://evil.example", "null", "file://", "http://testserver", "https://localhost:1",
               "http://127.0.0.1", "chrome-extension://abc", "http://[::1", "ws://testserver", "x" * 500]
WEB_CODES = {1000, 1003, 1007, 1009, 4403, 4404, 4409, 4410}  # what a page is closed with (docs/web.md)
WEB_DEPTHS = [15, 16, 17, 20, 100, 3000]


def _make_web(kind: str, seed: int, number: int, rng: random.Random) -> Case:
    frames: list[dict[str, Any]] = []
    for _ in range(rng.randint(5, 25)):
        r = rng.random()
        if r < 0.4:
            frames.append({"act": rng.choice(["ok", "ok", "seq", "label", "type", "extra", "drop", "theirs"]),
                           "value": rng.choice(WEB_VALUES)})
        elif r < 0.5:
            frames.append({"bytes": rng.choice(["", "00", "ff" * 10, "7b7d", "7b2274797065223a22616374227d"])})
        elif r < 0.65:
            depth = rng.choice(WEB_DEPTHS)
            frames.append({"text": "[" * depth + ("]" * depth if rng.random() < 0.7 else "")})
        elif r < 0.75:
            n = rng.choice([4000, 4060, 4096, 4097, 5000, 70000])
            frames.append({"text": json.dumps({"type": "act", "seq": 1, "label": "x" * n})[:n + 40]})
        else:
            frames.append({"text": rng.choice(WEB_TEXTS)})
    bodies = []
    for _ in range(rng.randint(1, 6)):
        route = rng.choice(["/api/rules", "/api/tables"])
        if route == "/api/tables":
            asked: dict[str, Any] = {"rules": "hearts", "players": 4, "kinds": ["person", "random", "random", "greedy"],
                                     "iterations": [50] * 4, "seed": 1, "options": {}}
        else:
            asked = rng.choice([{"game": "hearts"}, {"text": "@duel"}, {"text": "@duel-odd-title"}])
        if rng.random() < 0.8:
            key = rng.choice([*asked, "extra"])
            if rng.random() < 0.2:
                asked.pop(key, None)
            else:
                asked[key] = rng.choice(WEB_VALUES)
        body = json.dumps(asked)
        if rng.random() < 0.2:
            body = rng.choice(["[" * 900_000, "{" + '"a":' * 50 + "1" + "}" * 50, body[: len(body) // 2], "\xff",
                               '{"seed": ' + "9" * 5000 + "}", body + "x"])
        bodies.append({"route": route, "body": body, "type": rng.choice(["application/json"] * 5 + [
            "text/plain", "application/json; charset=latin-1", "", "APPLICATION/JSON"])})
    spec = {"game": rng.choice(["hearts", "hearts", "duel", "dividing"]), "frames": frames, "bodies": bodies,
            "hosts": rng.sample(WEB_HOSTS, 3), "origins": rng.sample(WEB_ORIGINS, 2),
            "paths": [rng.choice(["table", "record", "ws"]) + ":" + rng.choice(["id", "seat", "token", "junk"])
                      for _ in range(3)],
            "damage": rng.random() < 0.3}
    return Case(kind, seed, number, ["web"], {}, spec=spec)


def _web_rules(which: str) -> str:
    duel = (ROOT / "docs" / "examples" / "tiny-duel.yaml").read_text(encoding="utf-8")
    if which == "dividing":  # scoring divides by zero: the table stops when the last card is played
        return duel.replace("points: seat.tricks}", 'points: "seat.tricks // (seat.tricks - seat.tricks)"}')
    if which == "duel-odd-title":
        return duel.replace("title: Tiny duel (2 players, 4 cards)", 'title: "Tiny \\ud800 duel"')
    return duel


class _WebLog(logging.Handler):
    """What the web table logs while a case runs: a traceback or an ERROR is a finding."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.bad: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR or "Traceback" in record.getMessage():
            self.bad.append(f"{record.levelname} {record.name}: {record.getMessage()}"[:2000])


def _held_by(table: Any, seat: int) -> list[str]:
    name = table.game.seat_names[seat]
    return [c for zone in table.state.observation(seat)["zones"].values()
            if isinstance(zone, dict) and isinstance(zone.get(name), list) for c in zone[name]]


def _run_web(case: Case, folder: Path) -> str | None:
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from interpreter.web.app import create_app
    from interpreter.web.guard import allowed_hosts

    hosts = allowed_hosts(more=["testserver"])
    spec = case.spec
    said = _WebLog()
    logging.getLogger().addHandler(said)
    case.outcome = "refused"
    try:
        # the pages opened (one the server closed too) are closed before the app stops, or it waits for them
        with TestClient(create_app(folder, pace=0, hosts=hosts)) as client, contextlib.ExitStack() as pages:
            server = client.app.state.server  # type: ignore[attr-defined]

            def settle(table_id: str) -> None:
                task = server.runners.get(table_id)
                if task is not None:
                    async def done() -> None:
                        with contextlib.suppress(BaseException):
                            await task
                    client.portal.call(done)

            def answered(response: Any, what: str) -> str | None:
                if response.status_code >= 500:
                    return f"{what}: {response.status_code} {response.text[:500]}"
                return None

            if spec["game"] == "hearts":
                rules, players, kinds = "hearts", 4, ["person", "random", "random", "random"]
            else:
                got = client.post("/api/rules", json={"text": _web_rules(spec["game"])})
                if got.status_code != 200:
                    return f"the case's rule file was refused: {got.text[:500]}"
                rules, players, kinds = got.json()["rules"], 2, ["person", "random"]
            made = client.post("/api/tables", json={"rules": rules, "players": players, "kinds": kinds,
                                                    "seed": case.number})
            if made.status_code != 200:
                return f"the case's table was not made: {made.text[:500]}"
            made = made.json()
            tid, href = made["table"], made["links"][0]["href"]
            token = href.split("token=")[1]
            table = server.lobby.tables[tid]
            settle(tid)
            path = f"/ws/{tid}/0?token={token}"
            ws = pages.enter_context(client.websocket_connect(path))
            view = ws.receive_json()
            for frame in spec["frames"]:
                settle(tid)
                before = (table.seq, table.state.serialize())
                if "act" in frame:
                    legal = [c["label"] for c in view.get("hand", []) if c["legal"]] + view.get("actions", [])
                    message: Any = {"type": "act", "seq": table.seq, "label": legal[0] if legal else "x"}
                    how, value = frame["act"], frame["value"]
                    if how in ("seq", "label", "type"):
                        message[how] = value
                    elif how == "extra":
                        message["seat"] = value
                    elif how == "drop":
                        message.pop("label")
                    elif how == "theirs":  # a card another seat holds
                        message["label"] = (_held_by(table, 1) or ["x"])[0]
                    ws.send_text(json.dumps(message))
                elif "bytes" in frame:
                    ws.send_bytes(bytes.fromhex(frame["bytes"]))
                else:
                    ws.send_text(frame["text"])
                try:
                    got = ws.receive_json()
                except WebSocketDisconnect as closed:
                    if closed.code not in WEB_CODES:
                        return f"a frame closed the socket with code {closed.code}: {json.dumps(frame)[:300]}"
                    settle(tid)
                    if (table.seq, table.state.serialize()) != before:
                        return f"a frame that closed its socket changed the table: {json.dumps(frame)[:300]}"
                    ws = pages.enter_context(client.websocket_connect(path))
                    view = ws.receive_json()
                    continue
                if got["type"] == "refused":
                    settle(tid)
                    if (table.seq, table.state.serialize()) != before:
                        return f"a refused message changed the table: {json.dumps(frame)[:300]}"
                    continue
                case.outcome = "accepted"
                view = got
                settle(tid)
                while True:  # the views the bots' moves sent, up to the last
                    if table.seq == view["seq"]:
                        break
                    view = ws.receive_json()
            with contextlib.suppress(WebSocketDisconnect):
                pages.close()  # the server's own closing said again: not a finding
            for body in spec["bodies"]:
                text = body["body"].replace("@duel-odd-title", json.dumps(_web_rules("duel-odd-title"))[1:-1]) \
                    .replace("@duel", json.dumps(_web_rules("duel"))[1:-1])
                content = text.encode("utf-8", "surrogatepass") if text != "\xff" else b"\xff"
                headers = {"Content-Type": body["type"]} if body["type"] else {}
                problem = answered(client.post(body["route"], content=content, headers=headers), body["route"])
                if problem:
                    return problem
            for host in spec["hosts"]:
                problem = answered(client.get("/api/games", headers={"Host": host}), f"Host {host!r}")
                if problem:
                    return problem
            for origin in spec["origins"]:
                try:
                    with client.websocket_connect(path, headers={"Origin": origin}) as page:
                        page.receive_json()
                except WebSocketDisconnect as closed:
                    if closed.code != 4403:
                        return f"Origin {origin!r}: closed with {closed.code}"
            for shape in spec["paths"]:
                where, part = shape.split(":")
                seat, tok, ident = "0", token, tid
                if part == "id":
                    ident = ident[:-1] + ("y" if ident.endswith("x") else "x")  # (another table's id)
                elif part == "seat":
                    seat = "00"
                elif part == "token":
                    tok = token[:-1]
                else:
                    ident, seat, tok = "../..", "-1", "%00"
                if where == "ws":
                    try:
                        with client.websocket_connect(f"/ws/{ident}/{seat}?token={tok}") as page:
                            page.receive_json()
                    except WebSocketDisconnect as closed:  # no such seat (a path of no route: no such page)
                        if closed.code not in ({4404} if part != "junk" else WEB_CODES):
                            return f"/ws/{ident}/{seat}: closed with {closed.code}"
                else:
                    url = f"/table/{ident}/{seat}" + ("/record" if where == "record" else "") + f"?token={tok}"
                    problem = answered(client.get(url), url)
                    if problem:
                        return problem
        if spec["damage"]:
            setup = folder / f"{tid}.table.json"
            setup.write_text(_damage(random.Random(f"web:{case.number}"), setup.read_text()), encoding="utf-8",
                             errors="surrogatepass")
            with TestClient(create_app(folder, pace=0, hosts=hosts)) as again:
                if again.get("/api/games").status_code != 200:
                    return "the server did not answer after its restart"
    except BaseException:  # noqa: BLE001 - this is what the fuzzer looks for
        return "traceback:\n" + traceback.format_exc()[-4000:]
    finally:
        logging.getLogger().removeHandler(said)
    if said.bad:
        return "the server logged:\n" + "\n".join(said.bad[:5])
    return None


# -- agents: agents of one's own that misbehave (harness/remote*.py) -----------------------------------------
#
# Each case writes an agent whose act misbehaves at its k-th decision (or whose constructor, or whose module as it
# loads), and plays it with play, simulate (on one or two processes) or compare. The case is judged as a person
# would: trickbook ends with exit 0 or 1, never a traceback of its own (the agent's own, told as its failure, is
# the author's to read), a game the agent broke stops with a message that names the agent, and no process the
# agent started is left once trickbook's command is over (counted by a mark in their environment).

AGENT_MARK = "TRICKBOOK_FUZZ_AGENT_MARK"
AGENT_SECONDS = "1"  # --agent-timeout of a case: a sleeping or spinning agent costs a second, not ten
AGENT_MEMORY = "256"  # --agent-memory of a case, MB
AGENT_LEFTOVERS = 20.0  # a backstop, not a timing: the agent's processes killed may take a moment to go
AGENT_LOAD = 5.0  # seconds a module may take to load in this process's cases (60 in trickbook): one that sleeps
# or spins as it loads costs this much (a run on worker processes, simulate -w 2, keeps trickbook's own)
# what the agent does; those in HARMLESS may let the game go on (exit 0), every other one must stop it, naming it
MISDEEDS = {
    "sleep": "time.sleep(10**6)",
    "spin": "while True:\n        pass",
    "stdin": "sys.stdin.read()",
    "input": "input()",
    "memory": "kept = [bytes(64 << 20) for _ in range(64)]",
    "fork": "if os.fork() == 0:\n        time.sleep(10**6)",
    "fork and exit": "if os.fork() == 0:\n        time.sleep(10**6)\n    os._exit(0)",
    "fork and hold": "if os.fork() == 0:\n        signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                     "        while True:\n            pass",
    "garbage": "os.write(protocol_out(), JUNK + b'\\n')",
    "no newline": "os.write(protocol_out(), JUNK)",
    "huge line": "[os.write(protocol_out(), b'x' * 65536) for _ in range(40)]",
    "deep": "os.write(protocol_out(), b'[' * 100000 + b'\\n')",
    "wrong kind": "os.write(protocol_out(), b'[\"ended\", \"x\"]\\n' if RNG.random() < 0.5 else b'[\"game\", 1]\\n')",
    "close out": "os.close(protocol_out())",
    "close in": "os.close(protocol_in())",
    "exit": "os._exit(RNG.randint(0, 255))",
    "sys.exit": "sys.exit(RNG.randint(0, 3))",
    "raise": "raise RuntimeError('the agent gives up')",
    "recursion": "def f(n):\n        return f(n + 1)\n    f(0)",
    "kill self": "os.kill(os.getpid(), RNG.choice([signal.SIGKILL, signal.SIGSEGV, signal.SIGTERM]))",
    "kill loader": "os.kill(os.getppid(), signal.SIGKILL)",
    "print": "print('x' * 1_000_000)",
    "stderr flood": "[sys.stderr.write('y' * 65536 + '\\n') for _ in range(80)]",
    "close stderr": "os.close(1)\n    os.close(2)",
    "thread": "threading.Thread(target=lambda: (time.sleep(0.05), os.write(protocol_out(), JUNK + b'\\n')), "
              "daemon=True).start()",
    "answer": "return RNG.choice([3.5, None, [1], {'a': 1}, True, 10**20, -1, 'x' * 100_000, '\\ud800', "
              "view.legal[0] + 1000, ''])",
}
# harmless to the game (the agent goes on, or its misdeed comes too late to matter: a thread that writes after
# the game's last decision, standard input closed at it)
HARMLESS = {"stdin", "fork", "fork and hold", "print", "stderr flood", "close stderr", "thread", "kill loader",
            "close in"}
# as the module loads, a write meant for the protocol may find the loader's pipe to the watcher instead, which
# takes only process numbers (and the game goes on)
WRITES = {"garbage", "no newline", "huge line", "deep", "wrong kind", "close out"}
JUNKS = ["b'this is not JSON'", "b'\\x00\\xff\\xfe'", "b'[1, 2, 3]'", "b'{\"ok\": 1}'", "b'\"ok\"'",
         "b'[\"ok\", 0, 1]'", "b'9' * 5000", "b'[\"ok\"' * 3", "'\\ud800'.encode('utf-8', 'surrogatepass')"]
AGENT_GAMES = [("oh-hell", "4"), ("oh-hell", "3"), ("whist", "4"), ("hearts", "4"), ("bidding.yaml", "4")]

AGENT_FILE = """import os
import random
import signal
import stat
import sys
import threading
import time

RNG = random.Random({rng_seed})
JUNK = {junk}


def protocol_out():
    return _pipe(os.O_WRONLY)


def protocol_in():
    return _pipe(os.O_RDONLY)


def _pipe(mode):
    # one of the pipes open this way that are not standard input, output or error: in a game's process the
    # protocol's; as the module loads, the protocol's or the one to the watcher
    import fcntl

    mine = {{os.fstat(fd).st_ino for fd in (0, 1, 2) if _open(fd)}}
    found = [fd for fd in range(3, 256) if _open(fd) and stat.S_ISFIFO(os.fstat(fd).st_mode)
             and os.fstat(fd).st_ino not in mine and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == mode]
    return RNG.choice(found) if found else 99


def _open(fd):
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


NOTHING = object()


def misbehave(view=None):
    open(__file__ + ".reached", "w").close()
    {misdeed}
    return NOTHING


{at_import}class Agent:
    def __init__(self, seed=None):
        self.decisions = 0
        {in_constructor}

    def act(self, view):
        self.decisions += 1
        if self.decisions == {when}:
            answer = misbehave(view)
            if answer is not NOTHING:
                return answer
        return view.legal[0]
"""


def _make_agents(kind: str, seed: int, number: int, rng: random.Random) -> Case:
    misdeed = rng.choice(sorted(MISDEEDS))
    where = rng.choices(["act", "constructor", "import"], [8, 1, 1])[0]
    if misdeed == "answer":
        where = "act"  # an answer is given by act alone
    when = rng.randint(1, 4)
    code = MISDEEDS[misdeed]
    text = AGENT_FILE.format(rng_seed=number, junk=rng.choice(JUNKS), misdeed=code,
                             at_import="misbehave()\n\n\n" if where == "import" else "",
                             in_constructor="misbehave()" if where == "constructor" else "pass",
                             when=when if where == "act" else 0)
    game, players = rng.choice(AGENT_GAMES)
    if game.endswith(".yaml"):
        game = str(ROOT / "docs" / "examples" / game)
    agents = "agent.py:Agent" + rng.choice(["", ",random", ",greedy", ",agent.py:Agent,random"])
    limits = ["--agent-timeout", AGENT_SECONDS, "--agent-memory", AGENT_MEMORY]
    command = rng.choices(["play", "play --record", "simulate", "simulate -w 2", "compare"], [4, 1, 3, 1, 1])[0]
    if command.startswith("play"):
        argv = ["play", game, "-p", players, "--seed", str(number), "--quiet"]
        argv += ["--record", "game.jsonl"] if command.endswith("--record") else []
    elif command.startswith("simulate"):
        argv = ["simulate", game, "-p", players, "-n", str(rng.randint(1, 3)), "--seed", str(number)]
        argv += ["--workers", "2"] if command.endswith("2") else []
    else:
        argv = ["compare", game, game, "-p", players, "-n", "2", "--seed", str(number)]
    return Case(kind, seed, number, argv + ["--agents", agents] + limits, {"agent.py": text},
                spec={"misdeed": misdeed, "where": where, "when": when})


def _agent_processes(mark: str) -> list[str]:
    """The live processes whose environment carries ``mark``: every process an agent of the case started."""
    return [f"{pid} {command}" for pid, command in marked(AGENT_MARK, mark)]


OWN_FRAME = re.compile(r'File "[^"]*[/\\]interpreter[/\\][^"]*", line \d+')


def _run_agents(case: Case, folder: Path) -> str | None:
    from interpreter.cli import main
    from interpreter.harness import remote, remote_link

    (folder / "agent.py").write_text(case.files["agent.py"], encoding="utf-8")
    argv = [str(folder / a) if a in ("agent.py", "game.jsonl") else a for a in case.argv]
    argv = [a.replace("agent.py:", f"{folder / 'agent.py'}:") for a in argv]
    spec = case.spec
    mark = f"{case.seed}:{case.number}:{os.getpid()}"
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # a process of this worker's own, not the agent's: started before the mark
    remote_link.AGENT_LOAD_SECONDS = AGENT_LOAD
    os.environ[AGENT_MARK] = mark
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
            remote.close_all()  # as the program's end does
    except SystemExit as exc:
        code = exc.code
    except BaseException:  # noqa: BLE001 - what the fuzzer looks for
        return "traceback:\n" + traceback.format_exc()[-4000:]
    finally:
        sys.stdin = old_stdin
        os.environ.pop(AGENT_MARK, None)
    said = err.getvalue()
    deadline = time.monotonic() + AGENT_LEFTOVERS
    while (left := _agent_processes(mark)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for process in left:  # not to leave them to the next case
        with contextlib.suppress(OSError):
            os.kill(int(process.split()[0]), signal.SIGKILL)
    case.outcome = {0: "played", 1: "stopped, agent named"}.get(code, f"exit {code}")  # type: ignore[arg-type]
    if code not in (0, 1):
        return f"exit code {code}: {said[-2000:]}"
    if OWN_FRAME.search(said):
        return "a traceback of trickbook's own printed:\n" + said[-4000:]
    named = re.search(r"^trickbook: error: agent '[^']*agent\.py:Agent' \([^)]+\) \S", said, re.M)
    if code == 1 and not named:
        case.outcome = "stopped, agent not named"
        return "the game stopped without naming the agent:\n" + said[-2000:]
    reached = (folder / "agent.py.reached").exists()
    if code == 0 and reached and spec["misdeed"] not in HARMLESS and not (
            spec["where"] == "import" and spec["misdeed"] in WRITES):
        return f"the agent's {spec['misdeed']} ({spec['where']}) went unnoticed:\n{said[-2000:]}"
    if not reached:
        case.outcome = "game over before the misdeed"
    if left:
        return f"{len(left)} processes of the agent left {AGENT_LEFTOVERS:.0f} s after the command ended: {left[:5]}"
    return None


_MAKERS = {"names": _make_names, "huge": _make_huge, "outputs": _make_outputs, "signals": _make_signals,
           "decks": _make_decks, "agents": _make_agents, "web": _make_web}
_RUNNERS = {"names": _run_names, "huge": _run_huge, "outputs": _run_outputs, "signals": _run_signals,
            "decks": _run_decks, "agents": _run_agents, "web": _run_web}


def worker(kind: str, seed: int, start: int, stop: int, memory_mb: int, channel: int) -> None:
    """Run cases, telling the parent on ``channel`` (a pipe of its own: the games print on stdout)."""
    import resource

    cpu_seconds = float(os.environ.get(_CPU_LIMIT, "0"))
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    tell = os.fdopen(channel, "w")
    with tempfile.TemporaryDirectory(prefix="trickbook-fuzz-") as tmp:
        folder = Path(tmp)
        for number in range(start, stop):
            print(f"S {number}", file=tell, flush=True)
            case_folder = folder / str(number)
            case_folder.mkdir()
            case = make_case(kind, seed, number)
            if cpu_seconds > 0:  # SIGPROF, whose default action ends the worker, once the case used that much CPU
                signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
            problem = run_case(case, case_folder)
            signal.setitimer(signal.ITIMER_PROF, 0)
            shutil.rmtree(case_folder, ignore_errors=True)
            report = {"outcome": case.outcome, "problem": problem, "stats": case.stats}
            print(f"R {number} {json.dumps(report)}", file=tell, flush=True)


# -- the parent ----------------------------------------------------------------------------------------------

@dataclass
class Finding:
    kind: str
    seed: int
    number: int
    problem: str

    def __str__(self) -> str:
        return (f"{self.kind} case {self.number} (seed {self.seed}): {self.problem}\n"
                f"  reproduce: python tests/fuzz.py --kind {self.kind} --seed {self.seed} --case {self.number} --show")


_CPU_LIMIT = "TRICKBOOK_FUZZ_CPU_SECONDS"  # how run() tells its worker the CPU time a case may use


def run(kind: str, seed: int, start: int, count: int, seconds: float | None = None, memory_mb: int | None = None,
        progress: bool = False, outcomes: dict[str, int] | None = None,
        stats: dict[str, float] | None = None, wall_seconds: float | None = None) -> list[Finding]:
    """Run cases ``start`` .. ``start + count - 1`` in child processes; what went wrong.

    ``seconds`` is the CPU time a case may use (the worker's own time; what child processes of a case use is
    not counted); ``wall_seconds`` (default ten times that) the wall-clock time, a backstop for a case that
    blocks without using the CPU. A busy machine slows a case down in wall-clock time, not in CPU time.

    ``outcomes`` counts how far the cases got (refused by validate, played, stopped in play...); ``stats`` gets
    the largest of each figure the cases measured (huge: CPU seconds and memory growth of a case). The time and
    memory limits default to the kind's (LIMITS).
    """
    findings: list[Finding] = []
    outcomes = {} if outcomes is None else outcomes
    stats = {} if stats is None else stats
    seconds = LIMITS[kind][0] if seconds is None else seconds
    memory_mb = LIMITS[kind][1] if memory_mb is None else memory_mb
    wall_seconds = 10 * seconds if wall_seconds is None else wall_seconds
    stop = start + count
    next_case = start
    while next_case < stop:
        read_end, write_end = os.pipe()
        proc = subprocess.Popen([sys.executable, __file__, "--worker", kind, str(seed), str(next_case), str(stop),
                                 str(memory_mb), str(write_end)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, cwd=ROOT, pass_fds=(write_end,),
                                env={**os.environ, _CPU_LIMIT: str(seconds)})
        os.close(write_end)
        channel = os.fdopen(read_end)
        current, began = None, time.monotonic()
        try:
            while True:
                ready, _, _ = select.select([channel], [], [], 1.0)
                if current is not None and time.monotonic() - began > wall_seconds:
                    findings.append(Finding(kind, seed, current, f"did not end within {wall_seconds:.0f} s of "
                                            "wall-clock time (a case blocked)"))
                    next_case = current + 1
                    break
                if not ready:
                    continue
                line = channel.readline()
                if not line:  # the worker died: a crash or the memory limit
                    proc.wait()
                    if current is None:
                        raise RuntimeError("the fuzz worker did not start: " + proc.stderr.read()[-2000:])
                    if proc.returncode == -signal.SIGPROF:
                        findings.append(Finding(kind, seed, current, f"used more than {seconds:g} s of CPU (a hang)"))
                    else:
                        findings.append(Finding(kind, seed, current, "the process died (exit "
                                                f"{proc.returncode}): {proc.stderr.read()[-2000:]}"))
                    next_case = current + 1
                    break
                tag, number, *rest = line.rstrip("\n").split(" ", 2)
                if tag == "S":
                    current, began = int(number), time.monotonic()
                else:
                    report = json.loads(rest[0])
                    problem = report["problem"]
                    outcomes[report["outcome"]] = outcomes.get(report["outcome"], 0) + 1
                    for key, value in (report.get("stats") or {}).items():
                        stats[key] = max(stats.get(key, value), value)
                    if problem:
                        findings.append(Finding(kind, seed, int(number), problem))
                    next_case = int(number) + 1
                    current = None
                    if progress and sys.stderr.isatty():
                        print(f"\r  {kind}: {next_case - start}/{count} cases, {len(findings)} findings",
                              end="", file=sys.stderr, flush=True)
                    if next_case >= stop:
                        break
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            channel.close()
            proc.stderr.close()
    if progress and sys.stderr.isatty():
        print(file=sys.stderr)
    return findings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Fuzz trickbook with hostile rule files, expressions, records "
                                     "and prompt answers, and look for families of defects: colliding names in "
                                     "generated code, huge files, failing outputs, SIGINT, large decks.")
    parser.add_argument("--kind", choices=(*ALL_KINDS, "all"), default="all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=1000, help="cases per kind (default 1000)")
    parser.add_argument("--start", type=int, default=0, help="the first case number")
    parser.add_argument("--case", type=int, help="run only this case")
    parser.add_argument("--show", action="store_true", help="with --case: print its input and what it gave")
    parser.add_argument("--seconds", type=float, help="CPU-time limit per case; ten times that of wall-clock time "
                        "(default: the kind's, see LIMITS)")
    parser.add_argument("--memory", type=int, help="memory limit of the child process, in MB; 0: none "
                        "(default: the kind's, see LIMITS)")
    parser.add_argument("--worker", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        kind, seed, start, stop, memory, channel = args.worker
        worker(kind, int(seed), int(start), int(stop), int(memory), int(channel))
        return 0
    kinds = ALL_KINDS if args.kind == "all" else (args.kind,)
    # the cases' caches (parse trees, generated code, valid digests) go to a folder of this run, not the user's
    with tempfile.TemporaryDirectory(prefix="trickbook-fuzz-", ignore_cleanup_errors=True) as cache:
        os.environ["XDG_CACHE_HOME"] = cache
        return fuzz(args, kinds)


def fuzz(args: argparse.Namespace, kinds: tuple[str, ...]) -> int:
    """The cases ``args`` asks for, of each of ``kinds``: 1 if any gave a finding."""
    if args.case is not None:
        for kind in kinds:
            case = make_case(kind, args.seed, args.case)
            with tempfile.TemporaryDirectory() as tmp:
                result = run_case(case, Path(tmp))
            if args.show:
                print(case.describe())
            print(result or "ok")
        return 0
    bad = 0
    for kind in kinds:
        began = time.monotonic()
        outcomes: dict[str, int] = {}
        stats: dict[str, float] = {}
        findings = run(kind, args.seed, args.start, args.cases, args.seconds, args.memory, True, outcomes, stats)
        got = ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
        took = time.monotonic() - began
        measured = "".join(f", max {k} {v:.2f}" for k, v in sorted(stats.items()))
        print(f"{kind}: {args.cases} cases in {took:.0f} s ({took / max(args.cases, 1):.2f} s a case; {got}"
              f"{measured}), {len(findings)} findings")
        for f in findings:
            print(f)
        bad += len(findings)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
