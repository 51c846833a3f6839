"""The conformance battery (interpreter/conformance/battery.py) on every bundled game and player count and on every
rule file the docs show whole: random games end, conserve cards, clone, save and pickle, play out as the checked path
plays them, give the same record for the same seed and for every driver, and replay identically from their record.

The default run plays up to 15 games per bundled game and player count: game 0 gets every check of the battery,
the costly ones sampled (a clone at every 17th action, playout's state at every 17th decision, the API's state saved
and read back at 2 points); games 1 to 4 what ``trickbook conformance`` checks by default (every card after every
action, the same-seed record, the replay); the rest that they end. It counts work: after the first 3 games of a
count it stops once 20,000 actions were checked (a game of long series, Skat's 48 deals, or of slow decisions,
Tichu's, plays fewer than 30). Each rule file of the docs gets one game a player count, with every check. Set
TRICKBOOK_CONFORMANCE_GAMES for a longer run: that many games of each, every one with every check at every action
(README: "Long runs"; docs/testing.md).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

import pytest

from interpreter.conformance.battery import ALL, ENDS, RECORDS, Checks, check_game
from interpreter.engine.compile import compile_game, supported_players
from interpreter.harness.runner import play_game
from interpreter.rules.loader import load_rules

from .conftest import GAMES, ROOT, counts_of, game_of, suite_counts

LONG = "TRICKBOOK_CONFORMANCE_GAMES" in os.environ
GAMES_PER_COUNT = int(os.environ.get("TRICKBOOK_CONFORMANCE_GAMES", "15"))
GAMES_PER_DOC = GAMES_PER_COUNT if LONG else 1
SAMPLED = Checks(every=17, saves=2)  # every check, the costly ones on every 17th action and at 2 points
FULLY_CHECKED = 5
MIN_GAMES, ACTIONS_PER_COUNT = 3, (None if LONG else 20_000)
CASES = [(path, n) for path in GAMES for n in counts_of(path)]
# games whose 30 default games would check many more actions than others' at no cap: President's decisions are
# climbing picks (each costly to check) and 10 deals are some 700 of them; 2 deals hold the exchange and the lead
# of a later deal too (the long run plays the defaults)
SHORT_RUN: dict[str, dict[str, object]] = {} if LONG else {"president": {"deals": 2}}


def checks_of(index: int) -> Checks:
    """What game ``index`` of a case is checked for."""
    if LONG:
        return ALL
    return SAMPLED if index == 0 else RECORDS if index < FULLY_CHECKED else ENDS


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}p" for p, n in CASES])
def test_random_games_of_every_bundled_game_pass_the_battery(path, players, tmp_path):
    game = game_of(path.stem, players, **SHORT_RUN.get(path.stem, {}))
    rounds = set()
    actions = 0
    # the fewest players, 4 and the most play up to GAMES_PER_COUNT games, any other count MIN_GAMES (all: LONG)
    for i in range(GAMES_PER_COUNT if LONG or players in suite_counts(path) else MIN_GAMES):
        if ACTIONS_PER_COUNT is not None and i >= MIN_GAMES and actions >= ACTIONS_PER_COUNT:
            break
        played = check_game(game, i, tmp_path, checks_of(i))  # raises ConformanceError
        assert played.rounds >= 1 and played.actions > 0
        rounds.add(played.rounds)
        actions += played.actions
    if game.flow.until is None:
        assert len(rounds) == 1, "a fixed-length game ended after different numbers of rounds"


# ---------------------------------------------------------------------------------------------- the docs' games

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))


def _rule_files_shown() -> list[tuple[str, str, str]]:
    """Every yaml block of the README and the docs that is a rule file (a line ``trickbook: 1``): (page, the block,
    the file it is: a docs/examples file it quotes, a file it names on its first line, ``# NAME.yaml``, or ""
    for an outline of the sections, ``{...}`` for their contents)."""
    quoted = {p.read_text(encoding="utf-8"): p.name for p in EXAMPLES}
    out = []
    for page in PAGES:
        for block in re.findall(r"```yaml\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            if re.search(r"^trickbook: 1\b", block, re.M):
                named = re.match(r"# ([\w-]+\.yaml)\n", block)
                out.append((page.name, block, quoted.get(block) or (named.group(1) if named else "")))
    return out


def _doc_games() -> list[tuple[str, str | None]]:
    """The whole games the docs show: each docs/examples file, and each rule file a page writes out by name (its
    text), by name."""
    games: list[tuple[str, str | None]] = [(p.name, None) for p in EXAMPLES]
    games += [(name, block) for _, block, name in _rule_files_shown()
              if name and not (ROOT / "docs" / "examples" / name).is_file()]
    return games


DOC_GAMES = _doc_games()


def test_every_rule_file_the_docs_show_is_an_example_file_a_named_file_or_an_outline():
    shown = _rule_files_shown()
    assert len(shown) >= 18
    for page, block, name in shown:
        assert name or "{...}" in block, f"{page} shows a rule file that is neither a docs/examples file, nor named " \
                                         f"on its first line (# NAME.yaml), nor an outline:\n{block[:300]}"
    assert ("README.md", "nine-njet.yaml") in [(page, name) for page, _, name in shown]
    assert [name for name, _ in DOC_GAMES if name == "nine-njet.yaml"] == ["nine-njet.yaml"]


@pytest.mark.parametrize("name,text", DOC_GAMES, ids=[name.removesuffix(".yaml") for name, _ in DOC_GAMES])
def test_random_games_of_every_rule_file_of_the_docs_pass_the_battery(name, text, tmp_path):
    path = ROOT / "docs" / "examples" / name
    if text is not None:  # written out on a page: a file of its own
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
    source = load_rules(path)
    for players in supported_players(source):
        game = compile_game(source, players)
        for i in range(GAMES_PER_DOC):
            played = check_game(game, i, tmp_path, ALL if LONG else SAMPLED, str(path))
            assert played.rounds >= 1 and played.actions > 0


# ---------------------------------------------------------------------------------------------- the command


def test_the_conformance_command_reports_figures_and_failures(capsys):
    from interpreter.cli import main

    assert main(["conformance", "meinz", "njet-riogrande", "-p", "4", "--games", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 6 and report["failures"] == 0 and report["checks"] == "records"
    assert [(c["game"], c["players"], c["games"]) for c in report["cases"]] == [("meinz", 4, 3),
                                                                                 ("njet-riogrande", 4, 3)]
    assert all(c["rounds"] >= 3 and c["actions"] > 100 for c in report["cases"])
    # --first continues a run: game 2 alone is the third game of the run above; every level plays the same games
    game = compile_game(load_rules("njet-riogrande"), 4)
    played = check_game(game, 2, Path(tempfile.mkdtemp()), ENDS)
    for level in ("ends", "all"):
        assert main(["conformance", "njet-riogrande", "-p", "4", "--games", "1", "--first", "2", "--json",
                     "--checks", level]) == 0
        later = json.loads(capsys.readouterr().out)
        assert later["checks"] == level
        assert (later["cases"][0]["games"], later["cases"][0]["rounds"], later["cases"][0]["actions"]) == \
            (1, played.rounds, played.actions)
    assert main(["conformance", "meinz", "-p", "9"]) == 1
    assert "meinz is for 3, 4 players, not 9" in capsys.readouterr().err


def test_a_failure_is_printed_with_the_command_that_shows_its_game(capsys, monkeypatch):
    from interpreter.cli import main
    from interpreter.engine.state import State

    real = State.all_cards
    monkeypatch.setattr(State, "all_cards", lambda self: real(self)[1:] if self.round_number > 1 else real(self))
    assert main(["conformance", "meinz", "-p", "4", "--games", "2", "--first", "5",
                 "-o", "card_monster_can_win=true"]) == 1
    out = capsys.readouterr().out
    assert re.search(r"^meinz, 4 players, seed conformance/5, action \d+ \(round 2\): after it 35 cards of 36 are in "
                     r"play, or a card is in two places\n  \(see it: trickbook play meinz -p 4 -o "
                     r"card_monster_can_win=true --seed conformance/5\)$", out, re.M), out
    assert out.startswith("options: card_monster_can_win=true\n")
    assert "2 games in" in out and ", 2 failures" in out


def test_the_conformance_command_plays_the_options_given(capsys):
    """``-o NAME=VALUE`` sets an option of every file checked: the same seeds play other games, the options are
    reported, and a file that does not declare one is refused by name before any game."""
    from interpreter.cli import main

    rounds = {}
    for given in ([], ["-o", "target=50"]):
        assert main(["conformance", "hearts", "--games", "3", "--json", *given]) == 0
        (case,) = json.loads(capsys.readouterr().out)["cases"]
        rounds[tuple(given)] = (case["options"], case["rounds"])
    assert rounds[()][0] == {} and rounds[("-o", "target=50")][0] == {"target": 50}
    assert rounds[("-o", "target=50")][1] < rounds[()][1]  # three games to 50 are shorter than to 100
    assert main(["conformance", "hearts", "meinz", "-o", "target=50"]) == 1
    assert "meinz: unknown option 'target'" in capsys.readouterr().err


def test_different_seeds_give_different_games():
    game = compile_game(load_rules("njet-riogrande"), 4)
    records = {json.dumps(play_game(game, seed=s, record=True).record[1:]) for s in range(5)}
    assert len(records) == 5
