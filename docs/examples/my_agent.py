"""An agent of your own for Trickbook (docs/agents.md): it plays the first card it may play, as it holds its
hand, and makes any other choice at random.

    trickbook play hearts -p 4 --human 1 --agents docs/examples/my_agent.py:FirstCard
    trickbook simulate hearts -p 4 -n 100 --agents docs/examples/my_agent.py:FirstCard,random --rotate
"""

import random


class FirstCard:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def act(self, view):
        """``view``: the seat, the step, the legal actions (ids, kinds, values, labels) and what the seat sees."""
        cards = [a for a in view.actions if a["kind"] == "card"]
        if not cards:
            return self.rng.choice(view.legal)  # a bid, a pass, a choice: any legal action id
        hand = view.observation["zones"]["hand"][view.seat_name]  # in the order people hold them
        return min(cards, key=lambda a: hand.index(a["value"]) if a["value"] in hand else len(hand))["id"]
