"""``simulate --report FILE.html``: the summary as one self-contained HTML page with SVG plots (no plotting
library needed): seat advantage (win share per seat against the fair share), the distribution of each seat's
totals, and the game lengths."""

from __future__ import annotations

from html import escape
from typing import Any

from interpreter.harness.compare import (
    SHARE,
    Comparison,
    Difference,
    interval_text,
    p_text,
    unit_of_difference,
    value_text,
    verdict_word,
)
from interpreter.harness.simulate import Estimate, Summary, wilson

WIDTH, HEIGHT, PAD = 600, 250, 50
BINS = 20
_STYLE = ("<style>body{font-family:sans-serif;max-width:860px;margin:2em auto;color:#222}"
          "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right}"
          "th:first-child,td:first-child{text-align:left}svg{background:#fafafa;margin:6px 0}"
          "</style></head><body>")


def html_report(s: Summary) -> str:
    title = f"{s.game}: {s.players} players, {s.games} games, seed {s.seed}" + _partial_title(s.games, s.asked, "games")
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(title)}</title>", _STYLE,
             f"<h1>{escape(title)}</h1>", _partial(s.games, s.asked, "games")]
    if s.options:
        parts.append(f"<p>options: {escape(s.options_text())}</p>")
    agents = "turned one seat each game" if s.rotate else ", ".join(
        f"{n}: {a}" for n, a in zip(s.seats, s.agents))
    parts.append(f"<p>agents: {escape(agents)}. Every figure is a mean with its 95% confidence interval.</p>")
    parts.append("<h2>Seats</h2><table><tr><th>seat</th><th>mean score</th><th>win share</th></tr>")
    for name, score, wins in zip(s.seats, s.score, s.wins):
        parts.append(f"<tr><td>{escape(name)}</td><td>{escape(score.text())}</td>"
                     f"<td>{escape(wins.text(True))}</td></tr>")
    parts.append("</table>")
    parts.append("<h2>Seat advantage</h2><p>Win share per seat; the dashed line is the fair share "
                 f"(1/{s.players}).</p>")
    parts.append(_bars(s.seats, s.wins, 1 / s.players))
    parts.append(_legend([("bar", "#4a7ab0", "win share"), ("line", "#222", "95% interval (Wilson)"),
                          ("dash", "#c33", f"fair share 1/{s.players}")]))
    if len(s.by_agent) > 1 or s.rotate:
        parts.append("<h2>Agents</h2><table><tr><th>agent</th><th>mean score</th><th>win share</th>"
                     "<th>margin over the others</th></tr>")
        for a, e in s.by_agent.items():
            parts.append(f"<tr><td>{escape(a)}</td><td>{escape(e['score'].text())}</td>"
                         f"<td>{escape(e['win_share'].text(True))}</td><td>{escape(e['margin'].text())}</td></tr>")
        parts.append("</table>")
    parts.append("<h2>Final totals</h2>")
    low = min(min(t) for t in s.totals)
    high = max(max(t) for t in s.totals)
    for name, totals in zip(s.seats, s.totals):
        parts.append(f"<h3>{escape(name)}</h3>" + _histogram(totals, low, high, f"final total of {name} (points)"))
    parts.append(f"<h2>Game length</h2><p>rounds per game: {escape(s.rounds.text())}; "
                 f"ties: {escape(s.ties.text(True))} of games.</p>")
    parts.append(_histogram(s.lengths, min(s.lengths), max(s.lengths), "game length (rounds)"))
    if s.outcomes:
        parts.append(f"<h2>Round outcomes</h2><p>{s.rounds_played} rounds.</p><table>"
                     "<tr><th>round value</th><th>value</th><th>rounds</th><th>share (95% interval)</th></tr>")
        for name, counts in s.outcomes.items():
            for value, count in counts.most_common(12):
                low_share, high_share = wilson(count, s.rounds_played)
                parts.append(f"<tr><td>{escape(name)}</td><td>{escape(value)}</td><td>{count}</td>"
                             f"<td>{count / max(s.rounds_played, 1):.1%} ({low_share:.1%} to {high_share:.1%})"
                             "</td></tr>")
        parts.append("</table>")
    parts.append("<h2>Extreme games</h2><ul>")
    for what, (seed, value) in s.extremes.items():
        parts.append(f"<li>{escape(what)}: {escape(str(value))}, seed <code>{escape(seed)}</code></li>")
    parts.append("</ul></body></html>")
    return "\n".join(parts)


def _partial_title(games: int, asked: int | None, what: str) -> str:
    """What a report's title adds for a run a Ctrl-C stopped (``asked``: the games asked for; None: not stopped)."""
    return "" if asked is None else f" (partial: {games:,} of the {asked:,} {what} asked)"


def _partial(games: int, asked: int | None, what: str) -> str:
    """The paragraph at the top of a report of a run a Ctrl-C stopped, saying whose games its figures are of."""
    if asked is None:
        return ""
    return (f"<p style='border:2px solid #c33;padding:6px 10px'><strong>A partial run.</strong> It was interrupted "
            f"(Ctrl-C): every figure is of the {games:,} {escape(what)} played of the {asked:,} asked.</p>")


