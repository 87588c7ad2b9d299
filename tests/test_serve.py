"""`dungeonpress serve`: loopback only, refused paths, form checks, out-of-process builds, and the page in Chromium."""

from __future__ import annotations

import http.client
import io
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pypdf
import pytest

from dungeonpress.cli import main
from dungeonpress.serve import PreviewServer
from dungeonpress.serve.jobs import RollRequest, Runner
from tests.test_preview import blank_pdf

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
BUILD_WAIT_MS = 240_000  # a zine build on a busy two-core machine; the tests wait, they do not time it


# -- a build folder to serve


@pytest.fixture
def build_dir(tmp_path):
    out = tmp_path / "build"
    blank_pdf(out / "tables.pdf", pages=2)
    (out / "exports").mkdir()
    (out / "exports" / "t.json").write_text("{}")
    (tmp_path / "secret.txt").write_text("not yours")
    (out / "link-out.txt").symlink_to(tmp_path / "secret.txt")
    (out / "dir-out").symlink_to(tmp_path)
    return out


# -- the server


def test_the_server_never_imports_weasyprint():
    code = "import sys, dungeonpress.serve; print(sorted(m for m in sys.modules if m.split('.')[0] == 'weasyprint' " \
           "or m in ('dungeonpress.pdf', 'dungeonpress.build')))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert run.stdout.strip() == "[]"


def test_serve_has_no_host_option(capsys):
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    assert "error: unknown option --host" in capsys.readouterr().err


# -- a running server (in this process, on a free port)


class Live:
    def __init__(self, server: PreviewServer):
        self.server = server
        self.port = server.server_address[1]
        self.url = server.url

    def get(self, path: str, headers=None):
        """A raw request: the path is sent exactly as given (no normalising, unlike a browser)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request("GET", path, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()


@pytest.fixture
def serve(tmp_path):
    started = []

    def start(out_dir: Path, packs=(), watched=(), **options) -> Live:
        server = PreviewServer(0, out_dir, list(packs), list(watched), timeout=options.pop("timeout", 300), **options)
        server.start()
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        thread.start()
        started.append((server, thread))
        return Live(server)

    yield start
    for server, thread in started:
        server.shutdown()
        server.stop()
        server.server_close()
        thread.join(timeout=10)


def _non_loopback_address():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET: nothing is sent, it only picks the outgoing interface
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


@pytest.mark.slow
def test_the_server_listens_on_loopback_only(serve, build_dir):
    live = serve(build_dir)
    assert live.server.socket.getsockname()[0] == "127.0.0.1"
    assert live.get("/")[0] == 200
    other = _non_loopback_address()
    if other is None:
        pytest.skip("this machine has no non-loopback address to try")
    with pytest.raises(OSError):
        socket.create_connection((other, live.port), timeout=5).close()


@pytest.mark.slow
@pytest.mark.parametrize("path, status", [
    ("/files/../secret.txt", 403), ("/files/%2e%2e/secret.txt", 403), ("/files/..%2F..%2Fetc%2Fpasswd", 403),
    ("/files//etc/passwd", 403), ("/files/link-out.txt", 403), ("/files/dir-out/secret.txt", 403),
    ("/thumb/../secret.txt", 403), ("/files/%252e%252e/secret.txt", 404), ("/files/%ff", 404),
    ("/../secret.txt", 404), ("/nothing", 404),
])
def test_the_server_refuses_paths_outside_the_build_folder(serve, build_dir, path, status):
    live = serve(build_dir)
    got, body = live.get(path)
    assert got == status
    assert b"not yours" not in body


@pytest.mark.slow
def test_the_server_serves_the_build_folder_and_checks_host_and_origin(serve, build_dir):
    live = serve(build_dir)
    status, body = live.get("/files/tables.pdf")
    assert status == 200 and body.startswith(b"%PDF")
    status, body = live.get("/thumb/tables.pdf")
    assert status == 200 and body.startswith(b"\x89PNG")
    status, body = live.get("/")
    assert status == 200 and b"/thumb/tables.pdf" in body and b"link-out" not in body
    assert live.get("/", headers={"Host": "attacker.example:80"})[0] == 403  # DNS rebinding
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=30)
    conn.request("POST", "/roll", body="what=dungeon&seed=1", headers={
        "Origin": "http://attacker.example", "Content-Type": "application/x-www-form-urlencoded"})
    assert conn.getresponse().status == 403
    conn.close()
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=30)
    conn.request("POST", "/roll", body="what=dungeon&seed=1&rooms=99", headers={
        "Origin": live.url.rstrip("/"), "Content-Type": "application/x-www-form-urlencoded"})
    assert conn.getresponse().status == 303
    conn.close()
    assert live.server.runner.rolls() == []
    assert b"Not rolled: rooms 99 is out of range (3-30)" in live.get("/")[1]


def _fake_python(tmp_path: Path, script: str) -> str:
    """Stands in for `python -m dungeonpress …`: the server's builds are only ever subprocesses."""
    fake = tmp_path / "fake-python"
    fake.write_text("#!/bin/sh\n" + script + "\n")
    fake.chmod(0o755)
    return str(fake)


