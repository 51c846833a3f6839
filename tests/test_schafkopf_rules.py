"""Schafkopf (games/schafkopf.yaml) by the Schafkopfordnung of the Bayerischer Schafkopf-Verein: the order of the
cards in each game (1.4), the Spielansage (2.2), the called Sau and its hidden partner (2.3), Kontra and Re (4.2) and
the tariff (4.1) with the Verein's worked examples. North, East, South and West sit in that order; West deals, so
North is forehand: asked first and leading first."""

from __future__ import annotations

from interpreter.engine.observation import observe

from .conftest import at_step, card, game_of, play

N, E, S, W = range(4)
AUGEN = {"Sau": 11, "10": 10, "König": 4, "Ober": 3, "Unter": 2, "9": 0, "8": 0, "7": 0}
FARBEN = ["Eichel", "Gras", "Herz", "Schellen"]
DECK = [f"{f} {r}" for f in FARBEN for r in AUGEN]
NOTHING = {"gespielt": {s: [] for s in range(4)}}


def _game(**options):
    return game_of("schafkopf", 4, **options)


def _winner(game, cards: list[str], spiel: str, trumpf: str | None) -> int:
    """Who wins a last trick of these four cards (North leads, each seat holds its one card)."""
    state = at_step(game, "stiche", {s: [c] for s, c in enumerate(cards)}, dealer=W, spiel=spiel, trumpf=trumpf,
                    spieler=N, gerufen="Gras" if spiel == "Sauspiel" else None, gesucht=False, seat_values=NOTHING)
    state.notes = []
    play(game, state, *cards)
    return ["North", "East", "South", "West"].index([n for n in state.notes if n.startswith("Trick ")][-1]
                                                    .split("-> ")[1].split()[0])


# ---------------------------------------------------------------- 1.4 the order of the cards

HERREN = [f"{f} Ober" for f in FARBEN] + [f"{f} Unter" for f in FARBEN]


def test_the_order_of_the_trumps_and_the_suits_in_each_game():
    game = _game()
    orders = {("Sauspiel", "Herz"): HERREN + [f"Herz {r}" for r in ["Sau", "10", "König", "9", "8", "7"]],
              ("Farbsolo", "Gras"): HERREN + [f"Gras {r}" for r in ["Sau", "10", "König", "9", "8", "7"]],
              ("Wenz", None): [f"{f} Unter" for f in FARBEN]}
    for (spiel, trumpf), trumps in orders.items():
        low = "Schellen 7" if trumpf != "Schellen" else "Eichel 7"
        for higher, lower in zip(trumps, trumps[1:]):         # each trump beats the next lower one
            assert _winner(game, [lower, higher, "Eichel 9", low], spiel, trumpf) == E, (spiel, higher, lower)
        assert _winner(game, ["Eichel Sau", trumps[-1], "Eichel 10", "Eichel König"], spiel, trumpf) == E
    # in the Wenz the Ober stay in their suits, between the König and the 9, and Herz is a plain suit
    assert _winner(game, ["Eichel 9", "Eichel Ober", "Eichel 8", "Herz Sau"], "Wenz", None) == E
    assert _winner(game, ["Eichel Ober", "Eichel König", "Eichel 8", "Herz Sau"], "Wenz", None) == E
    # a plain card that does not follow never wins; in a Sauspiel Herz is trumps, in a Gras-Solo a plain suit
    assert _winner(game, ["Eichel 7", "Schellen Sau", "Eichel 8", "Schellen 9"], "Sauspiel", "Herz") == S
    assert _winner(game, ["Schellen 7", "Herz Sau", "Schellen 8", "Eichel Sau"], "Farbsolo", "Gras") == S


# ---------------------------------------------------------------- 2.2 the Spielansage

HANDS = {N: ["Eichel Ober", "Gras Ober", "Herz Ober", "Herz Sau", "Herz 10", "Gras 7", "Schellen Sau", "Eichel Sau"],
         E: ["Schellen Ober", "Eichel Unter", "Herz König", "Herz 9", "Eichel 10", "Eichel König", "Eichel 9",
             "Eichel 8"],
         S: ["Gras Unter", "Herz Unter", "Gras Sau", "Gras 10", "Gras König", "Gras 9", "Gras 8", "Schellen 7"],
         W: ["Schellen Unter", "Herz 8", "Herz 7", "Eichel 7", "Schellen 10", "Schellen König", "Schellen 9",
             "Schellen 8"]}


