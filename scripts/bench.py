"""Benchmark: the rulebook build by stage, plus the products' own figures; prints medians.

usage: python scripts/bench.py [--runs 3]
Figures are wall-clock medians on this machine; compare runs on the same machine only.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time

from dungeonpress import build, impose, load, pdf, validate
from dungeonpress.products import rulebook
from dungeonpress.products.common import html_from_template


def timed(function):
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def bench_rulebook(runs: int) -> dict:
    """Median seconds for each stage of the rulebook: load, validate, HTML, layout, PDF write, imposition."""
    stages = {name: [] for name in ("load", "validate", "html", "layout", "pdf write", "imposition (2 papers)")}
    pages, padded = 0, None
    for _ in range(runs):
        raw, t = timed(lambda: load.load_content([build.CONTENT_DIR]))
        stages["load"].append(t)
        content, t = timed(lambda: validate.validate_content(raw))
        stages["validate"].append(t)
        ctx = build.context_for(content)

        def html():
            chapters = rulebook.chapter_views(ctx)
            return html_from_template(ctx, "book.html.j2", book=content.book, chapters=chapters, notes_pages=0,
                                      quickref=rulebook.quickref_view(ctx), digest=content.digest[:12])
        text, t = timed(html)
        stages["html"].append(t)
        rendered, t = timed(lambda: pdf.layout_html(text, base_url=ctx.templates_dir, roots=ctx.roots))
        stages["layout"].append(t)
        pages = rendered.page_count
        data, t = timed(lambda: pdf.write_pdf(rendered))
        stages["pdf write"].append(t)
        if padded is None:  # impose needs whole sheets: the padded book the product makes, built once
            padded = data if pages % 4 == 0 else rulebook.build_rulebook(ctx, rulebook.RulebookOptions(layout="pages"))[0].data
        _, t = timed(lambda: [impose.impose_booklet(padded, p) for p in ("a4", "letter")])
        stages["imposition (2 papers)"].append(t)
    out = {f"rulebook {name} (s)": statistics.median(values) for name, values in stages.items()}
    out["rulebook pages"] = pages
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    figures = bench_rulebook(args.runs)
    # Products with their own benchmarks (scripts/bench_*.py with a bench() returning figures).
    for name in ("bench_dungeon",):
        try:
            module = importlib.import_module(f"scripts.{name}")
        except ModuleNotFoundError:
            continue
        figures.update(module.bench())
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        shown = f"{value:.3f}" if isinstance(value, float) else str(value)
        print(f"{key.ljust(width)}  {shown}")


if __name__ == "__main__":
    main()
