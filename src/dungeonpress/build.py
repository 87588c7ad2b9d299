"""Run the products, write build/ atomically, report what was written."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from dungeonpress import __version__, products, resources
from dungeonpress.errors import RenderError
from dungeonpress.model import Content
from dungeonpress.products.common import BuildContext, Command, Output

CONTENT_DIR = resources.data_dir("content")
TEMPLATES_DIR = resources.data_dir("templates")
DEFAULT_OUT = Path("build")  # in the folder the command is run from, as make and compilers do


def commands() -> list[Command]:
    """Every product command, in the order `build all` runs them (each product registers its own)."""
    return products.commands()


def load_content(user_packs: list[Path] | None = None, cache: Path | None = None, keep: bool = True) -> Content:
    """Read and check the built-in packs and any user packs (which may replace tables by id).

    With `cache` (a build folder's .cache/content, see ContentCache), a model checked earlier from
    the very same files is read back instead of composing the YAML again; any change to a content
    file misses it, so mistakes are always found, and shown as `file:line`, by reading the files.
    A model read from the files is kept there at once, or with `keep=False` only in memory until
    keep_content is called (a run that fails then writes nothing into the build folder).
    """
    user_packs = list(user_packs or [])
    if cache is None:
        return _read_content(user_packs)
    store = ContentCache(cache)
    key = store.key([CONTENT_DIR, *user_packs])
    content = store.get(key)
    if content is None:
        content = _read_content(user_packs)  # ContentErrors propagate: a model with mistakes is never kept
        store.put(key, content, write=keep)
    return content


def keep_content(user_packs: list[Path] | None, cache: Path | None) -> None:
    """Write the model this process read from these packs (load_content with keep=False) into `cache`.

    Nothing is written when the content changed since (its key is new) or the model is already there.
    """
    if cache is None:
        return
    store = ContentCache(cache)
    key = store.key([CONTENT_DIR, *list(user_packs or [])])
    if key in ContentCache._memory and not store._path(key).is_file():
        store.write(key, ContentCache._memory[key])


def _read_content(user_packs: list) -> Content:
    from dungeonpress import load, validate  # loaded when a product is made, not for --help
    raw = load.load_content([CONTENT_DIR])
    first_user = len(raw.packs)
    if user_packs:
        extra = load.load_content(user_packs)
        raw.packs.extend(extra.packs)
        raw.errors.extend(extra.errors)
        raw.ignored.extend(extra.ignored)
        raw.first_user_pack = first_user
    return validate.validate_content(raw)


def pack_roots(folders) -> list[Path]:
    """The folder of every pack below `folders`: each pack is a root of its own, never the folder that holds it."""
    from dungeonpress import load
    return [pack for folder in map(Path, folders) if folder.is_dir() for pack in load.pack_folders(folder)]


PART_CACHE = Path(".cache") / "parts"  # under the build folder: books' laid-out parts kept between runs


class PartCache:
    """Laid-out parts of books (paginate.book.LaidPart) kept under the build folder between runs.

    A part's key says its HTML (the text of every table and chapter it prints is in it); the file name adds
    everything else its PDF depends on: templates with their stylesheets and fonts, our code, library and
    engine versions, and the content's other files (images a chapter shows), so a cached part is only ever
    reused by a build that would lay it out the same, and editing a table changes only the parts that print it.
    Files are written atomically.
    """

    TEXT = (".yaml", ".yml", ".md")  # content whose words reach a part only through its HTML
    MAX_BYTES = 200_000_000  # a part is a few hundred kB; more is not one of ours

    def __init__(self, folder: Path, user_packs=(), engine=None):
        self.folder = Path(folder)
        self._roots = [CONTENT_DIR, *[Path(p) for p in user_packs]]
        self._environment = None
        self._engine = engine or _native_versions  # () -> the engine's C libraries' versions (in a worker, if any)

    def _path(self, key: str) -> Path:
        import hashlib
        import json
        if self._environment is None:  # hashed once, when a book first asks
            from dungeonpress import manifest  # loaded when a book is laid out, not for --help
            described = json.dumps({"templates": manifest.tree_digest(TEMPLATES_DIR),
                                    "source": manifest.tree_digest(manifest.SOURCE_DIR), "versions": manifest.versions(),
                                    "engine": self._engine(),
                                    "media": manifest.media_digest(self._roots, self.TEXT)}, sort_keys=True)
            self._environment = hashlib.sha256(described.encode()).hexdigest()
        return self.folder / (hashlib.sha256(f"{self._environment}/{key}".encode()).hexdigest() + ".laid")

    def __contains__(self, key: str) -> bool:
        return self._path(key).is_file()

    def __getitem__(self, key: str):
        from dungeonpress import sealed
        from dungeonpress.paginate.book import LaidPart
        try:  # read as anything else is: sealed (no link out, no FIFO, a size limit)
            return LaidPart.from_bytes(sealed.read_bytes(self._path(key), [self.folder], self.MAX_BYTES))
        except (sealed.Refused, OSError, ValueError, KeyError) as exc:
            raise KeyError(key) from exc

    def __setitem__(self, key: str, part) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(self._path(key), part.to_bytes())


class PartWorkers:
    """Runs a book's parts (products' `ctx.run_parts(fn, jobs)`) in `processes` worker processes.

    Each worker is a fresh interpreter (spawned, not forked: it holds WeasyPrint and one part at a time, never
    a copy of this process's content), started when a book first asks and kept for the rest of the run. The
    longest documents are sent first so the last one to finish is short. `fn` and the jobs are plain values
    (pickled); results come back in the jobs' order, and a worker's error is raised here.
    """

    def __init__(self, processes: int = 2):
        self.processes = processes
        self._pool = None

    def start(self) -> None:
        """Start the workers now (they import WeasyPrint while this process renders the book's HTML)."""
        if self.processes < 2 or self._pool is not None:
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=_import_engine)
        for _ in range(self.processes):  # a pool starts a process per task waiting: one each
            self._pool.submit(_import_engine)

    def ask(self, fn):
        """fn() in a worker: what only a process with WeasyPrint loaded can answer (this one never loads it)."""
        if self.processes < 2:
            return fn()
        self.start()
        return self._pool.submit(fn).result()

    def __call__(self, fn, jobs: list) -> list:
        if self.processes < 2 or (len(jobs) < 2 and self._pool is None):
            return [fn(job) for job in jobs]
        self.start()
        order = sorted(range(len(jobs)), key=lambda i: -len(getattr(jobs[i], "html", "")))
        from concurrent.futures.process import BrokenProcessPool
        futures = {i: self._pool.submit(fn, jobs[i]) for i in order}
        try:
            return [futures[i].result() for i in range(len(jobs))]
        except BrokenProcessPool:
            self.close()
            raise RenderError("a worker laying out the book's parts stopped (killed, or out of memory: "
                              "see --item-memory)") from None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


def _import_engine() -> None:
    """What a worker does first: import WeasyPrint (through pdf), so its first part pays for no import."""
    from dungeonpress import pdf  # noqa: F401


def _native_versions() -> dict:
    from dungeonpress import pdf
    return pdf.native_versions()


PART_WORKERS = 2  # the machines we build on have two cores


CONTENT_CACHE = Path(".cache") / "content"  # under the build folder: checked content models kept between runs


class ContentCache:
    """Checked content models kept under a build folder, each under a key of everything it was read from.

    The key covers every file of every pack read (the manifest's tree digest, so one edited byte
    misses), where they are and the folder the command runs in (errors and notes name files relative
    to it), and the tool's code, Python and library versions. Files are plain data (model.plain: JSON
    that can only name the model's own classes, never code) behind a header with their key and a
    sha256 of the rest; a file that is not whole, not ours (another user's, a link) or made for
    another key is passed over. The last few are kept; only files named as this class names them
    are ever removed. In one process a model read is also kept in memory (encoded, so each caller
    gets objects of its own), which is what a warm worker reuses from roll to roll.
    """

    FORMAT = 1
    KEEP = 8  # models kept on disk (the built-in content, with and without a user's pack or two, ...)
    MAX_BYTES = 50_000_000  # the built-in content's model is about 0.5 MB
    _NAME = re.compile(r"[0-9a-f]{64}\.json")
    _memory: dict = {}  # key -> encoded model, the last few read or made in this process

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    @staticmethod
    def key(roots) -> str:
        import hashlib
        import json

        from dungeonpress import manifest
        described = {"format": ContentCache.FORMAT, "cwd": os.getcwd(), "code": _code_fingerprint(),
                     "packs": [[str(Path(root).resolve()), manifest.tree_digest(root)] for root in roots]}
        return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def get(self, key: str) -> Content | None:
        """The model kept under `key`, or None (nothing kept, or a file that is not a whole one of ours)."""
        from dungeonpress.model import plain
        body = self._memory.get(key) or self._read(key)
        if body is None:
            return None
        try:
            content = plain.decode(body)
        except plain.NotPlain:
            return None
        if not isinstance(content, Content):
            return None
        self._remember(key, body)
        return content

    def _read(self, key: str) -> bytes | None:
        import hashlib
        import json

        from dungeonpress import sealed
        path = self._path(key)
        try:
            if path.is_symlink() or not _ours(path.stat()):
                return None
            data = sealed.read_bytes(path, [self.folder], self.MAX_BYTES)
        except (OSError, sealed.Refused):
            return None
        header, _, body = data.partition(b"\n")
        try:
            head = json.loads(header)
        except ValueError:
            return None
        expected = {"format": self.FORMAT, "key": key, "sha256": hashlib.sha256(body).hexdigest()}
        return body if head == expected else None

    def put(self, key: str, content: Content, *, write: bool = True) -> None:
        """Keep `content` under `key`: in memory, and on disk unless `write` is False."""
        from dungeonpress.model import plain
        try:
            body = plain.encode(content)
        except plain.NotPlain:
            return  # a model holding something the format does not know: read from the files every time
        self._remember(key, body)
        if write:
            self.write(key, body)

    def write(self, key: str, body: bytes) -> None:
        """The encoded model on disk, atomically (a folder that cannot be written only means no cache)."""
        import hashlib
        import json
        header = json.dumps({"format": self.FORMAT, "key": key, "sha256": hashlib.sha256(body).hexdigest()},
                            sort_keys=True).encode()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomic(self._path(key), header + b"\n" + body, mode=0o600)
            self._prune()
        except OSError:
            pass

    def _remember(self, key: str, body: bytes) -> None:
        memory = type(self)._memory
        memory.pop(key, None)
        memory[key] = body
        while len(memory) > 4:
            memory.pop(next(iter(memory)))

    def _prune(self) -> None:
        """Remove all but the KEEP newest models (only files named as this class names them)."""
        kept = []
        for name in os.listdir(self.folder):
            path = self.folder / name
            if self._NAME.fullmatch(name) and path.is_file() and not path.is_symlink():
                kept.append((path.stat().st_mtime_ns, name))
        for _, name in sorted(kept, reverse=True)[self.KEEP:]:
            (self.folder / name).unlink(missing_ok=True)


def _code_fingerprint() -> dict:
    """What a checked model depends on besides the content: our code (the validator, the schemas) and versions.

    Read once a process: the code a process runs is the code it imported.
    """
    global _CODE
    if _CODE is None:
        from dungeonpress import manifest
        _CODE = {"source": manifest.tree_digest(manifest.SOURCE_DIR), "versions": manifest.versions()}
    return _CODE


_CODE: dict | None = None


def _ours(stat) -> bool:
    """A file this user made and no one else may change (another user's file in a shared folder is not read)."""
    if not hasattr(os, "getuid"):
        return True
    return stat.st_uid == os.getuid() and not stat.st_mode & 0o022


def read_seeds(path: Path, *, max_digits: int, max_seeds: int) -> list[int]:
    """The seeds a `--seeds` file lists: one whole number a line, blank lines and `#` comments skipped.

    UsageError, one line naming FILE:LINE, for a line that is not a seed or a seed listed twice (two
    outputs of one name); for a file that is missing, not a regular file, too big or lists none.
    """
    from dungeonpress import sealed
    from dungeonpress.errors import UsageError
    shown, path = str(path), Path(path)
    if not path.is_file():  # a FIFO or a device would block or never end
        raise UsageError(f"--seeds {shown}: no such file" if not path.exists() else f"--seeds {shown}: not a regular file")
    try:  # read as content is: no link out of its folder, no special file, a size limit
        text = sealed.read_bytes(path, [path.parent], max_seeds * (max_digits + 2) + 1_000_000).decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"--seeds {shown}: not UTF-8 text (one seed a line)") from None
    except sealed.Refused as exc:
        raise UsageError(f"--seeds {shown}: refused: {exc}") from None
    except OSError as exc:
        raise UsageError(f"--seeds {shown}: {exc.strerror or exc}") from None
    seeds, first = [], {}
    for number, line in enumerate(text.splitlines(), 1):
        word = line.split("#", 1)[0].strip()
        if not word:
            continue
        if not (word.isascii() and word.isdigit() and len(word) <= max_digits):
            raise UsageError(f"--seeds {shown}:{number}: {word[:40]!r} is not a seed (a whole number of at most "
                             f"{max_digits} digits)")
        seed = int(word)
        if seed in first:
            raise UsageError(f"--seeds {shown}:{number}: seed {seed} is listed twice (first on line {first[seed]})")
        first[seed] = number
        seeds.append(seed)
        if len(seeds) > max_seeds:
            raise UsageError(f"--seeds {shown}:{number}: more than {max_seeds:,} seeds (split the file)")
    if not seeds:
        raise UsageError(f"--seeds {shown}: lists no seeds (one whole number a line)")
    return seeds