def test_weiter_is_final_and_the_higher_game_wins_and_forehand_goes_first_among_equals():
    game = _game()
    state = at_step(game, "spielansage", HANDS, dealer=W)
    assert game.current(state) == N and game.labels(state) == ["says weiter", "Sauspiel", "Wenz", "Farbsolo"]
    play(game, state, "Sauspiel")
    assert game.labels(state) == ["says weiter", "Wenz", "Farbsolo"]   # East: only a higher game
    play(game, state, "says weiter", "Wenz", "says weiter")             # South names a Wenz
    assert game.current(state) == N and game.labels(state) == ["says weiter", "Wenz", "Farbsolo"]
    play(game, state, "Wenz")                                           # forehand may take an equal game
    assert game.current(state) == S and game.labels(state) == ["says weiter", "Farbsolo"]   # East is not asked
    play(game, state, "says weiter")
    assert state.vars["spieler"] == N and state.vars["spiel"] == "Wenz"
    assert state.teams == [0, 1, 1, 1] and state.team_known is None    # one against three, known to all


def test_a_sauspiel_calls_a_sau_the_caller_lacks_of_a_suit_he_holds_never_the_herz_sau():
    game = _game()
    state = at_step(game, "spielansage", HANDS, dealer=W)
    play(game, state, "Sauspiel", "says weiter", "says weiter", "says weiter")
    assert game.labels(state) == ["Gras-Sau"]                          # he holds the Eichel- and the Schellen-Sau
    gesperrt = dict(HANDS)                                             # East holds the three Säue: no Sauspiel
    gesperrt[N] = HANDS[N][:6] + ["Eichel 10", "Eichel König"]
    gesperrt[E] = HANDS[E][:4] + ["Eichel Sau", "Gras Sau", "Schellen Sau", "Eichel 8"]
    gesperrt[S] = ["Eichel 9"] + HANDS[S][:2] + HANDS[S][3:]
    state = at_step(game, "spielansage", gesperrt, dealer=W)
    play(game, state, "says weiter")
    assert game.labels(state) == ["says weiter", "Wenz", "Farbsolo"]
    play(game, state, "says weiter", "says weiter", "Sauspiel")        # West, the last one left, calls
    assert game.labels(state) == ["Eichel-Sau", "Schellen-Sau"]        # he holds Herz, but Herz is trumps


def test_when_everyone_says_weiter_the_cards_are_thrown_in_or_a_ramsch_is_played():
    game = _game()
    state = at_step(game, "spielansage", HANDS, dealer=W)
    play(game, state, *["says weiter"] * 4)
    assert state.round_results[-1] == [0, 0, 0, 0] and state.vars["spiel"] is None
    game = _game(ramsch=True)
    state = at_step(game, "spielansage", HANDS, dealer=W)
    play(game, state, *["says weiter"] * 4)
    assert state.vars["spiel"] == "Ramsch" and game.current(state) == N and "Herz 10" in game.labels(state)


# ---------------------------------------------------------------- 2.3 the called Sau, 4.2 Kontra and Re

def _sauspiel(game, hands=HANDS, kontra: bool = True):
    """North plays a Sauspiel with the Gras-Sau: at the Kontra, or (``kontra`` false) with none said, at the lead."""
    state = at_step(game, "trumpffarbe", hands, dealer=W, spiel="Sauspiel", spieler=N, stufe=1, gerufen="Gras")
    if not kontra:
        play(game, state, "no Kontra", "no Kontra", "no Kontra")
    return state


