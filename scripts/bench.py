"""Benchmark: the issue-17 targets (ratios of whole processes, A and B alternated, medians), or the rulebook by stage.

usage: python scripts/bench.py [--runs 3] [--zines 12] [--only NAME]  the targets table, each with its target and pass/short
       python scripts/bench.py --stages [--runs 3]            the rulebook build by stage, plus the products' own figures
Ratios are taken in one run on one machine; absolute seconds only compare on the same machine.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import itertools
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dungeonpress import build, impose, load, pdf, validate
from dungeonpress.products import rulebook


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
            return rulebook.book_html(ctx, rulebook.RulebookOptions())
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


ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "dungeonpress"]
HEAVY = ("weasyprint", "jinja2", "yaml", "pikepdf")


def subreaper() -> None:
    """Make this process the one orphaned descendants are handed to (Linux; elsewhere nothing changes)."""
    import ctypes
    try:
        ctypes.CDLL(None).prctl(36, 1)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def reap(patience: float = 30.0) -> None:
    """Wait for every child left (orphans handed over by subreaper()), so their CPU and memory are counted."""
    import os
    import time
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        try:
            if os.waitpid(-1, os.WNOHANG) == (0, 0):
                time.sleep(0.01)
        except ChildProcessError:
            return


# Runs a command (argv[2:]) in a small process of its own and prints its wall seconds, CPU seconds (the command's
# and every descendant's) and the largest process's peak resident MiB. Workers forked from a fork server are its
# children, not the command's: the server reaps those that end before it, and the command reaps the server, so their
# CPU reaches RUSAGE_CHILDREN through it; one that ends after the server would be reaped by init and lost, so this
# process is made their subreaper and reaps them itself. argv[1] is "1" when a failed command must fail the run.
REAPING = inspect.getsource(subreaper) + inspect.getsource(reap)  # the two, for a script run with -c
MEASURE = ("import resource, subprocess, sys, time\n" + REAPING
           + "subreaper()\n"
           "start = time.perf_counter()\n"
           "done = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
           "wall = time.perf_counter() - start\n"
           "reap()\n"
           "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
           "print(wall, u.ru_utime + u.ru_stime, u.ru_maxrss / 1024)\n"
           "sys.exit(done.returncode if sys.argv[1] == '1' else 0)\n")


def run(argv, check: bool = True, cwd=ROOT, **kw) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MiB of the largest process) of one command and all its workers (see MEASURE)."""
    done = subprocess.run([sys.executable, "-c", MEASURE, "1" if check else "0", *map(str, argv)], cwd=cwd,
                          capture_output=True, text=True, **kw)
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, argv)
    wall, cpu, peak = (float(v) for v in done.stdout.split()[-3:])
    return wall, cpu, peak


def paired(a, b, runs: int) -> tuple[list, list]:
    """Run A and B alternately `runs` times each: (A results, B results)."""
    first, second = [], []
    for _ in range(runs):
        first.append(a())
        second.append(b())
    return first, second


def median(results, index=0) -> float:
    return statistics.median(r[index] for r in results)


def figure(name: str, value: float, target: str, ok: bool, note: str = "") -> dict:
    return {"figure": name, "value": value, "target": target, "ok": ok, "note": note}


