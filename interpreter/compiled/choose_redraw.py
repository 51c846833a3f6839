"""A choose step's choices a seat has not seen, drawn again on a compiled search's sample (search_template.py's
``search_redraw``): a choice made by all at once, in secret (engine/steps/choose_search.py's ``redraw``)."""

from __future__ import annotations

from typing import Any

from interpreter.compiled.choose_choices import LEFT, ORDER, PICKED, POS
from interpreter.compiled.steps import ARRAYS


def redraw(c: Any) -> list[str]:
    """``PREFIX_redraw(arrays, p, me)`` of the step ``c`` writes (choose_template.py): on a sample, the seats
    before ``POS`` in the order but ``me`` (those that chose in secret) pick again at random among what they may
    pick (``PREFIX_choices``, as for their turn; the values set as ``PREFIX_take`` sets them), as
    engine/steps/choose_search.py's ``redraw`` draws them (search_template.py's samples). Written only where no
    seat may pass (a pass is no pick, which the order does not tell apart) and no history is kept."""
    if not c.step.search.redrawn() or c.can_pass != 0 or c.keeps_history:
        return []
    left, picked, pos = c.at(LEFT), c.at(PICKED), c.at(POS)
    return [f"def {c.name}_redraw({ARRAYS}, p, me):",
            f"    was = {left}",
            f"    held = {picked}",
            f"    for i in range({pos}):",
            f"        seat = p[{c.w.base + ORDER} + i]",
            "        if seat == me:",
            "            continue",
            f"        {left} = 1",
            f"        {picked} = 0",
            "        mark = h[0]",
            f"        out_at, n = {c.name}_choices({ARRAYS}, p, seat)",
            "        if n > 0:",
            "            x = h[out_at + int(np.random.random() * n)]",
            *("        " + line for line in c.sets()),
            "        h[0] = mark",
            f"    {left} = was",
            f"    {picked} = held",
            ""]