def test_the_holder_of_the_called_sau_is_a_hidden_partner_until_the_sau_is_played():
    game = _game()
    state = _sauspiel(game)
    assert state.teams == [0, 1, 0, 1]                                 # the truth: South holds the Gras-Sau
    assert observe(game, state, E)["teams"] == [["North"], ["East"]]
    assert observe(game, state, N)["teams"] == [["North"], []]         # the caller does not know his partner
    assert observe(game, state, S)["teams"] == [["North", "South"], ["East", "West"]]   # he counts
    # Kontra: every one but the player is asked, the same way; the partner may not say it
    assert game.current(state) == E and game.labels(state) == ["Kontra", "no Kontra"]
    play(game, state, "no Kontra")
    assert game.current(state) == S and game.labels(state) == ["no Kontra"]
    play(game, state, "no Kontra", "Kontra")                           # West says Kontra: a defender shows
    assert observe(game, state, N)["teams"] == [["North"], ["West"]] and state.vars["kontra"] == W
    assert game.current(state) == N and game.labels(state) == ["Re", "no Re"]
    play(game, state, "no Re")
    assert [game.current(state), game.labels(state)] == [E, ["no Re"]]
    play(game, state, "no Re")
    assert [game.current(state), game.labels(state)] == [S, ["Re", "no Re"]]
    play(game, state, "no Re", "Gras 7", "Eichel 8")                   # nobody says Re; North leads Gras
    assert game.labels(state) == ["Gras Sau"]                          # 2.3: the Sau must be played when sought
    play(game, state, "Gras Sau")
    assert observe(game, state, E)["teams"] == [["North", "South"], ["East", "West"]]


def test_the_called_sau_is_not_thrown_off_and_its_suit_is_led_only_with_it_unless_its_holder_runs_away():
    game = _game()
    state = _sauspiel(game, kontra=False)
    play(game, state, "Eichel Sau", "Eichel 8")                        # South has no Eichel, but the Gras-Sau
    assert game.labels(state) == ["Gras Unter", "Herz Unter", "Gras 10", "Gras König", "Gras 9", "Gras 8",
                                  "Schellen 7"]                        # stays until Gras is led (or the last trick)
    state = _sauspiel(game, kontra=False)
    play(game, state, "Herz Sau", "Herz König", "Herz Unter", "Herz 8")   # South takes it and leads
    assert game.current(state) == S and "Gras 8" in game.labels(state)    # five Gras: he may run away
    three = dict(HANDS)                                                # South with three Gras only
    three[S] = ["Gras Unter", "Herz Unter", "Gras Sau", "Gras 10", "Gras 9", "Schellen 7", "Eichel 7", "Schellen 8"]
    three[W] = ["Schellen Unter", "Herz 8", "Herz 7", "Gras König", "Schellen 10", "Schellen König", "Schellen 9",
                "Gras 8"]
    state = _sauspiel(game, three, kontra=False)
    play(game, state, "Herz Sau", "Herz König", "Herz Unter", "Herz 8")
    labels = game.labels(state)
    assert "Gras Sau" in labels and "Gras 10" not in labels and "Gras 9" not in labels


# ---------------------------------------------------------------- 4.1 the tariff

def _piles(eyes: dict[int, int]) -> dict[int, list[str]]:
    """Won piles worth exactly ``eyes`` for each seat, from the whole deck."""
    pool = sorted(DECK, key=lambda lab: -AUGEN[lab.split()[1]])
    out = {}
    for seat, need in eyes.items():
        pile = []
        for label in list(pool):
            worth = AUGEN[label.split()[1]]
            if 0 < worth <= need and need - worth != 1:
                pile.append(label)
                pool.remove(label)
                need -= worth
        assert need == 0, (seat, need)
        out[seat] = pile
    return out


def _score(spiel: str, partei: set[int], eyes: dict[int, int], tricks: dict[int, int],
           laufende: list[str] | None = None, kontra=None, re=None, trumpf="Herz", **options) -> list[int]:
    """The round's scores: North plays ``spiel`` with ``partei``, whose won piles are worth ``eyes``; the trumps of
    ``laufende`` were played by the party (North), the other trumps by the defenders (East); by default the party
    held the second-highest trump only (no Laufende)."""
    game = _game(**options)
    trumpf = None if spiel == "Wenz" else trumpf
    state = game.new_state()
    for s, n in tricks.items():
        state.counters["tricks"][s] = n
    gespielt = {s: [] for s in range(4)}
    top = [f"{f} Unter" for f in FARBEN] if spiel == "Wenz" else HERREN + [f"{trumpf} {r}" for r in AUGEN
                                                                            if r not in ("Ober", "Unter")]
    laufende = [top[1]] if laufende is None else laufende
    taken: set[int] = set()
    gespielt[N] = [card(game, c, taken) for c in laufende]
    gespielt[E] = [card(game, c, taken) for c in top if c not in laufende]
    state = at_step(game, "score", {s: [] for s in range(4)}, state=state, zones={"won": _piles(eyes)},
                    spiel=spiel, spieler=N, trumpf=trumpf, gerufen="Gras" if spiel == "Sauspiel" else None,
                    kontra=kontra, re=re, teams=[0 if s in partei else 1 for s in range(4)],
                    seat_values={"gespielt": gespielt})
    return state.round_results[-1]