def bench_batch(runs: int, zines: int, work: Path) -> list:
    """N zines in one --batch run ÷ N separate CLI runs (wall), and each worker's peak over the batch."""
    def one_batch():
        out = work / "batch"
        shutil.rmtree(out, ignore_errors=True)  # no skipping: every zine made
        return run(CLI + ["dungeon", "--batch", str(zines), "--seed", "5000", "--layout", "zine", "--quiet",
                          "--out", str(out)])

    def separate():
        out = work / "separate"
        total = [0.0, 0.0, 0.0]
        for n in range(zines):
            wall, cpu, _ = run(CLI + ["dungeon", "--seed", str(5000 + n), "--layout", "zine", "--quiet", "--out", str(out)])
            total[0] += wall
            total[1] += cpu
        return tuple(total)

    batched, alone = paired(one_batch, separate, runs)
    ratio = median(batched) / median(alone)
    load = os.getloadavg()[0]
    entries = json.loads((work / "batch" / "manifest.json").read_text())["items"]
    # Flat: each worker's peak after its second item (warm) against its peak after its last item.
    by_worker: dict = {}
    for entry in sorted(entries.values(), key=lambda e: e["seed"]):
        by_worker.setdefault(entry["worker"], []).append(entry["worker_peak_mib"])
    peaks = [p for worker in by_worker.values() for p in worker]
    warm = max(worker[min(1, len(worker) - 1)] for worker in by_worker.values())
    last = max(worker[-1] for worker in by_worker.values())
    return [
        figure(f"{zines} zines in one --batch ÷ {zines} separate CLI runs (wall)", ratio, "≤ 0.25",
               ratio <= 0.25, f"{median(batched):.1f} s vs {median(alone):.1f} s; CPU {median(batched, 1):.1f} s vs "
                              f"{median(alone, 1):.1f} s; {runs} pairs, load average {load:.1f}"),
        figure("peak MiB per worker over the batch", max(peaks), "≤ 100 MiB", max(peaks) <= 100,
               f"{len(by_worker)} workers, {len(peaks)} items"),
        figure("worker peak after its last item ÷ after its second (flat)", last / warm, "≤ 1.10",
               last / warm <= 1.10, f"{warm:.0f} → {last:.0f} MiB"),
    ]


SERVE_ROLLS = """
import sys, time
from pathlib import Path
from dungeonpress.serve.jobs import Runner
from dungeonpress.serve.rolls import RollRequest

def roll(runner, seed):
    start = time.perf_counter()
    job = runner.roll(RollRequest(seed=seed, options=(("--layout", "zine"),)))
    while not job.finished:
        time.sleep(0.01)
    assert job.state == "done", job.messages
    return time.perf_counter() - start

if __name__ == "__main__":
    runner = Runner(Path(sys.argv[1]), [], timeout=600, on_change=lambda: None)
    roll(runner, 6999)  # the worker's first roll: it has warmed up before the page is used
    for line in sys.stdin:  # a seed a line; the roll's wall seconds back
        print(roll(runner, int(line)), flush=True)
    runner.close()
"""


def bench_serve(runs: int, work: Path) -> list:
    """A zine rolled in a warm `serve` worker ÷ the same zine from a cold CLI (wall), alternated, same seeds."""
    server = subprocess.Popen([sys.executable, "-c", SERVE_ROLLS, str(work / "serve")], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=ROOT)
    seeds = iter(range(7000, 7000 + runs))
    pairs = []

    def warm():
        seed = pairs[-1]
        server.stdin.write(f"{seed}\n")
        server.stdin.flush()
        return (float(server.stdout.readline()), 0.0, 0.0)

    def cold():
        pairs.append(next(seeds))
        return run(CLI + ["dungeon", "--seed", str(pairs[-1]), "--layout", "zine", "--quiet", "--out", str(work / "cli")])

    try:
        colds, warms = paired(cold, warm, runs)
    finally:
        server.stdin.close()
        server.wait(timeout=120)
    ratio = median(warms) / median(colds)
    return [figure("zine rolled in a warm serve worker ÷ the same zine from a cold CLI (wall)", ratio, "≤ 0.4",
                   ratio <= 0.4, f"{median(warms):.2f} s vs {median(colds):.2f} s; {runs} pairs, "
                                 f"load average {os.getloadavg()[0]:.1f}")]


# The reference documents (issue 17): ../shared/bench/reference from the main checkout, or from a worktree's parent.
REFERENCE = Path(os.environ.get("DUNGEONPRESS_REFERENCE") or next(
    (p for p in (ROOT.parent / "shared" / "bench" / "reference", ROOT.parents[1] / "shared" / "bench" / "reference")
     if p.exists()), ROOT.parent / "shared" / "bench" / "reference"))


