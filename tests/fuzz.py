"""Fuzzing trickbook as a hostile stranger would: mutated rule files, hostile expressions, damaged records,
odd answers at the prompt.

Every case is made from a seed and its number alone, so a finding is reproduced by its kind, seed and number.
Cases run in a child process with a memory limit; the parent watches the time each case takes. A case fails
when the command gives a Python traceback (an exception escaping ``trickbook``'s ``main``), takes longer than
the time limit, blows the memory limit, or a play error names no place in the rule file.

The default test run makes a short seeded run (tests/test_fuzz.py). The long run:

    python tests/fuzz.py --cases 5000                 # every kind, 5,000 cases each
    python tests/fuzz.py --kind rules --cases 20000 --seed 7
    python tests/fuzz.py --kind rules --seed 7 --case 1234 --show   # one case: its input and what it gave
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("rules", "expressions", "records", "prompt")
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
            "opponents", "same_team", "left", "right", "eval", "__import__", "open"]
OPS = ["+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in", "not in", "/", "**", "|"]
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
    return rng.choice(["not ", "-", "- -", "not not "]) + expression(rng, depth + 1)


def mutate_rules(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        op = rng.random()
        i = rng.randrange(len(lines))
        line = lines[i]
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

    def describe(self) -> str:
        shown = {k: (v if len(v) < 4000 else v[:4000] + "...") for k, v in self.files.items()}
        return json.dumps({"argv": self.argv, "files": shown, "stdin": self.stdin[:2000]}, indent=1)


def make_case(kind: str, seed: int, number: int) -> Case:
    rng = random.Random(f"{kind}:{seed}:{number}")
    if kind == "rules":
        source = rng.choice(CORPUS)
        text = mutate_rules(rng, source.read_text())
        return Case(kind, seed, number, ["validate+play", "rules.yaml"], {"rules.yaml": text})
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
        game = rng.choice(["meinz:4", "njet-riogrande:3", "mue:5", "was-sticht:3", "bidding.yaml:4"])
        return Case(kind, seed, number, ["replay", "record.jsonl"], {"record.jsonl": f"@record {game} {seed}:{number}"})
    if kind == "prompt":
        answers = [rng.choice(["1", "2", "0", "-1", "99", "²", "٣", "9" * 5000, "", " ", "\t", "x", "a", "P",
                               "\x00", "\x1b[A", "é" * 100, "1 2", "01", "+1", "Pass", "pass", "bid 1", "bid",
                               "yellow", "red", "1" * 16])
                   for _ in range(rng.randint(0, 400))]
        game = rng.choice([("meinz", "4"), ("njet-riogrande", "3"), ("bidding.yaml", "4"), ("mue", "3")])
        return Case(kind, seed, number, ["play", game[0], "-p", game[1], "--human", "1", "--seed", str(number)],
                    {}, "\n".join(answers) + ("\n" if answers and rng.random() < 0.5 else ""))
    raise ValueError(f"unknown kind {kind!r}")


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

    name, players = game.split(":")
    if name.endswith(".yaml"):  # the record names it beside itself
        shutil.copy(ROOT / "docs" / "examples" / name, folder / name)
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
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    code = main(["play", argv[1], "-p", str(count), "--quiet", "--seed", str(case.number)])
                case.outcome = "stopped in play" if code else "played"
                if code == 1 and not POSITIONED.search(err.getvalue()):
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


def worker(kind: str, seed: int, start: int, stop: int, memory_mb: int, channel: int) -> None:
    """Run cases, telling the parent on ``channel`` (a pipe of its own: the games print on stdout)."""
    import resource

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
            problem = run_case(case, case_folder)
            shutil.rmtree(case_folder, ignore_errors=True)
            report = {"outcome": case.outcome, "problem": problem}
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


def run(kind: str, seed: int, start: int, count: int, seconds: float = 20.0, memory_mb: int = 2048,
        progress: bool = False, outcomes: dict[str, int] | None = None) -> list[Finding]:
    """Run cases ``start`` .. ``start + count - 1`` in child processes; what went wrong.

    ``outcomes`` counts how far the cases got (refused by validate, played, stopped in play...).
    """
    findings: list[Finding] = []
    outcomes = {} if outcomes is None else outcomes
    stop = start + count
    next_case = start
    while next_case < stop:
        read_end, write_end = os.pipe()
        proc = subprocess.Popen([sys.executable, __file__, "--worker", kind, str(seed), str(next_case), str(stop),
                                 str(memory_mb), str(write_end)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, cwd=ROOT, pass_fds=(write_end,))
        os.close(write_end)
        channel = os.fdopen(read_end)
        current, began = None, time.monotonic()
        try:
            while True:
                ready, _, _ = select.select([channel], [], [], 1.0)
                if current is not None and time.monotonic() - began > seconds:
                    findings.append(Finding(kind, seed, current, f"took more than {seconds:.0f} s (a hang)"))
                    next_case = current + 1
                    break
                if not ready:
                    continue
                line = channel.readline()
                if not line:  # the worker died: a crash or the memory limit
                    proc.wait()
                    if current is None:
                        raise RuntimeError("the fuzz worker did not start: " + proc.stderr.read()[-2000:])
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
                                     "and prompt answers.")
    parser.add_argument("--kind", choices=(*KINDS, "all"), default="all")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=1000, help="cases per kind (default 1000)")
    parser.add_argument("--start", type=int, default=0, help="the first case number")
    parser.add_argument("--case", type=int, help="run only this case")
    parser.add_argument("--show", action="store_true", help="with --case: print its input and what it gave")
    parser.add_argument("--seconds", type=float, default=20.0, help="time limit per case")
    parser.add_argument("--memory", type=int, default=2048, help="memory limit of the child process, in MB")
    parser.add_argument("--worker", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        kind, seed, start, stop, memory, channel = args.worker
        worker(kind, int(seed), int(start), int(stop), int(memory), int(channel))
        return 0
    kinds = KINDS if args.kind == "all" else (args.kind,)
    # the cases' caches (parse trees, generated code, valid digests) go to a folder of this run, not the user's
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="trickbook-fuzz-")
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
        findings = run(kind, args.seed, args.start, args.cases, args.seconds, args.memory, True, outcomes)
        got = ", ".join(f"{n} {k}" for k, n in sorted(outcomes.items()))
        print(f"{kind}: {args.cases} cases in {time.monotonic() - began:.0f} s ({got}), {len(findings)} findings")
        for f in findings:
            print(f)
        bad += len(findings)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
