"""The JSON Schema of rule files, generated: static sections here, step kinds from their declarations.

Everything that is not a step (the top level, ``options``, ``deck``, ``players``,
``zones``, ``define``, ``game``, the ``round`` mapping) is described once below,
as data. Each step kind is described by its class in ``interpreter/engine/steps``:
its ``summary`` and its ``options`` (:class:`~interpreter.engine.steps.base.Opt`).
This module turns those declarations into one ``definitions/<kind>_step`` per kind and
into the option tables of the documentation; it knows nothing about any
particular step kind.

    python -m interpreter.schema_gen           # write schema/game.schema.json and the tables of
                                                     # docs/rule-files.md (between its markers)
    python -m interpreter.schema_gen --check   # exit 1 when either is out of date
    python -m interpreter.schema_gen --docs    # print the step kinds' option tables (Markdown)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import interpreter.engine.steps  # noqa: F401  (registers the step kinds)
from interpreter.engine.steps.base import COMMON, REGISTRY, Opt

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "schema" / "game.schema.json"
DOCS_FILE = Path(__file__).resolve().parents[1] / "docs" / "rule-files.md"

DRAFT = "http://json-schema.org/draft-07/schema#"  # written so that draft-07 and 2020-12 validators agree
SCHEMA_ID = "https://trickbook.dev/schema/game.schema.json"

DISPATCH = "do"  # the key of a step that names its kind

IDENTIFIER = "^[A-Za-z_][A-Za-z0-9_]*$"
STEP_NAME = "^[A-Za-z_][A-Za-z0-9_-]*$"
DEFINE_KEY = (r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*(\(\s*([A-Za-z_][A-Za-z0-9_]*(\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)?"
              r"\s*\))?\s*$")
_NAME_RULE = "letters, digits and _, not starting with a digit"

JSON = dict[str, Any]


def _ref(name: str, description: str | None = None) -> JSON:
    out: JSON = {"description": description} if description else {}
    out["$ref"] = f"#/definitions/{name}"
    return out


def _names(description: str, pattern: str = IDENTIFIER) -> JSON:
    """A ``propertyNames`` schema: the keys are names the author chooses."""
    return {"description": description, "type": "string", "pattern": pattern}


# ---------------------------------------------------------------- the static part

def _top() -> JSON:
    return {
        "title": "Trickbook rule file",
        "description": "A trick-taking card game written as data (trickbook format version 1). The interpreter "
                       "validates the document after merging 'extends', so every key is checked against the merged "
                       "rules.",
        "type": "object",
        "additionalProperties": False,
        "required": ["trickbook", "name", "deck", "players", "zones", "game", "round"],
        "properties": {
            "trickbook": {"description": "Version of the rule file format. Always 1.", "const": 1},
            "extends": {
                "description": "A rule file (path relative to this file) or bundled game this file is written as "
                               "the differences from. Resolved and removed while loading: mappings are merged key "
                               "by key, other values replace the base's, and a key set to null removes the base's "
                               "key.",
                "type": "string",
                "minLength": 1,
            },
            "name": {
                "description": "Identifier of the game: lower-case letters, digits and hyphens, e.g. my-game. "
                               "Used on the command line and in game records.",
                "type": "string",
                "pattern": "^[a-z0-9][a-z0-9-]*$",
            },
            "title": {
                "description": "Human-readable title of the game (defaults to name).",
                "type": "string",
                "minLength": 1,
            },
            "seats": {
                "description": "Names of the seats, in play order (the next seat is the left neighbour). There must "
                               "be at least as many as the largest player count; defaults to P1, P2, ...",
                "type": "array",
                "minItems": 1,
                "uniqueItems": True,
                "items": {"description": "The name of one seat.", "type": "string", "minLength": 1},
            },
            "options": {
                "title": "options section",
                "description": "Variants the players may switch on or choose, read in expressions as options.NAME.",
                "type": "object",
                "propertyNames": _names(f"an option name is a name usable in expressions (options.NAME): "
                                        f"{_NAME_RULE}"),
                "additionalProperties": _ref("option"),
            },
            "deck": _ref("deck", "The cards of the game."),
            "players": {
                "title": "players section",
                "description": "The supported player counts. Each key is a player count; its value holds the setup "
                               "values for that count (read in expressions as setup.NAME).",
                "type": "object",
                "minProperties": 1,
                "patternProperties": {"^[1-9][0-9]?$": _ref("setup", "Setup for this player count.")},
                "additionalProperties": False,
            },
            "zones": {
                "title": "zones section",
                "description": "Places cards can be: one per seat (per_seat: true), e.g. hands and won tricks, or "
                               "shared, e.g. the trick. Per-seat zones are read in expressions as seat attributes "
                               "(s.NAME).",
                "type": "object",
                "minProperties": 1,
                "propertyNames": _names(f"a zone name is a name usable in expressions (s.NAME): {_NAME_RULE}"),
                "additionalProperties": _ref("zone"),
            },
            "define": {
                "title": "define section",
                "description": "Named helper expressions: a key NAME or NAME(PARAM, ...) and its expression. Helpers "
                               "can call each other and are used in any expression.",
                "type": "object",
                "propertyNames": _names("a define is written NAME or NAME(PARAM, ...), each a name of letters, "
                                        "digits and _", DEFINE_KEY),
                "additionalProperties": {
                    "description": "The helper's expression; its parameters are bound to the call's arguments.",
                    "type": ["string", "integer"],
                    "minLength": 1,
                },
            },
            "types": {
                "title": "types section",
                "description": "The kind of values the engine cannot tell from how they are set (a value that "
                               "starts as none): round values, per-seat values and game values by name, e.g. "
                               "round: {partner: seat, meld: list of cards}.",
                "type": "object",
                "additionalProperties": False,
                "properties": {group: {
                    "description": f"{what} values by name, each with its kind.",
                    "type": "object",
                    "propertyNames": _names(f"a value name is a name usable in expressions: {_NAME_RULE}"),
                    "additionalProperties": {
                        "description": "card, seat, number, text or truth, or 'list of' one of them (e.g. list of "
                                       "cards).",
                        "type": "string",
                        "pattern": "^(list of )*(card|seat|number|text|truth)s?$",
                    },
                } for group, what in (("round", "Round"), ("seats", "Per-seat"), ("game", "Game"))},
            },
            "table": {
                "title": "table section",
                "description": "What the players see on the table besides the cards, the trick and the totals: "
                               "status lines, each a title and an expression, shown in this order to every seat "
                               "(worked out on what that seat knows, so a line never shows what it may not see). "
                               "With a table section, round and seat values are shown only through it.",
                "type": "array",
                "items": {
                    "title": "status line",
                    "description": "One line of the table: its title, then what show gives.",
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["title", "show"],
                    "properties": {
                        "title": {"description": "What the line is called, in the rulebook's words, e.g. trump.",
                                  "type": "string", "minLength": 1},
                        "show": _ref("expression", "What the line shows: an expression; seat is the seat looking "
                                                   "(with each: every seat in turn). A value of none hides the "
                                                   "line; true and false show as yes and no; lists joined."),
                        "when": _ref("condition", "Show the line only when this holds (seat is the seat looking)."),
                        "each": {"description": "Show the value of every seat on the line, e.g. the bids: "
                                                "North 3, East 2, ... (default false).", "type": "boolean"},
                    },
                },
            },
            "combinations": {
                "title": "combinations section",
                "description": "What a play of several cards is, for climbing games (a climb step): each card's "
                               "rank, the cards that make plays, wild cards, and the kinds of play, each by its "
                               "shape. A play beats a play of its own kind with as many cards and a lower value, "
                               "or a kind it beats; a bomb beats every play that is not a bomb, and a bomb with "
                               "fewer cards or, as many, a lower value.",
                "type": "object",
                "additionalProperties": False,
                "required": ["rank", "kinds"],
                "properties": {
                    "rank": _ref("expression", "A card's rank in plays (card is bound), a number; none for a card "
                                               "that makes no play but the kinds naming it in cards, e.g. card.rank."),
                    "suit": _ref("expression", "What a suited kind compares (card is bound); default: the "
                                               "attribute deck.group names."),
                    "cards": _ref("condition", "The cards that make plays (card is bound); default: every card."),
                    "wild": {
                        "description": "Wild cards: they stand in for a card of a rank in a set or a run.",
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["cards"],
                        "properties": {
                            "cards": _ref("condition", "Which cards are wild (card is bound)."),
                            "ranks": _ref("expression", "The ranks a wild card may stand for, known before play, "
                                                        "e.g. \"range(2, 15)\"; default: the ranks of the cards "
                                                        "that make plays."),
                            "alone": {"description": "A wild card played alone, as a play of the first kind of one "
                                                     "card: above (half a rank above the play it beats, the lowest "
                                                     "rank and a half when led) or its value; without it, a wild "
                                                     "card is never played alone.",
                                      "anyOf": [{"const": "above"}, {"type": "number"}]},
                        },
                    },
                    "kinds": {
                        "description": "The kinds of play by name, in the order they are tried: each a shape (same: "
                                       "cards of one rank; run: that many consecutive ranks or more, same cards of "
                                       "each; sets: sets of different ranks, the first deciding) and how it compares.",
                        "type": "object",
                        "minProperties": 1,
                        "propertyNames": _names(f"a kind name is a name: {_NAME_RULE}"),
                        "additionalProperties": {
                            "type": "object",
                            "additionalProperties": False,
                            "properties": {
                                "same": {"description": "Cards of each rank (default 1).", "type": "integer",
                                         "minimum": 1, "maximum": 8},
                                "run": {"description": "A run: at least this many consecutive ranks.",
                                        "type": "integer", "minimum": 2, "maximum": 20},
                                "sets": {"description": "Sets of different ranks, e.g. [3, 2] (a full house); the "
                                                        "first set's rank is the value.", "type": "array",
                                         "items": {"type": "integer", "minimum": 1, "maximum": 8},
                                         "minItems": 2, "maxItems": 4},
                                "suited": {"description": "Every card of one suit (default false).",
                                           "type": "boolean"},
                                "bomb": {"description": "A bomb: beats every play that is not a bomb (default false).",
                                         "type": "boolean"},
                                "wild": {"description": "Wild cards may stand in (default true).", "type": "boolean"},
                                "beats": {"description": "Kinds this kind beats whatever their value, e.g. [single].",
                                          "type": "array", "items": {"type": "string"}},
                                "lead_only": {"description": "May only be led (default false).", "type": "boolean"},
                                "cards": _ref("condition", "The cards this kind is made of (card is bound), instead "
                                                           "of the section's cards."),
                            },
                        },
                    },
                },
            },
            "game": _ref("game", "How the whole game runs: first dealer, game values, end and winners."),
            "round": {
                "title": "round section",
                "description": "The steps of one round, in order; the game plays rounds until it ends. Each step is "
                               "a mapping with do: KIND and the keys of that kind.",
                "type": "object",
                "minProperties": 1,
                "propertyNames": _names("a step name is made of letters, digits, _ and -, not starting with a "
                                        "digit or -", STEP_NAME),
                "additionalProperties": _ref("step"),
            },
        },
    }


def _shared_defs() -> JSON:
    """The pieces the sections and the step kinds share (an Opt kind maps to one of these or to a few keywords)."""
    return {
        "identifier": {
            "description": f"A name usable in expressions: {_NAME_RULE}.",
            "type": "string",
            "pattern": IDENTIFIER,
        },
        "expression": {
            "description": "An expression in the Trickbook expression language (DSL text), e.g. "
                           "\"card.colour == led.colour\", or a plain whole number or true/false.",
            "type": ["string", "integer", "boolean"],
            "minLength": 1,
        },
        "condition": {
            "description": "A yes/no expression (DSL text), or the constant true or false.",
            "type": ["string", "boolean"],
            "minLength": 1,
        },
        "number": {
            "description": "A whole-number expression (DSL text), or a whole-number constant.",
            "type": ["string", "integer"],
            "minLength": 1,
        },
        "seat": {
            "description": "An expression giving a seat (DSL text), e.g. left(round.dealer).",
            "type": "string",
            "minLength": 1,
        },
        "seats": {
            "description": "An expression giving a seat or a list of seats (DSL text), e.g. seats or round.start.",
            "type": "string",
            "minLength": 1,
        },
        "expression_or_data": {
            "description": "An expression (DSL text), a plain whole number or true/false, or a list written out "
                           "as YAML data: plain values (text, numbers, true/false, null), lists, or mappings such as "
                           "{label, value} or records {label, FIELD: value, ...}. The key's description says which "
                           "of these it takes; the compiler refuses the others.",
            "type": ["string", "integer", "boolean", "array"],
            "minLength": 1,
            "items": _ref("data"),
        },
        "data": {
            "description": "A value written out as YAML: text, a whole number, true/false, null, a list of values "
                           "or a mapping of names to values.",
            "type": ["string", "integer", "boolean", "null", "array", "object"],
            "items": _ref("data"),
            "propertyNames": _names(f"a field name is a name usable in expressions: {_NAME_RULE}"),
            "additionalProperties": _ref("data"),
        },
        "constant": {
            "description": "A value known before play: plain data as written (text, a whole number, true/false, a "
                           "list or a mapping), or an expression (DSL text) over players, options and setup.",
            "type": ["string", "integer", "boolean", "array", "object"],
            "minLength": 1,
            "items": _ref("data"),
            "propertyNames": _names(f"a field name is a name usable in expressions: {_NAME_RULE}"),
            "additionalProperties": _ref("data"),
        },
        "zone_name": {
            "description": "The name of a zone declared under zones.",
            "type": "string",
            "minLength": 1,
        },
        "zone_names": {
            "description": "One zone name, or a list of zone names.",
            "type": ["string", "array"],
            "minLength": 1,
            "minItems": 1,
            "items": _ref("zone_name"),
        },
        "ordering": {
            "description": "Expressions compared in order: the highest list of values wins.",
            "type": "array",
            "minItems": 1,
            "items": _ref("expression", "One criterion: a number, text or true/false (true beats false)."),
        },
        "values": {
            "description": "Value name -> expression.",
            "type": "object",
            "propertyNames": _names(f"a value name is a name usable in expressions: {_NAME_RULE}"),
            "additionalProperties": _ref("expression"),
        },
        "steps": {
            "description": "Step name -> step: steps run in order, each a mapping with do: KIND and the keys of "
                           "that kind.",
            "type": "object",
            "propertyNames": _names("a step name is made of letters, digits, _ and -, not starting with a digit "
                                    "or -", STEP_NAME),
            "additionalProperties": _ref("step"),
        },
        "scalar": {
            "description": "A plain value: text, a whole number or true/false.",
            "type": ["string", "integer", "boolean"],
        },
    }


def _section_defs() -> JSON:
    return {
        "option": {
            "title": "option",
            "description": "One option: what it does, its default value (which also fixes its type) and optionally "
                           "the allowed values.",
            "type": "object",
            "additionalProperties": False,
            "required": ["description", "default"],
            "properties": {
                "description": {
                    "description": "What the option changes, shown to players.",
                    "type": "string",
                    "minLength": 1,
                },
                "default": _ref("scalar", "The value used unless the players choose another; true/false, a whole "
                                          "number or text."),
                "choices": {
                    "description": "The values the option may take (by default any value of the default's type).",
                    "type": "array",
                    "minItems": 1,
                    "uniqueItems": True,
                    "items": _ref("scalar"),
                },
            },
        },
        "deck": {
            "title": "deck section",
            "description": "The cards. Each entry of cards is a mapping from attribute names to lists of values; its "
                           "cards are every combination of those values. Identical cards get the automatic "
                           "attribute copy (0, 1, 2, ...).",
            "type": "object",
            "additionalProperties": False,
            "required": ["cards"],
            "properties": {
                "start": {
                    "description": "A shared zone that holds every card when the game begins (the box), for "
                                   "games whose deals each take only some of the cards (deal's cards: condition). "
                                   "Without it, cards are in no zone until the first deal.",
                    "type": "string",
                    "minLength": 1,
                },
                "group": {
                    "description": "The card attribute a person's hand is grouped by (the suit), e.g. suit; groups "
                                   "come in the order the deck first shows them, cards in deck order within one. "
                                   "Default: the attribute with the fewest values.",
                    "type": "string",
                    "minLength": 1,
                },
                "notation": {
                    "title": "deck notation",
                    "description": "How a deal file (PBN's Deal tag, e.g. N:AKQ.JT9.876.5432 "
                                   "...) writes a hand: groups separated by dots, one for each suit in order, and "
                                   "one letter for each card in a group. It lets play, simulate and the API start "
                                   "a game from a deal file (docs/rule-files.md, \"Deals from a file\").",
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["suits", "ranks"],
                    "properties": {
                        "suits": {
                            "description": "What the dot-separated groups of a hand stand for.",
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["by", "order"],
                            "properties": {
                                "by": {"description": "The card attribute, e.g. suit.", "type": "string",
                                       "minLength": 1},
                                "order": {"description": "Its values in the order the groups are written.",
                                          "type": "array", "minItems": 1, "uniqueItems": True,
                                          "items": _ref("scalar")},
                            },
                        },
                        "ranks": {
                            "description": "What the letters of a group stand for.",
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["by"],
                            "properties": {
                                "by": {"description": "The card attribute, e.g. rank.", "type": "string",
                                       "minLength": 1},
                                "letters": {
                                    "description": "Letter -> value, for values not written as themselves, e.g. "
                                                   "{T: '10'}; a value written with one character is its own "
                                                   "letter (A, K, 9).",
                                    "type": "object",
                                    "propertyNames": {"description": "one character, not a dot, a hyphen or a "
                                                                     "space", "type": "string",
                                                      "pattern": "^[^.\\s-]$"},
                                    "additionalProperties": _ref("scalar"),
                                },
                            },
                        },
                        "seats": {
                            "description": "The seats whose hands the directions N, E, S and W are (default: the "
                                           "first four seats).",
                            "type": "array", "minItems": 4, "maxItems": 4, "uniqueItems": True,
                            "items": {"type": "string", "minLength": 1},
                        },
                    },
                },
                "label": {
                    "description": "How a card is written, with {attribute} placeholders, e.g. \"{colour} {number}\" "
                                   "(default: the attribute values separated by spaces).",
                    "type": "string",
                    "minLength": 1,
                },
                "cards": {
                    "description": "Groups of cards; the deck is all of them together.",
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "title": "card group",
                        "description": "A group of cards: every combination of the listed attribute values is one "
                                       "card (repeat a value for several copies).",
                        "type": "object",
                        "minProperties": 1,
                        "propertyNames": {
                            "description": f"a card attribute is a name usable in expressions (card.NAME): "
                                           f"{_NAME_RULE}; copy is set automatically",
                            "type": "string",
                            "pattern": IDENTIFIER,
                            "not": {"enum": ["copy"]},
                        },
                        "properties": {
                            "label": {
                                "description": "How this group's cards are written, with {attribute} placeholders "
                                               "of this group, e.g. \"trump colour {trump}\" (default: deck.label). "
                                               "For decks of several kinds of card.",
                                "type": "string",
                                "minLength": 1,
                            },
                        },
                        "additionalProperties": {
                            "description": "The values of this attribute.",
                            "type": "array",
                            "minItems": 1,
                            "items": _ref("scalar"),
                        },
                    },
                },
            },
        },
        "setup_value": {
            "description": "A setup value: text, a whole number, true/false, a list of setup values or a mapping of "
                           "named setup values.",
            "type": ["string", "integer", "boolean", "array", "object"],
            "items": _ref("setup_value"),
            "propertyNames": _names(f"a setup field is a name usable in expressions: {_NAME_RULE}"),
            "additionalProperties": _ref("setup_value"),
        },
        "setup": {
            "title": "player-count setup",
            "description": "Setup values for one player count, read in expressions as setup.NAME (e.g. hand size, "
                           "number of rounds), plus remove and automatic.",
            "type": "object",
            "propertyNames": _names(f"a setup value name is a name usable in expressions (setup.NAME): "
                                    f"{_NAME_RULE}"),
            "properties": {
                "remove": _ref("condition", "Which cards are taken out of the deck for this player count: a "
                                            "condition on card, e.g. \"card.number == 7 and card.copy < 3\"."),
                "automatic": {
                    "description": "Extra seats for this player count that nobody plays: they come after the "
                                   "players' seats, and each of their decisions is made by their policy (e.g. a "
                                   "dummy that always plays the top card of its stack).",
                    "type": "array",
                    "items": _ref("automatic_seat"),
                },
            },
            "additionalProperties": _ref("setup_value"),
        },
        "automatic_seat": {
            "title": "automatic seat",
            "description": "An extra seat that plays by rule: its name, its role and what it chooses in each step "
                           "that asks it.",
            "type": "object",
            "additionalProperties": False,
            "required": ["name"],
            "properties": {
                "name": {
                    "description": "The seat's name; it must differ from every other seat's.",
                    "type": "string",
                    "minLength": 1,
                },
                "role": {
                    "description": "The seat's role, tested in rules as seat.role (players' seats have the role "
                                   "player).",
                    "type": "string",
                    "minLength": 1,
                    "default": "automatic",
                },
                "policy": {
                    "title": "policy of an automatic seat",
                    "description": "Step name -> expression: what the seat chooses in that step. The expression may "
                                   "use seat, legal (the legal choices) and the names the step binds.",
                    "type": "object",
                    "propertyNames": _names("a step name is made of letters, digits, _ and -, not starting with a "
                                            "digit or -", STEP_NAME),
                    "additionalProperties": _ref("expression"),
                },
            },
        },
        "zone": {
            "title": "zone",
            "description": "A place cards can be.",
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "per_seat": {
                    "description": "true: every seat has its own zone of this name (a hand, won tricks); false "
                                   "(default): one shared zone (the trick).",
                    "type": "boolean",
                },
                "visible": {
                    "description": "Who sees the cards: all (default), owner (only the seat it belongs to) or "
                                   "nobody.",
                    "enum": ["all", "owner", "nobody"],
                },
            },
        },
        "game": {
            "title": "game section",
            "description": "How the whole game runs: who deals first, the values kept from round to round, when it "
                           "ends, who can win and who wins. It needs an end: rounds or until.",
            "type": "object",
            "additionalProperties": False,
            "anyOf": [{"required": ["rounds"]}, {"required": ["until"]}],
            "properties": {
                "first_dealer": _ref("number", "The seat that deals the first round (0 is the first seat, default "
                                               "0): a whole number or an expression over players, options and "
                                               "setup; the deal then passes to the left (or as next_dealer says)."),
                "next_dealer": _ref("seat", "Who deals the next round, worked out when a round ends (default "
                                            "left(round.dealer), the deal passes to the left), e.g. \"round.dealer "
                                            "if round.redeal else left(round.dealer)\": the same dealer deals "
                                            "again."),
                "values": _ref("values", "Game values, kept from round to round and read as game.NAME: value name "
                                         "-> expression giving its value at the start of the game. A set step's "
                                         "game: changes them."),
                "seat_values": _ref("values", "Values of each seat kept from round to round (e.g. overtricks "
                                              "counted over the game), read as seat.NAME: value name -> "
                                              "expression giving a seat's value at the start of the game (seat "
                                              "is bound). A set step's game: changes them."),
                "rounds": {**_ref("number", "How many rounds are played: a whole number or an expression over "
                                            "players, options and setup, e.g. setup.rounds."), "minimum": 1},
                "until": _ref("condition", "A condition checked after each round; the game ends when it is true."),
                "winners": {
                    "description": "Who wins at the end: the seats with the highest_total (default) or the "
                                   "lowest_total score.",
                    "enum": ["highest_total", "lowest_total"],
                },
                "can_win": _ref("condition", "A condition on seat: only seats for which it holds can win the game "
                                             "(default: every seat). Names bound here: seat."),
            },
        },
    }


# ---------------------------------------------------------------- step kinds, from their declarations

KINDS = ("expr", "condition", "seat", "seats", "number", "constant", "zone", "zones", "name", "names", "text",
         "bool", "enum", "ordering", "rules", "values", "steps", "object", "list")

# Opt kinds that are one shared definition
_KIND_REFS = {
    "expr": "expression_or_data", "condition": "condition", "seat": "seat", "seats": "seats", "number": "number",
    "constant": "constant", "zone": "zone_name", "zones": "zone_names", "name": "identifier",
    "ordering": "ordering", "values": "values", "steps": "steps",
}


def step_kinds() -> list[str]:
    return sorted(REGISTRY)


def step_options(kind: str) -> tuple[Opt, ...]:
    """The options of a step kind, the common ones (do, when) first even where a kind leaves them out."""
    own = REGISTRY[kind].options
    keys = {o.key for o in own}
    return tuple(o for o in COMMON if o.key not in keys) + tuple(own)


def describe(opt: Opt) -> str:
    """An option's description: its doc, plus the names an expression there may use."""
    return opt.doc.strip() + _bound_text(opt, "{}")