@contextlib.contextmanager
def folder_lock(folder: Path):
    """Hold an exclusive lock on `folder` while the block runs (runs writing one folder at once take turns).

    The lock is a file this tool makes, `.cache/lock`; where the system has no flock the block just runs.
    """
    try:
        import fcntl
    except ImportError:
        yield
        return
    lock = Path(folder) / ".cache" / "lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def context_for(content: Content, *, seed=None, progress=None, on_item=None, user_packs=(), strict: bool = False,
                theme: str = "standard", out_dir: Path = DEFAULT_OUT, max_pages: int | None = None,
                keep_parts: bool = False) -> BuildContext:
    """What every product gets: the content, the folders it may read, the seed and the options common to all."""
    roots = (TEMPLATES_DIR, *pack_roots([CONTENT_DIR, *user_packs]))
    # HTML outputs link their stylesheets relative to where they are written, and only when both sit
    # in the folder the command runs from (a checkout): no path of the building machine gets written.
    here, out, templates = Path.cwd().resolve(), Path(out_dir).resolve(), TEMPLATES_DIR.resolve()
    inside = out.is_relative_to(here) and templates.is_relative_to(here)
    href = Path(os.path.relpath(templates, out)).as_posix() if inside else ""
    # `keep_parts`: books reuse the parts an earlier run laid out into the same folder (an edit re-lays its part).
    workers = PartWorkers(PART_WORKERS) if keep_parts else None
    cache = PartCache(Path(out_dir) / PART_CACHE, user_packs, lambda: workers.ask(_native_versions)) if keep_parts else None
    return BuildContext(content=content, templates_dir=TEMPLATES_DIR, roots=tuple(roots), seed=seed,
                        version=__version__, progress=progress, on_item=on_item, strict=strict, theme=theme, templates_href=href,
                        packs_label=packs_label(user_packs), max_pages=max_pages,
                        part_cache=cache, run_parts=workers)