@pytest.mark.slow
def test_a_slow_build_does_not_block_the_page(serve, build_dir, tmp_path):
    flag = tmp_path / "let-it-finish"
    python = _fake_python(tmp_path, f'while [ ! -e "{flag}" ]; do sleep 0.05; done; echo "$@" > "$(dirname "$0")/args-$3"')
    live = serve(build_dir, python=python)
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=30)
    conn.request("POST", "/roll", body="what=dungeon&seed=77&rooms=5&paper=letter&layout=zine",
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert conn.getresponse().status == 303
    conn.close()
    job = live.server.runner.latest_roll()
    # The build is waiting on the flag, so it is certainly still running while these requests are answered.
    for _ in range(3):
        status, body = live.get("/")
        assert status == 200 and b"Building" in body and job.state in ("queued", "running")
    flag.touch()
    _wait_for(lambda: job.finished)
    assert job.state == "done"
    args = (tmp_path / "args-dungeon").read_text().split()
    assert args[:2] == ["-m", "dungeonpress"] and args[2:12] == [
        "dungeon", "--seed", "77", "--rooms", "5", "--layout", "zine", "--paper", "letter", "--quiet"]
    assert Path(args[13]).parent == build_dir / ".serve"


@pytest.mark.slow
def test_a_build_past_its_timeout_is_stopped(tmp_path):
    changes = []
    runner = Runner(tmp_path, [], timeout=0.5, on_change=lambda: changes.append(1),
                    python=_fake_python(tmp_path, "sleep 60"))
    job = runner.roll(RollRequest())
    _wait_for(lambda: job.finished)
    assert job.state == "failed"
    assert job.messages == ["error: the build took longer than 0.5 s and was stopped"]
    runner.close()
    assert not (tmp_path / ".serve").exists()


def _wait_for(condition, rounds=6000):
    event = threading.Event()
    for _ in range(rounds):
        if condition():
            return
        event.wait(0.05)
    raise AssertionError("gave up waiting")


# -- in Chromium


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium: install Debian's chromium package (.ci/run does as root) to run the "
                    "browser tests")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    profile = tempfile.mkdtemp(prefix="dungeonpress-chromium-")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1100, "height": 820}, accept_downloads=True)
        context.set_default_timeout(BUILD_WAIT_MS)  # thumbnails and downloads wait on builds on a busy machine
        yield context
        context.close()
    shutil.rmtree(profile, ignore_errors=True)


SHOTS = Path(os.environ.get("DUNGEONPRESS_SCREENSHOTS", tempfile.gettempdir())) / "dungeonpress-serve"


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _roll(page, *, seed: str, rooms: str, layout: str = "zine", paper: str = "a4") -> None:
    page.select_option("select[name=what]", "dungeon")
    page.fill("input[name=seed]", seed)
    page.fill("input[name=rooms]", rooms)
    page.select_option("select[name=layout]", layout)
    page.select_option("select[name=paper]", paper)
    page.click("button[type=submit]")


def _download_pdf(page) -> bytes:
    with page.expect_download() as download:
        page.click("#current .downloads a.pdf")
    return Path(download.value.path()).read_bytes()


def _pdf_text(data: bytes) -> str:
    return " ".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)