def test_the_verein_s_tariff_a_sauspiel_10_schneider_20_schwarz_30_paid_by_each_loser_to_each_winner():
    assert _score("Sauspiel", {N, S}, {N: 61, E: 59}, {N: 4, E: 4}) == [10, -10, 10, -10]
    assert _score("Sauspiel", {N, S}, {N: 60, E: 60}, {N: 4, E: 4}) == [-10, 10, -10, 10]   # 60 is lost
    assert _score("Sauspiel", {N, S}, {N: 90, E: 30}, {N: 6, E: 2}) == [20, -20, 20, -20]   # Schneider
    assert _score("Sauspiel", {N, S}, {N: 89, E: 31}, {N: 6, E: 2}) == [10, -10, 10, -10]   # schneiderfrei
    assert _score("Sauspiel", {N, S}, {N: 30, E: 90}, {N: 1, E: 7}) == [-20, 20, -20, 20]   # the players Schneider
    assert _score("Sauspiel", {N, S}, {N: 120, E: 0}, {N: 8}) == [30, -30, 30, -30]         # Schwarz


def test_the_verein_s_tariff_a_solo_50_from_each_of_three_schneider_60_schwarz_70():
    assert _score("Farbsolo", {N}, {N: 61, E: 59}, {N: 4, E: 4}, trumpf="Eichel") == [150, -50, -50, -50]
    assert _score("Farbsolo", {N}, {N: 95, E: 25}, {N: 6, E: 2}, trumpf="Eichel") == [180, -60, -60, -60]
    assert _score("Wenz", {N}, {N: 120, E: 0}, {N: 8}) == [210, -70, -70, -70]
    assert _score("Wenz", {N}, {N: 50, E: 70}, {N: 3, E: 5}) == [-150, 50, 50, 50]
    assert _score("Wenz", {N}, {N: 50, E: 70}, {N: 3, E: 5}, solo=20) == [-60, 20, 20, 20]   # the tariff an option


def test_laufende_count_from_three_in_a_sauspiel_or_solo_and_from_two_in_a_wenz_for_either_party():
    even = ({N: 61, E: 59}, {N: 4, E: 4})
    assert _score("Sauspiel", {N, S}, *even, laufende=["Eichel Ober", "Gras Ober"]) == [10, -10, 10, -10]
    assert _score("Sauspiel", {N, S}, *even, laufende=HERREN[:3]) == [40, -40, 40, -40]
    assert _score("Sauspiel", {N, S}, *even, laufende=HERREN[:3] + ["Eichel Unter"]) == [40, -40, 40, -40]
    assert _score("Sauspiel", {N, S}, *even, laufende=HERREN[4:]) == [50, -50, 50, -50]     # "ohne vier"
    assert _score("Farbsolo", {N}, *even, laufende=HERREN + ["Gras Sau"], trumpf="Gras") == [3 * 140] + [-140] * 3
    assert _score("Wenz", {N}, *even, laufende=["Eichel Unter", "Gras Unter"]) == [210, -70, -70, -70]
    assert _score("Wenz", {N}, *even, laufende=["Eichel Unter", "Herz Unter"]) == [150, -50, -50, -50]


def test_kontra_doubles_the_game_and_re_doubles_it_again():
    even = ({N: 90, E: 30}, {N: 6, E: 2})
    assert _score("Sauspiel", {N, S}, *even, kontra=E) == [40, -40, 40, -40]
    assert _score("Sauspiel", {N, S}, *even, kontra=E, re=S) == [80, -80, 80, -80]
    assert _score("Wenz", {N}, {N: 40, E: 80}, {N: 2, E: 6}, kontra=W, re=N) == [-600, 200, 200, 200]


def test_in_a_ramsch_the_most_augen_lose_and_each_loser_pays_each_other_player():
    assert _score("Ramsch", set(), {N: 20, E: 50, S: 30, W: 20}, {N: 2, E: 3, S: 2, W: 1}) == [10, -30, 10, 10]
    assert _score("Ramsch", set(), {N: 20, E: 40, S: 40, W: 20}, {N: 2, E: 3, S: 2, W: 1}) == [20, -20, -20, 20]
