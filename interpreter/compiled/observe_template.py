"""A seat's observation tensor written by the compiled backend: the second writer of engine/encoding.py's
``ObservationEncoder`` (one declaration of the segments, its ``layout``, ``paths`` and ``encoders``; two writers),
read from the arrays and the progress array instead of an observation dict.

``observe(z, zn, v, l, ln, h, p, seat, obs, g)`` writes the observation of ``seat`` into the row ``obs[g]`` (its first
``ObservationEncoder.size`` places; float32 or float64): the same numbers as ``encoder.encode(observe(game, state,
seat))`` of the same state, what the seat may see and nothing more (engine/observation.py decides what that is: the
zones by their ``visible``, the round and seat values by their visibility and the values a pending simultaneous
choice fills in secret, the trick on the table and the last trick from the running trick step's progress,
trick_progress.Shown). Each segment is written by the writer of its kind, found by the segment's place in the
observation (its path's first key) and its encoding (the encoder's function for it); a value none encodes as the
encoder encodes none. The teams (hidden teams: what the seat knows of them) are written from the team slots and the
arrays' ``team known`` row by the rules of engine/observation.py and TeamQueries.known_teams.

Not written (``NotWritten``, naming the segment): a value held nowhere in the arrays, the trick of a tricks step
another step holds, values filled in secret by steps a round step holds that fill different ones.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.machine import FINISHED, STATUS, STEP
from interpreter.compiled.steps import ARRAYS
from interpreter.compiled.values import INTERNED, NONE, NotWritten
from interpreter.engine.encoding import ObservationEncoder
from interpreter.runtime.layout import COUNTED, COUNTER, DEALER, GAME, KNOWN, NUMBER, ROUND, SEAT, TEAM, TOTAL

SLOTS = "OBS_SLOT"  # the module's constant: each card id's slot among the card kinds of a segment (-1: no card)
TEXTS = "OBS_TEXT"  # the module's constants: the interned texts' numbers and slots (``_texts``)


class ObservationWriter:
    """The source of ``observe`` for a machine (compiled/machine.py) and its game's encoder (see the module's
    docstring)."""

    def __init__(self, machine: Any, encoder: ObservationEncoder):
        self.machine, self.encoder = machine, encoder
        self.game, self.lay = machine.game, machine.lay
        self.players, self.kinds = encoder.players, encoder.kinds
        labels = self.game.cards.labels
        self.slots = [encoder.card_slot.get(labels[c], -1) for c in range(len(self.lay.layout.kind))]
        self.fills = self._fills()
        self.tricks = self._tricks()

    # ------------------------------------------------------------------------------------------------ the source

    def source(self) -> str:
        """``observe`` and its tables: every segment of the encoder's layout written in order, the trick's last
        (the plays of a trick are places in a list: written in a loop over the plays held)."""
        lines = [*self._texts(), f"{SLOTS} = np.array({self.slots!r}, np.int64)", "", "",
                 f"def observe({ARRAYS}, p, seat, obs, g):",
                 f"    for k in range({self.encoder.size}):",
                 "        obs[g, k] = 0.0"]
        at = 0
        tricks: dict[str, int] = {}
        for (name, size), path, encode in zip(self.encoder.layout, self.encoder.paths, self.encoder.encoders,
                                              strict=True):
            root, how = str(path[0]), getattr(encode, "__name__", "")
            if root in ("trick", "last_trick"):
                tricks.setdefault(f"{root}:{path[1]}", at)
            else:
                lines += ["    " + line for line in self._segment(name, path, how, at)]
            at += size
        lines += ["    " + line for line in self._trick(tricks)]
        return "\n".join([*lines, ""])

    def _segment(self, name: str, path: tuple[Any, ...], how: str, at: int) -> list[str]:
        """The lines that write one segment (not of the trick's) at ``at``."""
        n, lay = self.players, self.lay
        root = path[0]
        if root == "seat":
            return [f"if 0 <= seat < {n}:", f"    obs[g, {at} + seat] = 1.0"]
        if root == "to_act":
            return [f"if p[{STATUS}] == DECIDES:",
                    f"    a = actor({ARRAYS}, p)",
                    f"    if 0 <= a < {n}:",
                    f"        obs[g, {at} + a] = 1.0",
                    f"elif p[{STATUS}] == CHANCE and p[{FINISHED}] == 0:",
                    f"    obs[g, {at + n}] = 1.0"]
        if root == "dealer":
            return self._one("_seat", f"v[{lay.value(DEALER)}]", at)
        if root == "round":
            return [f"obs[g, {at}] = v[{lay.value(NUMBER)}]"]
        if root == "finished":
            return [f"if p[{FINISHED}] != 0:", f"    obs[g, {at}] = 1.0"]
        if root == "zones":
            return self._zone(path, at)
        if root in ("counters", "totals"):
            part, counter = (COUNTER, str(path[1])) if root == "counters" else (TOTAL, "")
            return [f"obs[g, {at + s}] = v[{lay.value(part, counter, s)}]" for s in range(n)]
        if root == "values":
            visible = self.game.visibility.get(path[1], "all") == "all"
            return self._value(name, how, ROUND, str(path[1]), None, at, "1" if visible else "0",
                               self.fills.get(str(path[1])))
        if root == "game_values":
            return self._value(name, how, GAME, str(path[1]), None, at, "1", None)
        if root == "seat_values":
            key, s = str(path[1]), self.game.seat_names.index(str(path[2]))
            visible = self.game.visibility.get(key, "all")
            shown = {"all": "1", "owner": f"(seat == {s})"}.get(visible, "0")
            filling = self.fills.get(key) if visible == "all" else None
            return self._value(name, how, SEAT, key, s, at, shown, None, (filling, f"(seat == {s})"))
        if root == "teams":  # (the segments of the teams follow one another: written together, at the first)
            return self._teams(at) if path[1] == 0 else []
        raise NotWritten(f"the observation's segment {name!r}")

    def _teams(self, at: int) -> list[str]:
        """The teams as the seat knows them (engine/observation.py's ``_teams``; segment ``i`` at ``at + i * n``, a
        slot a seat): while they are public (``ln`` of the ``team known`` row -1), the teams in the order of their
        first seats, every seat on its team; while they are hidden, each team by its number, with the seats whose
        team the seat was told (its bits) and, when the teams' sizes are public and one team alone has room left,
        every other seat on that one (TeamQueries.known_teams)."""
        n, lay = self.players, self.lay
        team, row, counted = lay.value(TEAM, "", 0), lay.list_of(KNOWN), lay.value(COUNTED)
        first = ["first = 1",  # (seat r the first of its team)
                 "for q in range(r):",
                 f"    if v[{team} + q] == v[{team} + r]:",
                 "        first = 0",
                 "        break"]
        return [f"if ln[{row}] < 0:",
                f"    for s in range({n}):",
                "        k = 0",  # (the teams whose first seat is before the first of s's: its team's place)
                f"        for r in range({n}):",
                f"            if v[{team} + r] == v[{team} + s]:",
                "                break",
                *("            " + line for line in first),
                "            k += first",
                f"        obs[g, {at} + k * {n} + s] = 1.0",
                "else:",
                f"    mask = l[{row}, seat]",
                "    room = 0",  # (how many teams have room for a seat the seat does not know, and the last)
                "    left = -1",
                f"    for r in range({n}):",
                *("        " + line for line in first),
                "        if first == 1:",
                "            seen = 0",
                "            size = 0",
                f"            for q in range({n}):",
                f"                if v[{team} + q] == v[{team} + r]:",
                "                    size += 1",
                "                    seen += (mask >> q) & 1",
                "            if seen < size:",
                "                room += 1",
                f"                left = v[{team} + r]",
                f"    for s in range({n}):",
                f"        t = v[{team} + s] if (mask >> s) & 1 else (left if v[{counted}] != 0 and room == 1 else -1)",
                f"        if 0 <= t < {n}:",
                f"            obs[g, {at} + t * {n} + s] = 1.0"]

    def _zone(self, path: tuple[Any, ...], at: int) -> list[str]:
        """A zone: a count per card kind the seat sees, then how many cards it holds."""
        spec = self.game.zones[path[1]]
        seat = self.game.seat_names.index(str(path[2])) if len(path) > 2 else None
        row = self.lay.layout.zone_slot(str(path[1]), seat)
        cards = [f"for j in range(zn[{row}]):", f"    obs[g, {at} + {SLOTS}[z[{row}, j]]] += 1.0"]
        if spec.visible == "all":
            seen = cards
        elif spec.visible == "owner" and seat is not None:
            seen = [f"if seat == {seat}:", *("    " + line for line in cards)]
        else:
            seen = []
        return [*seen, f"obs[g, {at + self.kinds}] = zn[{row}]"]

    def _value(self, name: str, how: str, part: str, key: str, seat: int | None, at: int, shown: str,
               filling: str | None, own: tuple[str | None, str] = (None, "")) -> list[str]:
        """A round, game or seat value, written when ``shown`` holds and no pending step fills it in secret
        (``filling``: the source that holds while one does; ``own``: for a seat value, the source that holds while
        one fills it and the source that says the seat is its own, which sees it all the same); else as none."""
        none = self._none(how, at)
        if shown == "0":
            return none
        try:
            source, listed = f"v[{self.lay.value(part, key, seat)}]", False
        except KeyError:
            try:
                source, listed = str(self.lay.list_of(part, key, seat)), True
            except KeyError:
                raise NotWritten(f"the observation's segment {name!r}: a value the arrays do not hold") from None
        lines = self._list(how, source, at) if listed else self._one(how, source, at)
        hidden = [f"not {shown}"] if shown != "1" else []
        if filling is not None:
            hidden.append(filling)
        if own[0] is not None:
            hidden.append(f"({own[0]} and not {own[1]})")
        if not hidden:
            return lines
        return [f"if {' or '.join(hidden)}:", *("    " + line for line in none or ["pass"]),
                "else:", *("    " + line for line in lines)]

    def _one(self, how: str, x: str, at: int) -> list[str]:
        """A value held as one number (``x``), encoded as ``how`` (the encoder's function) encodes it."""
        n = self.players
        if how == "_seat":
            return [f"x = {x}", f"if 0 <= x < {n}:", f"    obs[g, {at} + x] = 1.0"]
        if how == "_card_value":
            return [f"x = {x}", f"if 0 <= x < {len(self.slots)} and {SLOTS}[x] >= 0:",
                    f"    obs[g, {at} + {SLOTS}[x]] += 1.0"]
        if how == "_plain":
            return [f"x = {x}", "if x == NONE:", f"    obs[g, {at + 1}] = 1.0", "else:", f"    obs[g, {at}] = x"]
        if how == "_text":
            return [f"k = text_slot({x})", "if k >= 0:", f"    obs[g, {at} + k] = 1.0"]
        if how == "_present":
            return [f"if {x} != NONE:", f"    obs[g, {at}] = 1.0"]
        raise NotWritten(f"an observation's value encoded by {how}")

    def _list(self, how: str, row: str, at: int) -> list[str]:
        """A value held as a list (row ``row`` of ``l``), encoded as ``how`` encodes it."""
        n = self.players
        each = {"_card_value": [f"    if 0 <= x < {len(self.slots)} and {SLOTS}[x] >= 0:",
                                f"        obs[g, {at} + {SLOTS}[x]] += 1.0"],
                "_seat_list": [f"    if 0 <= x < {n}:", f"        obs[g, {at} + x] = 1.0"]}.get(how)
        if each is not None:
            return [f"for j in range(ln[{row}]):", f"    x = l[{row}, j]", *each]
        if how == "_present":
            return [f"if ln[{row}] > 0:", f"    obs[g, {at}] = 1.0"]
        raise NotWritten(f"an observation's list encoded by {how}")

    def _none(self, how: str, at: int) -> list[str]:
        """What none writes (the encoder's encoding of a value the seat does not see)."""
        return [f"obs[g, {at + 1}] = 1.0"] if how == "_plain" else []

    def _texts(self) -> list[str]:
        """The table of texts (``TEXTS``): every text the game has interned (a text is interned, values.py; one made
        in play has no number, so every text a value can hold is interned by the time the module is written), by
        number, with its slot among the encoder's texts (the last for another text); ``text_slot`` finds one, -1
        for a number that is no text."""
        values, texts = self.machine.values, self.encoder.texts
        known = sorted((INTERNED + i, texts.get(t, len(texts))) for i, t in enumerate(values.interned)
                       if isinstance(t, str))
        numbers = [k for k, _ in known] or [NONE]
        slots = [s for _, s in known] or [-1]
        return [f"{TEXTS}_NUMBER = np.array({numbers!r}, np.int64)", f"{TEXTS}_SLOT = np.array({slots!r}, np.int64)",
                "", "",
                "def text_slot(x):",
                f"    if x < {INTERNED}:",
                "        return -1",
                f"    for i in range(len({TEXTS}_NUMBER)):",
                f"        if {TEXTS}_NUMBER[i] == x:",
                f"            return {TEXTS}_SLOT[i]",
                "    return -1", "", ""]

    # ------------------------------------------------------------------------------------------------ the trick

    def _trick(self, at: dict[str, int]) -> list[str]:
        """The trick on the table and the last trick: from the running tricks step's progress (Shown), while the
        game waits for a decision or a deal of that step."""
        if not at:
            return []
        n, size = self.players, self.players + self.kinds
        lines = []
        for i, shown in self.tricks:
            play = [f"    if 0 <= s < {n}:", "        obs[g, a + s] = 1.0",
                    f"    if 0 <= c < {len(self.slots)} and {SLOTS}[c] >= 0:",
                    f"        obs[g, a + {n} + {SLOTS}[c]] = 1.0"]
            lines += [f"if p[{STEP}] == {i} and p[{STATUS}] != DONE:",
                      f"    played = p[{shown.played}]",
                      f"    size = p[{shown.size}]",
                      "    if played < size:",
                      "        for k in range(played):",
                      f"            a = {at['trick:0']} + k * {size}",
                      f"            s = p[{shown.seats} + k]",
                      f"            c = p[{shown.cards} + k]",
                      *("        " + line for line in play),
                      f"    if played >= size or p[{shown.number}] > 0:",
                      f"        seats = {shown.seats} if played >= size else {shown.last_seats}",
                      f"        cards = {shown.cards} if played >= size else {shown.last_cards}",
                      "        for k in range(size):",
                      f"            a = {at['last_trick:cards']} + k * {size}",
                      "            s = p[seats + k]",
                      "            c = p[cards + k]",
                      *("        " + line for line in play),
                      f"        w = p[{shown.winner}]",
                      f"        if 0 <= w < {n}:",
                      f"            obs[g, {at['last_trick:winner']} + w] = 1.0"]
        return lines

    def _tricks(self) -> list[tuple[int, Any]]:
        """The round's tricks steps (each index and its Shown); NotWritten for a tricks step another holds."""
        game, codes = self.game, self.machine.codes
        out = [(i, codes[i].shown) for i, step in enumerate(game.steps) if step.kind == "tricks"]
        held = [s for s in game.every_step() if s.kind == "tricks" and s not in game.steps]
        if held:
            raise NotWritten(f"the trick of tricks step {held[0].name!r}, which another step holds, in an observation")
        if any(shown is None for _, shown in out):
            raise NotWritten("a tricks step that does not say where its trick is, in an observation")
        return out

    def _fills(self) -> dict[str, str]:
        """For each value a pending step may fill in secret, the source that holds while one does (the round step
        running it waits: engine/observation.py hides the value, a seat value but from its own seat)."""
        by_name: dict[str, list[int]] = {}
        for i, step in enumerate(self.game.steps):
            fills = set()
            todo = [step]
            while todo:
                s = todo.pop()
                fills.add(s.search.filling())
                todo.extend(s.inner_steps())
            names = {f for f in fills if f}
            if len(names) > 1 or (names and len(fills) > 1):
                raise NotWritten(f"the values steps of round step {step.name!r} fill in secret, in an observation")
            for name in next(iter(names), frozenset()):
                by_name.setdefault(name, []).append(i)
        return {name: f"(p[{STATUS}] != DONE and ({' or '.join(f'p[{STEP}] == {i}' for i in steps)}))"
                for name, steps in by_name.items()}


