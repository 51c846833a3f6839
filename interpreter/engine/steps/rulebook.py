"""What a step of each kind does, as a rulebook says it (``trickbook explain``): one sentence made from the step as
written (its keys) and the file's names (``tell``: a plan Telling, with ``say`` for an expression in words and
``picks`` for a condition on a card said as the cards it picks). A kind names its function as its ``rulebook``;
a kind without one is told by the first sentence of its summary."""

from __future__ import annotations

from typing import Any

from interpreter.dsl import ast
from interpreter.dsl.parser import parse
from interpreter.dsl.vocabulary import SEATS
from interpreter.dsl.words_base import and_list, name_words, possessive

LONG = 90  # words longer than this are left to the list of the step's keys below the sentence


def _short(words: str, instead: str) -> str:
    return words if len(words) <= LONG else instead


def dealt(step: dict[str, Any], tell: Any) -> str:
    """"Shuffle all the cards and deal 13 to each player"."""
    cards = "all the cards" if "cards" not in step else "every " + tell.picks(step["cards"])[2:]
    hand = step["hand"]
    count = f"{hand}" if isinstance(hand, int) else f"as many as {tell.say(hand)}"
    where = "" if step.get("to", "hand") == "hand" else f" (to their {name_words(step['to'])})"
    rest = f"; the cards left over go to the {name_words(step['rest'])}" if step.get("rest") else ""
    if hand == 0 and step.get("rest"):  # a deal of nothing: a stock made
        return f"Shuffle {cards} into the {name_words(step['rest'])}"
    return f"Shuffle {cards} and deal {count} to each player{where}{rest}"


def chosen(step: dict[str, Any], tell: Any) -> str:
    """"Each player in turn passes 3 of the player's hand"."""
    together = step.get("simultaneous")
    if "who" not in step:
        who = "Every player, all at once and unseen," if together else "Each player in turn"
    else:
        said, node = tell.say(step["who"]), parse(str(step["who"]))
        many = tell.vocabulary.kind_of_list(node, {}) == SEATS or isinstance(node, ast.ListExpr)
        if many:
            said = "every player" if said == "the players" else said
            said = f"each {said[6:]}" if said.startswith("every ") else f"each of {said}"
        who = said[0].upper() + said[1:] + (", all at once and unseen," if together else " in turn" if many else "")
    first, _, rest = str(step.get("verb", "choose")).partition(" ")
    verb = first + ("es" if first.endswith(("s", "sh", "ch", "x")) else "s") + (f" {rest}:" if rest else "")
    count = step.get("count", 1)
    options = _short(tell.say(step["options"]), "the options below")
    if isinstance(count, int):
        said = f"{who} {verb} {'one' if count == 1 else count} of {options}"
    else:
        said = f"{who} {verb} from {options}, as many as {tell.say(count)}"
    if step.get("pass"):
        said += f", or passes ({step['pass']})"
    return said + (", round and round until the auction ends" if step.get("repeat") else "")


def moved(step: dict[str, Any], tell: Any) -> str:
    """"Move the player's passing to the player's receiver's hand"."""
    own = tell.vocabulary.seat_zones
    whose = "their" if "each" in step else "each player's"

    def zone(name: str) -> str:
        return f"{whose} {name_words(name)}" if name in own else f"the {name_words(name)}"

    if "cards" in step:
        cards = _short(tell.say(step["cards"]), "the cards below")
    else:
        zones = step.get("from") or []
        cards = "every card of " + and_list([zone(z) for z in ([zones] if isinstance(zones, str) else zones)])
    to = step["to"]
    where = possessive(tell.say(step["owner"]), name_words(to)) if "owner" in step else zone(to)
    if "each" in step:
        many = tell.vocabulary.kind_of_list(parse(str(step["each"])), {}) == SEATS
        each = f"For {'each of ' if many else ''}{tell.say(step['each'])}: m"
    else:
        each = "M"
    return f"{each}ove {cards} to {where}" + (" (on top)" if step.get("top") else "")


def worked_out(step: dict[str, Any], tell: Any) -> str:
    """"Work out the round's trump"."""
    names = [f"the round's {name_words(n)}" for n in step.get("round") or {}]
    names += [f"each player's {name_words(n)}" for n in step.get("seats") or {}]
    names += [f"the game's {name_words(n)}" for n in step.get("game") or {}]
    return "Work out " + (and_list(names) if names else "nothing")


def scored(step: dict[str, Any], tell: Any) -> str:
    """"Each player scores the player's odd tricks"."""
    return "Each player scores " + _short(tell.say(step["points"]), "the points below")


def tricks_played(step: dict[str, Any], tell: Any) -> str:
    """"Play the tricks; the player left of the round's dealer leads the first"."""
    leader = tell.say(step["leader"])
    return "Play the tricks" + (f"; {leader} leads the first" if len(leader) <= LONG else "")


def partnered(step: dict[str, Any], tell: Any) -> str:
    """"The teams: North and South; East and West" (teams worked out in play: "Set the teams as below")."""
    teams = step["teams"]
    if isinstance(teams, list) and all(isinstance(t, list) for t in teams):
        return "The teams: " + "; ".join(and_list([str(s) for s in t]) for t in teams if t)
    return "Set the teams as below"


def repeated(step: dict[str, Any], tell: Any) -> str:
    """"Play the steps below 9 times" (or "until ...")."""
    times = step.get("times")
    said = "Play the steps below"
    if times is not None:
        said += f" {times} times" if isinstance(times, int) else f" as many times as {tell.say(times)}"
    if "until" in step:
        said += f"{',' if times is not None else ''} until {tell.say(step['until'])}"
    return said