def packs_label(user_packs) -> str:
    """The user's packs as a file-name part ("mypack", "a-b"): their folder names, lower case, safe anywhere."""
    names = [re.sub(r"[^a-z0-9]+", "-", Path(p).resolve().name.lower()).strip("-") or "pack" for p in user_packs]
    return "-".join(names)[:40].strip("-")


@dataclass
class BuildReport:
    written: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    sizes: list = field(default_factory=list)  # bytes of each written file
    pages: list = field(default_factory=list)  # pages of each written file (0: not a PDF, or not counted)


def make(command: Command, ctx: BuildContext, options, *, count_pages: bool = False) -> tuple[list, list, dict]:
    """Make every output of one command, named for the run (its look, its packs): (outputs, warnings, {PDF name:
    pages}). The one way a product is run, in this process (`dungeonpress NAME`) or in a worker (`build all`,
    --batch); nothing is written here."""
    outputs = [Output(ctx.named(output.name), output.data) for output in command.run(ctx, options)]
    pages = {}
    if count_pages:
        from dungeonpress import impose  # pikepdf counts them; only for a run's summary
        pages = {output.name: impose.page_count(output.data) for output in outputs if output.kind == "pdf"}
    return outputs, list(ctx.warnings), pages


def run_command(command: Command, ctx: BuildContext, options, out_dir: Path, *,
                count_pages: bool = False) -> BuildReport:
    """Make every output of one command, then write them all (nothing is written if making fails)."""
    try:
        outputs, warnings, pages = make(command, ctx, options, count_pages=count_pages)
    finally:
        if isinstance(ctx.run_parts, PartWorkers):  # its workers are done with this command's book
            ctx.run_parts.close()
    report = BuildReport(warnings=warnings)
    report.written = write_outputs(out_dir, outputs)
    report.sizes = [len(output.data) for output in outputs]
    report.pages = [pages.get(output.name, 0) for output in outputs]
    return report