def bench_zine(runs: int, work: Path) -> list:
    """One zine, cold CLI (`dungeon --seed 1234`, imposed) ÷ a cold WeasyPrint render of the reference zine (CPU).

    The reference is `render.py zine.html --css zine.css` in the folder $DUNGEONPRESS_REFERENCE names
    (default: ../shared/bench/reference from the checkout or its parent); without it the figure is marked short.
    """
    if not (REFERENCE / "render.py").exists():
        return [figure("one zine ÷ reference zine (CPU)", float("nan"), "≤ 1.0", False, f"no reference in {REFERENCE}")]
    zine = lambda: run(CLI + ["dungeon", "--seed", "1234", "--layout", "zine", "--quiet", "--out", str(work / "zine")])
    reference = lambda: run([sys.executable, "render.py", "zine.html", str(work / "reference-zine.pdf"), "--css",
                             "zine.css"], cwd=REFERENCE)
    ours, theirs = paired(zine, reference, runs)
    ratio = median(ours, 1) / median(theirs, 1)
    return [figure("one zine, cold CLI ÷ reference zine, cold render (CPU)", ratio, "≤ 1.0", ratio <= 1.0,
                   f"{median(ours, 1):.2f} s vs {median(theirs, 1):.2f} s CPU, {runs} pairs, "
                   f"load average {os.getloadavg()[0]:.1f}")]


def zine_html(path: Path, seed: int = 1234) -> str:
    """The zine's whole HTML in the fit the product chooses for it, its links made absolute for a bare render:
    the document a bare WeasyPrint run lays out once where the product probes fits and lays out halves. Returns
    the fit."""
    from dungeonpress.products import dungeon as product
    ctx = build.context_for(build.load_content(), seed=seed)
    dungeon = product.roll_dungeon(ctx, seed, product.DEFAULT_ROOMS)
    fits, real = [], product.zine_html

    def spy(*args, **kwargs):
        if kwargs.get("rest"):  # the pages a probe leaves out are laid out once, in the fit chosen
            fits.append(args[5])
        return real(*args, **kwargs)
    product.zine_html = spy
    try:
        product.zine_pages(ctx, dungeon, seed, product.DEFAULT_ROOMS, "a4")
    finally:
        product.zine_html = real
    html = real(ctx, dungeon, seed, product.DEFAULT_ROOMS, "a4", fits[-1])
    base = f'<base href="{Path(ctx.templates_dir).resolve().as_uri()}/">'
    path.write_text(html.replace("<head>", f"<head>\n{base}", 1), encoding="utf-8")
    return fits[-1]


def bench_zine_bare(runs: int, work: Path) -> list:
    """One zine from the CLI (its reading PDF, the imposed sheet and the JSON) ÷ a bare WeasyPrint render of its whole
    HTML in the fit the product chose (CPU, and wall in the note; cold): what choosing the fit, the maps, the
    imposition and our checks cost over one layout."""
    html = work / "zine.html"
    fit = zine_html(html)
    zine = lambda: run(CLI + ["dungeon", "--seed", "1234", "--layout", "zine", "--quiet", "--out", str(work / "zine")])
    bare = lambda: run([sys.executable, "-c", BARE, str(html), str(work / "bare-zine.pdf")])
    ours, theirs = paired(zine, bare, runs)
    cpu, wall = median(ours, 1) / median(theirs, 1), median(ours) / median(theirs)
    return [figure("CLI zine ÷ bare WeasyPrint render of its whole HTML (CPU)", cpu, "≤ 1.05", cpu <= 1.05,
                   f"{median(ours, 1):.2f} s vs {median(theirs, 1):.2f} s CPU; wall {wall:.3f} ({median(ours):.2f} s "
                   f"vs {median(theirs):.2f} s); fit {fit}, {runs} pairs, load average {os.getloadavg()[0]:.1f}")]


