"""Records and saved states are read by one reader (interpreter/match/record_reader.py): the same damaged line
is refused by ``trickbook replay``, ``replay(path, game=...)``, ``TrickGame.deserialize`` and ``load_serialized``
with the same message, and a seed is what a header can hold, checked alike where it is given and where it is read.
"""

from __future__ import annotations

import json
import random
import re

import pytest

import interpreter as tb
from interpreter.errors import GameError, RecordError
from interpreter.match.records import replay

GAME = tb.load("hearts", players=4)


def _finished(seed: int = 1) -> str:
    """A whole game of Hearts saved by the API (so with its trick lines), as text."""
    state = GAME.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        state.apply_chance() if state.is_chance() else state.apply(rng.choice(state.legal_actions()))
    return state.serialize()


SAVED = _finished()
LINES = SAVED.splitlines()
HEAD = json.loads(LINES[0])


def _readers(text: str, tmp_path) -> dict[str, str]:
    """What each reader says of ``text``: "ok", or its RecordError's message without the place ("FILE:LINE: ");
    any other exception escapes, failing the test."""
    path = tmp_path / "record.jsonl"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    readers = {"trickbook replay": lambda: replay(path), "replay on a game": lambda: replay(path, game=GAME.engine),
               "deserialize": lambda: GAME.deserialize(text), "load_serialized": lambda: tb.load_serialized(text)}
    said = {}
    for name, read in readers.items():
        try:
            read()
            said[name] = "ok"
        except RecordError as exc:
            said[name] = re.sub(r"^(serialized state|\S*record\.jsonl):\d+: ", "", str(exc))
    return said


def _with_header(**changes) -> str:
    head = {**HEAD, **changes}
    for key in [k for k, v in changes.items() if v is _GONE]:
        del head[key]
    return "\n".join([json.dumps(head)] + LINES[1:]) + "\n"


_GONE = object()


def test_a_whole_saved_game_is_read_by_every_reader(tmp_path):
    assert set(_readers(SAVED, tmp_path).values()) == {"ok"}


# the cases of issue 32 ("Why 7") first: deserialize accepted version 2, "1" and format "x"; a list or an object
# as the seed was a TypeError in deserialize and a match in replay
HEADER_CASES = [
    ({"version": 2}, "record version 2 is not supported: this Trickbook reads version 1"),
    ({"version": "1"}, "\"version\" must be a whole number (this Trickbook reads version 1), not the text '1'"),
    ({"version": True}, "\"version\" must be a whole number (this Trickbook reads version 1), not true"),
    ({"format": "x"}, "not a Trickbook record (\"format\" is the text 'x', a record's is 'trickbook-record')"),
    ({"format": ["trickbook-record"]}, "not a Trickbook record (\"format\" is a list"),
    ({"seed": [1, 2]}, "\"seed\" must be a whole number or text, not a list"),
    ({"seed": {"a": 1}}, "\"seed\" must be a whole number or text, not an object"),
    ({"seed": None}, "\"seed\" must be a whole number or text, not null (leave \"seed\" out for none)"),
    ({"seed": 1.5}, "\"seed\" must be a whole number or text, not the fraction 1.5"),
    ({"seed": True}, "\"seed\" must be a whole number or text, not true"),
    ({"seed": "\ud800"}, "\"seed\" must be valid Unicode text"),
    ({"seed": "x" * 1001}, "\"seed\" must be text of at most 1000 characters, not 1001"),
    ({"players": "4"}, "the header must give \"players\": the player count, a whole number from 1 (not the text '4')"),
    ({"players": True}, "the header must give \"players\": the player count, a whole number from 1 (not true)"),
    ({"players": _GONE}, "the header must give \"players\": the player count, a whole number from 1 (not nothing)"),
    ({"options": [1]}, "\"options\" must be an object (an option's name: its value), not a list"),
    ({"options": None}, "\"options\" must be an object (an option's name: its value), not null"),
    ({"options": {"moon": ["shooter -26"]}}, "option 'moon' must be true, false, a whole number or text, not a list"),
    ({"seats": "North"}, "\"seats\" must be a list of the seats' names (text), not the text 'North'"),
    ({"seats": [1, 2, 3, 4]}, "\"seats\" must be a list of the seats' names (text), not a list"),
    ({"rules": 5}, "\"rules\" must be text, not 5"),
    ({"rules_id": 5}, "\"rules_id\" must be text, not 5"),
    ({"rules_file": ["hearts.yaml"]}, "\"rules_file\" must be text, not a list"),
    ({"option": {"moon": "others +26"}}, "unknown key 'option' in the header"),
    ({"start": [1]}, "\"start\" must give the round"),
    ({"start": None}, "\"start\" must give the round"),
    ({"rules_id": "0000"}, "the record was made with other rules (rules_id '0000'); hearts now has rules_id"),
    ({"rules_id": "\n" * 100}, "the record was made with other rules (rules_id '\\n\\n"),  # one line, cut
    ({"seats": ["N", "E", "S", "W"]}, "seats ['N', 'E', 'S', 'W'] differ from the game's seats"),
]


def _named(changes: dict) -> str:
    return ", ".join(f"{k} missing" if v is _GONE else f"{k}={v!r}"[:40] for k, v in changes.items())


@pytest.mark.parametrize("changes, message", HEADER_CASES, ids=[_named(c) for c, _ in HEADER_CASES])
def test_a_damaged_header_is_refused_alike_by_replay_and_deserialize(changes, message, tmp_path):
    said = _readers(_with_header(**changes), tmp_path)
    assert set(said.values()) == {said["trickbook replay"]}, said  # every reader, the same words
    assert said["trickbook replay"].startswith(message), said


