"""Benchmark the rulebook laid out part by part (issue 24 §1): cold in two workers ÷ the same book as one
document, a rebuild after editing one table ÷ cold, and the largest process's peak ÷ the reference booklet's.

Run through `python scripts/bench.py --only book [--runs 2]`. Every build is a fresh process; A and B are
alternated and medians taken. Each of our builds reports its own stages (importing, reading the content,
the HTML, laying out and binding the parts, writing), so a reader sees which share is layout and which is
loading the content (issue 24 §2's cache, built elsewhere, removes the latter).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# One rulebook build (reading PDF only) in a fresh process, in stages; prints them as JSON. argv: out [pack]
STAGED = r"""
import json, resource, sys, time
from pathlib import Path
subreaper()  # (defined by bench.REAPING, put before this) workers outliving their fork server come here to be reaped and counted
start = time.perf_counter()
from dungeonpress import build
from dungeonpress.paginate import book
from dungeonpress.products import rulebook
stages = {"import": time.perf_counter() - start}
packs = [Path(p) for p in sys.argv[2:]]
mark = time.perf_counter()
out = Path(sys.argv[1])
# As the CLI does (cli._dispatch): the book's workers start before the content is read, and import the engine
# meanwhile; the checked model and the parsed YAML are kept in a folder this tool has built into before.
workers = build.part_workers(out)
workers.start()
content = build.load_content(packs, out / build.CONTENT_CACHE if (out / ".cache").is_dir() else None)
stages["load"] = time.perf_counter() - mark
ctx = build.context_for(content, out_dir=out, user_packs=packs, keep_parts=True, workers=workers)
lay_out_book, spent = book.lay_out_book, []
def timed(*args, **kwargs):
    mark = time.perf_counter()
    try:
        return lay_out_book(*args, **kwargs)
    finally:
        spent.append(time.perf_counter() - mark)
