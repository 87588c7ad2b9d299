"""Run the products, write build/ atomically, report what was written."""

from __future__ import annotations

import contextlib
import errno
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from dungeonpress import __version__, forks, products, resources
# Moved to modules of their own; their names stay here for the callers that use them through build.
from dungeonpress.atomic import _fsync_folder, _temp_prefix, current_umask, write_atomic, write_temp  # noqa: F401
from dungeonpress.cache.content import CONTENT_CACHE, ContentCache, _code_fingerprint  # noqa: F401
from dungeonpress.cache.chapters import CHAPTER_CACHE, ChapterCache
from dungeonpress.cache.parts import PART_CACHE, PartCache  # noqa: F401
from dungeonpress.cache.trees import TREE_CACHE, TreeCache
from dungeonpress.part_workers import PART_WORKERS, KeptPartWorkers, PartWorkers, _import_engine, _native_versions  # noqa: F401
from dungeonpress.model import Content
from dungeonpress.products.common import BuildContext, Command, Output

CONTENT_DIR = resources.data_dir("content")
TEMPLATES_DIR = resources.data_dir("templates")
DEFAULT_OUT = Path("build")  # in the folder the command is run from, as make and compilers do


def commands() -> list[Command]:
    """Every product command, in the order `build all` runs them (each product registers its own)."""
    return products.commands()


def load_content(user_packs: list[Path] | None = None, cache: Path | None = None, keep: bool = True, *,
                 hold: bool = False) -> Content:
    """Read and check the built-in packs and any user packs (which may replace tables by id).

    With `cache` (a build folder's .cache/content, see ContentCache), a model checked earlier from
    the very same files is read back instead of composing the YAML again; any change to a content
    file misses it, so mistakes are always found, and shown as `file:line`, by reading the files.
    A model read from the files is kept there at once, or with `keep=False` only in memory until
    keep_content is called (a run that fails then writes nothing into the build folder).
    Without `cache`, a model this process holds in memory is still read back: a warm worker reads the
    content once (`hold=True`) and each roll, built into a folder of its own, reuses it.
    """
    user_packs = list(user_packs or [])
    if cache is None and not hold and not ContentCache.holds_any():
        return _read_content(user_packs)  # a process's one reading: nothing to look up, nothing worth keeping
    store = ContentCache(cache)  # without a folder: this process's memory only
    key = store.key([CONTENT_DIR, *user_packs])
    content = store.get(key)
    if content is None:
        # Files not edited since give their parsed trees back (.cache/trees beside the model): one edit, one file parsed.
        trees = TreeCache(Path(cache).parent / TREE_CACHE.name, keep=keep) if cache is not None else None
        content = _read_content(user_packs, trees.parse if trees else None)  # ContentErrors propagate: a model
        store.put(key, content, write=keep and cache is not None)           # with mistakes is never kept
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
        store.write(key, ContentCache._memory[key].body)
    TreeCache(Path(cache).parent / TREE_CACHE.name).keep()


def _read_content(user_packs: list, parse=None) -> Content:
    from dungeonpress import load, validate  # loaded when a product is made, not for --help
    raw = load.load_content([CONTENT_DIR], parse)
    first_user = len(raw.packs)
    if user_packs:
        extra = load.load_content(user_packs, parse)
        raw.packs.extend(extra.packs)
        raw.errors.extend(extra.errors)
        raw.ignored.extend(extra.ignored)
        raw.first_user_pack = first_user
    return validate.validate_content(raw)


def pack_roots(folders) -> list[Path]:
    """The folder of every pack below `folders`: each pack is a root of its own, never the folder that holds it."""
    from dungeonpress import load
    return [pack for folder in map(Path, folders) if folder.is_dir() for pack in load.pack_folders(folder)]


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


_KEPT_WORKERS: list = []  # the part workers of a process that builds book after book (keep_part_workers)


def keep_part_workers() -> KeptPartWorkers:
    """Part workers for every book this process builds from now on (serve's book server). They start when the first
    book does (cli._dispatch starts a book's workers before it reads the content), and stay for the next."""
    if not _KEPT_WORKERS:
        _KEPT_WORKERS.append(KeptPartWorkers(PART_WORKERS))
    return _KEPT_WORKERS[0]


def part_workers(out_dir: Path) -> PartWorkers:
    """The worker processes a book built into `out_dir` lays its parts out in (not started yet): two, forked from a fork
    server that imports only what they need (forks.PART_PRELOAD), for a cold book and for an edit alike. An edit's
    chapter and cover then go to two workers: 1.71 s against 1.81 s with one spawned worker (medians of seven,
    alternated). In a process that keeps its workers (keep_part_workers), those."""
    if _KEPT_WORKERS:
        return _KEPT_WORKERS[0]
    return PartWorkers(PART_WORKERS)


def context_for(content: Content, *, seed=None, progress=None, on_item=None, user_packs=(), strict: bool = False,
                theme: str = "standard", out_dir: Path = DEFAULT_OUT, max_pages: int | None = None,
                keep_parts: bool = False, workers: PartWorkers | None = None) -> BuildContext:
    """What every product gets: the content, the folders it may read, the seed and the options common to all.

    `workers` (with `keep_parts`): the part_workers(out_dir) the run started early, before reading the content."""
    roots = (TEMPLATES_DIR, *pack_roots([CONTENT_DIR, *user_packs]))
    # HTML outputs link their stylesheets relative to where they are written, and only when both sit
    # in the folder the command runs from (a checkout): no path of the building machine gets written.
    here, out, templates = Path.cwd().resolve(), Path(out_dir).resolve(), TEMPLATES_DIR.resolve()
    inside = out.is_relative_to(here) and templates.is_relative_to(here)
    href = Path(os.path.relpath(templates, out)).as_posix() if inside else ""
    # `keep_parts`: books reuse the parts an earlier run laid out into the same folder (an edit re-lays its part).
    workers = (workers or part_workers(out_dir)) if keep_parts else None
    cache = PartCache(Path(out_dir) / PART_CACHE, user_packs, lambda: workers.ask(_native_versions)) if keep_parts else None
    return BuildContext(content=content, templates_dir=TEMPLATES_DIR, roots=tuple(roots), seed=seed,
                        version=__version__, progress=progress, on_item=on_item, strict=strict, theme=theme, templates_href=href,
                        packs_label=packs_label(user_packs), max_pages=max_pages,
                        part_cache=cache, run_parts=workers, ask_ahead=forks.ask_ahead if forks.spare_core() else None,
                        chapter_cache=ChapterCache(Path(out_dir) / CHAPTER_CACHE, user_packs) if keep_parts else None)


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


def verify_pdf(output: Output) -> None:
    """A PDF we are about to write must be whole: header at the start, %%EOF at the end."""
    if not output.data.startswith(b"%PDF-") or b"%%EOF" not in output.data[-1024:]:
        raise RuntimeError(f"{output.name}: PDF is incomplete (bug: refusing to write it)")


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