def write_outputs(out_dir: Path, outputs: list[Output]) -> list[Path]:
    """Write a set of outputs all or nothing: every file to a temp file beside it first, then rename them all.

    Every PDF is checked and every folder made (and found writable) before the first byte is
    written; then each file goes to its own temp file (fsynced). Only when every temp file is
    whole are they renamed over the old files, so a failure part-way (a full disk, a name the
    file system refuses) leaves the old set as it was and no temp file behind.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    for output in outputs:
        if output.kind == "pdf":
            verify_pdf(output)
    for folder in sorted({(out_dir / output.name).parent for output in outputs}):
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            raise PermissionError(errno.EACCES, "cannot write in this folder", str(folder))
    for output in outputs:
        target = out_dir / output.name
        if target.is_dir() and not target.is_symlink():
            raise IsADirectoryError(errno.EISDIR, "a folder is in the way of this output", str(target))
    staged: list[tuple[str, Path]] = []
    try:
        for output in outputs:
            target = out_dir / output.name
            remove_stale_temps(target)
            try:
                staged.append((write_temp(target, output.data), target))
            except OSError as exc:
                if exc.filename is None:  # e.g. ENOSPC from write or fsync: say which file it was
                    exc.filename = str(target)
                raise
    except BaseException:
        for temp, _ in staged:
            Path(temp).unlink(missing_ok=True)
        raise
    for index, (temp, target) in enumerate(staged):
        try:
            os.replace(temp, target)
        except BaseException:
            for later, _ in staged[index:]:
                Path(later).unlink(missing_ok=True)
            raise
    for folder in sorted({target.parent for _, target in staged}):
        _fsync_folder(folder)
    return [target for _, target in staged]


def write_atomic(target: Path, data: bytes, *, mode: int | None = None) -> None:
    """One file: temp file beside it, fsync, rename over the old one, fsync the folder (`mode`: its permissions)."""
    temp = write_temp(target, data, mode=mode)
    try:
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _fsync_folder(target.parent)


def write_temp(target: Path, data: bytes, *, mode: int | None = None) -> str:
    """`data` in a new fsynced temp file beside `target` (named so remove_stale_temps knows it); its path."""
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=_temp_prefix(target) + f"{os.getpid()}-", suffix=".part")
    try:
        # mkstemp makes 0600; outputs are ordinary files
        os.fchmod(fd, 0o666 & ~current_umask() if mode is None else mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return temp


def _fsync_folder(folder: Path) -> None:
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def current_umask() -> int:
    """The process's umask (reading it means setting it: it is put straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def verify_pdf(output: Output) -> None:
    """A PDF we are about to write must be whole: header at the start, %%EOF at the end."""
    if not output.data.startswith(b"%PDF-") or b"%%EOF" not in output.data[-1024:]:
        raise RuntimeError(f"{output.name}: PDF is incomplete (bug: refusing to write it)")


