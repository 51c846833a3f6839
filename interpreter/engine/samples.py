"""The states search samples from what one seat knows (:func:`determinize`): the cards the seat has not seen dealt
again among their places, as what it was told allows; the status lines a seat sees, worked out on such a sample.
What each seat knows is followed by engine/knowledge.py's :class:`Knowledge`."""

from __future__ import annotations

import random
from typing import Any

from interpreter.dsl.types import Type
from interpreter.engine.card_values import cards_named, only_cards, renamed
from interpreter.engine.game import Game
from interpreter.engine.knowledge import Knowledge, Run, Where, places, probe, told_values
from interpreter.engine.state import State
from interpreter.engine.steps.deal_chance import shuffle
from interpreter.engine.steps.running import running
from interpreter.engine.table import status
from interpreter.errors import GameError


def _teams_agree(drawn: list[int], state: State, view: list[int | None]) -> bool:
    """Whether teams worked out on a draw agree with what the seat knows: every team it knows of a seat (``view``:
    State.known_teams), and, when the teams' sizes are public, their sizes."""
    if any(t is not None and drawn[s] != t for s, t in enumerate(view)):
        return False
    return not state.team_counted or sorted(drawn) == sorted(state.teams)


_AGREE_TRIES = 1000  # draws of the unknown cards tried for a sample that agrees with every public value told


def seen_status(game: Game, state: State, seat: int, knowledge: Knowledge) -> list[tuple[str, str]]:
    """The game's status lines (its ``table:``) as ``seat`` sees them: worked out on a sample of what it knows, so
    that no line shows what it may not see; the same sample for the same state (a fixed random source)."""
    if not game.table:
        return []
    return status(game, game.table, determinize(game, state, seat, knowledge, random.Random(0)), seat)


def determinize(game: Game, state: State, seat: int, knowledge: Knowledge, rng: Any) -> State:
    """A copy of ``state`` with the cards ``seat`` does not know dealt again at random among their places
    (never where a seat has shown it holds no such card), hidden values worked out again from them, and every
    public value worked out from hidden things (``Knowledge.checks``) as everyone was told it.

    Those public values are kept by rejection: the cards are drawn again, up to ``_AGREE_TRIES`` times, until
    working each value out again on the draw gives the value told. When no draw agrees, the sample is the draw
    that agreed with the most values (the first such), and ``knowledge.disagreed`` counts it: search goes on
    with a state that is a little off rather than stopping the game."""
    return Unknown(game, state, seat, knowledge).sample(rng)


class Draw:
    """One draw of the cards a seat does not know (``Unknown.draw``): for each deal (in ``Unknown.spots``' order)
    the cards drawn into its places, spot by spot (``dealt``); the same as true card -> drawn card (``rename``);
    and the set steps worked out again on it (``again``). The last two are made when first asked for."""

    __slots__ = ("dealt", "_unknown", "_rename", "_again")

    def __init__(self, unknown: Unknown, dealt: list[list[int]]):
        self.dealt, self._unknown = dealt, unknown
        self._rename: dict[int, int] | None = None
        self._again: _Again | None = None

    @property
    def rename(self) -> dict[int, int]:
        if self._rename is None:
            self._rename = {}
            for (true, _, _), drawn in zip(self._unknown.events, self.dealt):
                self._rename.update(zip(true, drawn))
        return self._rename

    @property
    def again(self) -> _Again:
        if self._again is None:
            self._again = _Again(self._unknown.game, self._unknown.seat, self.rename)
        return self._again


