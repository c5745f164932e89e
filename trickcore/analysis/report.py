"""A comparison as one self-contained HTML file: tables and matplotlib plots as inline SVG,
no scripts, no fonts or styles fetched from anywhere, so it opens offline.

Text that comes from rules files (titles, names) is escaped; matplotlib reads no math in it.
"""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Sequence
from typing import Any

from ..language.errors import TrickcoreError
from .compare import Comparison, Row
from .measures import DECLARER, LENGTH, LOST, MEASURE, POINTS, SCORES, SHARE

COLOR_A = "#3b6ea5"
COLOR_B = "#e07b39"


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise TrickcoreError(
            "the HTML report needs matplotlib, which is not installed: "
            "pip install 'trickcore[plot]'"
        ) from None
    return matplotlib


def fmt(value: float, digits: int = 2) -> str:
    """A number for the tables ('-' when undefined)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def is_share(row: Row) -> bool:
    """Whether a row is a share of deals or matches (shown in per cent)."""
    return (
        row.section in (DECLARER, LOST)
        or row.label.startswith("= ")
        or row.label.startswith("matches ")
        or row.section.endswith(SHARE)
    )


def show(row: Row, value: float) -> str:
    """A row's value as text (per cent for shares)."""
    if math.isnan(value):
        return "-"
    return f"{100 * value:.1f}%" if is_share(row) else fmt(value)


def show_diff(row: Row) -> tuple[str, str]:
    """The difference B - A and its 95% interval as text ("-" where a side has no value)."""
    if math.isnan(row.diff):
        return "-", "-"
    if is_share(row):

        def signed(x: float) -> str:
            text = f"{100 * x:+.1f}"
            return "0.0" if text[1:] == "0.0" else text  # never "-0.0"

        unit = " pts"
    else:
        whole = max(abs(row.a), abs(row.b)) >= 100

        def signed(x: float) -> str:
            text = f"{x:+,.0f}" if whole else f"{x:+.2f}"
            return "0" + text[2:] if text[1:] in ("0", "0.00") else text  # never "-0.00"

        unit = ""
    ci = "-" if math.isnan(row.low) else f"[{signed(row.low)}, {signed(row.high)}]"
    return signed(row.diff) + unit, ci


class _Figures:
    """Makes matplotlib figures (no pyplot, no global state) and returns them as SVG."""

    def __init__(self) -> None:
        mpl = _matplotlib()
        from matplotlib.figure import Figure

        self.mpl = mpl
        self.Figure = Figure
        self.count = 0

    def new(self, width: float = 6.4, height: float = 3.4) -> Any:
        """A figure with one axes, styled for the report."""
        fig = self.Figure(figsize=(width, height), layout="constrained")
        ax = fig.add_subplot()
        ax.spines[["top", "right"]].set_visible(False)
        ax.grid(axis="y", color="#e6e6e6", linewidth=0.8)
        ax.set_axisbelow(True)
        return fig, ax

    def new_pair(self, width: float = 6.4, height: float = 3.4) -> Any:
        """A figure with two axes side by side, styled as `new`'s."""
        fig = self.Figure(figsize=(width, height), layout="constrained")
        axes = fig.subplots(1, 2, width_ratios=(3, 2))
        for ax in axes:
            ax.spines[["top", "right"]].set_visible(False)
            ax.grid(axis="y", color="#e6e6e6", linewidth=0.8)
            ax.set_axisbelow(True)
        return fig, axes

    def svg(self, fig: Any) -> str:
        """The figure as an inline `<svg>` element with ids of its own."""
        self.count += 1
        buf = io.StringIO()
        rc = {
            "svg.fonttype": "none",
            "svg.hashsalt": f"trickcore-figure-{self.count}",
            "font.family": "sans-serif",
            "font.size": 9,
            "text.parse_math": False,
        }
        with self.mpl.rc_context(rc):
            fig.savefig(buf, format="svg", metadata={"Date": None})
        text = buf.getvalue()
        text = text[text.index("<svg") :]
        text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, flags=re.S)
        return re.sub(r"<svg ", '<svg class="plot" role="img" ', text, count=1)