def _bound_text(opt: Opt, name: str) -> str:
    """The names an expression of the option may use, as its declaration binds them (each written as ``name``
    formats it)."""
    if not opt.binds:
        return ""
    where = f" (with {opt.binds_with})" if opt.binds_with else ""
    return f" Names bound here{where}: " + ", ".join(name.format(b) for b in opt.binds) + "."


def _fields(fields: tuple[Opt, ...], title: str, description: str) -> JSON:
    """A closed mapping with these fields (``title`` also names the owner of nested ones)."""
    out: JSON = {"title": title, "description": description, "type": "object", "additionalProperties": False}
    required = [f.key for f in fields if f.required]
    if required:
        out["required"] = required
    out["properties"] = {f.key: _option(f, title) for f in fields}
    return out


def _option(opt: Opt, owner: str) -> JSON:
    """The schema of one option of ``owner`` (e.g. "board step"; nested mappings are titled after it)."""
    out: JSON = {"description": describe(opt)}
    kind = opt.kind
    if kind in _KIND_REFS:
        out["$ref"] = f"#/definitions/{_KIND_REFS[kind]}"
    elif kind == "names":
        out.update({"type": "array", "uniqueItems": True, "items": _ref("identifier")})
    elif kind == "text":
        out.update({"type": "string", "minLength": 1})
    elif kind == "bool":
        out["type"] = "boolean"
    elif kind == "enum":
        out["enum"] = list(opt.choices)
    elif kind == "rules":
        # a condition, a rule mapping, or a list of either: one schema whose keywords each apply to one type
        title = f"{opt.key} rule of the {owner}"
        mapping = {k: v for k, v in _fields(opt.fields, title, "").items() if k not in ("title", "description")}
        del mapping["type"]
        out.update({"title": title, "type": ["string", "boolean", "object", "array"], "minLength": 1, **mapping,
                    "minItems": 1,
                    "items": {"title": title, "description": "One rule: a condition or a rule mapping.",
                              "type": ["string", "boolean", "object"], "minLength": 1, **mapping}})
    elif kind == "object":
        out.update({
            "title": f"{opt.key} of the {owner}",
            "type": "object",
            **({"minProperties": 1} if opt.required else {}),
            "propertyNames": _names(f"each key of {opt.key} is a name usable in expressions: {_NAME_RULE}"),
            "additionalProperties": _fields(opt.fields, f"{opt.key} entry of the {owner}",
                                            f"One entry of {opt.key}."),
        })
    elif kind == "list":
        out.update({
            "title": f"{opt.key} of the {owner}",
            "type": "array",
            **({"minItems": 1} if opt.required else {}),
            "items": _fields(opt.fields, f"{opt.key} entry of the {owner}", f"One entry of {opt.key}."),
        })
    else:
        raise ValueError(f"option {opt.key!r} has the unknown kind {kind!r} (kinds: {', '.join(KINDS)})")
    if opt.default is not None:
        out["default"] = opt.default
    if "title" in out:
        out = {"title": out.pop("title"), **out}
    return out