class Unknown:
    """What ``seat`` does not know of ``state``, gathered once for any number of samples (a search draws many of
    one decision; ``state`` and ``knowledge`` must not change meanwhile): the cards it has not seen, by the deal
    that last moved them (``events``: the true cards in place order, sorted, and the ban of each one's place;
    ``spots``: each one's place and its index there), and what a draw must agree with (the checks, hidden teams).
    Refuses a state with a hidden value that cannot be drawn again (``_refuse_hidden_values``)."""

    def __init__(self, game: Game, state: State, seat: int, knowledge: Knowledge):
        _refuse_hidden_values(game, state, seat, knowledge)
        self.game, self.state, self.seat, self.knowledge = game, state, seat, knowledge
        bit = 1 << seat
        knowers, dealt = knowledge.knowers, knowledge.dealt
        cards_of: dict[int, list[int]] = {}  # by the chance event that dealt them: the true cards, place by place
        spots_of: dict[int, list[tuple[Where, int]]] = {}
        for where, cards in places(state):
            for i, c in enumerate(cards):
                if not knowers[c] & bit:
                    cards_of.setdefault(dealt[c], []).append(c)
                    spots_of.setdefault(dealt[c], []).append((where, i))
        excluded = knowledge.excluded
        order = sorted(cards_of)
        self.events = [(cards_of[e], sorted(cards_of[e]), [excluded.get(w) for w, _ in spots_of[e]]) for e in order]
        self.spots = [spots_of[e] for e in order]
        self.checks = knowledge.checks if order else []
        self.teams = knowledge.teams if order and state.team_known is not None else None
        self.view = state.known_teams(seat)
        running_now = running(game.steps, state.step_index, state.progress)
        self.redraws = any(step.search.redrawn() for step, _ in running_now)  # hidden choices drawn again

    def draw(self, rng: Any) -> Draw:
        """The unknown cards dealt again until the draw agrees with every check and the teams the seat knows (see
        ``determinize``)."""
        seat, state, checks, teams = self.seat, self.state, self.checks, self.teams
        best: tuple[int, Draw] | None = None
        for _ in range(_AGREE_TRIES if checks or teams else 1):
            draw = Draw(self, [_deal(list(cards), bans, rng) for _, cards, bans in self.events])
            if not checks and teams is None:
                return draw
            again = draw.again
            misses, failed = 0, None
            if teams is not None and not _teams_agree(again.result(teams)[2], state, self.view):
                misses += 1
            for check in checks:  # how many checks the draw fails; enough when it cannot beat the best draw
                told, hidden, _ = again.result(check)
                if told != check.told or any(hidden[name][seat] != real[seat] for name, real in check.mine.items()):
                    misses += 1
                    failed = failed or check
                    if best is not None and misses >= best[0]:
                        break
            if failed is not None and failed is not checks[0]:  # the check that fails is tried first next time
                checks.remove(failed)
                checks.insert(0, failed)
            if best is None or misses < best[0]:
                best = (misses, draw)
                if not misses:
                    break
        assert best is not None
        if best[0]:
            self.knowledge.disagreed += 1
        return best[1]

    def hidden(self, draw: Draw) -> dict[str, list[Any]]:
        """The hidden per-seat values worked out again on ``draw`` (by name, each seat's, cards by id), the seat's own
        as it knows it (with the draw's cards)."""
        if not self.knowledge.derived:
            return {}
        state, again, types = self.state, draw.again, self.game.value_types
        rename = draw.rename.get

        def card(c: int) -> int:
            new = rename(c)
            return c if new is None else new

        out = {}
        for name, run in self.knowledge.derived.items():
            real = state.seat_vars[name]
            own = [None] * len(real)
            own[self.seat] = renamed(types.get(name), real[self.seat], card)
            out[name] = again.merged(name, again.result(run)[1][name], own)
        return out

    def teams_drawn(self, draw: Draw) -> list[int] | None:
        """Each seat's team worked out again on ``draw`` when the teams are hidden from the seat (else None)."""
        return None if self.teams is None else list(draw.again.result(self.teams)[2])

    def sample(self, rng: Any) -> State:
        """A sample as today's state (see ``determinize``): a copy with the cards renamed as drawn, the hidden values
        and teams worked out again, the choices the seat has not seen drawn again."""
        return self.state_of(self.draw(rng), rng)

    def state_of(self, draw: Draw, rng: Any) -> State:
        """The sample of ``draw`` as today's state (``sample``): the choices the seat has not seen drawn again from
        ``rng``."""
        game, seat = self.game, self.seat
        other = self.state.clone()
        relabel(game, other, draw.rename.get)
        other.seat_vars.update(self.hidden(draw))
        teams = self.teams_drawn(draw)
        if teams is not None:
            other.teams = teams
        for step, p in running(game.steps, other.step_index, other.progress):  # choices the seat has not seen
            step.search.redraw(game, other, p, seat, rng)
        return other


