"""The examples in docs/ are real: the hand-written record replays to the totals the doc states,
a wrong line is reported by its number, and every example rule file validates and plays."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.cli import validate_file
from interpreter.engine.compile import compile_game, supported_players
from interpreter.errors import RecordError
from interpreter.harness.runner import play_game
from interpreter.match.records import read_record, replay, write_record
from interpreter.rules.loader import load_rules

from .conftest import at_step, counts_of

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
HAND_WRITTEN = EXAMPLES / "hand-written.jsonl"
TINY = EXAMPLES / "tiny-njet.yaml"
EXAMPLE_RULES = sorted(EXAMPLES.glob("*.yaml"))


@pytest.fixture(autouse=True)
def _at_repository_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand-written header names its rules as docs/examples/tiny-njet.yaml, relative to the root."""
    monkeypatch.chdir(ROOT)


def _lines() -> list[str]:
    return HAND_WRITTEN.read_text(encoding="utf-8").splitlines()


def _line_number(fragment: str) -> int:
    """The 1-based number of the only line of the hand-written record containing ``fragment``."""
    found = [n for n, line in enumerate(_lines(), 1) if fragment in line]
    assert len(found) == 1, f"{fragment!r} is on lines {found}"
    return found[0]


def _variant(tmp_path: Path, old: str, new: str) -> tuple[Path, int]:
    """The hand-written record with ``old`` replaced by ``new`` on one line; its path and that line."""
    n = _line_number(old)
    lines = _lines()
    lines[n - 1] = lines[n - 1].replace(old, new)
    path = tmp_path / "changed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "tiny-njet.yaml").write_text((EXAMPLES / "tiny-njet.yaml").read_text())  # beside the record
    return path, n


# ---------------------------------------------------------------- the hand-written record


def test_the_hand_written_record_replays_to_the_totals_stated_in_the_doc() -> None:
    out = replay(HAND_WRITTEN)
    assert out.rounds == 1
    assert out.round_results == [[8, 2]]
    assert out.totals == [8, 2]  # turquoise 8, lilac 2
    assert out.winners == [0]  # turquoise
    doc = (DOCS / "records.md").read_text(encoding="utf-8")
    assert "turquoise 8, lilac 2" in doc


def test_the_hand_written_record_needs_no_rules_id_seed_or_step_names() -> None:
    header = read_record(HAND_WRITTEN)[0][1]
    assert "rules_id" not in header and "seed" not in header


