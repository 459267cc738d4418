"""``shengji analyze RECORD``: where a seat lost points in a recorded match, as a table
(rich), JSON (``--json``) and a plot of the running evaluation (``--plot``); and the
terminal's ``review`` at the score sheet. The analysis itself is :mod:`shengji.analysis`."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, JustifyMethod
from rich.table import Table

from shengji.analysis import (
    BUDGET,
    CANDIDATES,
    CONFIDENCE,
    IN_PROGRESS,
    MARKS,
    REVIEW_BUDGET,
    Analysis,
    AnalysisError,
    RoundAnalysis,
    analyze,
)
from shengji.arguments import (
    SEED_LIMIT,
    clashing_files,
    output_file_problem,
    plot_problem,
    report,
    whole_number,
)
from shengji.game.match import Match
from shengji.game.record import Record, RecordError, load_record

STYLES = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}
"""How each mark is shown."""


def add_analyze_arguments(cmd: argparse.ArgumentParser) -> None:
    """The arguments of ``shengji analyze``."""
    cmd.formatter_class = argparse.RawDescriptionHelpFormatter
    cmd.description = (
        "Judge every decision of one seat in the finished rounds of a record: the move\n"
        "played against the best a search finds, from what the seat knew then.")
    cmd.epilog = thresholds_text() + (
        "\nCost: the mean of (best - played) in levels (a tenth of a level per 10 points) "
        "over as many sampled deals again as chose the best, with its standard error.")
    cmd.add_argument("record", metavar="RECORD", help="a record (shengji play --record, "
                                                      "shengji simulate --records)")
    cmd.add_argument("--seat", type=whole_number(0, 11), default=None,
                     help="the seat analysed (default: the human seat, else 0)")
    cmd.add_argument("--budget", type=whole_number(1, 4096), default=BUDGET,
                     help=f"sampled deals per decision (default {BUDGET})")
    cmd.add_argument("--seed", type=whole_number(0, SEED_LIMIT - 1), default=0,
                     help="seed of the sampled deals (the same seed, the same analysis)")
    cmd.add_argument("--round", type=whole_number(1), action="append", dest="rounds",
                     metavar="N", help="analyse round N only (repeatable; default: every "
                                       "finished round)")
    cmd.add_argument("--candidates", type=whole_number(1, 20), default=CANDIDATES,
                     help=f"the most moves compared with the one played (default "
                          f"{CANDIDATES})")
    cmd.add_argument("--open", action="store_true", dest="open_hands",
                     help="judge with every hand as the finished round revealed it (the "
                          "actual deal), not what the seat knew")
    cmd.add_argument("--json", help="write the analysis as JSON to this file")
    cmd.add_argument("--plot", help="draw the running evaluation to this image, e.g. "
                                    "review.png (needs matplotlib: pip install "
                                    "\"shengji[plot]\")")


def thresholds_text(open_hands: bool = False) -> str:
    """The marks and their thresholds, in words (with open hands every cost is exact)."""
    marks = ", ".join(f"{name} from {low:g}" for name, low in reversed(MARKS))
    if open_hands:
        return f"Marks: {marks} levels lost."
    return (f"Marks: {marks} levels lost (where the cost is more than {CONFIDENCE:g} "
            "standard errors).")


def default_seat(record: Record) -> int:
    """The seat analysed when none is named: the one human seat, else seat 0."""
    kinds = record.kinds or ()
    humans = [s for s, kind in enumerate(kinds) if kind == "human"]
    return humans[0] if len(humans) == 1 else 0


def analyze_main(args: argparse.Namespace) -> int:
    """Run ``shengji analyze``."""
    problems = [p for p in (
        output_file_problem("--json", args.json) if args.json is not None else None,
        plot_problem(args.plot) if args.plot is not None else None) if p]
    problems += clashing_files([("RECORD", args.record)],
                               [("--json", args.json), ("--plot", args.plot)])
    try:
        record = load_record(args.record)
    except RecordError as error:
        problems.insert(0, str(error))
        return report("analyze", problems)
    seat = default_seat(record) if args.seat is None else args.seat
    if seat >= record.rules.players:
        problems.append(f"--seat {seat}: the record seats {record.rules.players} players "
                        f"(0..{record.rules.players - 1})")
    if problems:
        return report("analyze", problems)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    errors = Console(stderr=True)
    try:
        with Progress(TextColumn("judging"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("decisions"), console=errors, transient=True,
                      disable=not errors.is_terminal) as bar:
            task = bar.add_task("judging", total=None)
            analysis = analyze(record, seat, budget=args.budget, seed=args.seed,
                               rounds=args.rounds, open_hands=args.open_hands,
                               candidates=args.candidates,
                               progress=lambda done, total: bar.update(task, completed=done,
                                                                       total=total))
    except (AnalysisError, RecordError) as error:
        return report("analyze", [str(error)])
    console = Console(highlight=False)
    show(console, analysis, record.names)
    failed = []
    for flag, path, write, what in (("--json", args.json, _write_json, "the analysis (JSON)"),
                                    ("--plot", args.plot, _write_plot, "the plot")):
        if not path:
            continue
        why = write(Path(path), analysis)
        if why:
            failed.append(f"{flag} {path}: cannot write it: {why}")
        else:
            console.print(f"wrote {what} to {path}", markup=False)
    return report("analyze", failed) if failed else 0


def _write_json(path: Path, analysis: Analysis) -> str | None:
    from shengji.game.files import write_text_atomic

    try:
        write_text_atomic(path, analysis.to_json())
    except OSError as error:
        return error.strerror or str(error)
    return None


def _write_plot(path: Path, analysis: Analysis) -> str | None:
    from shengji.game.files import write_bytes_atomic

    try:
        with tempfile.TemporaryDirectory() as aside:  # drawn aside, then written atomically
            drawn = Path(aside) / f"plot{path.suffix}"
            plot(analysis, drawn)
            write_bytes_atomic(path, drawn.read_bytes())
    except OSError as error:
        return error.strerror or str(error)
    return None


# -- output -------------------------------------------------------------------------------


def _seat_name(seat: int, names: Sequence[str] | None) -> str:
    return f"seat {seat}" + (f" ({names[seat]})" if names and names[seat] else "")


def _when(kind: str, trick: int | None) -> str:
    return f"t{trick} {kind}" if trick is not None else kind


def _figure(value: float) -> str:
    text = f"{value:+.2f}"
    return "0.00" if text[1:] == "0.00" else text


def table(rnd: RoundAnalysis) -> Table:
    """One round's decisions as a table."""
    out = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("#", "right"), ("when", "left"), ("played", "left"), ("best found", "left"),
        ("cost", "right"), ("±", "right"), ("pts", "right"), ("±", "right"), ("after", "right"),
        ("mark", "left"))
    for name, justify in columns:
        out.add_column(name, justify=justify)
    for i, d in enumerate(rnd.decisions, 1):
        best = "=" if d.best == d.played else d.best
        style = STYLES.get(d.mark or "", "")
        out.add_row(str(i), _when(d.kind, d.trick), d.played, best,
                    f"{d.cost:.2f}" if d.worlds else "?", f"{d.error:.2f}",
                    f"{d.cost_points:.0f}", f"{d.points_error:.0f}", _figure(d.value),
                    d.mark or "", style=style)
    return out


