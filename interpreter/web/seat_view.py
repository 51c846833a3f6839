"""What a seat's page at the web table shows: the seat's view of its table, made from that seat's observation and
its own legal actions only (the server sends it after every change). In a step whose choices are made together the
seat's decision and its own cards are those of its copy of the game (api/together.py: it is to act there, or has
chosen), everything else the game's; ``together`` and ``waiting`` say so, and who has not chosen yet."""

from __future__ import annotations

from typing import Any

from interpreter.web.tables import Table


def seat_view(table: Table, seat: int, log_from: int = 0) -> dict[str, Any]:
    """Everything the page of ``seat`` shows, from that seat's observation and its own legal actions only
    (the narration from its ``log_from``-th line). A rule that fails while the view is made (a status line)
    stops the table; a stopped table's view works out no rule, and says why it stopped."""
    try:
        return _view(table, seat, log_from)
    except Exception as exc:  # the table stops with it said
        table.stop(exc)
    try:
        return _view(table, seat, log_from)
    except Exception:  # even the seat's observation cannot be made: the bare view
        return _bare_view(table, seat, log_from)


def _view(table: Table, seat: int, log_from: int) -> dict[str, Any]:
    state, names = table.state, table.game.seat_names
    live = table.stopped is None
    obs = state.observation(seat)
    mine = names[seat]
    to_act = table.to_act() if live else None
    turn = to_act == seat
    deciding = state  # where the seat's decision is: the game, or its copy in a step made together
    gathering = table.together.gathering
    waiting: list[str] = []
    chosen: list[str] = []  # its answers not taken in the game yet
    if gathering is not None:
        waiting = [names[s] for s in gathering.waiting()]
        if seat in gathering.seats:
            asked = gathering.asked(seat)
            turn = asked is not None
            if asked is not None:  # its own cards as it has chosen so far (nothing else of the copy)
                deciding = asked
                obs = gathering.observation(seat)
            else:
                chosen = gathering.answered(seat)
    labels = deciding.labels() if turn else []
    hand_zone, hand = _hand(obs, mine)
    for label in chosen:  # the cards it has chosen leave its hand (one each: a deck may hold two alike)
        if label in hand:
            hand.remove(label)
    in_hand = set(hand)
    cards = []
    for label in hand:
        legal = label in labels
        why = None
        if not legal:
            if not live:
                why = "the table has stopped"
            elif turn:
                why = deciding.refusal(label) or "not one of your choices now"
            elif waiting:  # (a step made together)
                chose = gathering is not None and seat in gathering.seats
                why = ("you have chosen: " if chose else "") + "waiting for " + ", ".join(waiting)
            elif to_act is not None:
                why = f"{names[to_act]} is to act"
            else:
                why = "the game is over" if state.is_over() else "the cards are being dealt"
        cards.append({"label": label, "legal": legal, "why": why})
    trick = obs.get("trick") if "tricks_played" in obs else []
    leader = trick[0][0] if trick else (names[to_act] if to_act is not None and obs.get("decision") == "play"
                                        else None)
    out: dict[str, Any] = {
        **_bare_view(table, seat, log_from),
        "round": state.round, "dealer": names[state.dealer],
        "step": state.step if live else None, "to_act": None if to_act is None else names[to_act],
        "your_turn": turn, "prompt": deciding.prompt if turn else None,
        "together": gathering is not None, "waiting": waiting, "chosen": chosen,
        "hand_zone": hand_zone, "hand": cards,
        "actions": [lab for lab in dict.fromkeys(labels) if lab not in in_hand],
        "trick": trick, "leader": leader, "last_trick": obs.get("last_trick"),
        "tricks_played": obs.get("tricks_played"),
        "counters": obs.get("counters") or {}, "totals": obs["totals"],
        "zones": _other_zones(obs, mine, hand_zone),
        "status": [list(line) for line in state.status(seat)] if live else [],
        "over": state.is_over(),
    }
    if state.is_over():
        out["winners"] = [names[s] for s in state.winners()]
    return out


def _bare_view(table: Table, seat: int, log_from: int) -> dict[str, Any]:
    """The view without the game: who sits where, the narration, the scores, and why the table stopped."""
    names = table.game.seat_names
    return {"type": "view", "seq": table.seq, "title": table.game.title, "seat": seat, "seat_name": names[seat],
            "seats": names, "kinds": table.setup.kinds, "round": 0, "dealer": None, "step": None, "to_act": None,
            "your_turn": False, "prompt": None, "together": False, "waiting": [], "chosen": [],
            "hand_zone": None, "hand": [],
            "actions": [], "trick": [],
            "leader": None, "last_trick": None, "tricks_played": None, "counters": {},
            "totals": dict(zip(names, table.state.returns())), "zones": [], "status": [],
            "log_from": log_from, "log": table.logs.get(seat, [])[log_from:], "scores": table.scores,
            "over": False, "stopped": table.stopped}


def _hand(obs: dict[str, Any], me: str) -> tuple[str | None, list[str]]:
    """The seat's hand: its first own zone whose cards it sees (the rule file's first per-seat zone, as a rule
    file declares the hand first), by name and cards in the terminal's order (the observation's)."""
    for name, content in obs["zones"].items():
        if isinstance(content, dict) and isinstance(content.get(me), list):
            return name, list(content[me])
    return None, []


def _other_zones(obs: dict[str, Any], me: str, hand: str | None) -> list[dict[str, Any]]:
    """The other cards the seat sees (its other zones, other seats' open cards, shared zones lying face up) and
    the sizes of the rest: each ``{"zone", "seat", "cards" or "count"}``."""
    out: list[dict[str, Any]] = []
    for name, content in obs["zones"].items():
        if name == "trick":
            continue
        if isinstance(content, list):
            if content:
                out.append({"zone": name, "seat": None, "cards": content})
        elif isinstance(content, dict):
            for seat, cards in content.items():
                if seat == me and name == hand:
                    continue
                if isinstance(cards, list):
                    if cards:
                        out.append({"zone": name, "seat": seat, "cards": cards})
                elif isinstance(cards, dict) and cards.get("count"):
                    out.append({"zone": name, "seat": seat, "count": cards["count"]})
    return out