def test_the_hand_written_record_replays_from_elsewhere_when_given_the_rules(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = replay(HAND_WRITTEN, rules=str(TINY))
    assert out.totals == [8, 2]


def test_records_md_shows_the_hand_written_record_and_its_rules_verbatim() -> None:
    doc = (DOCS / "records.md").read_text(encoding="utf-8")
    for line in _lines():
        if line.strip() and not line.startswith("#"):
            assert line in doc, f"docs/records.md does not show: {line}"
    for line in TINY.read_text(encoding="utf-8").splitlines():
        assert line in doc, f"docs/records.md does not show the tiny-njet line: {line}"


def test_an_illegal_action_is_reported_with_its_line_number(tmp_path: Path) -> None:
    # lilac holds red cards, so answering the red 4 with the blue 3 does not follow
    path, n = _variant(tmp_path, '"seat": "lilac", "action": "red 0"', '"seat": "lilac", "action": "blue 3"')
    with pytest.raises(RecordError) as err:
        replay(path)
    message = str(err.value)
    assert message.startswith(f"{path}:{n}: ")
    assert "'blue 3' is not legal now for lilac (tricks)" in message
    assert "legal: red 0, red 1" in message


@pytest.mark.parametrize(("old", "new", "says"), [
    ('"seat": "lilac", "action": "red 0"', '"seat": "turquoise", "action": "red 0"',
     "the record has 'turquoise' acting, but it is lilac's turn (tricks)"),
    ('"action": "trump: blue"', '"action": "trump: green"', "'trump: green' is not legal now for turquoise (njet)"),
    ('"aside": ["red 2", "blue 1"]', '"aside": ["red 2", "red 2"]',
     "aside: card 'red 2' is dealt more often than the deck has it"),
    ('"scores": {"turquoise": 8', '"scores": {"turquoise": 7', "round 1 scores differ"),
    ('"rounds": 1, "totals": {"turquoise": 8', '"rounds": 1, "totals": {"turquoise": 80', "result totals differ"),
    ('"options": {}', '"rules_id": "0000000000000000", "options": {}', "the record was made with other rules"),
])
def test_a_wrong_line_is_reported_with_its_number(tmp_path: Path, old: str, new: str, says: str) -> None:
    path, n = _variant(tmp_path, old, new)
    with pytest.raises(RecordError) as err:
        replay(path)
    assert str(err.value).startswith(f"{path}:{n}: ")
    assert says in str(err.value)


def test_a_record_that_stops_early_says_where_the_game_is(tmp_path: Path) -> None:
    lines = _lines()
    cut = _line_number('"action": "red 1"')
    path = tmp_path / "short.jsonl"
    path.write_text("\n".join(lines[:cut - 1]).replace('"tiny-njet.yaml"', f'"{EXAMPLES / "tiny-njet.yaml"}"')
                    + "\n", encoding="utf-8")
    where = r"\(round 1, step tricks, lilac to act\)"
    with pytest.raises(RecordError, match=r"the record ends before the game does " + where):
        replay(path, allow=(EXAMPLES,))   # its rules lie in docs/examples, not beside it


# ---------------------------------------------------------------- example rule files


def test_there_are_example_rule_files() -> None:
    names = {p.name for p in EXAMPLE_RULES}
    assert {"tiny-njet.yaml", "njet-nines.yaml"} <= names


@pytest.mark.parametrize("path", EXAMPLE_RULES, ids=lambda p: p.name)
def test_each_example_rule_file_validates(path: Path) -> None:
    assert validate_file(str(path)) == []


@pytest.mark.parametrize("path", EXAMPLE_RULES, ids=lambda p: p.name)
def test_each_example_plays_with_a_fixed_seed_and_its_record_replays(path: Path, tmp_path: Path) -> None:
    source = load_rules(path)
    for players in supported_players(source):
        game = compile_game(source, players)
        out = play_game(game, seed=11, record=True, rules_file=str(path))
        again = play_game(game, seed=11, record=True, rules_file=str(path))
        assert again.record == out.record
        record = tmp_path / f"{path.stem}-{players}.jsonl"
        write_record(record, out.record)
        replayed = replay(record, allow=(EXAMPLES,))   # the record lies elsewhere than its rules
        assert replayed.totals == out.totals
        assert replayed.winners == out.winners
        assert replayed.round_results == out.round_results


def test_the_nines_variant_makes_a_9_the_supertrump() -> None:
    game = compile_game(load_rules(EXAMPLES / "njet-nines.yaml"), 4)
    hands = {0: ["red 9", "red 1"], 1: ["blue 0", "blue 1"], 2: ["blue 9", "blue 2"], 3: ["red 8", "red 2"]}
    state = at_step(game, "tricks", hands, dealer=3, start=0, trump="red", supertrump="blue")
    # red 9 led (trump); the blue 9 (supertrump) beats it, the blue 0 does not
    for label in ("red 9", "blue 0", "blue 9", "red 8"):
        game.apply(state, game.action_for_label(state, label))
    assert state.counters["tricks"] == [0, 0, 1, 0]
    assert game.current(state) == 2


def test_rule_files_md_shows_the_variant_example_verbatim() -> None:
    doc = (DOCS / "rule-files.md").read_text(encoding="utf-8")
    for line in (EXAMPLES / "njet-nines.yaml").read_text(encoding="utf-8").splitlines():
        assert line in doc, f"docs/rule-files.md does not show the njet-nines line: {line}"


REPO_PATH = re.compile(r"`((?:interpreter|docs|games|schema|benchmarks|tests)/[\w./-]+\.(?:py|md|yaml|json|jsonl))`")
PACKAGE_PATH = re.compile(r"`((?:rules|engine|dsl|harness|steps)/[\w./-]+\.(?:py|lark))`")  # inside interpreter/


def test_the_docs_name_only_files_that_exist() -> None:
    for doc in ("architecture.md", "records.md", "rule-files.md", "cookbook.md", "api.md", "agents.md"):
        text = (DOCS / doc).read_text(encoding="utf-8")
        for name in REPO_PATH.findall(text):
            assert (ROOT / name).exists(), f"docs/{doc} names {name}, which does not exist"
        for name in PACKAGE_PATH.findall(text):
            found = (ROOT / "interpreter" / name).exists() or (ROOT / "interpreter" / "engine" / name).exists()
            assert found, f"docs/{doc} names {name}, which is not a file of interpreter/"


# ---------------------------------------------------------------- the new games in the docs


def _quoted_block(doc: str, after: str) -> list[str]:
    """The lines of the first fenced block starting with a JSON line, after the text ``after``."""
    text = (DOCS / doc).read_text(encoding="utf-8").split(after, 1)[1]
    for block in re.findall(r"```\n(.*?)\n```", text, re.S):
        if block.startswith("{"):
            return block.splitlines()
    raise AssertionError(f"no record lines after {after!r} in docs/{doc}")


def _recorded_lines(name: str, players: int, seed: int) -> list[str]:
    """The lines `trickbook play NAME --players N --seed S --record FILE` writes."""
    out = play_game(compile_game(load_rules(name), players), seed=seed, record=True)
    return [json.dumps(event, ensure_ascii=False) for event in out.record]


def _assert_excerpt(quoted: list[str], real: list[str]) -> None:
    """Every quoted line without '...' is a real line, and they come in the record's order."""
    position = 0
    for line in quoted:
        if "..." in line:
            continue
        event = json.loads(line)
        if event["type"] == "game":  # rules_id changes with any edit of the rules
            header = json.loads(real[0])
            event.pop("rules_id"), header.pop("rules_id")
            assert event == header
            continue
        assert line in real[position:], f"not in the record (in this order): {line}"
        position = real.index(line, position) + 1


def test_the_njet_record_quoted_in_records_md_is_real() -> None:
    quoted = _quoted_block("records.md", "## A real record")
    assert len(quoted) > 10
    _assert_excerpt(quoted, _recorded_lines("njet-riogrande", 2, 1))


def test_the_meinz_record_quoted_in_records_md_is_real() -> None:
    quoted = _quoted_block("records.md", "### A record with an automatic seat")
    real = _recorded_lines("meinz", 3, 1)
    _assert_excerpt(quoted, real)
    header = json.loads(real[0])
    assert header["players"] == 3 and header["seats"][-1] == "card monster"
    # the automatic seat is dealt and scored but never acts in the record
    assert all('"seat": "card monster"' not in line for line in real)
    assert any('"card monster": [' in line for line in real if '"type": "chance"' in line)
    # decisions inside a trick are named by their own steps
    steps = {json.loads(line).get("step") for line in real}
    assert {"meinz", "exchange", "tricks"} <= steps


def test_the_split_and_keep_lines_quoted_in_records_md_are_real() -> None:
    quoted = _quoted_block("records.md", "The lines come in the order the decisions happen")
    assert any("take " in line for line in quoted) and any("keep " in line for line in quoted)
    real = _recorded_lines("mit-list-und-tuecke", 4, 1)
    text = "\n".join(real)
    assert "\n".join(quoted) in text  # consecutive lines of the record


def test_the_label_examples_in_records_md_have_the_engine_s_forms() -> None:
    doc = (DOCS / "records.md").read_text(encoding="utf-8")
    for label in ("`Meinz`", "`no Meinz`", "`swap red 3 for red 1`", "`no exchange`", "`take red 14`",
                  "`keep green + red`"):
        assert label in doc
    lines = (_recorded_lines("meinz", 4, 3) + _recorded_lines("mit-list-und-tuecke", 5, 3)
             + _recorded_lines(str(EXAMPLES / "two-zones.yaml"), 3, 3))
    actions = {json.loads(line).get("action", "") for line in lines}
    assert "`red 1 from open`" in doc
    assert any(re.fullmatch(r"\w+ \d+ from open", a) for a in actions)
    assert any(re.fullmatch(r"swap \w+ \d+ for \w+ \d+", a) for a in actions)
    assert any(re.fullmatch(r"take \w+ \d+", a) for a in actions)
    assert any(re.fullmatch(r"keep \w+ \+ \w+", a) for a in actions)
    assert {"Meinz", "no Meinz"} <= actions


def test_the_readme_lists_every_bundled_game_with_its_player_counts() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    bundled = readme.split("Bundled games", 1)[1].split("\n## ", 1)[0]
    bundled = " ".join(bundled.split())
    for path in sorted((ROOT / "games").glob("*.yaml")):
        counts = counts_of(path)
        players = f"{min(counts)}-{max(counts)}" if len(counts) > 1 else f"{counts[0]}"
        assert f"`{path.name}`, {players} players" in bundled, path.name


# a line of each yaml block of rule-files.md that is quoted from a file, and that file
QUOTED = (
    ("  2: {hand: 15, rounds: 8, own_team: [1]}", "games/njet-riogrande.yaml"),
    ("role: monster", "games/meinz.yaml"),
    ("tally(s):", "games/njet-riogrande.yaml"),
    ('start: "monster()', "games/meinz.yaml"),
    ("  deal: {do: deal, hand: setup.hand", "games/njet-riogrande.yaml"),
    ('options: "[0, 1, 2, 3, 4, 5]"', "docs/examples/bidding.yaml"),
    ("receive: {do: move", "games/njet-riogrande.yaml"),
    ("trump: first(turnup).suit", "docs/examples/turned-trump.yaml"),
    ("teams: [[North, South], [East, West]]", "docs/examples/partners.yaml"),
    ("teams: {do: teams", "games/njet-riogrande.yaml"),
    ("title: start player", "games/njet-riogrande.yaml"),
    ('points: "sum(m.tricks for m in team(seat))"', "docs/examples/partners.yaml"),
    ('follow: "card.colour == led.colour"   # by printed colour', "games/njet-riogrande.yaml"),
    ("from: [hand, open]", "docs/examples/two-zones.yaml"),
    ('holding: "card.colour == led.colour"', "games/meinz.yaml"),
    ("otherwise: end", "games/mit-list-und-tuecke.yaml"),
    ("won_by: round.caller", "games/meinz.yaml"),
    ("takes: setup.takes", "games/mit-list-und-tuecke.yaml"),
    ("taker.kept != none", "games/mit-list-und-tuecke.yaml"),
    ('who: "[s for s in [player]', "games/meinz.yaml"),
)


@pytest.mark.parametrize(("needle", "name"), QUOTED, ids=[q[0].strip()[:30] for q in QUOTED])
def test_rule_files_md_quotes_the_games_and_examples_verbatim(needle: str, name: str) -> None:
    """The yaml block of rule-files.md holding ``needle`` is made of lines of the file it quotes."""
    doc = (DOCS / "rule-files.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", doc, re.S) if needle in b]
    assert blocks, f"no yaml block of docs/rule-files.md holds {needle!r}"
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    for line in blocks[0].splitlines():
        assert line in lines, f"docs/rule-files.md quotes {line!r}, which is not in {name}"