def bench_noop(runs: int, work: Path) -> list:
    """`build all` with nothing changed ÷ `python -c pass` (wall); the first build all makes everything once."""
    out = work / "all"
    run(CLI + ["build", "all", "--quiet", "--out", str(out)])
    noop, bare = paired(lambda: run(CLI + ["build", "all", "--quiet", "--out", str(out)]),
                        lambda: run([sys.executable, "-c", "pass"]), runs)
    ratio = median(noop) / median(bare)
    figures = [figure("build all, nothing changed ÷ python -c pass (wall)", ratio, "≤ 10", ratio <= 10,
                      f"{median(noop):.2f} s vs {median(bare):.3f} s")]
    reading, booklet = out / "dungeoneer-rulebook.pdf", out / "dungeoneer-rulebook-booklet-a4.pdf"
    if reading.exists() and booklet.exists():
        size = booklet.stat().st_size / reading.stat().st_size
        figures.append(figure("imposed booklet size ÷ reading PDF (rulebook, a4)", size, "≤ 1.2", size <= 1.2,
                              f"{booklet.stat().st_size // 1024} KiB vs {reading.stat().st_size // 1024} KiB"))
    return figures


def bench_preflight(runs: int, work: Path) -> list:
    """Reading every PDF of `build all` back (the print preflight) ÷ building them, CPU, in one run."""
    out = work / "preflight"
    made = run(CLI + ["build", "all", "--quiet", "--no-preflight", "--out", str(out)])
    pdfs = sorted(str(p) for p in out.glob("*.pdf"))
    # exit 1 when a PDF has preflight errors: the time is what counts here, not the verdict
    checks = [run(CLI + ["preflight", "--json", *pdfs], check=False) for _ in range(runs)]
    ratio = median(checks, 1) / made[1]
    return [figure("preflight of build all's PDFs ÷ build all (CPU)", ratio, "≤ 0.25", ratio <= 0.25,
                   f"{median(checks, 1):.1f} s vs {made[1]:.1f} s CPU, {len(pdfs)} PDFs; with pdfplumber it was "
                   "about 1.5× the build")]


def bench_tests() -> list:
    """`make test` and its fast tier as the Makefile runs them (two workers), wall: issue 24's absolute targets; one
    run each, the load printed."""
    workers = ["-n", "2"]
    fast = run([sys.executable, "-m", "pytest", "-q", *workers, "-m", "not slow"], check=False)
    full = run([sys.executable, "-m", "pytest", "-q", *workers], check=False)
    load = os.getloadavg()[0]
    return [figure("make test-fast wall (s)", fast[0], "≤ 40 s", fast[0] <= 40, f"load average {load:.1f}"),
            figure("make test (whole suite) wall (s)", full[0], "≤ 300 s on a quiet machine", full[0] <= 300,
                   f"CPU {full[1]:.0f} s; load average {load:.1f}")]


def bench_warm(runs: int, work: Path) -> list:
    """The rulebook rebuilt in a warm process ÷ a cold `build rulebook --layout pages` into a new folder (wall).

    The warm process is serve's book server (serve.book_server): its process, imports and part workers outlive each
    build, and each build reads the content again and finds the parts it kept; nothing is edited between builds (the
    edit figure times one). Timed from the request to the answer."""
    from dungeonpress.serve.book_server import BookServer
    command = ["build", "rulebook", "--layout", "pages", "--quiet", "--out"]

    def cold():  # a new folder each time: a build into the last one reads its parts back from its .cache
        shutil.rmtree(work / "cold", ignore_errors=True)
        return run(CLI + command + [str(work / "cold")])

    server = BookServer(cwd=ROOT)

    def warm():
        start = time.perf_counter()
        code, _, err = server.run(command + [str(work / "served")], 600)
        if code:
            raise RuntimeError(err)
        return (time.perf_counter() - start, 0.0, 0.0)

    try:
        warm()  # the server's first build, cold
        colds, warms = paired(cold, warm, runs)
    finally:
        server.close()
    ratio = median(warms) / median(colds)
    return [figure("rulebook rebuilt in a warm process (serve's book server) ÷ cold CLI build (wall)", ratio, "≤ 0.5",
                   ratio <= 0.5, f"{median(warms):.2f} s vs {median(colds):.1f} s")]