def _bars(names: list[str], values: list[Estimate], fair: float) -> str:
    top = max([v.high for v in values] + [fair]) * 1.1 or 1.0
    n = len(values)
    step = (WIDTH - 2 * PAD) / n
    out = [_svg_open()]

    def y(v: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * max(v, 0) / top

    for i, (name, v) in enumerate(zip(names, values)):
        x = PAD + i * step
        out.append(f"<rect x='{x + step * 0.2:.1f}' y='{y(v.mean):.1f}' width='{step * 0.6:.1f}' "
                   f"height='{HEIGHT - PAD - y(v.mean):.1f}' fill='#4a7ab0'/>")
        mid = x + step / 2
        out.append(f"<line x1='{mid:.1f}' x2='{mid:.1f}' y1='{y(v.low):.1f}' y2='{y(v.high):.1f}' "
                   "stroke='#222' stroke-width='2'/>")
        out.append(f"<text x='{mid:.1f}' y='{HEIGHT - PAD + 16}' text-anchor='middle' font-size='12'>"
                   f"{escape(name)}</text>")
        out.append(f"<text x='{mid:.1f}' y='{y(v.high) - 4:.1f}' text-anchor='middle' font-size='11'>"
                   f"{v.mean:.1%}</text>")
    out.append(f"<line x1='{PAD}' x2='{WIDTH - PAD}' y1='{y(fair):.1f}' y2='{y(fair):.1f}' stroke='#c33' "
               "stroke-dasharray='5,4'/>")
    out.append(_axes("seat", "win share (% of games)", f"{top:.0%}", "0%"))
    out.append("</svg>")
    return "".join(out)


def _histogram(values: list[Any], low: float, high: float, x_title: str) -> str:
    """A histogram of ``values`` from ``low`` to ``high``; ``x_title``: what they are, with their unit."""
    span = high - low
    bins = min(BINS, int(span) + 1) if all(isinstance(v, int) for v in values) else BINS
    width = span / bins if span else 1.0
    counts = [0] * bins
    for v in values:
        counts[min(int((v - low) / width), bins - 1) if span else 0] += 1
    top = max(counts) or 1
    step = (WIDTH - 2 * PAD) / bins
    out = [_svg_open()]
    for i, c in enumerate(counts):
        h = (HEIGHT - 2 * PAD) * c / top
        out.append(f"<rect x='{PAD + i * step + 1:.1f}' y='{HEIGHT - PAD - h:.1f}' width='{step - 2:.1f}' "
                   f"height='{h:.1f}' fill='#6a9f58'><title>{low + i * width:g} to {low + (i + 1) * width:g}: "
                   f"{c}</title></rect>")
    out.append(f"<text x='{PAD}' y='{HEIGHT - PAD + 16}' font-size='12'>{low:g}</text>")
    out.append(f"<text x='{WIDTH - PAD}' y='{HEIGHT - PAD + 16}' font-size='12' text-anchor='end'>{high:g}</text>")
    out.append(_axes(x_title, "games", str(top), "0"))
    out.append("</svg>")
    return "".join(out)


def _axes(x_title: str, y_title: str, y_top: str, y_zero: str) -> str:
    """The two axes of a plot, their titles (with units) and the y axis's ends."""
    bottom = HEIGHT - PAD
    return (f"<line x1='{PAD}' x2='{WIDTH - PAD}' y1='{bottom}' y2='{bottom}' stroke='#555'/>"
            f"<line x1='{PAD}' x2='{PAD}' y1='{PAD}' y2='{bottom}' stroke='#555'/>"
            f"<text x='{PAD - 6}' y='{PAD + 4}' font-size='11' text-anchor='end'>{escape(y_top)}</text>"
            f"<text x='{PAD - 6}' y='{bottom}' font-size='11' text-anchor='end'>{escape(y_zero)}</text>"
            f"<text x='{WIDTH / 2:.0f}' y='{HEIGHT - 8}' font-size='12' text-anchor='middle' "
            f"class='x-title'>{escape(x_title)}</text>"
            f"<text x='14' y='{HEIGHT / 2:.0f}' font-size='12' text-anchor='middle' class='y-title' "
            f"transform='rotate(-90 14 {HEIGHT / 2:.0f})'>{escape(y_title)}</text>")


def _legend(entries: list[tuple[str, str, str]]) -> str:
    """A plot's legend: (mark, colour, what it shows), the mark one of bar, line, dash."""
    marks = {"bar": "<rect x='0' y='2' width='14' height='10' fill='{c}'/>",
             "line": "<line x1='7' x2='7' y1='0' y2='14' stroke='{c}' stroke-width='2'/>",
             "dash": "<line x1='0' x2='14' y1='7' y2='7' stroke='{c}' stroke-dasharray='5,4'/>"}
    items = [f"<span style='margin-right:1.5em'><svg width='14' height='14'>{marks[m].format(c=c)}</svg> "
             f"{escape(text)}</span>" for m, c, text in entries]
    return "<p class='legend'>" + "".join(items) + "</p>"


def _svg_open() -> str:
    return f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{HEIGHT}' viewBox='0 0 {WIDTH} {HEIGHT}'>"


def compare_report(c: Comparison) -> str:
    """``compare --report FILE.html``: the comparison as one page: the verdict, every difference in a table, and
    each group's differences as intervals around 0 (a forest plot)."""
    title = f"{c.base} (base) with {c.variant} (variant)" + _partial_title(c.games, c.asked, "paired games")
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(title)}</title>", _STYLE,
             f"<h1>{escape(title)}</h1>", _partial(c.games, c.asked, "paired games"),
             f"<p>{c.players} players, {c.games:,} paired games, seed {escape(str(c.seed))}; "
             f"{escape(c.pairing())}; games that ended exactly alike: {c.identical:,}. Every difference is the "
             "variant's figure minus the base's, with its 95% interval "
             f"(of that figure alone). p is the p-value of no difference, adjusted by {escape(c.correction.title)} "
             f"for the {len(c.differences)} figures compared; a difference is real when p &lt; "
             f"{c.correction.rate:g}. Games: {escape(c.needed_assumes())}.</p>"]
    if c.forced:
        parts.append(f"<p><strong>Forced.</strong> {escape(c.forced)}.</p>")
    parts.append(f"<p><strong>Verdict.</strong> {escape(c.verdict())}</p>")
    groups: dict[str, list[Difference]] = {}  # one table and one plot each: a group's figures share a unit
    for d in c.differences:
        groups.setdefault(d.group, []).append(d)
    assert all(len({d.unit for d in diffs}) == 1 for diffs in groups.values()), "a group mixes units"
    for group, diffs in groups.items():
        parts.append(f"<h2>{escape(group[0].upper() + group[1:])}</h2>")
        parts.append("<table><tr><th>statistic</th><th>base</th><th>variant</th><th>difference (95% interval)"
                     "</th><th>p (adjusted)</th><th>verdict</th></tr>")
        for d in diffs:
            parts.append(f"<tr><td>{escape(d.name)}</td><td>{escape(value_text(d, d.base))}</td>"
                         f"<td>{escape(value_text(d, d.variant))}</td><td>{escape(interval_text(d))}</td>"
                         f"<td>{escape(p_text(d.adjusted))}</td><td>{escape(verdict_word(d))}</td></tr>")
        parts.append("</table>")
        parts.append(_forest(diffs))
    parts.append(_legend([("bar", "#c0504d", f"real: adjusted p below {c.correction.rate:g} by {c.correction.title}"),
                          ("bar", "#8a8a8a", "not real at this number of games"),
                          ("dash", "#222", "no difference (0)")]))
    parts.append("</body></html>")
    return "\n".join(parts)