def _bars(
    figs: _Figures, rows: Sequence[Row], ylabel: str, percent: bool, names: tuple[str, str]
) -> str:
    """A and B side by side, each with its own 95% interval (left), and the paired
    difference B - A with its 95% interval (right): the interval that decides whether they
    differ (a difference whose interval excludes 0 is drawn in B's colour, else in grey)."""
    fig, (ax, paired) = figs.new_pair(8.0, 3.4)
    xs = range(len(rows))
    scale = 100 if percent else 1
    for offset, color, name, get in (
        (-0.2, COLOR_A, names[0], lambda r: (r.a, r.a_low, r.a_high)),
        (0.2, COLOR_B, names[1], lambda r: (r.b, r.b_low, r.b_high)),
    ):
        vals = [get(r) for r in rows]
        ys = [scale * v for v, _, _ in vals]
        err = [
            [0 if math.isnan(lo) else scale * (v - lo) for v, lo, _ in vals],
            [0 if math.isnan(hi) else scale * (hi - v) for v, _, hi in vals],
        ]
        ax.bar(
            [x + offset for x in xs],
            ys,
            width=0.4,
            color=color,
            label=name,
            yerr=err,
            capsize=3,
            error_kw={"elinewidth": 1, "ecolor": "#333333"},
        )
    ax.set_xticks(list(xs), [r.label for r in rows], rotation=30 if len(rows) > 5 else 0)
    ax.set_ylabel(ylabel)
    ax.axhline(0, color="#999999", linewidth=0.8)
    _legend(ax)
    for x, r in zip(xs, rows, strict=True):
        if math.isnan(r.diff):
            continue
        below = 0 if math.isnan(r.low) else scale * max(0.0, r.diff - r.low)
        above = 0 if math.isnan(r.high) else scale * max(0.0, r.high - r.diff)
        paired.errorbar(
            [x],
            [scale * r.diff],
            yerr=[[below], [above]],
            fmt="o",
            capsize=4,
            color=COLOR_B if r.significant else "#777777",
        )
    paired.set_xticks(list(xs), [r.label for r in rows], rotation=30 if len(rows) > 3 else 0)
    paired.set_xlim(-0.6, len(rows) - 0.4)
    paired.axhline(0, color="#333333", linewidth=0.8)
    paired.set_title("B \u2212 A, paired 95% interval", fontsize=9)
    paired.set_ylabel("difference (percentage points)" if percent else "difference")
    return figs.svg(fig)


def _legend(ax: Any) -> None:
    """The legend above the plot, where it never hides a bar."""
    ax.legend(frameon=False, ncols=2, loc="lower left", bbox_to_anchor=(0, 1.0), borderaxespad=0.2)


