"""PDFs read under a budget: hostile files refused in one line by preflight, preview and serve's thumbnails."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from dungeonpress import guard, preview
from dungeonpress.impose import limits
from dungeonpress.cli import main
from tests import hostile_pdfs
from tests.conftest import processes_where
from tests.test_preview import blank_pdf
from tests.test_serve import serve  # noqa: F401 - the running-server fixture

# Each hostile file: how it is made, its size on disk (the figure), and the limit its refusal names.
HOSTILE = {
    "sliver_page": (hostile_pdfs.sliver_page, "page 1 is 0.01 x 14400 pt (each side must be 3 to 14,400 pt)"),
    "repeated_kid": (hostile_pdfs.repeated_kid, "page tree lists a page more than once (a loop or a repeated page)"),
    "nested_forms": (hostile_pdfs.nested_forms, "page 1 draws more than 100,000 form XObjects, counting forms "
                                                "inside forms (limit 100,000)"),
    "deflate_bomb": (hostile_pdfs.deflate_bomb, "stream (object 4) decodes to more than 128 MiB (limit 128 MiB)"),
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    return {name: make(folder / f"{name}.pdf") for name, (make, _) in HOSTILE.items()}


def test_the_hostile_files_are_small(hostile):
    # the figures: a few hundred bytes to a few kilobytes each, as in the report that found them
    sizes = {name: path.stat().st_size for name, path in hostile.items()}
    assert all(size < 3000 for size in sizes.values()), sizes
    # and each claims what it was made to: a million pages, 10^8 drawings, 256 MiB from a kilobyte
    assert b"/Count 1000000" in hostile["repeated_kid"].read_bytes()


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.slow
def test_preflight_refuses_each_hostile_file_in_one_line(hostile, name, capsys):
    assert main(["preflight", str(hostile[name])]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[0] == f"error: {hostile[name]}: refused: {HOSTILE[name][1]}"
    assert err.splitlines()[1] == "preflight: 1 file(s), 1 refused, 0 error(s), 0 warning(s)"
    assert "Traceback" not in err


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.slow
def test_preview_refuses_each_hostile_file_and_writes_nothing(hostile, name, tmp_path, capsys):
    copy = tmp_path / f"{name}.pdf"
    copy.write_bytes(hostile[name].read_bytes())
    assert main(["preview", str(copy)]) == 1
    assert capsys.readouterr().err == f"error: {copy}: refused: {HOSTILE[name][1]}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [copy.name]


def test_an_inherited_mediabox_is_honoured(tmp_path, capsys):
    pdf = hostile_pdfs.inherited_mediabox(tmp_path / "inherited.pdf")
    assert pdf.stat().st_size < 500  # the 438-byte file that gave "unexpected TypeError"
    assert main(["preflight", str(pdf)]) == 0
    out = capsys.readouterr()
    assert out.out == "inherited.pdf:p1: warning: page_size: page is 105.8×141.1 mm, not a paper size the project prints on\n"
    assert limits.check_limits(pdf) == [(0.0, 0.0, 300.0, 400.0)]
    assert main(["preview", str(pdf), "--dpi", "72"]) == 0
    from PIL import Image
    assert Image.open(tmp_path / "inherited-p001.png").size == (300, 400)


# -- the child process: memory, time, a crash, and an exception passed back as it was

def _hog(path, boxes, mib):
    return len(bytearray(mib * 1024 * 1024))


def _sleep(path, boxes, seconds):
    time.sleep(seconds)


def _abort(path, boxes):
    os.kill(os.getpid(), signal.SIGABRT)


def _fail(path, boxes):
    raise ValueError("the job's own error")


@pytest.mark.slow
def test_a_reader_over_its_memory_cap_is_refused(tmp_path):
    pdf = blank_pdf(tmp_path / "a.pdf", pages=1)
    with pytest.raises(guard.Refused, match=r"refused: reading it needed more than 400 MiB \(memory limit\)$"):
        guard.read_pdf(pdf, _hog, 1024, budget=guard.Budget(memory_mb=400))
    assert guard.read_pdf(pdf, _hog, 16, budget=guard.Budget(memory_mb=400)) == 16 * 1024 * 1024


@pytest.mark.slow
def test_a_reader_over_its_time_limit_is_stopped(tmp_path):
    pdf = blank_pdf(tmp_path / "a.pdf", pages=1)
    with pytest.raises(guard.Refused, match=r"refused: reading it took longer than 3 s \(time limit\)$"):
        guard.read_pdf(pdf, _sleep, 600, budget=guard.Budget(seconds=3))


def test_a_reader_that_dies_is_refused_not_fatal(tmp_path):
    pdf = blank_pdf(tmp_path / "a.pdf", pages=1)
    with pytest.raises(guard.Refused, match=r"its reader was stopped \(SIGABRT\), most likely at the memory limit"):
        guard.read_pdf(pdf, _abort)


def test_a_job_error_comes_back_as_it_was(tmp_path):
    with pytest.raises(ValueError, match="the job's own error"):
        guard.read_pdf(blank_pdf(tmp_path / "a.pdf", pages=1), _fail)


# -- preview's pixel budget and its own files

def test_preview_refuses_a_raster_over_the_pixel_budget(tmp_path, capsys):
    pdf = blank_pdf(tmp_path / "big.pdf", pages=1, size=(2000, 2000))
    assert main(["preview", str(pdf), "--dpi", "600"]) == 1
    assert capsys.readouterr().err == (f"error: {pdf}: refused: page 1 at 600 dpi would be 277,788,889 pixels "
                                       f"(budget 50,000,000; lower --dpi)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.pdf"]


def test_preview_never_overwrites_a_file_it_did_not_write(tmp_path, capsys):
    pdf = blank_pdf(tmp_path / "book.pdf", pages=2)
    assert main(["preview", str(pdf), "--dpi", "20"]) == 0  # its own PNGs: written, then written again
    assert main(["preview", str(pdf), "--dpi", "20"]) == 0
    capsys.readouterr()
    mine = tmp_path / "book-p002.png"
    mine.write_bytes(b"a photo of the cat")
    assert main(["preview", str(pdf), "--dpi", "20"]) == 1
    assert capsys.readouterr().err == (f"error: {mine}: exists and was not written by dungeonpress preview; preview "
                                       f"overwrites only its own PNGs (move it, or preview a copy of the PDF elsewhere)\n")
    assert mine.read_bytes() == b"a photo of the cat"
    mine.unlink()
    mine.symlink_to(tmp_path / "book.pdf")
    assert main(["preview", str(pdf), "--dpi", "20"]) == 1
    assert "exists and is not a plain file" in capsys.readouterr().err
    assert pdf.read_bytes().startswith(b"%PDF")


def test_a_tall_page_fits_its_contact_sheet_cell(tmp_path):
    pdf = blank_pdf(tmp_path / "strip.pdf", pages=1, size=(10, 4000))
    made = preview.preview(pdf, dpi=10)
    from PIL import Image
    assert Image.open(made.sheet).size[1] <= 8 + 2 * preview.SHEET_THUMB_WIDTH + 8


# -- serve's thumbnails go through the same path: a bad file fails its own thumbnail only

@pytest.mark.slow
def test_a_hostile_file_fails_only_its_own_thumbnail(serve, hostile, tmp_path):  # noqa: F811
    out = tmp_path / "build"
    blank_pdf(out / "tables.pdf", pages=1)
    (out / "bomb.pdf").write_bytes(hostile["deflate_bomb"].read_bytes())
    with pytest.raises(preview.Refused, match="decodes to more than 128 MiB"):
        preview.thumbnail(out / "bomb.pdf")
    live = serve(out)
    assert live.get("/thumb/bomb.pdf") == (404, b"this PDF cannot be shown\n")
    status, body = live.get("/thumb/tables.pdf")
    assert status == 200 and body.startswith(b"\x89PNG")
    assert live.get("/")[0] == 200


# -- one child reads many files; a file that is refused or stops it never reaches the next

def _pages(path, boxes):
    return len(boxes)


@pytest.mark.slow
def test_one_reader_reads_file_after_file_and_starts_afresh_after_a_refusal(hostile, tmp_path):
    good = blank_pdf(tmp_path / "good.pdf", pages=3)
    with guard.Reader() as reader:
        assert reader.read(good, _pages) == 3
        first = reader.process.pid
        assert reader.read(good, _pages) == 3 and reader.process.pid == first  # the same child, warm
        with pytest.raises(guard.Refused, match="decodes to more than 128 MiB"):
            reader.read(hostile["deflate_bomb"], _pages)
        assert reader.read(good, _pages) == 3 and reader.process.pid != first  # a fresh child


def test_preflight_of_many_files_refuses_the_bad_one_and_checks_the_rest(hostile, tmp_path, capsys):
    good = blank_pdf(tmp_path / "good.pdf", pages=4, size=(420, 595))
    assert main(["preflight", str(hostile["nested_forms"]), str(good)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"error: {hostile['nested_forms']}: refused: page 1 draws more than 100,000")
    assert err[-1] == "preflight: 2 file(s), 1 refused, 0 error(s), 0 warning(s)"


# -- a child per core (guard.read_each): outcomes in the files' order, biggest read first, a bad file kept to itself

def _pid_and_pages(path, boxes):
    return os.getpid(), len(boxes)


@pytest.mark.slow
def test_read_each_reads_on_two_children_and_gives_outcomes_in_the_files_order(hostile, tmp_path, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})  # two cores, whatever the test machine has
    files = [blank_pdf(tmp_path / f"{n}.pdf", pages=n) for n in (1, 5, 2, 9, 3)]
    files.insert(2, hostile["deflate_bomb"])
    before = _children()
    outcomes = list(guard.read_each(files, _pid_and_pages))
    assert [path for path, _ in outcomes] == files
    bad = outcomes[2][1]
    assert isinstance(bad, guard.Refused) and "decodes to more than 128 MiB" in str(bad)
    read = [outcome for _, outcome in outcomes if not isinstance(outcome, Exception)]
    assert [pages for _, pages in read] == [1, 5, 2, 9, 3]
    assert len({pid for pid, _ in read}) >= 2  # both children read (a refusal gives its child a fresh successor)
    assert _children() - before == set()  # and every child is gone


@pytest.mark.slow
def test_leaving_read_each_early_stops_its_children_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    files = [blank_pdf(tmp_path / f"{n}.pdf", pages=1) for n in range(4)]
    before = _children()
    started = time.monotonic()
    outcomes = guard.read_each(files, _sleep, 600, budget=guard.Budget(seconds=60))
    with pytest.raises(TimeoutError):
        with _alarm(2):
            next(outcomes)
    outcomes.close()  # as an interrupt leaves the loop: the two children sleeping in their jobs are killed
    assert time.monotonic() - started < 10
    assert _children() - before == set()


@pytest.mark.slow
def test_read_each_hands_a_jobs_own_error_back_for_its_file(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    files = [blank_pdf(tmp_path / f"{n}.pdf", pages=1) for n in range(3)]
    outcomes = [outcome for _, outcome in guard.read_each(files, _fail)]
    assert [type(outcome) for outcome in outcomes] == [ValueError] * 3
    assert all(str(outcome) == "the job's own error" for outcome in outcomes)


def _children() -> set:
    """This process's children but multiprocessing's resource tracker (started with the first spawned child, it stays)."""
    return {pid for pid in processes_where(1, os.getpid())
            if b"resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_bytes()}


@pytest.mark.slow
def test_read_each_counts_cores_where_the_system_has_no_affinity_call(tmp_path, monkeypatch):
    monkeypatch.delattr(os, "sched_getaffinity")  # as on macOS
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    files = [blank_pdf(tmp_path / f"{n}.pdf", pages=n + 1) for n in range(3)]
    outcomes = [outcome for _, outcome in guard.read_each(files, _pid_and_pages)]
    assert [pages for _, pages in outcomes] == [1, 2, 3] and len({pid for pid, _ in outcomes}) == 2


def test_one_file_is_read_by_one_child(tmp_path):
    pdf = blank_pdf(tmp_path / "a.pdf", pages=2)
    assert [(path, pages) for path, (_, pages) in guard.read_each([pdf], _pid_and_pages)] == [(pdf, 2)]
    assert list(guard.read_each([], _pid_and_pages)) == []


class _alarm:
    """TimeoutError in the main thread after `seconds` (SIGALRM), cancelled on leaving."""

    def __init__(self, seconds: int):
        self.seconds = seconds

    def __enter__(self):
        def ring(signum, frame):
            raise TimeoutError
        self.before = signal.signal(signal.SIGALRM, ring)
        signal.alarm(self.seconds)

    def __exit__(self, *exc):
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self.before)
