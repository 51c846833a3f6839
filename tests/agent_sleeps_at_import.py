"""An agent of one's own whose module never finishes loading (tests/test_own_agents.py)."""

import time

time.sleep(10**6)


class Agent:
    def act(self, view):
        return view.legal[0]