def _temp_prefix(target: Path) -> str:
    """Our temp files for `target` are `.NAME.dp-PID-RANDOM.part` beside it: nothing else is ever removed."""
    return f".{target.name}.dp-"


def remove_stale_temps(target: Path) -> list[Path]:
    """Remove temps for `target` left by a killed build (their process is gone); never scan a tree.

    Only names this tool makes for this one output are looked at, in its own folder, and a temp
    whose process still runs belongs to a concurrent build writing the same folder: it is kept.
    """
    prefix = _temp_prefix(target)
    removed = []
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(prefix) and n.endswith(".part")]
    except OSError:
        return removed
    for name in names:
        pid = name[len(prefix):].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or process_alive(int(pid)):
            continue
        stale = target.parent / name
        if stale.is_file() and not stale.is_symlink():
            stale.unlink(missing_ok=True)
            removed.append(stale)
    return removed


def process_alive(pid: int) -> bool:
    """Whether process `pid` still runs (a stale temp file or folder names the pid that made it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive, and not ours to judge
        return True
    return True


# Folders a build must never write into directly (it would scatter files among the system's own).
_SYSTEM_FOLDERS = ("/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/opt", "/proc",
                   "/root", "/run", "/sbin", "/srv", "/sys", "/usr", "/var", "/Users", "/System", "/Library",
                   "/Applications")


def out_problem(out: Path) -> str | None:
    """Why `--out` may not be used (a file, or a system or home folder itself), or None when it may."""
    out = Path(out).expanduser()
    if out.exists() and not out.is_dir():
        return f"--out {out} is a file, not a folder"
    real = out.resolve()
    system = {Path(p).resolve() for p in _SYSTEM_FOLDERS}
    home = Path.home().resolve()
    if real in system or real == home or real.parent == Path("/usr") or real.parent == Path("/var"):
        what = "your home folder" if real == home else "a system folder"
        return f"--out {out} is {what}; give a folder of its own (for example build/)"
    return None