@pytest.mark.slow
def test_page_lists_products_and_rolls_a_zine(browser, serve, build_dir):
    live = serve(build_dir)
    page = browser.new_page()
    page.goto(live.url)
    card = page.locator("a.card", has_text="tables.pdf")
    assert card.count() == 1
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
    _roll(page, seed="4242", rooms="5", paper="letter")
    page.wait_for_selector("#current[data-state=done]", timeout=BUILD_WAIT_MS)
    _shot(page, "rolled")
    assert "dungeonpress dungeon --seed 4242 --rooms 5 --layout zine --paper letter" in page.inner_text("#current")
    data = _download_pdf(page)
    assert data.startswith(b"%PDF")
    assert "4242" in _pdf_text(data)
    assert page.locator("#current img").evaluate("i => i.naturalWidth") > 0
    page.close()


@pytest.mark.slow
def test_editing_a_table_rebuilds_and_reloads_and_errors_show_as_file_lines(browser, serve, tmp_path):
    pack = tmp_path / "pack"
    (pack / "tables").mkdir(parents=True)
    table = pack / "tables" / "name_places.yaml"
    shutil.copy(ROOT / "content" / "dungeoneer" / "tables" / "name_places.yaml", table)
    live = serve(tmp_path / "build", packs=[pack], watched=[pack])
    page = browser.new_page()
    page.goto(live.url)
    _roll(page, seed="9", rooms="4")
    page.wait_for_selector("#current[data-state=done]", timeout=BUILD_WAIT_MS)
    first = live.server.runner.latest_roll()
    assert "Quoxtunnel" not in _pdf_text(_download_pdf(page))

    # Every place name becomes Quoxtunnel: the file watcher rebuilds the zine and the page reloads itself.
    original = table.read_text()
    table.write_text(re.sub(r"(?m)^  (\d+): .*$", r"  \1: Quoxtunnel", original))
    page.wait_for_function(f"() => {{ const c = document.querySelector('#current[data-state=done]'); "
                           f"return c && !c.innerHTML.includes('{first.folder.name}'); }}", timeout=BUILD_WAIT_MS)
    assert "changed" in page.inner_text("#current")
    assert "Quoxtunnel" in _pdf_text(_download_pdf(page))
    _shot(page, "rebuilt")

    # A content mistake: the page shows file:line instead of the old preview.
    table.write_text(original + "  99: Nowhere\n")
    page.wait_for_selector("#current[data-state=failed]", timeout=BUILD_WAIT_MS)
    errors = page.inner_text("#current .errors")
    assert re.search(r"name_places\.yaml:\d+: table 'name_places': row 99 is outside what a d66 can roll", errors)
    assert page.locator("#current img").count() == 0 and page.locator("#current a.pdf").count() == 0
    _shot(page, "content-error")
    page.close()


@pytest.mark.slow
def test_dungeonpress_serve_runs_a_bare_server_process_and_stops_cleanly(tmp_path):
    out = tmp_path / "build"
    blank_pdf(out / "tables.pdf", pages=1)
    proc = subprocess.Popen([sys.executable, "-m", "dungeonpress", "serve", "--port", "0", "--out", str(out), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = proc.stdout.readline()
        port = int(re.match(r"serving http://127\.0\.0\.1:(\d+)/", line)[1])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/")
        assert conn.getresponse().status == 200
        conn.close()
        # The CLI replaced itself with `python -m dungeonpress.serve`: no WeasyPrint, so no Pango, in the server.
        assert b"dungeonpress.serve" in Path(f"/proc/{proc.pid}/cmdline").read_bytes()
        assert "libpango" not in Path(f"/proc/{proc.pid}/maps").read_text()
    finally:
        proc.terminate()
        code = proc.wait(timeout=60)
    assert code == 0, proc.stderr.read()
    assert not (out / ".serve").exists()


def test_serve_option_mistakes_are_one_line(capsys, tmp_path):
    assert main(["serve", "--port", "70000"]) == 2
    assert main(["serve", "--content", str(tmp_path / "nope")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "error: --port 70000: choose 0-65535", f"error: --content {tmp_path / 'nope'}: no such folder"]