book.lay_out_book = timed
command = next(c for c in build.commands() if c.name == "rulebook")
mark = time.perf_counter()
build.run_command(command, ctx, rulebook.RulebookOptions(layout="pages"), out)
stages["layout and bind"] = sum(spent)
stages["html and write"] = time.perf_counter() - mark - sum(spent)
stages["total"] = time.perf_counter() - start
from multiprocessing import forkserver, resource_tracker
forkserver._forkserver._stop()  # the workers forked from it are counted once it is reaped (it reaps them)
resource_tracker._resource_tracker._stop()  # (it would live until this process ends: reap() would wait for it)
reap()
own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
stages["cpu here"] = own.ru_utime + own.ru_stime
stages["cpu in workers"] = workers.ru_utime + workers.ru_stime
# This process's own peak: its ru_maxrss would keep the peak of the process that started it (Linux carries a forked
# child's resident size across exec into it), so the bench's own size read as the build's (127 MiB for 109).
hwm = [line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")] if Path("/proc/self/status").exists() else []
stages["peak MiB here"] = int(hwm[0]) / 1024 if hwm else own.ru_maxrss / 1024
stages["peak MiB of a worker"] = workers.ru_maxrss / 1024
print(json.dumps(stages))
"""

# The same book as one WeasyPrint document in one process (how it was built before it was laid out in
# parts): the same HTML, padded to whole sheets, checked and written as the product writes a document. argv: out,
# then what the book laid out in parts holds (JSON, from art_in): the chapters its plates face and its tailpieces'
# heights, so the one document lays out the same pages (session 27; before, it left them out: see bench).
SINGLE = r"""
import json, sys
from pathlib import Path
from dungeonpress import build
from dungeonpress.paginate.pages import pad_to_multiple
from dungeonpress.products import common, rulebook
ctx = build.context_for(build.load_content())
plates, tailpieces = json.loads(sys.argv[2])
html = rulebook.book_html(ctx, rulebook.RulebookOptions(), tuple(plates),
                          {tuple(int(n) for n in where.split("/")): height for where, height in tailpieces.items()})
data = common.write(ctx, pad_to_multiple(common.layout(ctx, html), 4, "book"))
Path(sys.argv[1]).write_bytes(data)
"""


def art_in(book: Path) -> str:
    """What the rulebook at `book` holds besides its text, as SINGLE takes it: (the chapter or "back" each plate
    faces, {"chapter/piece": the tailpiece's map height in mm}), JSON."""
    from pypdf import PdfReader
    from dungeonpress.products import rulebook
    from tests.test_products_rulebook import plates_faced
    tailpieces = rulebook.tailpieces_in(PdfReader(book).named_destinations)
    return json.dumps([list(plates_faced(book.read_bytes())),
                       {f"{chapter}/{piece}": height for (chapter, piece), height in tailpieces.items()}])

EDITED_TABLE = "inscription_results"  # printed in one chapter of the rulebook (Environment)


def bench(runs: int, work: Path) -> list:
    from scripts.bench import CLI, REAPING, REFERENCE, ROOT, figure, median, paired, run

    def staged(out: Path, packs=()) -> tuple:
        done = subprocess.run([sys.executable, "-c", REAPING + STAGED, str(out), *map(str, packs)], check=True,
                              capture_output=True, text=True, cwd=ROOT)
        return json.loads(done.stdout.splitlines()[-1])

    count = iter(range(1, 1000))
    stages = []

    def cold():
        wall, cpu, _ = run([sys.executable, "-c", REAPING + STAGED, str(work / f"book-cold-{next(count)}")], cwd=ROOT)
        return wall, cpu

    art = []  # what the books laid out in parts hold besides their text (art_in), read off the first

    def single(bare: bool = False):
        if not art:
            art.append(art_in(work / "book-cold-1" / "dungeoneer-rulebook.pdf"))
        wall, cpu, _ = run([sys.executable, "-c", SINGLE, str(work / "single.pdf"),
                            json.dumps([[], {}]) if bare else art[0]], cwd=ROOT)
        return wall, cpu

    # 1. Cold, in two workers, against the same book as one document: the same pages, its plates and tailpieces
    #    too. Until session 27 the one document left those out (0.4-0.6 s of its layout); it is still timed, the
    #    three alternated, and shown beside.
    colds, singles, bares = [], [], []
    for _ in range(runs):
        colds.append(cold())
        singles.append(single())
        bares.append(single(bare=True))
    ratio = median(colds) / median(singles)
    rows = [figure("rulebook cold build (two workers) ÷ the same book as one document (wall)", ratio, "≤ 0.6",
                   ratio <= 0.6, f"{median(colds):.1f} s vs {median(singles):.1f} s; CPU "
                   f"{median(colds, 1) / median(singles, 1):.3f}; against the one document without its plates and "
                   f"tailpieces ({median(bares):.1f} s): {median(colds) / median(bares):.3f}")]

    print(rows[-1], file=sys.stderr, flush=True)  # each figure as soon as it is measured

    # 2. One table edited (a user pack overrides it; its title changes each time) ÷ cold, both staged.
    from dungeonpress import build
    pack = work / "book-edit-pack"
    (pack / "tables").mkdir(parents=True, exist_ok=True)
    # a pack credits itself (a built-in source's name is refused for a pack's table)
    source = (build.CONTENT_DIR / "dungeoneer" / "tables" / f"{EDITED_TABLE}.yaml").read_text().replace(
        "\nsource: dungeoneer\n", "\nsource: a benchmark's edit\n", 1)
    table = pack / "tables" / f"{EDITED_TABLE}.yaml"
    table.write_text(source)
    staged(work / "book-warm", [pack])  # the build the edits start from
    table.write_text(source.replace("\ntitle: ", "\ntitle: (edit 0) ", 1))
    staged(work / "book-warm", [pack])  # untimed: keeps the model and the parsed YAML, as any earlier edit would

    def cold_staged():
        stages.append(("cold", staged(work / f"book-cold-{next(count)}", [pack])))
        return stages[-1][1]["total"], stages[-1][1]["cpu here"] + stages[-1][1]["cpu in workers"]

    def edited():
        table.write_text(source.replace("\ntitle: ", f"\ntitle: (edit {next(count)}) ", 1))
        stages.append(("edit", staged(work / "book-warm", [pack])))
        return stages[-1][1]["total"], stages[-1][1]["cpu here"] + stages[-1][1]["cpu in workers"]

    colds, edits = paired(cold_staged, edited, runs)
    split = {kind: {key: median([(s[key],) for k, s in stages if k == kind])
                    for key in ("import", "load", "html and write", "layout and bind", "total")} for kind in ("cold", "edit")}
    shown = "; ".join(f"{kind}: " + ", ".join(f"{key} {value:.1f} s" for key, value in parts.items())
                      for kind, parts in split.items())
    rows.append(figure("rulebook rebuilt after editing one table ÷ cold build (wall)", median(edits) / median(colds),
                       "≤ 0.15", median(edits) / median(colds) <= 0.15,
                       f"{median(edits):.1f} s vs {median(colds):.1f} s; {shown}"))
    print(rows[-1], file=sys.stderr, flush=True)

    # 3. The largest process of a cold build (the parent or a worker) ÷ the reference booklet's one process.
    if (REFERENCE / "booklet.html").exists():
        peaks = []

        def ours():
            stage = staged(work / f"book-cold-{next(count)}")
            peaks.append((stage["peak MiB here"], stage["peak MiB of a worker"]))
            return (max(peaks[-1]),)

        def theirs():
            return run([sys.executable, "render.py", "booklet.html", str(work / "booklet.pdf")], cwd=REFERENCE)[2:]

        mine, reference = paired(ours, theirs, runs)
        ratio = median(mine) / median(reference)
        rows.append(figure("rulebook peak memory of the largest process ÷ reference booklet's peak", ratio, "≤ 1.0",
                           ratio <= 1.0, f"{median(mine):.0f} MiB vs {median(reference):.0f} MiB (parent, worker: "
                           + ", ".join(f"{a:.0f}/{b:.0f}" for a, b in peaks) + " MiB)"))
    return rows


if __name__ == "__main__":
    import argparse
    import tempfile
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2)
    with tempfile.TemporaryDirectory(prefix="dungeonpress-bench-book-") as folder:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        for row in bench(parser.parse_args().runs, Path(folder)):
            print(row)