EDITED_TABLE = "inscription_results"  # printed in one chapter of the rulebook (Environment)


def bench_edit(runs: int, work: Path) -> list:
    """The rulebook rebuilt after editing one table (parts kept from the last build) ÷ a cold build (wall, CPU).

    The table is overridden by a user pack (`--content`), as an author editing a table would; each warm run
    changes its title, so its chapter (and the contents when page counts shift) is laid out again.
    """
    pack = work / "edit-pack"
    (pack / "tables").mkdir(parents=True, exist_ok=True)
    # a pack credits itself (a built-in source's name is refused for a pack's table)
    source = (build.CONTENT_DIR / "dungeoneer" / "tables" / f"{EDITED_TABLE}.yaml").read_text().replace(
        "\nsource: dungeoneer\n", "\nsource: a benchmark's edit\n", 1)
    table = pack / "tables" / f"{EDITED_TABLE}.yaml"
    # A user's copy credits its maker (a pack may not claim a built-in source).
    source = source.replace("\nsource: dungeoneer", "\nsource: my edits", 1)
    table.write_text(source)
    command = CLI + ["build", "rulebook", "--layout", "pages", "--quiet", "--content", str(pack), "--out"]
    run(command + [str(work / "warm")])  # the build the edits start from
    # One edit untimed: the first run into a folder built into before keeps the checked model and every YAML
    # file's parsed tree there (.cache/content, .cache/trees); each later edit finds them, as an author's does.
    table.write_text(source.replace("\ntitle: ", "\ntitle: (edit 0) ", 1))
    run(command + [str(work / "warm")])
    count = iter(range(1, 1000))

    def cold():
        out = work / f"cold-{next(count)}"
        return run(command + [str(out)])

    def warm():
        edit = next(count)
        table.write_text(source.replace("\ntitle: ", f"\ntitle: (edit {edit}) ", 1))
        return run(command + [str(work / "warm")])

    # serve's path: the same edits built in its book server (serve.book_server), whose process and part workers
    # outlive each build; timed from the request to the answer (wall only: its workers' CPU is not a finished child's).
    from dungeonpress.serve.book_server import BookServer
    server = BookServer(cwd=ROOT)
    served = work / "served"

    def serve_edit():
        edit = next(count)
        table.write_text(source.replace("\ntitle: ", f"\ntitle: (edit {edit}) ", 1))
        start = time.perf_counter()
        code, _, err = server.run(command[len(CLI):] + [str(served)], 600)
        if code:
            raise RuntimeError(err)
        return (time.perf_counter() - start, 0.0, 0.0)

    try:
        serve_edit(), serve_edit()  # its first build (cold), then one edit that reads the caches in, untimed
        colds, warms, serves = [], [], []
        for _ in range(runs):  # A, B and C alternated
            colds.append(cold())
            warms.append(warm())
            serves.append(serve_edit())
    finally:
        server.close()
    wall, cpu = median(warms) / median(colds), median(warms, 1) / median(colds, 1)
    served_wall = median(serves) / median(colds)
    return [figure("rulebook rebuilt after editing one table ÷ cold build (wall)", wall, "≤ 0.15", wall <= 0.15,
                   f"{median(warms):.1f} s vs {median(colds):.1f} s; CPU {cpu:.3f} "
                   f"({median(warms, 1):.1f} s vs {median(colds, 1):.1f} s)"),
            figure("the same edit in serve's book server ÷ cold build (wall)", served_wall, "≤ 0.15",
                   served_wall <= 0.15, f"{median(serves):.2f} s vs {median(colds):.1f} s")]