class StateSamples:
    """Samples of one decision as today's state (``Unknown.sample``), for a search: what it plays them by
    (``game``) and a sample (``draw``). For a game with no compact form; runtime/slot_samples.py draws them
    into the compact slots."""

    def __init__(self, unknown: Unknown):
        self.game, self.unknown = unknown.game, unknown

    def draw(self, rng: Any) -> State:
        return self.unknown.sample(rng)


class _Again:
    """Set steps worked out again on one draw of the unknown cards (``rename``: true card -> drawn card)."""

    def __init__(self, game: Game, seat: int, rename: dict[int, int]):
        self.game, self.seat, self.rename = game, seat, rename
        self.done: dict[int, Any] = {}  # by id(run): its result on this draw
        self._keys: dict[tuple[int, str], Any] = {}  # a derivation's values of one name, as a key

    def result(self, run: Run) -> Any:
        """What ``run``'s step works out on this draw: the public values it tells (a check's ``outputs``), its
        hidden values ({name: values}) and the teams after it (each seat's team)."""
        done = self.done
        stack = [run]
        while stack:  # the runs that worked out the hidden values it read first (no recursion)
            r = stack[-1]
            if id(r) in done:
                stack.pop()
                continue
            todo = [d for d in r.derived.values() if id(d) not in done]
            if todo:
                stack.extend(todo)
                continue
            done[id(r)] = self._work_out(r)
            stack.pop()
        return done[id(run)]

    def merged(self, name: str, values: list[Any], real: list[Any]) -> list[Any]:
        """Hidden values worked out again, but the seat's own as it knows it (unless hidden from it too)."""
        seat = self.seat
        mine = self.game.visibility.get(name) != "nobody"
        return [real[s] if s == seat and mine else v for s, v in enumerate(values)]

    def _work_out(self, run: Run) -> Any:
        game, rename, done = self.game, self.rename, self.done
        before = run.before
        key: tuple[Any, ...] | None = tuple(self._input(run, read) for read in run.order)
        got = run.memo.get(key, _MISSING)
        if got is not _MISSING:
            return got
        while True:  # the cards renamed only where it reads what is hidden (the rest cannot change what it gives)
            snap = before.clone()
            relabel(game, snap, rename.get, run.reads)
            for name, d in run.derived.items():
                snap.seat_vars[name] = self.merged(name, done[id(d)][1][name], before.seat_vars[name])
            after, reads = probe(game, run, snap)
            if reads <= run.reads:  # what it read is in the key: the same inputs give the same result
                break
            # it read more on these cards: worked out again with those renamed too, and keyed by them from now on
            run.read(run.reads | reads)
            run.memo.clear()
            key = None
        got = (told_values(after, run.outputs), {h: after.seat_vars[h] for h in getattr(run.step, "hidden", ())},
               list(after.teams))
        if key is not None:
            run.memo[key] = got
        return got

    def _input(self, run: Run, read: tuple[str, str]) -> Any:
        """What the step would read of the hidden part ``read`` on this draw, as a key."""
        part, name = read
        before, types = run.before, self.game.value_types
        rename = self.rename.get
        d = run.derived.get(name) if part == "seat" else None
        if d is not None:  # worked out again: as that derivation gave it, with the seat's own value as it was
            k = (id(d), name)
            if k not in self._keys:
                self._keys[k] = _frozen(self.done[id(d)][1][name])
            return self._keys[k], _frozen(before.seat_vars[name][self.seat])

        def card(c: int) -> int:
            new = rename(c)
            return c if new is None else new

        if part == "zone":
            cards = before.shared.get(name)
            if cards is not None:
                return tuple(map(card, cards))
            return tuple(tuple(map(card, cards)) for cards in before.per_seat[name])
        if part == "seat":
            return _frozen([renamed(types.get(name), v, card) for v in before.seat_vars.get(name, ())])
        value = (before.vars if part == "round" else before.game_vars).get(name)
        return _frozen(renamed(types.get(name), value, card))


