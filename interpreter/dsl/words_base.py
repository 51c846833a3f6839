"""What the words of expressions share (:mod:`interpreter.dsl.words`, :mod:`interpreter.dsl.words_shapes`): how the
language's names, operators and builtins are said, a bound name's phrase, and the speaker the shapes are said
with (:class:`Saying`, which :class:`interpreter.dsl.words.Speaker` is)."""

from __future__ import annotations

import re
from typing import NamedTuple, Protocol

from interpreter.dsl import ast
from interpreter.dsl.vocabulary import CARD, SEAT, Term, Vocabulary

# names the language or the engine binds, as people say them
NAMES = {
    "card": "the card", "led": "the led card", "seat": "the player", "seats": "the players",
    "players": "the number of players", "trick": "the trick's cards", "trick_seats": "the players of the trick",
    "player": "the player who just played", "winner": "the trick's winner", "takers": "the trick's takers",
    "last_trick": "the last trick's cards", "value": "the value", "history": "the choices so far",
    "passes": "the passes so far", "picked": "the values picked this turn", "legal": "the allowed choices",
    "space": "the space",
    "taker": "the taker", "row": "the row", "open": "the open spaces of the row", "deck": "the deck", "none": "nothing",
}
OWNED = {"round": "the round's", "game": "the game's", "setup": "the setup's", "options": "the option"}
COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
           ">=": "is at least", "in": "is one of", "not in": "is not one of"}
NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in", "not in": "in"}
ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "//": "divided by (rounded down)", "%": "modulo"}
# builtins of one list (or value): how the result is said; {0} is the list
OF_LIST = {
    "len": "the number of {0}", "sum": "the sum of {0}", "count": "how many of {0} hold",
    "max": "the highest of {0}", "min": "the lowest of {0}", "any": "some of {0} holds",
    "all": "all of {0} hold", "first": "the first of {0}", "last": "the last of {0}",
    "distinct": "{0} without repeats", "sort": "{0} from lowest to highest", "reverse": "{0} in reverse order",
    "text": "{0} as text", "abs": "the absolute value of {0}", "team": "{0}'s team",
    "opponents": "{0}'s opponents", "left": "the player left of {0}", "right": "the player right of {0}",
    "seats_from": "every player from {0} on", "concat": "{0} joined together",
    "join": "{0} joined as one text",
}
MANY_ARGS = {
    "max": "the highest of {all}", "min": "the lowest of {all}", "same_team": "{0} and {1} are partners",
    "combinations": "every choice of {1} of {0}", "pairs": "every pair of one of {0} and one of {1}",
    "range": "the numbers from {0} up to {1} (not {1})", "join": "{0} joined with {1}",
    "index": "the place of {1} in {0} (from 0)", "slice": "{0} from place {1} to place {2}",
    "place_award": "the award for {0}'s place among {1}, highest first, from {2}",
}
NOUNS = {CARD: "card", SEAT: "player", None: "item"}
BARE = re.compile(r"^[\w+\-.]+$")


class Phrase(NamedTuple):
    """What a bound name is said as, and the kind of thing it is (CARD, SEAT, CARDS, SEATS or None)."""

    text: str
    kind: str | None


# the first words of a condition define's name that make it a verb phrase ("may score honours")
VERBS = frozenset({"may", "can", "must", "has", "have", "holds", "is", "does", "will", "should", "owes", "wins",
                   "meets", "fulfils", "matches", "breaks", "beats", "sees", "knows", "sits", "plays", "takes",
                   "leads", "follows", "gets", "goes", "keeps", "passes", "bids", "calls", "shows"})
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


class Saying(Protocol):
    """What the shapes need of a speaker (interpreter.dsl.words.Speaker)."""

    vocabulary: Vocabulary
    bound: dict[str, Phrase]

    def binding(self, **names: Phrase) -> Saying: ...

    def kinds(self) -> dict[str, str | None]: ...

    def say(self, node: ast.Node, top: bool = True) -> str: ...

    def value(self, node: ast.Node) -> str: ...


def name_words(name: str) -> str:
    """A name the rule file chose, as people read it."""
    return name.replace("_", " ")


def term_name(term: Term) -> str:
    """A define as the rulebook names it: its ``says:``, else its name in words."""
    return term.says or name_words(term.name)


def possessive(whose: str, what: str) -> str:
    """``what`` of ``whose``: "the player's hand", or "the hand of every player of the team" when ``whose`` is
    long."""
    if whose in ("it", "they"):
        return f"{'its' if whose == 'it' else 'their'} {what}"
    short = len(whose.split()) <= 3 and not any(w in whose for w in (" of ", " in ", "(", ",", " if ", " plus ",
                                                                       " minus ", " times ")) \
        and not whose.startswith(("minus ", "not ", "an empty"))
    if not short:
        return f"the {what} of {whose}"
    return f"{whose}' {what}" if whose.endswith("s") and not whose.endswith("'s") else f"{whose}'s {what}"


def and_list(items: list[str]) -> str:
    """``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
