"""The compact state a generated round runs over (issue 33, items 2 and 3; docs/architecture.md, "The compact
state, and the order of the work"): today only its layout and the packing of the engine's state into it and back
(layout.py), the lockstep harness the next steps are checked with."""