def _forest(diffs: list[Difference]) -> str:
    """The differences of one unit as horizontal intervals around 0, one row each."""
    share = diffs[0].unit == SHARE
    scale = 100 if share else 1
    reach = max([abs(x) * scale for d in diffs for x in (d.low, d.high)] + [1e-9]) * 1.1
    row = 22
    height = PAD + row * len(diffs) + PAD
    left, right = 260, WIDTH - 20

    def x(v: float) -> float:
        return left + (right - left) * (v * scale + reach) / (2 * reach)

    out = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{height}' "
           f"viewBox='0 0 {WIDTH} {height}'>"]
    for i, d in enumerate(diffs):
        y = PAD + row * i + row / 2
        colour = "#c0504d" if d.real else "#8a8a8a"
        out.append(f"<text x='{left - 8}' y='{y + 4:.1f}' font-size='11' text-anchor='end'>{escape(d.name)}</text>")
        out.append(f"<line x1='{x(d.low):.1f}' x2='{x(d.high):.1f}' y1='{y:.1f}' y2='{y:.1f}' stroke='{colour}' "
                   "stroke-width='3'/>")
        out.append(f"<circle cx='{x(d.difference):.1f}' cy='{y:.1f}' r='4' fill='{colour}'/>")
    bottom = height - PAD
    out.append(f"<line x1='{x(0):.1f}' x2='{x(0):.1f}' y1='{PAD - 6}' y2='{bottom}' stroke='#222' "
               "stroke-dasharray='5,4'/>")
    out.append(f"<line x1='{left}' x2='{right}' y1='{bottom}' y2='{bottom}' stroke='#555'/>")
    unit = unit_of_difference(diffs[0])
    for v in (-reach, 0.0, reach):
        out.append(f"<text x='{x(v / scale):.1f}' y='{bottom + 14}' font-size='11' text-anchor='middle'>"
                   f"{v:+.3g}</text>")
    out.append(f"<text x='{(left + right) / 2:.0f}' y='{height - 8}' font-size='12' text-anchor='middle' "
               f"class='x-title'>difference, variant minus base ({escape(unit)})</text>")
    out.append("</svg>")
    return "".join(out)