def _plural(word: str, count: int) -> str:
    if count == 1:
        return word
    return word[:-1] + "ies" if word.endswith("y") else word + "s"


def summary(rnd: RoundAnalysis, seat: int) -> str:
    """One round's marks and total cost in a sentence."""
    counts = ", ".join(f"{rnd.marked(name)} {_plural(name, rnd.marked(name))}"
                       for name, _ in MARKS)
    unsampled = sum(not d.worlds for d in rnd.decisions)
    judged = len(rnd.decisions)
    text = (f"{judged} {_plural('decision', judged)} judged: {counts}; {rnd.total:.2f} levels lost "
            f"in all (the clear costs). The round went {_figure(rnd.outcome)} for "
            f"seat {seat}'s side" + (" (a redeal)" if rnd.redeal else
                                     " (levels, with a tenth per 10 points)") + ".")
    if unsampled:
        text += f" {unsampled} without a consistent deal (cost ?)."
    if rnd.skipped:
        text += (f" {rnd.skipped} {_plural('decision', rnd.skipped)} not the seat's own "
                 f"left out.")
    return text


def show(console: Console, analysis: Analysis, names: Sequence[str] | None = None) -> None:
    """Print the analysis: per round a heading, the table and a summary; the marks."""
    who = _seat_name(analysis.seat, names)
    for rnd in analysis.rounds:
        console.print("")
        console.print(f"Round {rnd.number}, {who}: {analysis.mode}.", style="bold",
                      markup=False)
        if rnd.decisions:
            console.print(table(rnd))
        console.print(summary(rnd, analysis.seat), markup=False)
    if analysis.open_hands:
        cost = ("Cost: best − played in the actual deal, in levels (a tenth per 10 points), "
                "exact; pts: its points; after: the levels after the move played.")
    else:
        cost = ("Cost: mean of best − played over fresh deals, in levels (a tenth per 10 "
                "points); ±: its standard error; pts: its points (± theirs); after: the "
                "expected levels after the move played.")
    console.print(thresholds_text(analysis.open_hands) + " " + cost, markup=False)
    if analysis.in_progress is not None:
        console.print(f"Round {analysis.in_progress} is in progress: {IN_PROGRESS}.",
                      markup=False)