def _step_def(kind: str) -> JSON:
    cls = REGISTRY[kind]
    options = step_options(kind)
    properties: JSON = {}
    for opt in options:
        if opt.key == DISPATCH:
            properties[opt.key] = {"description": f"{opt.doc.strip().rstrip('.')}: {kind}.", "const": kind}
        else:
            properties[opt.key] = _option(opt, f"{kind} step")
    return {
        "title": f"{kind} step",
        "description": " ".join(cls.summary.split()),
        "type": "object",
        "additionalProperties": False,
        "required": [o.key for o in options if o.required],
        "properties": properties,
    }


def _step() -> JSON:
    kinds = step_kinds()
    common = {}
    for opt in COMMON:
        if opt.key == DISPATCH:
            common[opt.key] = {"description": opt.doc, "enum": kinds}
        else:
            common[opt.key] = _option(opt, "step")
    return {
        "title": "step",
        "description": f"One step: {DISPATCH} names its kind ({', '.join(kinds)}); the other keys depend on the "
                       "kind.",
        "type": "object",
        "required": [DISPATCH],
        "properties": common,
        "allOf": [
            {
                "if": {
                    "required": [DISPATCH],
                    "properties": {DISPATCH: {"description": f"Selects the keys of the {kind} step.",
                                              "const": kind}},
                },
                "then": _ref(f"{kind}_step"),  # its keys: the common ones and the kind's, no other
            }
            for kind in kinds
        ],
    }