def _hist(
    figs: _Figures,
    a: Sequence[float],
    b: Sequence[float],
    xlabel: str,
    names: tuple[str, str],
    integer: bool = False,
) -> str:
    import numpy as np

    fig, ax = figs.new(6.4, 3.0)
    both = np.asarray(list(a) + list(b), dtype=float)
    if len(both) == 0:
        return ""
    lo, hi = float(both.min()), float(both.max())
    if integer and hi - lo <= 60:
        bins = np.arange(lo - 0.5, hi + 1.5, 1.0)
    else:
        bins = np.histogram_bin_edges(both, bins=30)
    for data, color, name in ((a, COLOR_A, names[0]), (b, COLOR_B, names[1])):
        ax.hist(data, bins=bins, color=color, alpha=0.35, label=name)
        ax.hist(data, bins=bins, color=color, histtype="step", linewidth=1.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("count")
    _legend(ax)
    return figs.svg(fig)


CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: #1d232a; background: #f4f5f7; margin: 0; }
main { max-width: 1020px; margin: 0 auto; padding: 28px 28px 48px; }
h1 { font-size: 25px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 0 0 10px; }
.sub { color: #5b6570; margin: 0 0 18px; }
.a { color: #3b6ea5; font-weight: 600; } .b { color: #e07b39; font-weight: 600; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin: 0 0 18px; }
.card { background: #fff; border-radius: 8px; padding: 10px 14px; flex: 1 1 auto;
  white-space: nowrap;
  box-shadow: 0 1px 2px rgba(0,0,0,.08); }
.card b { display: block; font-size: 20px; }
.card span { color: #5b6570; font-size: 13px; }
section { background: #fff; border-radius: 10px; padding: 18px 20px; margin: 0 0 18px;
  box-shadow: 0 1px 2px rgba(0,0,0,.08); }
.grid { display: grid; grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr); gap: 20px;
  align-items: start; }
table { border-collapse: collapse; width: 100%; font-size: 13.5px; }
th, td { padding: 5px 8px; border-bottom: 1px solid #eceef1; text-align: right;
  white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
th { color: #5b6570; font-weight: 600; }
tr.sig td { background: #fff6e0; }
tr.sig td.d { font-weight: 700; }
.note { background: #fff6e0; border-left: 4px solid #e0a030; padding: 8px 12px;
  border-radius: 4px; margin: 0 0 14px; }
svg.plot { width: 100%; height: auto; }
.foot { color: #5b6570; font-size: 12.5px; }
.changes { margin: 0; padding-left: 20px; } .changes li { margin: 2px 0; }
"""


def render_html(c: Comparison) -> str:
    """The comparison as a self-contained HTML document."""
    figs = _Figures()
    names = (c.a_name, c.b_name)
    esc = html.escape
    deals_a, deals_b = c.deals
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>trickcore compare: {esc(c.a_name)} vs {esc(c.b_name)}</title>",
        f"<style>{CSS}</style></head><body><main>",
        f'<h1><span class="a">{esc(c.a_title)}</span> vs '
        f'<span class="b">{esc(c.b_title)}</span></h1>',
        f'<p class="sub">A = <span class="a">{esc(c.a_name)}</span> '
        f'(hash {esc(c.a_hash[:12])}), B = <span class="b">{esc(c.b_name)}</span> '
        f"(hash {esc(c.b_hash[:12])}). Differences are B &minus; A with 95% intervals "
        "from a bootstrap over whole matches; highlighted rows differ.</p>",
        '<div class="cards">',
        _card(f"{c.matches:,}", "matches per variant"),
        _card(f"{deals_a:,} / {deals_b:,}", "deals played (A / B)"),
        _card(esc(c.bots), "bots"),
        _card(str(c.seed), "seed"),
        _card("duplicate" if c.paired else "independent", "deals"),
        _card(f"{c.seconds:.0f} s", "to run"),
        "</div>",
    ]
    if c.interrupted:
        parts.append(
            f'<p class="note">Interrupted: {c.matches} of {c.requested} matches finished; '
            "the figures are theirs.</p>"
        )
    for note in c.notes:
        parts.append(f'<p class="note">{esc(note)}</p>')
    parts.append(_changes(c))
    for section in c.sections:
        rows = c.section(section)
        plot = _section_plot(figs, c, section, rows, names)
        parts.append(f"<section><h2>{esc(section)}</h2>")
        table = _table(rows, c)
        if plot:
            parts.append(f'<div class="grid"><div>{table}</div><div>{plot}</div></div>')
        else:
            parts.append(table)
        parts.append("</section>")
        if section == SCORES and c.final_scores[0]:
            dist = _hist(figs, *c.final_scores, "final score of each seat", names)
            parts.append(
                "<section><h2>Distribution of final scores</h2>"
                f'<div class="grid"><div>{_quantiles(c)}</div><div>{dist}</div></div></section>'
            )
    parts.append(
        '<p class="foot">Made by <code>trickcore compare</code>. Each match is played under '
        "both variants from the same seed: the same deck orders and bots with the same seeds."
        "</p></main></body></html>"
    )
    return "\n".join(parts)


def significant_changes(c: Comparison) -> list[str]:
    """One line per quantity whose 95% interval of B - A excludes 0."""
    lines = []
    for r in c.rows:
        if r.significant:
            diff, ci = show_diff(r)
            what = r.section if r.label.startswith("all ") else f"{r.section}, {r.label}"
            lines.append(f"{what}: {show(r, r.a)} \u2192 {show(r, r.b)} ({diff}, 95% CI {ci})")
    return lines


def _changes(c: Comparison) -> str:
    lines = significant_changes(c)
    if not lines:
        body = "<p>No quantity differs at the 95% level in these matches.</p>"
    else:
        body = '<ul class="changes">' + "".join(f"<li>{html.escape(x)}</li>" for x in lines)
        body += "</ul>"
    return f"<section><h2>What changes</h2>{body}</section>"


def _card(value: str, label: str) -> str:
    return f'<div class="card"><b>{value}</b><span>{label}</span></div>'


def _table(rows: Sequence[Row], c: Comparison) -> str:
    esc = html.escape
    out = [
        "<table><thead><tr><th></th>"
        '<th class="a">A</th><th class="b">B</th><th>B &minus; A</th><th>95% CI</th>'
        "<th>n</th></tr></thead><tbody>"
    ]
    for r in rows:
        diff, ci = show_diff(r)
        cls = ' class="sig"' if r.significant else ""
        out.append(
            f"<tr{cls}><td>{esc(r.label)}</td><td>{show(r, r.a)}</td><td>{show(r, r.b)}</td>"
            f'<td class="d">{esc(diff)}</td><td>{esc(ci)}</td><td>{fmt(r.n_a, 0)}</td></tr>'
        )
    out.append("</tbody></table>")
    return "".join(out)


def _quantiles(c: Comparison) -> str:
    import numpy as np

    rows = []
    for q in (0.1, 0.25, 0.5, 0.75, 0.9):
        a = float(np.quantile(c.final_scores[0], q))
        b = float(np.quantile(c.final_scores[1], q))
        whole = max(abs(a), abs(b)) >= 100
        diff = f"{b - a:+,.0f}" if whole else f"{b - a:+.2f}"
        rows.append(
            f"<tr><td>{int(q * 100)}th percentile</td><td>{fmt(a)}</td><td>{fmt(b)}</td>"
            f"<td>{diff}</td></tr>"
        )
    return (
        '<table><thead><tr><th></th><th class="a">A</th><th class="b">B</th>'
        "<th>B &minus; A</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )


def _section_plot(
    figs: _Figures, c: Comparison, section: str, rows: list[Row], names: tuple[str, str]
) -> str:
    if section == DECLARER:
        shown = [r for r in rows if r.label != "all levels"]
        return _bars(figs, shown, "declarer makes the contract (%)", True, names) if shown else ""
    if section in (POINTS, LOST):
        label = "points per deal" if section == POINTS else "deals lost (%)"
        return _bars(figs, rows, label, section == LOST, names)
    if section == LENGTH:
        return _hist(figs, *c.deals_per_match, "deals per match", names, integer=True)
    if section.startswith(MEASURE):
        shares = all(is_share(r) for r in rows)
        return _bars(figs, rows, "share (%)" if shares else "mean per deal", shares, names)
    return ""


def write_html(c: Comparison, path: str) -> None:
    """Write the report to `path` (atomically: a temporary file, then a rename)."""
    import os
    import tempfile
    from pathlib import Path

    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise TrickcoreError(f"cannot write the report to {path}: no folder {folder}")
    text = render_html(c)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".report-", suffix=".html")
    try:
        # mkstemp makes a private file (0600): the report gets the usual permissions of a
        # new file instead (0666 less the umask, 0644 for the usual umask 022)
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise TrickcoreError(f"cannot write the report to {path}: {exc.strerror}") from None


def _umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    import os

    mask = os.umask(0o022)
    os.umask(mask)
    return mask
