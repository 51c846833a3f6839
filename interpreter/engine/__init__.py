"""The generic game engine: cards, state, steps, and the play loop."""