def bench_help(runs: int = 5) -> list:
    """`dungeonpress --help`: which heavy libraries it imports (python -X importtime), and its wall time.

    The time is the issue's absolute target (0.3 s); `python -c pass`, run alternately with it, is
    printed beside it so a reader can tell a slow machine from a slow command.
    """
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "dungeonpress", "--help"], capture_output=True,
                          text=True, cwd=ROOT)
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0] for line in done.stderr.splitlines() if "|" in line}
    heavy = [name for name in HEAVY if name in imported]
    helps, bare = paired(lambda: run([*CLI, "--help"]), lambda: run([sys.executable, "-c", "pass"]), max(runs, 5))
    wall, cpu = median(helps), median(helps, 1)
    return [figure("heavy libraries imported by --help", len(heavy), "0 of weasyprint, jinja2, yaml, pikepdf",
                   not heavy, ", ".join(heavy) or "none"),
            figure("dungeonpress --help wall (s)", wall, "< 0.3 s", wall < 0.3,
                   f"CPU {cpu:.3f} s; python -c pass {median(bare):.3f} s wall")]


# A bare render asks WeasyPrint for the same output as the product: tagged PDF/UA (the issue-18 requirement).
BARE = ("import sys, weasyprint; weasyprint.HTML(filename=sys.argv[1]).write_pdf(sys.argv[2], pdf_tags=True, "
        "pdf_variant='pdf/ua-1')")


def rulebook_html(path: Path, built: Path | None = None) -> None:
    """The rulebook's final HTML as the product lays it out, its links made absolute for a bare render. With `built`
    (the CLI's rulebook), the plates and tailpieces that book holds are in it too, where and as large as it has them,
    so the bare render lays out the pages the CLI does (tests/test_products_rulebook.py compares the two books)."""
    ctx = build.context_for(build.load_content())
    plates, tailpieces = (), None
    if built is not None:
        from pypdf import PdfReader
        from tests.test_products_rulebook import plates_faced
        data = built.read_bytes()
        plates, tailpieces = plates_faced(data), rulebook.tailpieces_in(PdfReader(built).named_destinations)
    html = rulebook.book_html(ctx, rulebook.RulebookOptions(), plates, tailpieces)
    base = f'<base href="{Path(ctx.templates_dir).resolve().as_uri()}/">'
    path.write_text(html.replace("<head>", f"<head>\n{base}", 1), encoding="utf-8")


def pdf_pages_and_words(path: Path) -> tuple[int, int]:
    import pypdfium2
    document = pypdfium2.PdfDocument(str(path))
    try:
        words = sum(len(page.get_textpage().get_text_range().split()) for page in document)
        return len(document), words
    finally:
        document.close()