def generate() -> dict[str, Any]:
    """The JSON Schema of rule files, written in the common part of draft-07 and 2020-12 (so editors' draft-07
    validators and the interpreter's 2020-12 one agree): its definitions under ``definitions``, no keyword of
    later drafts, and no ``$ref`` beside other keywords that check (draft-07 ignores them).

    A whole file is checked against ``definitions/rules``; a file with ``extends`` (a variant, written as the
    differences from its base) against ``definitions/variant``: the same keys and values, none required, any
    key of a mapping may be null (it deletes the base's key), lists whole (they replace the base's)."""
    defs = _shared_defs()
    defs.update(_section_defs())
    defs["step"] = _step()
    for kind in step_kinds():
        defs[f"{kind}_step"] = _step_def(kind)
    rules = _top()
    defs["rules"] = rules
    variant = _partial(rules, defs)
    variant["required"] = ["extends"]
    variant["title"] = "Trickbook variant"
    variant["description"] = ("A rule file written as the differences from the file it extends: mappings are "
                              "merged key by key, other values replace the base's, null removes a key.")
    defs["variant"] = variant
    _no_ref_siblings(defs)
    return {
        "$schema": DRAFT,
        "$id": SCHEMA_ID,
        "title": rules["title"],
        "description": rules["description"] + " A file with extends is a variant: only its differences are "
                                              "written, and none of the keys is required.",
        "type": "object",
        "properties": {key: {k: v for k, v in value.items() if k in ("title", "description")}
                       for key, value in rules["properties"].items()},  # what an editor shows on a key
        "if": {"required": ["extends"]},
        "then": _ref("variant"),
        "else": _ref("rules"),
        "definitions": defs,
    }