def review(match: Match, seat: int, console: Console, *, names: Sequence[str] | None = None,
           budget: int = REVIEW_BUDGET) -> None:
    """The terminal's ``review``: the analysis of ``seat`` in the match's last finished
    round, printed (a few seconds at the default budget)."""
    if not match.results:
        console.print("No round has finished yet: nothing to review.", markup=False)
        return
    console.print(f"Reviewing your decisions ({budget} sampled deals each, and as many "
                  "again to measure the costs)...", markup=False)
    analysis = analyze(match, seat, budget=budget, seed=match.seed,
                       rounds=[len(match.results)])
    show(console, analysis, names)


def figure(analysis: Analysis) -> Any:
    """The running evaluation as a matplotlib figure (needs matplotlib): per round, the
    seat's expected levels after each of its decisions, with a band of one standard
    error and the marked decisions shown."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(figsize=(9, 4.5))
    colours = {"blunder": "tab:red", "mistake": "tab:orange", "inaccuracy": "gold"}
    shown: set[str] = set()  # the marks given a legend entry
    for rnd in analysis.rounds:
        xs = list(range(1, len(rnd.decisions) + 1))
        ys = [d.value for d in rnd.decisions]
        low = [d.value - d.value_error for d in rnd.decisions]
        high = [d.value + d.value_error for d in rnd.decisions]
        (line,) = axes.plot(xs, ys, marker=".", label=f"round {rnd.number}")
        axes.fill_between(xs, low, high, color=line.get_color(), alpha=0.15)
        axes.axhline(rnd.outcome, color=line.get_color(), linestyle="--", linewidth=0.8,
                     label=f"round {rnd.number}: the result")
        for x, d in zip(xs, rnd.decisions, strict=True):
            if d.mark:
                axes.scatter([x], [d.value], color=colours[d.mark], zorder=3, s=40,
                             label=d.mark if d.mark not in shown else None)
                shown.add(d.mark)
    axes.axhline(0, color="gray", linewidth=0.8)
    mode = "open hands" if analysis.open_hands else f"{analysis.budget} deals per decision"
    axes.set_title(f"Seat {analysis.seat}: expected levels after each decision ({mode})")
    axes.set_xlabel("decision of the round")
    axes.set_ylabel("levels (a tenth per 10 points)")
    if analysis.rounds:
        axes.legend(fontsize=8)
    fig.tight_layout()
    return fig


def plot(analysis: Analysis, path: Path) -> None:
    """Draw :func:`figure` to ``path`` (``shengji analyze`` checks for matplotlib first)."""
    import matplotlib.pyplot as plt

    fig = figure(analysis)
    fig.savefig(path)
    plt.close(fig)