def bench_reference(runs: int, work: Path) -> list:
    """The rulebook against the reference booklet (CPU per page, peak memory, both cold), and the CLI
    build against a bare WeasyPrint render of the same final HTML."""
    if not (REFERENCE / "booklet.html").exists():
        return [figure("reference documents", 0, f"found at {REFERENCE}", False, "set DUNGEONPRESS_REFERENCE")]
    folders = itertools.count(1)

    def cli():  # a cold build each time: a folder built into before keeps the laid-out chapters
        out = work / f"ref-rb-{next(folders)}"
        return run(CLI + ["build", "rulebook", "--layout", "pages", "--no-preflight", "--quiet", "--out", str(out)])

    reference = [sys.executable, "render.py", "booklet.html", str(work / "booklet.pdf")]
    ours, theirs = paired(cli, lambda: run(reference, cwd=REFERENCE), runs)
    our_pages, our_words = pdf_pages_and_words(work / "ref-rb-1" / "dungeoneer-rulebook.pdf")
    their_pages, their_words = pdf_pages_and_words(work / "booklet.pdf")
    per_page = (median(ours, 1) / our_pages) / (median(theirs, 1) / their_pages)
    per_word = (median(ours, 1) / our_words) / (median(theirs, 1) / their_words)
    memory = median(ours, 2) / median(theirs, 2)
    html = work / "rulebook.html"
    rulebook_html(html, work / "ref-rb-1" / "dungeoneer-rulebook.pdf")
    built, bare = paired(cli, lambda: run([sys.executable, "-c", BARE, str(html), str(work / "bare.pdf")]),
                         runs)
    around, wall = median(built, 1) / median(bare, 1), median(built) / median(bare)
    # issue 24's targets; the per-page figure (issue 17's, 0.8) is kept in the note
    return [
        figure("rulebook CPU per word ÷ reference booklet CPU per word (cold)", per_word, "≤ 1.0", per_word <= 1.0,
               f"{median(ours, 1):.1f} s / {our_words} words vs {median(theirs, 1):.1f} s / {their_words} words; "
               f"per page {per_page:.2f} ({our_words / our_pages:.0f} vs {their_words / their_pages:.0f} words a page)"),
        figure("rulebook peak memory (the whole run's largest process) ÷ reference booklet peak", memory, "≤ 1.0",
               memory <= 1.0, f"{median(ours, 2):.0f} MiB vs {median(theirs, 2):.0f} MiB"),
        figure("CLI rulebook build ÷ bare WeasyPrint render of its final HTML (CPU)", around, "≤ 1.05", around <= 1.05,
               f"{median(built, 1):.1f} s vs {median(bare, 1):.1f} s; wall {wall:.3f} ({median(built):.1f} s vs "
               f"{median(bare):.1f} s: the CLI lays the book out in two workers); bare peak {median(bare, 2):.0f} MiB"),
    ]


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    from importlib import metadata
    return (f"nproc {os.cpu_count()}, {cpu}, Python {platform.python_version()}, "
            f"WeasyPrint {metadata.version('weasyprint')}, load average {os.getloadavg()[0]:.1f}")


def targets(runs: int, zines: int, only: list) -> None:
    print(machine())
    parts = {"help": lambda: bench_help(runs), "zine": lambda w: bench_zine(runs, w),
             "serve": lambda w: bench_serve(runs, w), "batch": lambda w: bench_batch(runs, zines, w), "noop": lambda w: bench_noop(runs, w),
             "warm": lambda w: bench_warm(runs, w), "edit": lambda w: bench_edit(runs, w), "preflight": lambda w: bench_preflight(runs, w),
             "reference": lambda w: bench_reference(runs, w), "zine-bare": lambda w: bench_zine_bare(runs, w),
             "tests": lambda w: bench_tests(),
             "book": lambda w: importlib.import_module("scripts.bench_book").bench(runs, w)}
    with tempfile.TemporaryDirectory(prefix="dungeonpress-bench-") as folder:
        for name, part in parts.items():
            if (only and name not in only) or (name == "tests" and "tests" not in only):
                continue  # the test suite runs only when asked for (--only tests): it takes minutes
            for row in (part() if name == "help" else part(Path(folder))):
                mark = "pass" if row["ok"] else "SHORT"
                value = row["value"]
                shown = f"{value:.3f}" if isinstance(value, float) else str(value)
                print(f"{mark:5}  {row['figure']}: {shown} (target {row['target']})"
                      + (f"  [{row['note']}]" if row["note"] else ""), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="pairs of A/B runs per ratio (medians)")
    parser.add_argument("--zines", type=int, default=12, help="zines in the batch figure (the target is for 12)")
    parser.add_argument("--only", action="append", default=[],
                        choices=("help", "zine", "serve", "batch", "noop", "warm", "edit", "preflight", "reference",
                                 "zine-bare", "tests", "book"))
    parser.add_argument("--stages", action="store_true", help="the rulebook by stage instead of the targets")
    args = parser.parse_args()
    if not args.stages:
        targets(args.runs, args.zines, args.only)
        return
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
