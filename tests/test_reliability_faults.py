"""RELIABILITY.md rows E10 (glyphs no bundled font has), F2 (SIGKILL mid-write), R1 (same bytes across processes),
R2 (same seed, same HTML), R3 (no system fonts), R4 (manifest versions)."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest

from dungeonpress import build, manifest, pdf
from dungeonpress.build import TEMPLATES_DIR
from dungeonpress.products.common import Output
from tests.conftest import run_cli as run, standard_build

DRAGON = """id: lair
title: Lair
die: d6
source: a dragon pack
columns: {lair: Lair}
rows:
  1-3: "Dragon \\U0001F409 sleeps on gold"
  4-6: "A private mark \\uE000 scratched in the wall"
"""


# --- E10: characters no bundled font has ----------------------------------------------------------

def test_e10_every_character_of_our_fonts_passes_and_a_dragon_is_counted():
    html = ('<html lang="en"><table><tr><td>Dragon \U0001F409 lair \ue000 and \ue000</td></tr></table>'
            "<p>Plain text, “quotes” – fine.</p></html>")
    rendered = pdf.layout_html(html, base_url=TEMPLATES_DIR, roots=[TEMPLATES_DIR])
    pdf.write_pdf(rendered)  # where WeasyPrint logs each .notdef it draws: already counted, not repeated
    warnings = rendered.warnings
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith("3 character(s) no bundled font has")  # the .notdef count: 🐉 once, U+E000 twice
    assert "U+1F409 '🐉' in 'Dragon 🐉 lair" in warnings[0] and "U+E000" in warnings[0]
    assert pdf.layout_html("<p>Plain text, “quotes” – fine.</p>", base_url=TEMPLATES_DIR,
                           roots=[TEMPLATES_DIR]).warnings == []


@pytest.mark.slow
def test_e10_a_table_row_with_a_dragon_fails_under_strict(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pack" / "tables").mkdir(parents=True)
    (tmp_path / "pack" / "tables" / "lair.yaml").write_text(DRAGON)
    status, _, err = run("build", "tables", "--content", "pack", "--out", "out", "--strict", "--quiet")
    lines = [line for line in err.splitlines() if "no bundled font" in line]
    assert status == 1 and len(lines) == 1 and ".notdef" not in err, err
    assert "U+1F409 '🐉' in 'Dragon 🐉 sleeps on gold'" in lines[0] and "U+E000" in lines[0]
    # our own content has none: the tables book `build all` makes (shared by the run) has no warning at all
    assert standard_build("tables")[1] == []


# --- F2: SIGKILL in the middle of a write ---------------------------------------------------------

# A build whose write stops halfway: the first half of the new PDF is in the temp file when it is killed.
_HALF_WRITER = """
import os, sys, time
from pathlib import Path
from dungeonpress import build

real_fdopen = os.fdopen

