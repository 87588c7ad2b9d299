"""HTTP requests → the preview page, build-folder files, thumbnails, roll jobs and reload events (127.0.0.1 only)."""

from __future__ import annotations

import mimetypes
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from dungeonpress import resources
from dungeonpress.serve.page import render as render_page, render_document
from dungeonpress.serve.catalog import seeded_products
from dungeonpress.serve.jobs import ROLLS_DIR, Busy, Runner
from dungeonpress.serve.paths import Refused, inside, shown
from dungeonpress.serve.rolls import BadRoll, RollRequest
from dungeonpress.serve.pictures import Pictures, Unreadable
from dungeonpress.serve.watch import Watcher

HOST = "127.0.0.1"  # never another interface: the page runs builds for whoever can reach it
KEEPALIVE = 15  # seconds between comments on the event stream, so proxies and browsers keep it open
MAX_FORM = 4096
READ_TIMEOUT = 10  # seconds a connection may take to send its request (a half-sent one holds a thread)
MAX_CONNECTIONS = 48  # open at once; more are answered 503 at once (event streams count: one per open tab)
RETRY_AFTER = 10  # seconds a refused client is told to wait
# Where a request came from, as the browser says (Sec-Fetch-Site): another site may show a roll's
# URL but not start a build through it; typed, pasted, bookmarked and same-origin URLs may.
FOREIGN_SITES = ("cross-site", "same-site")
KEPT_SHOWN = 20  # kept rolls listed on the page, newest first (the folder holds them all)


class Hub:
    """A state number that goes up whenever something on the page changes; event streams wait on it."""

    def __init__(self):
        self.generation = 0
        self.closing = False
        self._cond = threading.Condition()

    def bump(self) -> None:
        with self._cond:
            self.generation += 1
            self._cond.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        with self._cond:
            self._cond.wait_for(lambda: self.generation != seen or self.closing, timeout=timeout)
            return self.generation

    def close(self) -> None:
        with self._cond:
            self.closing = True
            self._cond.notify_all()


class PreviewServer(ThreadingHTTPServer):
    """The server and its state: build folder, watched folders, build runner, thumbnails."""

    daemon_threads = True  # open event streams must not keep the process alive at shutdown
    block_on_close = False
    request_queue_size = 64  # a burst of connections is taken in and answered (or refused), not left to retry

    def __init__(self, port: int, out_dir: Path, packs: list, watched: list, *, timeout: float,
                 log=None, python: str | None = None):
        super().__init__((HOST, port), Handler)
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.hub = Hub()
        self.log = log
        self.notice = ""
        extra = {"python": python} if python else {}
        self.runner = Runner(self.out_dir, packs, timeout=timeout, on_change=self.hub.bump, **extra)
        self.catalog = seeded_products()
        self.watched = [Path(p) for p in watched]
        self.watcher = Watcher(self.watched, self.content_changed)
        self.pictures = Pictures()
        self._connections = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def process_request(self, request, client_address):
        # One thread per connection, but never more than MAX_CONNECTIONS: the rest are refused at once.
        if not self._connections.acquire(blocking=False):
            _refuse_busy(request)
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._connections.release()

    def handle_error(self, request, client_address):
        # A page that reloads drops its half-loaded thumbnails, and a client that stops sending is cut
        # off by its read timeout: neither is an error worth a traceback.
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"

    def start(self) -> None:
        """Clear what a killed server left, check the content once, then watch it; call before serve_forever()."""
        self.runner.remove_stale_staging()
        self.runner.check("started")
        self.watcher.start()

    def stop(self) -> None:
        self.hub.close()
        self.watcher.stop()
        self.runner.close()

    def content_changed(self, changed: list) -> None:
        reason = "changed " + ", ".join(self._short(Path(p)) for p in changed[:3]) + (" …" if len(changed) > 3 else "")
        current = self.runner.latest_roll()
        self.runner.check(reason)
        if self.runner.latest_book() is not None:  # the rulebook was built here: show the edit in it
            self.runner.book(reason, supersede=True)
        if current is not None and current.roll is not None:
            try:
                self.runner.roll(current.roll, reason=reason, supersede=True)
            except Busy:
                pass  # rolls are waiting already; the page says so, and the next save tries again

    def _short(self, path: Path) -> str:
        """`pack/tables/x.yaml`: a changed file named from the watched folder it is in."""
        for root in self.watched:
            if path.is_relative_to(root.resolve()):
                return (Path(root.resolve().name) / path.relative_to(root.resolve())).as_posix()
        return path.name

    def products(self) -> list:
        found = []
        for path in sorted(self.out_dir.rglob("*.pdf")):
            rel = path.relative_to(self.out_dir)
            if rel.parts[0] == ROLLS_DIR or any(part.startswith(".") for part in rel.parts):  # rolls, temp files
                continue
            try:
                found.append((rel.as_posix(), path.stat().st_size))
            except OSError:
                continue  # replaced while we looked
        return found

    def kept_rolls(self, limit: int = KEPT_SHOWN) -> list:
        """(folder name, [its PDFs]) of the rolls kept in rolls/, newest first: this server's and earlier ones'."""
        try:
            folders = [p for p in (self.out_dir / ROLLS_DIR).iterdir()
                       if p.is_dir() and not p.is_symlink() and not p.name.startswith(".")]
        except OSError:
            return []
        folders.sort(key=lambda p: (-_mtime(p), p.name))
        kept = []
        for folder in folders[:limit]:
            pdfs = sorted(p.relative_to(self.out_dir).as_posix() for p in folder.glob("*.pdf") if p.is_file())
            kept.append((folder.name, pdfs))
        return kept

    def watched_labels(self) -> list:
        """The watched folders as the page names them: the built-in ones by name, never by install path."""
        builtin = {resources.data_dir("content").resolve(): "built-in content",
                   resources.data_dir("templates").resolve(): "built-in templates"}
        return [builtin.get(p.resolve()) or shown(p) + "/" for p in self.watched]


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0  # being replaced by a newer build of the same roll


