"""RELIABILITY.md's checklist and issue 11's table as tests: hostile packs in, one-line refusals out.

Each test names the checklist row (S…, E…, F…, R…) or the issue-table case it covers. Symlinks,
FIFOs and huge files are made at run time in tmp_path; committed packs live in tests/fixtures/.
"""

from __future__ import annotations

import http.server
import importlib.metadata
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from dungeonpress import build, cli, load, pdf, render, sealed
from dungeonpress.build import TEMPLATES_DIR
from dungeonpress.errors import RenderError
from dungeonpress.products.common import Output
from tests.conftest import MOOD_D6 as D6
from tests.conftest import content_errors as errors_of
from tests.conftest import run_cli as run
from tests.conftest import validate_folder

FIXTURES = Path(__file__).parent / "fixtures"
@pytest.fixture
def pack(tmp_path, monkeypatch):
    """A small valid pack in tmp_path/pack (cwd is tmp_path, so messages read `pack/…`)."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "pack"
    (root / "tables").mkdir(parents=True)
    (root / "tables" / "mood.yaml").write_text(D6)
    (tmp_path / "secret.txt").write_text("the builder's secret\n")
    return root


@pytest.fixture
def bytes_read(monkeypatch):
    """Count every byte the sealed reader reads (the figure 'N bytes read' in the report)."""
    counted = {"bytes": 0}
    real_read = os.read

    def counting_read(fd, size):
        data = real_read(fd, size)
        counted["bytes"] += len(data)
        return data

    monkeypatch.setattr(sealed.os, "read", counting_read)
    return counted


@pytest.fixture
def canary():
    """A loopback HTTP server counting requests (127.0.0.1 only); /redirect sends to /secret."""
    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the http.server name)
            hits.append(self.path)
            if self.path.startswith("/redirect"):
                self.send_response(302)
                self.send_header("Location", "/secret")
                self.end_headers()
            else:
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


# --- issue table ------------------------------------------------------------------------------

def test_issue_symlink_out_of_the_pack_is_refused_naming_link_and_target(pack, bytes_read):
    (pack / "rules").mkdir()
    (pack / "rules" / "leak.md").symlink_to(pack.parent / "secret.txt")
    (pack / "tables" / "outside.yaml").symlink_to("/etc/hostname")
    assert errors_of(pack) == [
        f"pack/rules/leak.md:1: refused to read: pack/rules/leak.md is a link to {pack.parent / 'secret.txt'}, outside the pack",
        "pack/tables/outside.yaml:1: refused to read: pack/tables/outside.yaml is a link to /etc/hostname, outside the pack",
    ]
    assert bytes_read["bytes"] == len(D6)  # only mood.yaml was read: 0 bytes from outside


def test_issue_a_linked_tables_folder_outside_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "mood.yaml").write_text(D6)
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "tables").symlink_to(tmp_path / "elsewhere")
    assert errors_of(tmp_path / "pack") == [
        f"pack/tables:1: refused to read: pack/tables is a link to {tmp_path / 'elsewhere'}, outside the pack"]


def test_issue_a_link_inside_the_pack_is_followed(pack):
    (pack / "tables" / "alias.yaml").symlink_to(pack / "tables" / "mood.yaml")
    assert errors_of(pack) == [  # read (so checked), not refused
        "pack/tables/alias.yaml:1: table 'mood' is in a file named 'alias.yaml' (the file must be 'mood.yaml')",
        "pack/tables/mood.yaml:1: duplicate table id 'mood' (first defined at pack/tables/alias.yaml:1)"]


@pytest.mark.slow  # validates the whole project content beside the pack
def test_issue_validate_refuses_a_leak_in_the_cli(pack):
    (pack / "notes.md").symlink_to("/etc/hostname")
    status, out, err = run("validate", "--content", str(pack))
    assert status == 1 and out == ""
    assert "pack/notes.md is a link to /etc/hostname, outside the pack" in err
    assert "Traceback" not in err


@pytest.mark.slow
def test_issue_a_fifo_never_blocks(tmp_path):
    """Run in a child process with a bound, so a regression fails instead of hanging the suite."""
    root = tmp_path / "pack"
    (root / "tables").mkdir(parents=True)
    os.mkfifo(root / "tables" / "fifo.yaml")
    child = subprocess.run([sys.executable, "-m", "dungeonpress", "validate", "--content", str(root)],
                           capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert child.returncode == 1
    assert child.stderr.splitlines()[0] == "pack/tables/fifo.yaml:1: refused to read: not a regular file"


def test_issue_device_links_and_huge_files_read_at_most_limit_plus_one(pack, bytes_read):
    (pack / "tables" / "zero.yaml").symlink_to("/dev/zero")
    with open(pack / "tables" / "huge.yaml", "wb") as handle:  # sparse: 50 MB on paper, nothing on disk
        handle.truncate(50_000_000)
    assert errors_of(pack) == [
        "pack/tables/huge.yaml:1: refused to read: 50000000 bytes, larger than 2000000",
        "pack/tables/zero.yaml:1: refused to read: pack/tables/zero.yaml is a link to /dev/zero, outside the pack",
    ]
    assert bytes_read["bytes"] == len(D6)


def test_sealed_reader_stops_at_limit_plus_one(tmp_path, bytes_read):
    (tmp_path / "f").write_bytes(b"x" * 100)
    assert sealed.read_bytes(tmp_path / "f", [tmp_path], 100) == b"x" * 100
    bytes_read["bytes"] = 0
    with pytest.raises(sealed.Refused, match="100 bytes, larger than 99"):
        sealed.read_bytes(tmp_path / "f", [tmp_path], 99)
    assert bytes_read["bytes"] == 0  # fstat saw the size first
    with pytest.raises(sealed.Refused, match="not a regular file"):
        sealed.read_bytes(Path("/dev/zero"), [Path("/dev")], 10)


def test_issue_out_tree_clean_up_removes_no_foreign_file(tmp_path):
    out = tmp_path / "out"
    foreign = [out / ".notes.part", out / "deep" / ".cache.part", out / ".x.pdf.part", out / "x.pdf.dp-1-a.part"]
    for path in foreign:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("theirs")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = out / f".x.pdf.dp-{dead.stdout.strip()}-abc.part"  # ours, left by a killed build
    live = out / f".x.pdf.dp-{os.getppid()}-abc.part"  # ours, of a build still running
    stale.write_text("old")
    live.write_text("running")
    written = build.write_outputs(out, [Output("x.pdf", b"%PDF-1.7\n%%EOF\n")])
    assert written == [out / "x.pdf"]
    assert all(path.read_text() == "theirs" for path in foreign)  # 0 foreign files removed
    assert live.exists() and not stale.exists()  # a concurrent build's temp survives; a dead one's goes


@pytest.mark.parametrize("where", ["/", "/etc", "/usr", "/usr/bin", "/home", "~"])
def test_issue_out_system_folders_are_refused(where, monkeypatch):
    monkeypatch.setattr(build, "load_content", lambda *a: pytest.fail("content was loaded"))
    status, out, err = run("sheet", "--out", os.path.expanduser(where))
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and ("system folder" in err or "home folder" in err)


def test_issue_out_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "f").write_text("x")
    status, _, err = run("sheet", "--out", str(tmp_path / "f"))
    assert (status, err) == (2, f"dungeonpress: error: --out {tmp_path / 'f'} is a file, not a folder\n")


def test_issue_hostile_tables_give_one_line_each(monkeypatch):
    """A huge range, a 5,000-digit number, an alias bomb, a python tag… (E1, E2, E3, E5, S12)."""
    monkeypatch.chdir(FIXTURES)
    status, out, err = run("validate", "--content", "hostile_tables")
    assert status == 1 and out == ""
    assert err == (FIXTURES / "hostile_tables" / "expected-errors.txt").read_text()
    assert not (FIXTURES / "pwned").exists()  # S12: nothing executed


@pytest.mark.slow  # validates thousands of rows
def test_issue_a_100kb_row_and_too_many_rows_are_content_errors(pack):
    (pack / "tables" / "mood.yaml").write_text(D6.replace("1: Grim", "1: " + "word " * 20_000))
    rows = "".join(f"  - r{n}\n" for n in range(5000))
    (pack / "tables" / "many.yaml").write_text(f"id: many\ntitle: M\ndie: none\nsource: core\ncolumns: {{t: T}}\nrows:\n{rows}")
    assert errors_of(pack) == [
        "pack/tables/many.yaml:6: table 'many' has 5000 rows (at most 200)",
        "pack/tables/mood.yaml:7: row 1 of table 'mood' is 99999 characters long (at most 1000)",
    ]


@pytest.mark.parametrize("argv, message", [
    (["character", "--count", "100000"], "--count must be a whole number from 1 to 100 (got 100000)"),
    (["character", "--count", "0"], "--count must be a whole number from 1 to 100 (got 0)"),
    (["dungeon", "--count", "37"], "--count must be a whole number from 1 to 36 (got 37)"),
    (["dungeon", "--rooms", "1000"], "--rooms must be a whole number from 3 to 30 (got 1000)"),
    (["paperogue", "--levels", "10"], "--levels must be a whole number from 1 to 9 (got 10)"),
    (["delve", "--turns", "100000"], "--turns must be a whole number from 1 to 200 (got 100000)"),
    (["dunginoes", "--size", "29"], "--size must be a whole number from 2 to 28 (got 29)"),
])
def test_issue_option_caps_exit_two_before_any_work(argv, message, monkeypatch, tmp_path):
    monkeypatch.setattr(build, "load_content", lambda *a: pytest.fail("content was loaded"))
    status, out, err = run(*argv, "--out", str(tmp_path))
    assert (status, out, err) == (2, "", f"dungeonpress {argv[0]}: error: {message}\n")


def test_issue_links_only_to_the_web_mail_and_anchors():
    html = str(render.markdown_html("[n](notes.md) [w](https://example.com/) [m](mailto:a@example.com) [a](#top) "
                                    "[j](javascript:alert(1)) [f](file:///etc/passwd) [u](../x.md)"))
    assert html.count("<a ") == 3
    assert 'href="https://example.com/"' in html and 'href="mailto:a@example.com"' in html and 'href="#top"' in html
    assert "notes.md" not in html and "file:" not in html.replace("[f](file:///etc/passwd)", "")


@pytest.mark.slow  # lays a whole book out
def test_issue_hostile_book_builds_with_its_svg_and_no_file_links(tmp_path, monkeypatch):
    """The rulebook of tests/fixtures/hostile_book: SVG drawn, links sealed, markup and templates as text."""
    import pypdfium2
    from pypdf import PdfReader

    monkeypatch.chdir(tmp_path)
    status, out, err = run("build", "rulebook", "--content", str(FIXTURES / "hostile_book"), "--out", str(tmp_path),
                           "--quiet", "--strict")
    assert status == 0, err
    book = tmp_path / "dungeoneer-rulebook-hostile-book.pdf"  # the pack's name is in every file name
    reader = PdfReader(book)
    uris = [a.get_object()["/A"].get("/URI") for page in reader.pages for a in page.get("/Annots") or []
            if "/A" in a.get_object()]
    assert sorted(u for u in uris if u) == ["https://example.com/", "mailto:a@example.com"]  # no file:/// link
    assert not reader.attachments  # S2
    page_index = next(i for i, p in enumerate(reader.pages) if "<script>alert(1)</script>" in p.extract_text())
    text = reader.pages[page_index].extract_text()
    assert "subclasses()" in text and "{% if" in text and "{% endif" in text  # S8, S10: printed, not run
    bitmap = pypdfium2.PdfDocument(str(book))[page_index].render(scale=0.5).to_pil()
    rgb = bitmap.convert("RGB").tobytes()
    red = sum(1 for i in range(0, len(rgb), 3) if rgb[i] > 200 and rgb[i + 1] < 60 and rgb[i + 2] < 60)
    assert red > 500  # the pack's SVG map is drawn


@pytest.mark.slow
def test_a_chapter_image_outside_the_pack_or_on_the_web_fails_naming_the_file(tmp_path, canary):
    url, hits = canary
    pack = tmp_path / "pack"
    (pack / "rules").mkdir(parents=True)
    (pack / "book.yaml").write_text("title: T\nchapters:\n  - rules/one.md\n")
    (pack / "rules" / "one.md").write_text(f"# One\n\n![a](../../secret.png) ![b]({url}/redirect)\n")
    status, _, err = run("build", "rulebook", "--content", str(pack), "--out", str(tmp_path / "out"), "--quiet")
    assert status == 1
    assert err.endswith(f"one.md: image '../../secret.png' is outside the pack; image '{url}/redirect' "
                        f"is not a file of the pack (refused)\n")
    assert hits == []  # S4: 0 requests at the canary
    assert not (tmp_path / "out").exists()


# --- security checklist -----------------------------------------------------------------------

def test_s1_s2_s5_s7_outside_files_images_attachments_and_imports_are_refused(pack, canary):
    url, hits = canary
    html = (f'<style>@import url("{(pack.parent / "secret.txt").as_uri()}"); p {{ background: url("../secret.txt") }}</style>'
            '<p>x</p><img src="file:///etc/hostname"><img src="file:///dev/zero">'
            '<link rel="attachment" href="file:///etc/hostname">'
            f'<img src="{url}/redirect"><link rel="stylesheet" href="{url}/a.css">')
    with pytest.raises(RenderError) as caught:
        pdf.layout_html(html, base_url=pack, roots=[pack])
    message = str(caught.value)
    for refused in ("secret.txt", "file:///etc/hostname", "file:///dev/zero", f"{url}/redirect", f"{url}/a.css"):
        assert refused in message
    assert hits == []  # S4


def test_s3_fetcher_battery_with_fifo_and_size_cap(pack, tmp_path):
    os.mkfifo(pack / "fifo.css")
    with open(pack / "big.png", "wb") as handle:
        handle.truncate(pdf.MAX_RESOURCE_BYTES + 1)
    (pack / "ok.css").write_text("p { color: red }")
    fetcher = pdf.SealedFetcher([pack])
    assert fetcher.fetch((pack / "ok.css").as_uri()).read() == b"p { color: red }"
    for name in ("fifo.css", "big.png"):
        with pytest.raises(ValueError, match="refused"):
            fetcher.fetch((pack / name).as_uri())
    assert fetcher.refused == [f"{(pack / 'fifo.css').as_uri()} (not a regular file)",
                               f"{(pack / 'big.png').as_uri()} ({pdf.MAX_RESOURCE_BYTES + 1} bytes, larger than "
                               f"{pdf.MAX_RESOURCE_BYTES})"]


def test_s3_loader_and_fetcher_share_one_rule():
    import inspect

    assert "sealed.read_bytes" in inspect.getsource(load.read_text)
    assert "sealed.read_bytes" in inspect.getsource(pdf.SealedFetcher.fetch)
    for module in ("load.py", "validate.py", "pdf.py", "render.py", "build.py"):
        source = (Path(load.__file__).parent / module).read_text()
        assert ".read_bytes()" not in source and ".read_text(" not in source.replace("def read_text(", "") \
            .replace("read_text(path, seal)", "").replace("read_text(path, root)", ""), module


def test_s6_a_pack_cannot_name_stylesheets(pack):
    (pack / "book.yaml").write_text("title: T\nstylesheets: [/etc/evil.css]\nchapters: [rules/a.md]\n")
    (pack / "rules").mkdir()
    (pack / "rules" / "a.md").write_text("# A\n")
    assert errors_of(pack) == ["pack/book.yaml:2: book.yaml has unknown field 'stylesheets' "
                               "(expected one of chapters, subtitle, title)"]


def test_s9_dependency_floors():
    def version(name):
        return tuple(int(p) for p in importlib.metadata.version(name).split(".")[:3] if p.isdigit())

    assert version("jinja2") >= (3, 1, 6)
    assert version("weasyprint") >= (70,)


def test_s11_s13_template_markup_stays_escaped():
    html = str(render.markdown_html("<b>x</b> [j](javascript:alert(1)) {{ 7*7 }}"))
    assert "&lt;b&gt;" in html and 'href="javascript' not in html and "{{ 7*7 }}" in html


# --- bad input → clear error ------------------------------------------------------------------

def test_e4_yaml_11_surprises_stay_text(pack):
    (pack / "tables" / "mood.yaml").write_text(D6.replace("1: Grim", "1: NO").replace("2: Tense", "2: 1:30")
                                               .replace("3: Quiet", "3: '1.10'"))
    table = validate_folder(pack).table("mood")
    assert [table.row_for(n).get("mood") for n in (1, 2, 3)] == ["NO", "1:30", "1.10"]


@pytest.mark.slow  # composes a huge YAML scalar
def test_e6_a_huge_scalar_is_a_limit_error(pack):
    (pack / "tables" / "mood.yaml").write_text(D6.replace("1: Grim", "1: " + "x" * 1_000_000))
    assert errors_of(pack) == ["pack/tables/mood.yaml:7: row 1 of table 'mood' is 1000000 characters long (at most 1000)"]


def test_e9_a_missing_image_fails_naming_the_url(pack):
    with pytest.raises(RenderError, match=r"refused to read: .*/pack/missing\.png \(no such file\)"):
        pdf.layout_html('<img src="missing.png">', base_url=pack, roots=[pack])


def test_e12_deep_markdown_is_a_clean_error_or_renders():
    html = render.markdown_html("> " * 2000 + "deep")
    try:
        pdf.layout_html(str(html), base_url=TEMPLATES_DIR, roots=[TEMPLATES_DIR])
    except RenderError as exc:
        assert "nested too deeply" in str(exc)


def test_e13_bytes_that_are_not_text_name_the_file(pack):
    (pack / "tables" / "mood.yaml").write_bytes(D6.encode() + b"\xff\n")
    assert errors_of(pack) == ["pack/tables/mood.yaml:13: byte 0xff is not UTF-8 text (save the file as UTF-8)"]


def test_a_missing_content_folder_is_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, _, err = run("validate", "--content", "nowhere")
    assert (status, err) == (1, "nowhere:1: content folder does not exist (expected a folder of YAML files)\n"
                                "build failed: 1 content error\n")


# --- faults -----------------------------------------------------------------------------------

def test_f1_disk_full_keeps_the_old_pdf_and_names_the_file(tmp_path, monkeypatch):
    (tmp_path / "x.pdf").write_bytes(b"old")

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(build.os, "fsync", full)
    monkeypatch.setattr(cli.build, "run_command",
                        lambda command, ctx, options, out, **_: build.write_outputs(out, [Output("x.pdf", b"%PDF-\n%%EOF")]))
    status, _, err = run("sheet", "--out", str(tmp_path), "--quiet")
    assert (status, err) == (1, f"error: {tmp_path / 'x.pdf'}: No space left on device\n")
    assert (tmp_path / "x.pdf").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.pdf"]  # no temp left


def test_f3_every_truncation_is_caught():
    data = pdf.html_to_pdf("<p>hello</p>", base_url=TEMPLATES_DIR, roots=[TEMPLATES_DIR])[0]
    build.verify_pdf(Output("x.pdf", data))
    for tenth in range(1, 10):
        with pytest.raises(RuntimeError, match="incomplete"):
            build.verify_pdf(Output("x.pdf", data[: len(data) * tenth // 10]))


def test_f9_fatal_fetch_errors_are_caught(monkeypatch):
    from weasyprint.urls import FatalURLFetchingError

    def fatal(self, url, headers=None):
        raise FatalURLFetchingError("stop")

    monkeypatch.setattr(pdf.SealedFetcher, "fetch", fatal)
    with pytest.raises(RenderError, match="could not fetch a resource"):
        pdf.layout_html('<img src="a.png">', base_url=TEMPLATES_DIR, roots=[TEMPLATES_DIR])


def test_an_unexpected_error_is_one_line_not_a_traceback(monkeypatch):
    def boom(*args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(build, "load_content", boom)
    status, _, err = run("validate")
    assert status == 1
    assert err == ("error: unexpected ZeroDivisionError: division by zero (a bug in dungeonpress; "
                   "run with --debug for details and please report it)\n")
    with pytest.raises(ZeroDivisionError):
        run("validate", "--debug")


def test_e11_an_image_claiming_900_megapixels_is_refused_before_decoding(pack):
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 30_000, 30_000, 8, 0, 0, 0, 0)
    (pack / "bomb.png").write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b""))
    with pytest.raises(RenderError, match=r"bomb\.png \(image too large: 30000 x 30000 pixels"):
        pdf.layout_html('<img src="bomb.png">', base_url=pack, roots=[pack])


@pytest.mark.parametrize("argv", [["dungeon", "--seed", "abc"], ["dungeon", "--seed", "9" * 5000], ["build"],
                                  ["character", "--game", "chess"]])
def test_a_usage_mistake_is_one_short_line(argv):
    status, _, err = run(*argv)
    assert status == 2
    assert len(err.splitlines()) == 1 and err.startswith("dungeonpress") and len(err) < 300