# lines after the header: each key known and of its kind, and what the rules told (tricks won) as they told it
def _damaged_line(kind: str, change) -> str:
    lines = list(LINES)
    i = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == kind)
    event = json.loads(lines[i])
    change(event)
    lines[i] = json.dumps(event)
    return "\n".join(lines) + "\n"


LINE_CASES = [
    ("action", lambda e: e.update(action=5), "\"action\" of an action line must be text, not 5"),
    ("action", lambda e: e.pop("action"), "an action line needs \"action\": the action's label (text)"),
    ("action", lambda e: e.update(seat=["North"]), "\"seat\" of an action line must be text, not a list"),
    ("action", lambda e: e.update(sead="North"), "unknown key 'sead' in an action line"),
    ("action", lambda e: e.update(round=True), "\"round\" of an action line must be a whole number, not true"),
    ("chance", lambda e: e.update(outcome=[]), "\"outcome\" of a chance line must be an object, not a list"),
    ("chance", lambda e: e.update(type=5), "unknown line type 5"),
    ("chance", lambda e: e.update(type="game"), "a second header: the game header comes once, on the first line"),
    ("round", lambda e: e.update(round=True), "\"round\" of a round line must be a whole number, not true"),
    ("round", lambda e: e.update(scores={k: float(v) for k, v in e["scores"].items()}), "round 1 scores differ"),
    ("result", lambda e: e.update(rounds=str(e["rounds"])), "\"rounds\" of a result line must be a whole number"),
    ("trick", lambda e: e.update(winner="nobody"), "this trick line is not what the rules made happen"),
    ("trick", lambda e: e.update(claimed=0), "\"claimed\" of a trick line must be true or false, not 0"),
]


@pytest.mark.parametrize("kind, change, message", LINE_CASES, ids=[m[:40] for _, _, m in LINE_CASES])
def test_a_damaged_line_is_refused_alike_by_replay_and_deserialize(kind, change, message, tmp_path):
    said = _readers(_damaged_line(kind, change), tmp_path)
    assert set(said.values()) == {said["trickbook replay"]}, said
    assert said["trickbook replay"].startswith(message), said


def test_a_trick_line_says_the_trick_the_rules_made_and_a_record_may_leave_them_out(tmp_path):
    without = "".join(line + "\n" for line in LINES if json.loads(line)["type"] != "trick")
    assert set(_readers(without, tmp_path).values()) == {"ok"}
    lines = list(LINES)
    tricks = [i for i, line in enumerate(lines) if json.loads(line)["type"] == "trick"]
    lines[tricks[0]], lines[tricks[1]] = lines[tricks[1]], lines[tricks[0]]  # trick 2 said before trick 1 was won
    said = _readers("\n".join(lines) + "\n", tmp_path)
    assert set(said.values()) == {said["deserialize"]} and "not what the rules made happen" in said["deserialize"]


@pytest.mark.parametrize("text, message", [
    (SAVED.encode("utf-8"), "serialized state: a saved state is text (str), not bytes (decode it first"),
    (None, "serialized state: a saved state is text (str), not None"),
    (["a list"], "serialized state: a saved state is text (str), not list"),
])
def test_a_saved_state_that_is_not_text_is_refused_in_words(text, message):
    for read in (GAME.deserialize, tb.load_serialized):
        with pytest.raises(RecordError) as exc:
            read(text)
        assert str(exc.value).startswith(message)


def test_a_given_game_must_be_the_one_the_header_describes(tmp_path):
    other = tb.load("hearts", players=4, options={"moon": "others +26"})
    path = tmp_path / "record.jsonl"
    path.write_text(SAVED, encoding="utf-8")
    said = set()
    for read in (lambda: replay(path, game=other.engine), lambda: other.deserialize(SAVED)):
        with pytest.raises(RecordError) as exc:
            read()
        said.add(re.sub(r"^(serialized state|\S+):1: ", "", str(exc.value)))
    assert said == {"option moon: the record has the text 'shooter chooses', the game the text 'others +26'"}
    # an option the header leaves out is the given game's; one it names must be one of the game's
    assert other.deserialize(_with_header(options={})).is_over()
    with pytest.raises(RecordError, match=r"unknown option 'mooon' \(options of this game: moon, "):
        other.deserialize(_with_header(options={"mooon": "others +26"}))
    with pytest.raises(RecordError, match="the record is for 4 players, the game for 5"):
        tb.load("oh-hell", players=5).deserialize(_with_header(rules_id=_GONE))


BAD_SEEDS = [[1], {"a": 1}, b"seed", bytearray(b"x"), 1.5, True, 10**15, -(10**15), "\ud800", "x" * 1001, object()]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=[type(s).__name__ + str(i) for i, s in enumerate(BAD_SEEDS)])
def test_the_api_refuses_a_seed_a_saved_state_could_not_hold(seed):
    with pytest.raises(GameError, match="^seed must be "):
        GAME.new_state(seed=seed)
    with pytest.raises(GameError, match="^seed must be "):
        GAME.play(["random"], seed=seed)


@pytest.mark.parametrize("seed", [0, -7, 10**15 - 1, "", "any text", "é²", "x" * 1000])
def test_every_seed_the_api_takes_comes_back_from_a_saved_state(seed):
    state = GAME.new_state(seed=seed)
    state.apply_chance()
    again = GAME.deserialize(state.serialize())
    assert again.events[0]["seed"] == seed and again.serialize() == state.serialize()
    assert "seed" not in GAME.new_state().events[0]  # no seed: none written


def test_trickbook_play_refuses_a_seed_that_is_not_text_in_words(capsys):
    from interpreter.cli import main

    assert main(["play", "hearts", "-p", "4", "--quiet", "--seed", "\udcff"]) == 1  # a byte of no UTF-8 in argv
    assert "trickbook: error: --seed must be valid Unicode text" in capsys.readouterr().err