class HalfWay:
    def __init__(self, fd, mode):
        self.handle = real_fdopen(fd, mode)
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        self.handle.close()
    def write(self, data):
        self.handle.write(data[: len(data) // 2])
        self.handle.flush()
        print(os.getpid(), flush=True)
        time.sleep(120)

os.fdopen = HalfWay
build.write_atomic(Path(sys.argv[1]), b"%PDF-1.7 new " + b"x" * 8_000_000 + b"\\n%%EOF\\n")
"""


def test_f2_sigkill_mid_write_keeps_the_old_pdf_and_the_next_run_removes_the_temp(tmp_path):
    target = tmp_path / "x.pdf"
    old = b"%PDF-1.7 old\n" + os.urandom(1000) + b"\n%%EOF\n"
    target.write_bytes(old)
    child = subprocess.Popen([sys.executable, "-c", _HALF_WRITER, str(target)], stdout=subprocess.PIPE, text=True)
    try:
        pid = int(child.stdout.readline())
        temps = sorted(tmp_path.glob(".x.pdf.dp-*.part"))
        assert [t.name.split("-")[1] for t in temps] == [str(pid)] and temps[0].stat().st_size > 4_000_000
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(30)
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    assert target.read_bytes() == old  # 0 partial PDFs: the final name still holds the old file
    assert build.remove_stale_temps(target) == temps  # the next run removes the dead build's temp…
    new = b"%PDF-1.7 new\n%%EOF\n"
    assert build.write_outputs(tmp_path, [Output("x.pdf", new)]) == [target]
    assert target.read_bytes() == new
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.pdf"]  # …0 stale temps after restart


# --- R1, R2: the same inputs give the same bytes ----------------------------------------------------

# Several CLI runs in one other process: each run is the CLI's own main(), and one interpreter start (with its
# imports) serves them all.
CLI_RUNS = """
import json, sys
from dungeonpress.cli import main
out, runs = sys.argv[1], json.loads(sys.argv[2])
sys.exit(max([main([*argv, "--out", out, "--quiet", "--no-preflight"]) for argv in runs]))
"""


def _build_all_in_one_process(out: Path, runs: list, env: dict) -> None:
    subprocess.run([sys.executable, "-c", CLI_RUNS, str(out), json.dumps(runs)], env=os.environ | env, check=True,
                   capture_output=True)


def _digests(folder: Path) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.suffix == ".pdf"}


@pytest.mark.slow
def test_r1_two_processes_with_other_hash_seeds_zones_and_locales_give_identical_pdfs(tmp_path):
    """Products made again by the CLI in another process (another hash seed, time zone and locale) are byte for
    byte the run's shared `build all` jobs, made in the test processes: the imposed zine (form XObjects, tagged
    reading pages), the fillable and pencil sheets (AcroForm), the delve kit and log, the Dunginoes maps, and the
    rulebook (laid out part by part in the CLI's two worker processes) with its booklets. The suite's one
    comparison of bytes between processes; every run of it in one other process."""
    env = {"PYTHONHASHSEED": "4242", "TZ": "Pacific/Chatham", "LC_ALL": "C", "SOURCE_DATE_EPOCH": "1700000000"}
    if os.environ.get("PYTHONHASHSEED") == env["PYTHONHASHSEED"]:
        env["PYTHONHASHSEED"] = "4243"
    runs = ((["dungeon", "--seed", "1234", "--layout", "zine", "--paper", "a4"], ("dungeon", 0)),
            (["sheet", "--paper", "a5"], ("sheet", 0)), (["delve", "--seed", "1234"], ("delve", 0)),
            (["dunginoes", "--seed", "1234"], ("dunginoes", 0)), (["build", "rulebook"], ("rulebook", 0)))
    _build_all_in_one_process(tmp_path, [argv for argv, _ in runs], env)
    shared = {}
    for _, job in runs:
        shared.update(standard_build(*job)[0])
    again = _digests(tmp_path)
    assert len(again) >= 13 and any("fillable" in n for n in again) and "dungeon-1234-zine-a4.pdf" in again
    assert {"dungeoneer-rulebook.pdf", "dungeoneer-rulebook-booklet-a4.pdf"} <= set(again)
    assert again == {name: hashlib.sha256(shared[name]).hexdigest() for name in again}


@pytest.mark.slow  # three CLI runs
def test_r2_the_same_seed_gives_the_same_html_and_another_seed_other_html(tmp_path):
    html = {}
    for run_name, seed in (("one", "5"), ("again", "5"), ("other", "6")):
        out = tmp_path / run_name
        assert run("dungeon", "--seed", seed, "--layout", "zine", "--format", "html", "--out", str(out), "--quiet")[0] == 0
        (page,) = out.glob("*.html")
        html[run_name] = hashlib.sha256(page.read_bytes()).hexdigest()
    assert html["one"] == html["again"]
    assert html["other"] != html["one"]


# --- R3: only bundled fonts -----------------------------------------------------------------------

def font_names(path: Path) -> set:
    """Every font a PDF embeds, subset tag dropped (imposed pages keep theirs in form XObjects)."""
    with pikepdf.open(path) as document:
        return {str(o.get("/BaseFont")).lstrip("/").split("+")[-1] for o in document.objects
                if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"}


def bundled_families() -> tuple:
    return tuple(sorted({p.stem.split("-")[0] for p in (TEMPLATES_DIR / "fonts").rglob("*.ttf")}))


@pytest.mark.slow
def test_r3_no_system_fonts_gives_the_same_bytes_and_only_bundled_fonts(tmp_path):
    config = tmp_path / "fonts.conf"  # fontconfig with no font folders at all: only our @font-face files exist
    config.write_text(f'<?xml version="1.0"?>\n<fontconfig><cachedir>{tmp_path / "cache"}</cachedir></fontconfig>\n')
    out = tmp_path / "empty"
    subprocess.run([sys.executable, "-m", "dungeonpress", "dungeon", "--seed", "1234", "--layout", "zine", "--paper", "a4",
                    "--out", str(out), "--quiet"], env=os.environ | {"FONTCONFIG_FILE": str(config)}, check=True,
                   capture_output=True)
    # the same zine made with the system's fonts: the run's shared `build all` job, made in a test process
    assert (out / "dungeon-1234-zine-a4.pdf").read_bytes() == standard_build("dungeon", 0)[0]["dungeon-1234-zine-a4.pdf"]
    used = font_names(out / "dungeon-1234-zine-a4.pdf")
    assert bundled_families() == ("AtkinsonHyperlegible", "Cinzel", "Vollkorn")
    assert used and all(name.startswith(bundled_families()) for name in used), used


# --- R4: the manifest records library versions and output hashes ----------------------------------

def test_r4_native_versions_name_pango_and_harfbuzz():
    found = pdf.native_versions()
    assert all(part.isdigit() for part in found["pango"].split(".")) and found["pango"].count(".") == 2
    assert all(part.isdigit() for part in found["harfbuzz"].split(".")) and found["harfbuzz"] >= "1"


@pytest.mark.slow
def test_r4_batch_manifest_records_versions_and_output_hashes(tmp_path):
    assert run("dungeon", "--batch", "1", "--seed", "5", "--layout", "zine", "--out", str(tmp_path), "--quiet")[0] == 0
    (entry,) = json.loads((tmp_path / manifest.NAME).read_text())["items"].values()
    versions = entry["versions"]
    assert {"python", "weasyprint", "pango", "harfbuzz", "dungeonpress"} <= versions.keys()
    assert all(versions[k] for k in ("python", "weasyprint", "pango", "harfbuzz"))
    assert entry["outputs"] and entry["status"] == "built"
    for output in entry["outputs"]:
        data = (tmp_path / output["name"]).read_bytes()
        assert output == {"name": output["name"], "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