_CHECKS_NOTHING = ("title", "description", "default", "examples", "$comment")


def _partial(node: JSON, defs: JSON) -> JSON:
    """``node`` as a variant may write it: nothing required, a mapping's values may be null, lists whole. The
    definitions it refers to get a partial twin (``partial_NAME``) in ``defs``, made once."""
    out: JSON = {}
    for key, value in node.items():
        if key in ("required", "minProperties") or key == "anyOf" and all(
                isinstance(b, dict) and set(b) == {"required"} for b in value):
            continue  # a variant need not write what the merged file must hold
        if key == "$ref":
            name = value.rsplit("/", 1)[1]
            if f"partial_{name}" not in defs:
                defs[f"partial_{name}"] = {}  # made before it is filled: definitions may refer to themselves
                defs[f"partial_{name}"] = _partial(defs[name], defs)
            out[key] = f"#/definitions/partial_{name}"
        elif key in ("properties", "patternProperties"):
            out[key] = {k: _nullable(_partial(v, defs)) for k, v in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _nullable(_partial(value, defs))
        elif key in ("anyOf", "oneOf", "allOf"):
            out[key] = [_partial(b, defs) for b in value]
        elif key == "then":
            out[key] = _partial(value, defs)
        else:  # items (a list replaces the base's whole), if (it selects by keys written), checks of one value
            out[key] = value
    return out


def _nullable(node: JSON) -> JSON:
    """``node`` or null (a variant's null removes the base's key), described as ``node`` is."""
    shown: JSON = {k: node[k] for k in ("title", "description") if k in node}
    return {**shown, "anyOf": [node, {"description": "null removes the base's key", "type": "null"}]}


def _no_ref_siblings(node: Any) -> None:
    """Where a ``$ref`` stands beside keywords that check (``minimum``, ``default`` is not one), move it into an
    ``allOf``: draft-07 validators ignore every keyword beside a ``$ref``."""
    if isinstance(node, list):
        for item in node:
            _no_ref_siblings(item)
    elif isinstance(node, dict):
        for value in node.values():
            _no_ref_siblings(value)
        if "$ref" in node and set(node) - {"$ref", *_CHECKS_NOTHING}:
            node["allOf"] = [{"$ref": node.pop("$ref")}, *node.get("allOf", [])]


def render(schema: dict[str, Any] | None = None) -> str:
    """The schema file's text."""
    return json.dumps(generate() if schema is None else schema, indent=1, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- documentation

def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _doc_row(opt: Opt) -> str:
    text = _cell(opt.doc.strip())
    if opt.required:
        text = f"**required.** {text}"
    text += _bound_text(opt, "`{}`")
    return f"| `{opt.key}` | {text} |"


def _doc_table(options: tuple[Opt, ...] | list[Opt]) -> list[str]:
    return ["| Key | Meaning |", "|---|---|", *(_doc_row(o) for o in options)]


_FIELD_INTRO = {
    "object": "Each entry of {keys} (a mapping):",
    "list": "Each item of {keys} (a mapping):",
    "rules": "A rule mapping in {keys}:",
}


def _nested_tables(options: tuple[Opt, ...]) -> list[str]:
    """Tables of the mappings inside options (shared fields are shown once), depth first."""
    groups: list[tuple[str, tuple[Opt, ...], list[str]]] = []
    for opt in options:
        if not opt.fields:
            continue
        for kind, fields, keys in groups:
            if kind == opt.kind and fields == opt.fields:
                keys.append(opt.key)
                break
        else:
            groups.append((opt.kind, opt.fields, [opt.key]))
    lines: list[str] = []
    for kind, fields, keys in groups:
        named = " or ".join(f"`{k}`" for k in keys)
        lines += ["", _FIELD_INTRO.get(kind, "The keys of {keys}:").format(keys=named), "", *_doc_table(fields)]
        lines += _nested_tables(fields)
    return lines


def docs() -> str:
    """A Markdown section per step kind: its summary and its option tables (do and when are left out)."""
    common = {o.key for o in COMMON}
    out: list[str] = []
    for kind in step_kinds():
        cls = REGISTRY[kind]
        options = tuple(o for o in cls.options if o.key not in common)
        out += [f"### `{kind}`", "", " ".join(cls.summary.split()), ""]
        if options:
            out += _doc_table(options)
            out += _nested_tables(options)
        else:
            out.append(f"No keys besides `{DISPATCH}` and `when`.")
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------- command line

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m interpreter.schema_gen",
                                     description="Generate schema/game.schema.json from the step declarations.")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="exit 1 when the schema file is out of date")
    group.add_argument("--docs", action="store_true", help="print the step kinds' option tables (Markdown)")
    args = parser.parse_args(argv)
    if args.docs:
        sys.stdout.write(docs())
        return 0
    text = render()
    stale = []
    if (SCHEMA_FILE.read_text(encoding="utf-8") if SCHEMA_FILE.is_file() else None) != text:
        stale.append(SCHEMA_FILE)
    doc_text = DOCS_FILE.read_text(encoding="utf-8") if DOCS_FILE.is_file() else None
    new_doc = with_tables(doc_text) if doc_text is not None else None
    if new_doc is not None and new_doc != doc_text:
        stale.append(DOCS_FILE)
    if args.check:
        for f in stale:
            print(f"{f} is out of date with the step declarations; run python -m interpreter.schema_gen",
                  file=sys.stderr)
        if not stale:
            print(f"{SCHEMA_FILE} and the tables of {DOCS_FILE.name} are up to date")
        return 1 if stale else 0
    SCHEMA_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {SCHEMA_FILE}")
    if new_doc is not None and new_doc != doc_text:
        DOCS_FILE.write_text(new_doc, encoding="utf-8")
        print(f"wrote the step tables of {DOCS_FILE}")
    return 0


START_MARK, END_MARK = "<!-- generated: step options -->", "<!-- end generated -->"


def with_tables(text: str) -> str:
    """``text`` (docs/rule-files.md) with the generated tables between its markers."""
    if START_MARK not in text or END_MARK not in text:
        return text
    head, rest = text.split(START_MARK, 1)
    _, tail = rest.split(END_MARK, 1)
    return f"{head}{START_MARK}\n{docs().strip(chr(10))}\n{END_MARK}{tail}"


if __name__ == "__main__":
    sys.exit(main())