_MISSING = object()


def _frozen(value: Any) -> Any:
    """``value`` as a key: lists as tuples, records as their items."""
    if isinstance(value, (list, tuple)):
        if all(v is None or type(v) in (int, str, bool) for v in value):
            return tuple(value)
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value


_TRIES = 20  # plain shuffles tried before a deal around the cards seats have shown not to hold


def _deal(cards: list[int], bans: list[set[int] | None], rng: Any) -> list[int]:
    """``cards`` in a random order such that no card lands on a slot whose ban holds it (what the seat knows:
    which cards, how many in each place, and which cards each place lacks)."""
    shuffle(rng, cards)
    if not any(bans):
        return cards
    for _ in range(_TRIES):
        if not any(b is not None and c in b for c, b in zip(cards, bans)):
            return cards
        shuffle(rng, cards)
    return _deal_around(cards, bans, rng)


def _deal_around(cards: list[int], bans: list[set[int] | None], rng: Any) -> list[int]:
    """A deal of ``cards`` (in a random order) to slots that no ban stops, in time linear in the cards.

    Cards are of a few kinds: the set of places (ban sets) that lack them. The banned slots, in a random order,
    each get a card drawn at random among those it may hold, the kinds weighed by how many cards are left, such
    that the cards left can still be dealt: by Hall's theorem, for every set B of banned places the cards none of
    them may hold fit in the slots outside B. The sets B that can bind are the intersections of the kinds (a
    few); each keeps its slack. The slots no ban stops then take the cards left, in a random order."""
    bit_of: dict[int, int] = {}  # id of a ban set -> its bit
    ban_sets: list[set[int]] = []
    for b in bans:
        if b and id(b) not in bit_of:
            bit_of[id(b)] = 1 << len(ban_sets)
            ban_sets.append(b)
    kind_of = dict.fromkeys(cards, 0)
    for i, b in enumerate(ban_sets):
        for c in b:
            if c in kind_of:
                kind_of[c] |= 1 << i
    by_kind: dict[int, list[int]] = {}
    for c in cards:  # in the random order the shuffles left
        by_kind.setdefault(kind_of[c], []).append(c)
    kinds = list(by_kind)
    left = [len(by_kind[k]) for k in kinds]
    slot_bit = [bit_of[id(b)] if b else 0 for b in bans]
    cap = [0] * len(ban_sets)
    for sb in slot_bit:
        if sb:
            cap[sb.bit_length() - 1] += 1
    sets: set[int] = set()  # the intersections of kinds: the sets of banned places that can bind
    for k in kinds:
        if k:
            sets |= {k} | {k & f for f in sets if k & f}
    family = sorted(sets)
    slack = []
    for places_b in family:  # the slots outside B, less the cards none of B's places may hold
        outside = len(bans) - sum(cap[i] for i in range(len(cap)) if places_b >> i & 1)
        slack.append(outside - sum(n for k, n in zip(kinds, left) if k & places_b == places_b))
    if any(x < 0 for x in slack):
        raise GameError("cannot sample the state: the cards seats have shown not to hold leave no deal")
    out: list[int | None] = [None] * len(bans)
    banned = [i for i, sb in enumerate(slot_bit) if sb]
    shuffle(rng, banned)
    deltas: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for slot in banned:
        p = slot_bit[slot]
        tight = [b for b, x in zip(family, slack) if x == 0]
        total = 0
        options = []
        for j, k in enumerate(kinds):  # kinds the slot may hold that leave the rest a deal
            if left[j] and not k & p and all(b & p or not b & ~k for b in tight):
                options.append(j)
                total += left[j]
        if not options:  # cannot happen while every slack is kept at 0 or more
            raise GameError("cannot sample the state: the cards seats have shown not to hold leave no deal")
        r = rng.random() * total
        for j in options:
            r -= left[j]
            if r < 0:
                break
        k = kinds[j]
        left[j] -= 1
        out[slot] = by_kind[k].pop()
        d = deltas.get((k, p))
        if d is None:  # a card of kind k in a slot of place p: B's cards got one fewer, B's outside one slot fewer
            d = deltas[(k, p)] = [(i, (not b & ~k) - (not b & p)) for i, b in enumerate(family)
                                  if (not b & ~k) != (not b & p)]
        for i, x in d:
            slack[i] += x
    rest = [c for k in kinds for c in by_kind[k]]
    shuffle(rng, rest)
    it = iter(rest)
    return [next(it) if c is None else c for c in out]


