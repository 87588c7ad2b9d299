"""HTTP requests → the preview page, build-folder files, thumbnails, roll jobs and reload events (127.0.0.1 only)."""

from __future__ import annotations

import mimetypes
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from dungeonpress import preview
from dungeonpress.serve.page import render as render_page
from dungeonpress.serve.jobs import JOBS_DIR, BadRoll, RollRequest, Runner
from dungeonpress.serve.paths import Refused, inside
from dungeonpress.serve.watch import Watcher

HOST = "127.0.0.1"  # never another interface: the page runs builds for whoever can reach it
KEEPALIVE = 15  # seconds between comments on the event stream, so proxies and browsers keep it open
MAX_FORM = 4096
THUMB_CACHE = 256
THUMB_WIDTH = 320  # px: twice the card's width, so thumbnails stay sharp on dense screens


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
        self.watched = [Path(p) for p in watched]
        self.watcher = Watcher(self.watched, self.content_changed)
        self._thumbs: dict = {}
        self._thumbs_lock = threading.Lock()

    def handle_error(self, request, client_address):
        # A page that reloads drops its half-loaded thumbnails: a closed connection is not an error.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"

    def start(self) -> None:
        """Check the content once, then watch it; call before serve_forever()."""
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
        if current is not None and current.roll is not None:
            self.runner.roll(current.roll, reason=reason)

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
            if any(part.startswith(".") for part in rel.parts):  # roll folders, temp files
                continue
            try:
                found.append((rel.as_posix(), path.stat().st_size))
            except OSError:
                continue  # replaced while we looked
        return found

    def thumbnail(self, path: Path) -> bytes:
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        with self._thumbs_lock:
            if key in self._thumbs:
                return self._thumbs[key]
        data = preview.thumbnail(path, width=THUMB_WIDTH)
        with self._thumbs_lock:
            if len(self._thumbs) >= THUMB_CACHE:
                self._thumbs.clear()
            self._thumbs[key] = data
        return data


class Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    server_version = "dungeonpress"
    sys_version = ""

    def do_GET(self):
        path = urlsplit(self.path).path
        if not self._host_ok():
            return self._send(403, b"wrong host\n", "text/plain")
        if path == "/":
            return self._page()
        if path == "/events":
            return self._events()
        for prefix, kind in (("/files/", "file"), ("/thumb/", "thumb")):
            if path.startswith(prefix):
                return self._file(path[len(prefix):], kind)
        self._send(404, b"not found\n", "text/plain")

    def do_POST(self):
        if not self._host_ok() or not self._origin_ok():
            return self._send(403, b"wrong host or origin\n", "text/plain")
        if urlsplit(self.path).path != "/roll":
            return self._send(404, b"not found\n", "text/plain")
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_FORM:
            return self._send(413, b"form too large\n", "text/plain")
        form = parse_qs(self.rfile.read(length).decode("utf-8", "replace"))
        try:
            self.server.runner.roll(RollRequest.from_form(form))
            self.server.notice = ""
        except BadRoll as exc:
            self.server.notice = f"Not rolled: {exc}"
        self.send_response(303)
        self.send_header("Location", "/#current")
        self.send_header("Content-Length", "0")
        self.end_headers()

    # -- answers

    def _page(self):
        server = self.server
        # The state number first: if a build ends while the page is made, the page shows it or reloads.
        generation = server.hub.generation
        rolls = server.runner.rolls()
        current = rolls[-1] if rolls else None
        history = list(reversed(rolls[:-1]))[:8]
        html = render_page(generation=generation, build_label=_shown(server.out_dir) + "/",
                           products=server.products(), current=current, history=history,
                           check=server.runner.latest_check(), watched=[_shown(p) + "/" for p in server.watched],
                           notice=server.notice, defaults=current.roll if current and current.roll else None)
        self._send(200, html.encode(), "text/html; charset=utf-8", cache=False)

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
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page went away

    def _file(self, rel: str, kind: str):
        try:
            path = inside(self.server.out_dir, rel)
        except Refused as exc:
            return self._send(exc.status, f"{exc}\n".encode(), "text/plain")
        except UnicodeDecodeError:
            return self._send(404, b"bad path\n", "text/plain")
        if kind == "thumb":
            if path.suffix.lower() != ".pdf":
                return self._send(404, b"thumbnails are for PDFs\n", "text/plain")
            try:
                return self._send(200, self.server.thumbnail(path), "image/png")
            except (OSError, preview.PreviewError):
                return self._send(404, b"no thumbnail\n", "text/plain")
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        self._send(200, path.read_bytes(), kind, cache=False)

    def _send(self, status: int, body: bytes, kind: str, cache: bool = True):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
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


def _shown(path: Path) -> str:
    """A path relative to the working directory when it is under it, else absolute."""
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(Path(path).resolve())
