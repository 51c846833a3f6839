"""What a page at the web table shows (the server sends it after every change): a seat's view of its table, made from
that seat's observation and its own legal actions only; and the watch link's, made from what everyone sees only (a
spectator's observation), which has no seat. In a step whose choices are made together a seat's decision and its own
cards are those of its copy of the game (api/together.py: it is to act there, or has chosen), everything else the
game's; ``together``, ``waiting`` and ``chosen`` say so, and who has not chosen yet."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.web.board_view import board_status, covers, drawn_board
from interpreter.web.tables import Table


def seat_view(table: Table, seat: int, log_from: int = 0) -> dict[str, Any]:
    """Everything the page of ``seat`` shows, from that seat's observation and its own legal actions only
    (the narration from its ``log_from``-th line). A rule that fails while the view is made (a status line)
    stops the table; a stopped table's view works out no rule, and says why it stopped."""
    return _safely(table, lambda: _view(table, seat, log_from), lambda: _bare_view(table, seat, log_from))


def watch_view(table: Table, log_from: int = 0) -> dict[str, Any]:
    """What the watch link's page shows: the table's public view, made from what everyone sees only (a spectator's
    observation, the status lines that read only public values, the narration as everyone is told it), never
    from a seat's; the page's ``seat`` is None and it has no hand and no choices."""
    return _safely(table, lambda: _watched(table, log_from), lambda: _bare_watch(table, log_from))


def _safely(table: Table, view: Callable[[], dict[str, Any]], bare: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``view()``; a rule that fails while it is made stops the table, and the view is made again (a stopped
    table's works out no rule), or ``bare()`` when even that fails."""
    try:
        return view()
    except Exception as exc:  # the table stops with it said
        table.stop(exc)
    try:
        return view()
    except Exception:  # even the observation cannot be made: the bare view
        return bare()


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
    board = drawn_board(obs, covers(state) if turn else {})
    on_board = {s["action"] for row in board or [] for s in row["spaces"] if s["action"]}
    return {
        **_bare_view(table, seat, log_from), **_public(table, obs, to_act),
        "your_turn": turn, "prompt": deciding.prompt if turn else None,
        "together": gathering is not None, "waiting": waiting, "chosen": chosen,
        "hand_zone": hand_zone, "hand": cards, "hand_choice": any(c["legal"] for c in cards),
        "actions": [lab for lab in dict.fromkeys(labels) if lab not in in_hand and lab not in on_board],
        "board": board,
        "zones": _other_zones(obs, mine, hand_zone),
        "status": [list(line) for line in state.status(seat)] + board_status(board) if live else [],
    }


def _watched(table: Table, log_from: int) -> dict[str, Any]:
    state = table.state
    live = table.stopped is None
    obs = state.observation(None)  # a spectator's: what everyone sees
    board = drawn_board(obs, {})  # (no space is a watcher's to cover)
    return {**_bare_watch(table, log_from), **_public(table, obs, table.to_act() if live else None),
            "board": board, "zones": _other_zones(obs, None, None),
            "status": [list(line) for line in state.status(None)] + board_status(board) if live else []}


def _public(table: Table, obs: dict[str, Any], to_act: int | None) -> dict[str, Any]:
    """The parts of a view that are the same for every page, from the observation ``obs`` of its viewer: the round,
    the dealer, the step, who is to act, the trick and who leads it, the last trick, the counters and totals, the
    game's end."""
    state, names = table.state, table.game.seat_names
    trick = obs.get("trick") if "tricks_played" in obs else []
    leader = trick[0][0] if trick else (names[to_act] if to_act is not None and obs.get("decision") == "play"
                                        else None)
    out: dict[str, Any] = {
        "round": state.round, "dealer": names[state.dealer],
        "step": state.step if table.stopped is None else None, "to_act": None if to_act is None else names[to_act],
        "trick": trick, "leader": leader, "last_trick": obs.get("last_trick"),
        "tricks_played": obs.get("tricks_played"),
        "counters": obs.get("counters") or {}, "totals": obs["totals"],
        "over": state.is_over(),
    }
    if state.is_over():
        out["winners"] = [names[s] for s in state.winners()]
    return out


def _bare_view(table: Table, seat: int, log_from: int) -> dict[str, Any]:
    """The seat's view without the game: who sits where, the narration, the scores, and why the table stopped."""
    return {**_bare(table, log_from, table.logs.get(seat, [])), "seat": seat, "seat_name": table.game.seat_names[seat]}


def _bare_watch(table: Table, log_from: int) -> dict[str, Any]:
    """The watch link's view without the game (no seat: ``seat`` None)."""
    return {**_bare(table, log_from, table.public_log), "seat": None, "seat_name": None, "watching": True}


def _bare(table: Table, log_from: int, log: list[str]) -> dict[str, Any]:
    names = table.game.seat_names
    return {"type": "view", "seq": table.seq, "title": table.game.title,
            "seats": names, "kinds": table.setup.kinds, "round": 0, "dealer": None, "step": None, "to_act": None,
            "your_turn": False, "prompt": None, "together": False, "waiting": [], "chosen": [], "hand_zone": None,
            "hand": [], "hand_choice": False, "actions": [], "board": None, "trick": [],
            "leader": None, "last_trick": None, "tricks_played": None, "counters": {},
            "totals": dict(zip(names, table.state.returns())), "zones": [], "status": [],
            "log_from": log_from, "log": log[log_from:], "scores": table.scores,
            "over": False, "stopped": table.stopped}


def _hand(obs: dict[str, Any], me: str) -> tuple[str | None, list[str]]:
    """The seat's hand: its first own zone whose cards it sees (the rule file's first per-seat zone, as a rule
    file declares the hand first), by name and cards in the terminal's order (the observation's)."""
    for name, content in obs["zones"].items():
        if isinstance(content, dict) and isinstance(content.get(me), list):
            return name, list(content[me])
    return None, []


def _other_zones(obs: dict[str, Any], me: str | None, hand: str | None) -> list[dict[str, Any]]:
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