def relabel(game: Game, state: State, rename: Any, parts: frozenset[tuple[str, str]] | None = None) -> None:
    """Rename cards everywhere in ``state``: ``rename(card)`` gives the new id, or None to keep it. ``parts``: only
    in these zones and values (``("zone", name)``, ``("round" | "game" | "seat", name)``, as engine/knowledge.py's
    ``probe`` names what a step read) and in the running steps' progress."""

    def card(c: int) -> int:
        new = rename(c)
        return c if new is None else new

    def named(part: str, name: str) -> bool:
        return parts is None or (part, name) in parts

    for name, cards in state.shared.items():
        if named("zone", name):
            cards[:] = map(card, cards)
    for name, hands in state.per_seat.items():
        if named("zone", name):
            for cards in hands:
                cards[:] = map(card, cards)
    types = game.value_types
    for part, values in (("round", state.vars), ("game", state.game_vars)):
        for k, v in values.items():
            if named(part, k):
                values[k] = renamed(types.get(k), v, card)
    for k, per_seat in state.seat_vars.items():
        if named("seat", k):
            per_seat[:] = [renamed(types.get(k), v, card) for v in per_seat]
    for step, p in running(game.steps, state.step_index, state.progress):
        step.search.relabel(p, card)


def _refuse_hidden_values(game: Game, state: State, seat: int, knowledge: Knowledge) -> None:
    """A value hidden from ``seat`` can be drawn again only when it names cards the seat does not know
    (they are renamed with the rest); anything else hidden (a secret bid, a hidden choice of a card the seat
    knows) cannot: refuse rather than hand the search the real value."""
    filling: frozenset[str] = frozenset()
    redrawn: frozenset[str] = frozenset()
    if state.pending is not None:
        filling, redrawn = state.pending.step.search.filling(), state.pending.step.search.redrawn()
    for name, values in state.seat_vars.items():
        visible = game.visibility.get(name, "all")
        if visible == "all" and name not in filling or name in knowledge.derived or name in redrawn:
            continue
        t = game.value_types.get(name)
        for s, value in enumerate(values):
            if (s != seat or visible == "nobody") and not _drawable(t, value, seat, knowledge):
                _refuse(game, seat, name)
    for name, value in state.vars.items():
        if name in redrawn:
            continue
        if (game.visibility.get(name, "all") != "all" or name in filling) \
                and not _drawable(game.value_types.get(name), value, seat, knowledge):
            _refuse(game, seat, name)


def _drawable(t: Type | None, value: Any, seat: int, knowledge: Knowledge) -> bool:
    """Whether a hidden value can be drawn again: empty, or naming only cards ``seat`` does not know."""
    if value is None or value == []:
        return True
    return t is not None and only_cards(t) and not any(knowledge.knows(seat, c) for c in cards_named(t, value))


def _refuse(game: Game, seat: int, name: str) -> None:
    raise GameError(f"cannot sample the state as {game.seat_names[seat]} sees it: the value {name!r} is hidden "
                    "from that seat and names no unknown cards")
