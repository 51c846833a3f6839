"""Limits before work: a rule file under the size limit is validated or refused quickly and in little memory,
whatever it holds (issue 19). Each limit is counted before the work it bounds, and a file past one is refused
with a positioned error naming it (see docs/testing.md, "The limits that keep a run short").

The near-1 MB files run in a child process whose CPU time and largest memory are measured by the parent
(os.wait4 gives the rusage of that one child, as getrusage(RUSAGE_CHILDREN) would of all of them); no test
here reads the clock on the wall.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import limits
from interpreter.cli import validate_file
from interpreter.dsl import parser
from interpreter.dsl.parser import DslSyntaxError
from interpreter.rules import yaml_loader
from interpreter.rules.yaml_loader import load_yaml_text

ROOT = Path(__file__).resolve().parents[1]
BIDDING = (ROOT / "docs" / "examples" / "bidding.yaml").read_text()
POINTS = 'points: "10 + seat.bid if seat.tricks == seat.bid else 0"'
NEAR_1MB = 990_000

# what a near-1 MB file may cost: the target is 2 s of CPU and 300 MB; the asserts leave room for a slow machine
CPU_SECONDS = 6.0
RSS_MB = 300


# the child writes its own peak (VmHWM: the resident memory of its own image, from its exec on) when it ends: the
# ru_maxrss wait4 gives also counts the test process's memory at the fork, which grows with every game it compiled
PEAK = """
import atexit, sys
def peak():
    with open(sys.argv[2], "w") as out:
        out.write(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:")))
atexit.register(peak)
from interpreter.cli import main
sys.exit(main(["validate", sys.argv[1]]))
"""


def validated_in_a_child(tmp_path: Path, text: str) -> tuple[int, str, float, float]:
    """``trickbook validate`` of ``text`` in a child process, with no cache: its exit status, what it printed on
    stderr, the CPU seconds it used (user and system) and its largest resident memory in MB."""
    path = tmp_path / "hostile.yaml"
    path.write_text(text)
    assert len(text.encode()) < 1_000_000  # under the size limit: the file is read
    env = {**os.environ, "TRICKBOOK_NO_CACHE": "1"}
    linux = Path("/proc/self/status").exists()
    command = [sys.executable, "-c", PEAK, str(path), str(tmp_path / "peak")] if linux else \
        [sys.executable, "-m", "interpreter.cli", "validate", str(path)]
    with open(tmp_path / "out", "w") as out, open(tmp_path / "err", "w") as err:
        proc = subprocess.Popen(command, stdout=out, stderr=err, cwd=ROOT, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if linux:
        rss_mb = int((tmp_path / "peak").read_text()) / 1024  # VmHWM is in kB
    else:
        rss_mb = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)  # bytes on macOS, else KB
    return proc.returncode, (tmp_path / "err").read_text(), usage.ru_utime + usage.ru_stime, rss_mb


def points(expression: str) -> str:
    return BIDDING.replace(POINTS, f'points: "{expression}"')


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


# ----------------------------------------------------------------------- the shapes of the issue, near 1 MB

def test_a_list_literal_of_485000_items_is_refused_quickly(tmp_path):
    items = (NEAR_1MB - len(BIDDING)) // 2
    assert items > 485_000
    text = points("len([" + ",".join(["1"] * items) + "])")
    code, err, cpu, rss = validated_in_a_child(tmp_path, text)
    assert code == 1 and "Traceback" not in err
    line = line_of(text, "points: ")
    assert err.startswith(f"{tmp_path / 'hostile.yaml'}:{line}:13: error: the text values of this file (with the "
                          "files it extends) hold more than 20,000 tokens"), err
    assert cpu < CPU_SECONDS and rss < RSS_MB, (cpu, rss)  # before the limits: 27 to 32 s and 560 MB here


def test_one_plus_one_plus_one_near_1mb_is_refused_quickly(tmp_path):
    text = points("+".join(["1"] * ((NEAR_1MB - len(BIDDING)) // 2)))
    code, err, cpu, rss = validated_in_a_child(tmp_path, text)
    assert code == 1 and "Traceback" not in err
    assert re.match(rf"{re.escape(str(tmp_path / 'hostile.yaml'))}:{line_of(text, 'points: ')}:13: error: .* more "
                    r"than 20,000 tokens .*; a rule file has at most 20,000\n", err), err
    assert cpu < CPU_SECONDS and rss < RSS_MB, (cpu, rss)  # before the limits: 26 to 30 s and 960 MB here


def test_a_file_of_60000_keys_is_refused_quickly(tmp_path):
    keys = "".join(f"  k{i}: {i}\n" for i in range(60_000))
    text = BIDDING.replace("game:\n", "define:\n" + keys + "game:\n")
    code, err, cpu, rss = validated_in_a_child(tmp_path, text)
    assert code == 1 and "Traceback" not in err
    # refused at the node past the limit, a key or value among the defines: the keys after it are not read
    assert re.match(rf"{re.escape(str(tmp_path / 'hostile.yaml'))}:\d+:\d+: error: more than 5,000 YAML nodes "
                    r"\(keys, values and list items\); a rule file has at most 5,000\n", err), err
    line = int(err.split(":")[1])
    assert text.splitlines()[line - 1].startswith("  k")
    assert cpu < CPU_SECONDS and rss < RSS_MB, (cpu, rss)  # before the limits: 10 s and 140 MB here


@pytest.mark.parametrize("shape", ["brackets", "nots", "attributes", "strings", "comparisons"])
def test_other_long_expressions_near_1mb_are_refused_quickly(tmp_path, shape):
    room = NEAR_1MB - len(BIDDING)
    expression = {
        "brackets": "len(" + "[" * (room // 2 - 10) + "]" * (room // 2 - 10) + ")",
        "nots": "1 if " + "not " * (room // 4 - 10) + "true else 0",
        "attributes": "seat" + ".x" * (room // 2 - 10),
        "strings": "len(" + "+".join(["'a'"] * (room // 4)) + ")",
        "comparisons": "+".join(["(1 < 2)"] * (room // 8)),
    }[shape]
    code, err, cpu, rss = validated_in_a_child(tmp_path, points(expression))
    assert code == 1 and "Traceback" not in err and "more than 20,000 tokens" in err, err
    assert cpu < CPU_SECONDS and rss < RSS_MB, (cpu, rss)


def test_a_file_at_the_limits_is_validated_quickly(tmp_path):
    """The worst kind of valid file found: nine defines of 2,000 tokens, each called, for one player count."""
    text = BIDDING.replace("players:\n  3: {}\n  4: {}\n", "players:\n  4: {}\n")
    defines = "".join(f'  "d{i}(s)": "len([{i}' + ", s" * 990 + ']) + s.tricks"\n' for i in range(9))
    text = text.replace("game:\n", "define:\n" + defines + "game:\n")
    text = text.replace(POINTS, 'points: "sum([' + ", ".join(f"d{i}(seat)" for i in range(9)) + '])"')
    code, err, cpu, rss = validated_in_a_child(tmp_path, text)
    assert code == 0, err
    assert cpu < CPU_SECONDS and rss < RSS_MB, (cpu, rss)


# ----------------------------------------------------------------------- each limit, counted before the work

def test_yaml_nodes_are_counted_on_the_parsers_events_before_any_node_is_built(monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("a node was built")

    text = "seats: [" + ", ".join(["x"] * limits.MAX_YAML_NODES) + "]\n"  # the mapping, a key and the list: 3 more
    for loader in (yaml_loader._FastLoader, yaml_loader._Loader):
        if loader is None:
            continue
        with monkeypatch.context() as m:
            m.setattr(yaml_loader, "_convert", never)
            with pytest.raises(yaml_loader.YamlError) as exc:
                yaml_loader._load(text, "f.yaml", loader)
        assert str(exc.value).startswith("f.yaml:1:") and exc.value.message == (
            "more than 5,000 YAML nodes (keys, values and list items); a rule file has at most 5,000")
        # the item past the limit: the 4,998th of the list (the mapping, the key and the list came first)
        assert exc.value.position.column == len("seats: [") + 1 + 3 * (limits.MAX_YAML_NODES - 3)


def test_a_file_of_exactly_the_limit_of_nodes_is_read_by_both_parsers():
    text = "seats: [" + ", ".join(["x"] * (limits.MAX_YAML_NODES - 3)) + "]\n"
    data, _ = load_yaml_text(text, "f.yaml")
    assert len(data["seats"]) == limits.MAX_YAML_NODES - 3
    data, _ = yaml_loader._load(text, "f.yaml", yaml_loader._Loader)
    assert len(data["seats"]) == limits.MAX_YAML_NODES - 3


def test_a_long_key_is_refused_with_its_position():
    key = "f" + " " * 200 + "x"  # the schema's pattern for defines goes back and forth over such spaces
    text = f'trickbook: 1\ndefine:\n  ? "{key}"\n  : "1"\n'
    with pytest.raises(yaml_loader.YamlError) as exc:
        load_yaml_text(text, "f.yaml")
    assert str(exc.value).startswith("f.yaml:3:5: error: a key of 202 characters; keys in rule files have at "
                                     "most 100")
    load_yaml_text(f"{'k' * limits.MAX_KEY_CHARS}: 1\n", "f.yaml")  # at the limit: fine


def test_an_expression_is_measured_before_lark_sees_it(monkeypatch):
    def no_lark():
        raise AssertionError("Lark was asked")

    monkeypatch.setattr(parser, "_lark", no_lark)
    with pytest.raises(DslSyntaxError) as exc:
        parser.parse("1" * (limits.MAX_EXPRESSION_CHARS + 1))
    assert (exc.value.offset, exc.value.message) == (
        0, "the expression is 10,001 characters long; expressions have at most 10,000")
    with pytest.raises(DslSyntaxError) as exc:
        parser.parse("[" + ",".join(["1"] * 1001) + "]")  # 2,003 tokens, 4,003 characters
    assert (exc.value.offset, exc.value.message) == (
        0, "the expression has 2,003 tokens (names, numbers, strings, operators and brackets); expressions have "
           "at most 2,000")


def test_an_expression_at_the_limits_parses():
    text = "len([" + ",".join(["1"] * 998) + "])"
    assert len(limits.TOKEN.findall(text)) == limits.MAX_EXPRESSION_TOKENS
    assert len(parser.parse(text).args[0].items) == 998
    assert parser.parse("'" + "x" * (limits.MAX_EXPRESSION_CHARS - 2) + "'").value == "x" * 9998  # one token


def test_a_file_of_many_tokens_is_refused_before_its_expressions_are_parsed(tmp_path, monkeypatch):
    def no_parse(text):
        raise AssertionError(f"parsed {text[:20]!r}")

    monkeypatch.setattr(parser, "_parse_with_lark", no_parse)
    defines = "".join(f'  "d{i}": "[{i}' + ", 1" * 999 + ']"\n' for i in range(10))  # 10 x 2,002 tokens
    path = tmp_path / "many.yaml"
    text = BIDDING.replace("game:\n", "define:\n" + defines + "game:\n")
    path.write_text(text)
    found = validate_file(str(path))
    line = line_of(text, '  "d9": ')
    assert found and found[0].startswith(f"{path}:{line}:9: error: the text values of this file (with the files "
                                         "it extends) hold more than 20,000 tokens"), found


def test_many_player_counts_multiply_the_tokens_validate_compiles(tmp_path):
    seats = "seats: [" + ", ".join(f"S{i}" for i in range(30)) + "]"
    players = "players:\n" + "".join(f"  {n}: {{}}\n" for n in range(3, 30))
    text = BIDDING.replace("seats: [North, East, South, West]", seats).replace("players:\n  3: {}\n  4: {}\n",
                                                                              players)
    text = text.replace("game:\n", 'define:\n  "big": "[' + ", ".join(["1"] * 900) + ']"\n' + "game:\n")
    path = tmp_path / "counts.yaml"
    path.write_text(text)
    found = validate_file(str(path))
    assert re.match(rf"{re.escape(str(path))}:{line_of(text, 'players:')}:1: error: the text values of this file "
                    r"hold [\d,]+ tokens, and validate compiles them once for each of its 27 player counts: "
                    r"[\d,]+ tokens, more than the limit of 50,000", found[0]), found


def test_an_extends_chain_is_held_to_the_node_limit_together(tmp_path):
    (tmp_path / "base.yaml").write_text(BIDDING.replace("game:\n", "define:\n" + "".join(
        f'  "a{i}": "{i}"\n' for i in range(2000)) + "game:\n"))
    variant = tmp_path / "variant.yaml"
    variant.write_text("trickbook: 1\nextends: base.yaml\nname: v\ndefine:\n" + "".join(
        f'  "b{i}": "{i}"\n' for i in range(600)))
    assert validate_file(str(tmp_path / "base.yaml")) == []
    assert validate_file(str(variant)) == [
        f"{variant}:1:1: error: with the files it extends, more than 5,000 YAML nodes (keys, values and list "
        "items); a rule file has at most 5,000\n    trickbook: 1\n    ^"]


def test_a_define_compiled_for_more_than_4_kinds_of_arguments_is_refused(tmp_path):
    kinds = ("1", "seat", "[1]", "[[1]]", "[[[1]]]")  # a number, a seat, lists of numbers, of lists...
    calls = ", ".join(f"d({a})" for a in kinds)
    text = BIDDING.replace("game:\n", 'define:\n  "d(x)": "len([x, x, x])"\n' + "game:\n")
    path = tmp_path / "kinds.yaml"
    path.write_text(text.replace(POINTS, f'points: "sum([{calls}])"'))
    found = validate_file(str(path))
    line = line_of(path.read_text(), "points: ")
    column = len('    points: "sum([') + len(", ".join(f"d({a})" for a in kinds[:4])) + 3
    assert found[0].startswith(f"{path}:{line}:{column}: error: d() is called with more than 4 kinds of arguments "
                               "(each compiles it again)"), found
    path.write_text(text.replace(POINTS, f'points: "sum([{calls.rsplit(", ", 1)[0]}])"'))
    assert validate_file(str(path)) == []


def test_every_text_of_a_file_is_parsed_once_however_many_player_counts(monkeypatch):
    """Validate compiles a file once for each player count: each text is parsed once, even past 4,096 texts (the
    size of the old cache, past which every count parsed every text again)."""
    import uuid

    monkeypatch.setattr(parser.tree_cache, "lookup", lambda text: None)
    monkeypatch.setattr(parser.tree_cache, "remember", lambda text, tree: None)
    parsed = []
    real = parser._parse_with_lark
    monkeypatch.setattr(parser, "_parse_with_lark", lambda text: parsed.append(text) or real(text))
    run = uuid.uuid4().hex[:8]  # texts no other test has parsed
    texts = [f"x{run}_{i} + {i}" for i in range(5000)]
    for _count in range(3):
        for text in texts:
            parser.parse(text)
    assert len(parsed) == 5000


def test_the_trees_kept_are_bounded_in_tokens(monkeypatch):
    from collections import OrderedDict

    monkeypatch.setattr(parser, "_trees", OrderedDict())
    monkeypatch.setattr(parser, "_kept", [0])
    monkeypatch.setattr(parser, "KEEP_TOKENS", 10_000)  # a few large trees go past it
    big = ["[" + ",".join([str(i)] * 999) + "]" for i in range(8)]  # 8 x 1,999 tokens
    for text in big:
        parser.parse(text)
    assert 0 < parser._kept[0] <= 10_000 and len(parser._trees) == 5
    assert parser._kept[0] == sum(tokens for _, tokens in parser._trees.values())
    assert list(parser._trees) == big[3:]  # the least recently used went first


def big_deck(ranks: int, counts: range, label: str = "") -> str:
    """A small whole game whose deck is 4 suits x ``ranks`` ranks, for the player counts ``counts``."""
    players = "".join(f"  {n}: {{}}\n" for n in counts)
    return (f"trickbook: 1\nname: big\ntitle: a big deck\ndeck:\n{label}  cards:\n    - suit: [a, b, c, d]\n"
            f"      rank: {list(range(ranks))}\nplayers:\n{players}"
            "zones:\n  hand: {per_seat: true, visible: owner}\n  won: {per_seat: true, visible: all}\n"
            "  trick: {visible: all}\n  stock: {visible: nobody}\ngame:\n  rounds: 1\nround:\n"
            "  deal: {do: deal, hand: 3, rest: stock}\n"
            "  tricks: {do: tricks, leader: left(round.dealer), follow: 'card.suit == led.suit',\n"
            "           strength: ['card.suit == led.suit', 'card.rank'], to: won}\n"
            "  score: {do: score, points: seat.tricks}\n")


def test_a_big_deck_for_many_player_counts_is_refused_before_any_card_is_made(tmp_path):
    """10,000 cards for 98 player counts took 10 s of CPU: validate builds the deck once per count."""
    code, err, cpu, rss = validated_in_a_child(tmp_path, big_deck(2500, range(2, 100)))
    assert code == 1 and cpu < CPU_SECONDS and rss < RSS_MB, (cpu, rss)
    assert re.search(r"hostile.yaml:4:1: error: the deck's 10,000 cards times the 43 tokens of the rules times its "
                     r"98 player counts is 42,140,000, more than the limit of 2,500,000", err), err


def test_rules_judged_card_by_card_are_bounded_with_the_cards(tmp_path):
    """200 strength levels over 10,000 cards took 5 s and 380 MB (1,500 levels: 30 s and 2.6 GB)."""
    levels = "[" + ", ".join(f"'card.rank == {i}'" for i in range(200)) + ", 'card.rank']"
    old = "strength: ['card.suit == led.suit', 'card.rank']"
    text = big_deck(2500, range(4, 5)).replace(old, f"strength: {levels}")
    code, err, cpu, rss = validated_in_a_child(tmp_path, text)
    assert code == 1 and cpu < CPU_SECONDS and rss < RSS_MB, (cpu, rss)
    assert "error: the deck's 10,000 cards times the 1,036 tokens of the rules times its 1 player counts" in err


def test_a_long_label_counts_its_fields(tmp_path):
    """Each card fills its label's fields: 400 cards x (1 + 2 attributes + 400 fields) x 4 player counts."""
    path = tmp_path / "label.yaml"
    path.write_text(big_deck(100, range(3, 7), label="  label: '" + "{suit}{rank}" * 200 + "'\n"))
    (found,) = validate_file(str(path))
    assert found.startswith(f"{path}:4:1: error: the deck takes 161,200 cells to build"), found
    assert "its 4 player counts: 644,800, more than the limit of 500,000" in found


def test_a_deck_at_the_limits_is_validated_quickly(tmp_path):
    """10,000 cards, 2 attributes, for 5 player counts: 250,000 cells; rules of 43 tokens: 2,150,000 card tokens."""
    code, err, cpu, rss = validated_in_a_child(tmp_path, big_deck(2500, range(2, 7)))
    assert code == 0 and cpu < CPU_SECONDS and rss < RSS_MB, (err, cpu, rss)


def test_a_chain_of_extends_is_merged_in_time_linear_in_its_positions(tmp_path):
    """Nine files of 2,400 defines each: merging scanned every position for every key (9.4 s of CPU)."""
    partners = (ROOT / "docs" / "examples" / "partners.yaml").read_text()
    (tmp_path / "v0.yaml").write_text(partners + "define:\n" + "".join(f'  a{i}(x): "x + {i}"\n' for i in range(2400)))
    for k in range(1, 9):
        defines = "".join(f'  b{k}_{i}(x): "x + {i}"\n' for i in range(2400))
        text = f"trickbook: 1\nextends: v{k - 1}.yaml\nname: v{k}\ntitle: v\ndefine:\n{defines}"
        (tmp_path / f"v{k}.yaml").write_text(text)
    code, err, cpu, rss = validated_in_a_child(tmp_path, text)  # v8 again, the 8 levels of extends allowed
    assert code == 1 and cpu < CPU_SECONDS and rss < RSS_MB, (cpu, rss)
    assert "error: with the files it extends, more than 5,000 YAML nodes" in err