def _refuse_busy(request) -> None:
    """A short 503 for a connection over the cap, written without reading its request."""
    body = b"too many connections; try again shortly\n"
    head = (f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
            f"Retry-After: {RETRY_AFTER}\r\nConnection: close\r\n\r\n").encode()
    try:
        request.settimeout(1)
        request.sendall(head + body)
    except OSError:
        pass  # it went away: nothing to tell it


class Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    timeout = READ_TIMEOUT  # socket timeout for every read and write of this connection
    server_version = "dungeonpress"
    sys_version = ""

    def do_GET(self):
        parts = urlsplit(self.path)
        path = parts.path
        if not self._host_ok():
            return self._send(403, b"wrong host\n", "text/plain")
        if path == "/":
            return self._page()
        if path == "/roll":
            return self._show_roll(parts.query)
        if path == "/events":
            return self._events()
        for prefix, kind in (("/files/", "file"), ("/thumb/", "thumb"), ("/view/", "view"), ("/page/", "page")):
            if path.startswith(prefix):
                return self._file(path[len(prefix):], kind, parse_qs(parts.query))
        self._send(404, b"not found\n", "text/plain")

    def do_POST(self):
        """A roll form sent in the body: checked, then redirected to its URL (which carries the seed)."""
        if not self._host_ok() or not self._origin_ok():
            return self._send(403, b"wrong host or origin\n", "text/plain")
        if urlsplit(self.path).path == "/book":  # the rulebook, through the build folder's part cache
            self.server.runner.book("asked for")
            return self._redirect("/#book")
        if urlsplit(self.path).path != "/roll":
            return self._send(404, b"not found\n", "text/plain")
        length_text = self.headers.get("Content-Length", "0").strip()
        if not length_text.isdigit() or not length_text.isascii():  # -1, abc, 1e3, blank: never a length
            return self._send(400, b"bad Content-Length: a whole number of bytes is needed\n", "text/plain")
        length = int(length_text)
        if length > MAX_FORM:
            return self._send(413, b"form too large\n", "text/plain")
        try:
            body = self.rfile.read(length)
        except TimeoutError:
            self.close_connection = True
            return  # it stopped sending: nothing to answer
        try:
            roll = RollRequest.from_query(parse_qs(body.decode("utf-8", "replace")), self.server.catalog)
        except BadRoll as exc:
            return self._page(notice=f"Not rolled: {exc}", status=400)
        self._redirect(f"/roll?{roll.query()}")

    # -- answers

    def _show_roll(self, query: str):
        """`/roll?product=…&seed=…`: the roll, made now unless this server has it (a blank seed picks one)."""
        server = self.server
        try:
            roll = RollRequest.from_query(parse_qs(query), server.catalog)
        except BadRoll as exc:
            return self._page(notice=f"Not rolled: {exc}", status=400)
        if query != roll.query():
            # One URL per roll, naming its seed and only the options given: share it, roll it again.
            return self._redirect(f"/roll?{roll.query()}")
        job = server.runner.latest_of(roll)
        if job is None:
            if self.headers.get("Sec-Fetch-Site") in FOREIGN_SITES:
                return self._page(roll=roll, notice="Another site linked to this roll: press Roll to make it.")
            try:
                job = server.runner.roll(roll)
            except Busy as exc:
                return self._page(roll=roll, notice=f"Not rolled: {exc}.", status=429,
                                  headers={"Retry-After": str(exc.retry_after)})
        self._page(roll=roll, current=job)

    def _page(self, *, roll: RollRequest | None = None, current=None, notice: str = "", status: int = 200,
              headers: dict | None = None):
        server = self.server
        # The state number first: if a build ends while the page is made, the page shows it or reloads.
        generation = server.hub.generation
        rolls = server.runner.rolls()
        if current is None and roll is None and rolls:
            current = rolls[-1]
        history = [j for j in reversed(rolls) if j is not current][:8]
        html = render_page(generation=generation, build_label=shown(server.out_dir) + "/",
                           products=server.products(), current=current, history=history,
                           check=server.runner.latest_check(), watched=server.watched_labels(), notice=notice,
                           defaults=roll or (current.roll if current is not None else None),
                           catalog=server.catalog, pages=self._pages_of(current), kept=server.kept_rolls(),
                           book=server.runner.latest_book())
        self._send(status, html.encode(), "text/html; charset=utf-8", cache=False, headers=headers)

    def _pages_of(self, job) -> dict:
        """{PDF: page count} of a finished roll's PDFs (0 for one that cannot be read)."""
        if job is None or job.state != "done":
            return {}
        counts = {}
        for rel in job.outputs:
            if rel.endswith(".pdf"):
                try:
                    counts[rel] = self.server.pictures.page_count(self.server.out_dir / rel)
                except Unreadable:
                    counts[rel] = 0
        return counts

    def _events(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        hub, seen = self.server.hub, None
        try:
            while not hub.closing:
                generation = hub.generation if seen is None else hub.wait(seen, KEEPALIVE)
                if generation != seen:
                    self.wfile.write(f"data: {generation}\n\n".encode())
                    seen = generation
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass  # the page went away

    def _file(self, rel: str, kind: str, query: dict):
        try:
            path = inside(self.server.out_dir, rel)
        except Refused as exc:
            return self._send(exc.status, f"{exc}\n".encode(), "text/plain")
        except UnicodeDecodeError:
            return self._send(404, b"bad path\n", "text/plain")
        if kind == "file":
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return self._send(200, path.read_bytes(), kind, cache=False)
        if path.suffix.lower() != ".pdf":
            return self._send(404, b"pages are shown for PDFs only\n", "text/plain")
        pictures = self.server.pictures
        try:
            if kind == "thumb":
                return self._send(200, pictures.thumbnail(path), "image/png")
            count = pictures.page_count(path)
            if kind == "view":
                html = render_document(path.relative_to(self.server.out_dir.resolve()).as_posix(), count)
                return self._send(200, html.encode(), "text/html; charset=utf-8", cache=False)
            number = (query.get("n") or [""])[0]
            if not number.isdigit() or not 1 <= int(number) <= count:
                return self._send(404, f"no page {number[:20]} (the PDF has {count})\n".encode(), "text/plain")
            return self._send(200, pictures.page(path, int(number) - 1), "image/png")
        except Unreadable:
            return self._send(404, b"this PDF cannot be shown\n", "text/plain")

    def _redirect(self, location: str):
        self.send_response(303)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send(self, status: int, body: bytes, kind: str, cache: bool = True, headers: dict | None = None):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if not cache:
            self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    # -- checks: the page runs builds, so only pages served from here may ask (DNS rebinding, CSRF)

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
        return host in (HOST, "localhost")

    def _origin_ok(self) -> bool:
        origin = self.headers.get("Origin")
        if origin is None or origin == "null":
            return origin is None
        parts = urlsplit(origin)
        return parts.hostname in (HOST, "localhost") and parts.port == self.server.server_address[1]

    def log_message(self, format, *args):
        if self.server.log is not None:
            self.server.log.write(f"{self.address_string()} {format % args}\n")
