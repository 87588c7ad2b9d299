"""Supervised batches (RELIABILITY.md F4-F8): a bad, dying, hanging or exploding item fails alone; manifest and no-op rebuilds."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import threading
from pathlib import Path

import pytest

from dungeonpress import batch, cli, manifest
from tests.batch_runners import faulty
from tests.conftest import processes_where


def items(n, bad=None, do="ok"):
    return [batch.Item(label=f"item-{i}", command="test", options={"do": do if i == bad else "ok"}, key=f"k{i}")
            for i in range(n)]


def run(tmp_path, work, **kw):
    kw.setdefault("timeout", 60)
    kw.setdefault("memory_mb", 0)
    return batch.build_and_record(work, batch.Settings(), tmp_path, runner=faulty, **kw)


def on_disk(folder: Path) -> set:
    return {p.name for p in folder.iterdir() if p.suffix == ".txt"}


def recorded(folder: Path) -> dict:
    return json.loads((folder / manifest.NAME).read_text())["items"]


@pytest.mark.parametrize("do", ["raise", "kill", "base"])
def test_one_bad_or_killed_item_of_ten_fails_alone(tmp_path, do):
    # F4 (an item raises), F5 (its worker is SIGKILLed), F9 (a BaseException such as WeasyPrint's
    # FatalURLFetchingError): 9 built, 1 failed, the failure named.
    summary = run(tmp_path, items(10, bad=4, do=do))
    assert (summary.built, summary.failed) == (9, 1)
    assert on_disk(tmp_path) == {f"item-{i}.txt" for i in range(10) if i != 4}
    label, reason = summary.failures[0]
    assert label == "item-4"
    assert {"raise": "bad item", "kill": "SIGKILL", "base": "Fatal: could not fetch"}[do] in reason
    entries = recorded(tmp_path)
    assert entries["item-4"]["status"] == "failed" and entries["item-4"]["outputs"] == []
    assert sum(e["status"] == "built" for e in entries.values()) == 9


@pytest.mark.slow
def test_hanging_item_is_stopped_at_the_time_limit_and_the_batch_goes_on(tmp_path):
    # F6: the hung worker is killed and replaced; the items after it still build.
    summary = run(tmp_path, items(6, bad=1, do="hang"), timeout=4)
    assert (summary.built, summary.failed) == (5, 1)
    assert summary.failures == [("item-1", "took longer than 4 s (stopped)")]
    assert multiprocessing.active_children() == []


def test_a_worker_aborted_by_glib_under_the_cap_names_the_cap(tmp_path):
    summary = run(tmp_path, items(3, bad=1, do="trap"), memory_mb=2048)
    assert (summary.built, summary.failed) == (2, 1)
    assert summary.failures == [("item-1", "worker was killed (SIGTRAP): most likely out of its 2048 MiB memory cap "
                                           "(--item-memory)")]


def test_item_over_the_memory_cap_fails_as_memory_limit(tmp_path):
    # F7: RLIMIT_AS in the worker turns the runaway allocation into a one-line failure.
    summary = run(tmp_path, items(4, bad=2, do="memory"), memory_mb=2048)
    assert (summary.built, summary.failed) == (3, 1)
    assert summary.failures == [("item-2", "memory limit (2048 MiB) exceeded")]
    assert "never.txt" not in {p.name for p in tmp_path.iterdir()}


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C as at a terminal: Python's own handler, even when the suite was started as a background job
    (which inherits SIGINT ignored, so the signal the test sends would never arrive)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_keeps_what_finished_and_a_manifest_that_matches_it(tmp_path, ctrl_c_raises):
    # F8: SIGINT in the middle; every finished output is on disk and in the manifest, workers gone.
    def interrupt(event):
        if event.kind == "finished" and event.done == 3:
            os.kill(os.getpid(), signal.SIGINT)

    summary = run(tmp_path, items(12), on_event=interrupt, workers=1)
    assert summary.interrupted and summary.line().startswith("interrupted: ")
    entries = recorded(tmp_path)
    assert summary.built == len(entries)
    assert 3 <= len(entries) < 12
    assert {f"{label}.txt" for label in entries} == on_disk(tmp_path)
    assert all(e["status"] == "built" for e in entries.values())
    assert multiprocessing.active_children() == []


def test_unchanged_items_are_skipped_and_nothing_is_written(tmp_path):
    run(tmp_path, items(3))
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    summary = run(tmp_path, items(3))
    assert (summary.built, summary.skipped, summary.manifest) == (0, 3, None)
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == before
    # A changed input hash, or a missing output, makes that item again and only it.
    changed = items(3)
    changed[0] = batch.Item(label="item-0", command="test", options={"do": "ok"}, key="new")
    (tmp_path / "item-2.txt").unlink()
    summary = run(tmp_path, changed)
    assert (summary.built, summary.skipped) == (2, 1)
    assert recorded(tmp_path)["item-0"]["inputs"] == "new"


def test_manifest_records_hash_seed_versions_and_output_digest(tmp_path):
    run(tmp_path, [batch.Item(label="one", command="test", seed=7, key="abc")])
    entry = recorded(tmp_path)["one"]
    assert (entry["inputs"], entry["seed"], entry["status"]) == ("abc", 7, "built")
    assert entry["versions"]["dungeonpress"] and entry["versions"]["weasyprint"]
    data = (tmp_path / "one.txt").read_bytes()
    import hashlib
    assert entry["outputs"] == [{"name": "one.txt", "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}]


def test_batch_option_conflicts_are_one_line_usage_errors(capsys):
    assert cli.main(["dungeon", "--batch", "3", "--count", "4"]) == 2
    assert "--batch writes separate zines or booklets" in capsys.readouterr().err
    assert cli.main(["dungeon", "--batch", "0"]) == 2
    assert "--batch must be a whole number from 1 to 1000 (got 0)" in capsys.readouterr().err


@pytest.mark.slow
def test_batch_zines_are_byte_identical_to_single_runs_and_a_rerun_writes_nothing(tmp_path, capsys):
    batch_dir, alone = tmp_path / "batch", tmp_path / "alone"
    assert cli.main(["dungeon", "--batch", "2", "--seed", "41", "--layout", "zine", "--out", str(batch_dir)]) == 0
    assert "2 built, 0 failed, 0 up to date" in capsys.readouterr().err
    for seed in (41, 42):
        assert cli.main(["dungeon", "--seed", str(seed), "--layout", "zine", "--out", str(alone), "--quiet"]) == 0
    for name in ("dungeon-41-zine-a4.pdf", "dungeon-42-zine-a4.pdf", "dungeon-41.json", "dungeon-42.json"):
        assert (batch_dir / name).read_bytes() == (alone / name).read_bytes(), name
    assert cli.main(["dungeon", "--batch", "2", "--seed", "41", "--layout", "zine", "--out", str(batch_dir)]) == 0
    assert "0 built, 0 failed, 2 up to date" in capsys.readouterr().err


def test_ctrl_c_in_a_batch_exits_130_with_the_summary(tmp_path, capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(batch, "run", interrupted)
    assert cli.main(["dungeon", "--batch", "2", "--seed", "1", "--out", str(tmp_path)]) == 130
    assert "interrupted: 0 built, 0 failed, 0 up to date" in capsys.readouterr().err


def test_editing_a_core_table_rebuilds_the_products_that_read_it_and_not_the_others(tmp_path):
    import shutil
    from dungeonpress import build
    content = tmp_path / "content"
    shutil.copytree(build.CONTENT_DIR, content)

    def keys():
        prints = manifest.Fingerprints(content, build.TEMPLATES_DIR)
        return {c.full_name: json.dumps(prints.inputs(c.inputs.packs), sort_keys=True) for c in build.commands()}

    before = keys()
    table = next((content / "core" / "tables").glob("*.yaml"))
    table.write_text(table.read_text() + "\n# edited\n")
    after = keys()
    changed = {name for name in before if before[name] != after[name]}
    assert {"build rulebook", "build tables", "dungeon"} <= changed
    assert not changed & {"dunginoes", "paperogue"}


def test_sigterm_stops_a_run_as_ctrl_c_does_and_restores_the_handler(tmp_path):
    def terminate(event):
        if event.kind == "finished" and event.done == 3:
            os.kill(os.getpid(), signal.SIGTERM)

    before = signal.getsignal(signal.SIGTERM)
    summary = run(tmp_path, items(12), on_event=terminate, workers=1)
    assert summary.interrupted and 3 <= summary.built < 12
    assert {f"{label}.txt" for label in recorded(tmp_path)} == on_disk(tmp_path)
    assert multiprocessing.active_children() == []
    assert signal.getsignal(signal.SIGTERM) is before


STOPPED_RUN = """
import sys
from dungeonpress import batch
from tests.batch_runners import faulty

def told(event):
    # one write per line: a print() writes its end apart, and the SIGTERM may land between the two writes
    sys.stdout.write(event.kind + "\\n")
    sys.stdout.flush()

if __name__ == "__main__":
    work = [batch.Item(label=f"item-{n}", command="test", options={"do": "nap"}, key=str(n)) for n in range(1000)]
    summary = batch.build_and_record(work, batch.Settings(), sys.argv[1], runner=faulty, on_event=told,
                                     timeout=60, memory_mb=0)
    print(summary.line(), flush=True)
"""


def _session(sid: int) -> list:
    return processes_where(3, sid)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["SIGTERM to the session", "SIGTERM to the supervisor", "SIGKILL to the supervisor"])
def test_a_stopped_batch_of_1000_prints_no_worker_tracebacks_and_leaves_no_worker(tmp_path, how):
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen([sys.executable, "-c", STOPPED_RUN, str(tmp_path / "out")], cwd=root, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    finished = 0
    for _ in range(10_000):  # until two items are made (each line is one event)
        line = proc.stdout.readline()
        finished += line.startswith("finished")
        if finished >= 2 or not line:
            break
    assert finished >= 2
    if how == "SIGTERM to the session":
        os.killpg(proc.pid, signal.SIGTERM)
    else:
        proc.send_signal(signal.SIGTERM if "SIGTERM" in how else signal.SIGKILL)
    out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err and err.strip() == "", err
    if "SIGTERM" in how:
        assert out.splitlines()[-1].startswith("interrupted: ")
    for _ in range(600):  # the workers go with their supervisor, even one killed outright
        if not _session(proc.pid):
            break
        threading.Event().wait(0.05)
    assert _session(proc.pid) == []


@pytest.mark.parametrize("value", ["256", "511", "-1", "abc"])
def test_a_memory_cap_below_what_pango_needs_is_refused_in_one_line(capsys, value):
    # 256 MiB killed one zine in four with SIGTRAP (GLib aborts when Pango cannot allocate); 512 is the floor.
    assert cli.main(["dungeon", "--batch", "4", "--item-memory", value]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"dungeonpress dungeon: error: argument --item-memory: must be a number from {batch.MIN_ITEM_MEMORY_MB} "
        f"to 65536 (got {value}) (see dungeonpress dungeon --help)"]
    assert batch.MIN_ITEM_MEMORY_MB == 512


# --- A batch spread over machines: --seeds FILE and --shard K/N give disjoint parts that merge --------------

def _dungeon_batch(out, *extra):
    from tests.conftest import run_cli
    return run_cli("dungeon", "--format", "json", "--quiet", "--out", out, *extra)


def _made(folder: Path) -> dict:
    """name → bytes of every output in a build folder (not the manifest, not .cache/)."""
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and p.name != manifest.NAME}


def _entries(folder: Path) -> dict:
    """label → (inputs hash, each output's sha256) of a build folder's manifest."""
    return {label: (e["inputs"], [o["sha256"] for o in e["outputs"]]) for label, e in recorded(folder).items()}


@pytest.mark.slow  # five runs of two workers each
def test_shards_are_disjoint_and_together_make_the_whole_batch(tmp_path):
    whole = tmp_path / "whole"
    assert _dungeon_batch(whole, "--batch", "7", "--seed", "100")[0] == 0
    parts = [tmp_path / f"part-{k}" for k in (1, 2, 3)]
    for k, part in enumerate(parts, 1):
        status, _, err = _dungeon_batch(part, "--batch", "7", "--seed", "100", "--shard", f"{k}/3")
        assert status == 0, err
    made = [_made(part) for part in parts]
    assert [len(m) for m in made] == [3, 2, 2]  # every third item: parts even in size
    assert all(set(a).isdisjoint(b) for i, a in enumerate(made) for b in made[i + 1:])
    assert {name: data for m in made for name, data in m.items()} == _made(whole)  # the same bytes, all of them
    entries = [_entries(part) for part in parts]
    assert all(set(a).isdisjoint(b) for i, a in enumerate(entries) for b in entries[i + 1:])
    assert {label: e for part in entries for label, e in part.items()} == _entries(whole)
    # Parts run into one folder (one after another here, at once below) leave one manifest of all of them.
    shared = tmp_path / "shared"
    for k in (3, 1, 2):
        assert _dungeon_batch(shared, "--batch", "7", "--seed", "100", "--shard", f"{k}/3")[0] == 0
    assert _made(shared) == _made(whole) and _entries(shared) == _entries(whole)


@pytest.mark.slow  # three processes at once
def test_shards_running_at_once_into_one_folder_keep_every_manifest_entry(tmp_path):
    import subprocess
    import sys
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "dungeonpress", "dungeon", "--format", "json", "--quiet", "--out", str(out),
            "--batch", "9", "--seed", "40"]
    procs = [subprocess.Popen([*argv, "--shard", f"{k}/3"], stderr=subprocess.PIPE, text=True) for k in (1, 2, 3)]
    assert [p.wait(timeout=600) for p in procs] == [0, 0, 0], [p.stderr.read() for p in procs]
    assert sorted(recorded(out)) == sorted(f"dungeon --format json --seed {s}"
                                           for s in range(40, 49))
    assert sorted(_made(out)) == sorted(f"dungeon-{s}.json" for s in range(40, 49))


@pytest.mark.slow  # two runs of two workers each
def test_seeds_from_a_file_make_what_batch_makes_for_each_seed(tmp_path):
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("# the seeds my players asked for\n12\n\n7  # a second one\n300\n")
    status, _, err = _dungeon_batch(tmp_path / "listed", "--seeds", seeds, "--shard", "1/1")
    assert status == 0, err
    assert sorted(_made(tmp_path / "listed")) == ["dungeon-12.json", "dungeon-300.json", "dungeon-7.json"]
    assert _dungeon_batch(tmp_path / "counted", "--batch", "2", "--seed", "12")[0] == 0
    same = _entries(tmp_path / "counted")
    label = next(iter(sorted(same)))  # seed 12: the same item, the same inputs hash, the same bytes
    assert _entries(tmp_path / "listed")[label] == same[label]
    assert _made(tmp_path / "listed")["dungeon-12.json"] == _made(tmp_path / "counted")["dungeon-12.json"]


@pytest.mark.parametrize("argv, message", [
    (["--batch", "4", "--shard", "0/3"], "argument --shard: must be K/N, part K of N parts with 1 <= K <= N, such as "
                                         "2/4 (got 0/3) (see dungeonpress dungeon --help)"),
    (["--batch", "4", "--shard", "4/3"], "argument --shard: must be K/N"),
    (["--batch", "4", "--shard", "1/0"], "argument --shard: must be K/N"),
    (["--batch", "4", "--shard", "half"], "argument --shard: must be K/N"),
    (["--batch", "4", "--shard", "1/2/3"], "argument --shard: must be K/N"),
    (["--shard", "1/2"], "--shard K/N splits a run of many items: give --batch N or --seeds FILE"),
    (["--seeds", "{missing}"], "--seeds {missing}: no such file"),
    (["--seeds", "{folder}"], "--seeds {folder}: not a regular file"),
    (["--seeds", "{empty}"], "--seeds {empty}: lists no seeds (one whole number a line)"),
    (["--seeds", "{bad}"], "--seeds {bad}:2: 'twelve' is not a seed (a whole number of at most 18 digits)"),
    (["--seeds", "{negative}"], "--seeds {negative}:1: '-4' is not a seed"),
    (["--seeds", "{twice}"], "--seeds {twice}:3: seed 5 is listed twice (first on line 1)"),
    (["--seeds", "{good}", "--batch", "3"], "give --batch N or --seeds FILE, not both"),
    (["--seeds", "{good}", "--seed", "3"], "--seeds FILE lists every seed of the batch: leave out --seed"),
])
def test_bad_seeds_or_shard_are_one_line_and_exit_2_before_any_work(argv, message, tmp_path):
    from tests.conftest import run_cli
    files = {"missing": tmp_path / "nope.txt", "folder": tmp_path, "empty": tmp_path / "empty.txt",
             "bad": tmp_path / "bad.txt", "negative": tmp_path / "neg.txt", "twice": tmp_path / "twice.txt",
             "good": tmp_path / "good.txt"}
    texts = {"empty": "# nothing yet\n\n", "bad": "1\ntwelve\n", "negative": "-4\n", "twice": "5\n6\n5\n",
             "good": "1\n2\n"}
    for name, text in texts.items():
        files[name].write_text(text)
    argv = [word.format(**files) for word in argv]
    status, out, err = run_cli("dungeon", *argv, "--out", tmp_path / "out")
    assert (status, out) == (cli.EXIT_USAGE, "")
    assert len(err.splitlines()) == 1 and message.format(**files) in err, err
    assert not (tmp_path / "out").exists()


FORK_SERVER_FIRST = """
import os, sys
from pathlib import Path
from dungeonpress import batch
from tests.batch_runners import faulty

def running_fork_server():  # a child of this process running multiprocessing's fork server
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == os.getpid() and b"forkserver" in command:
            return True
    return False

if __name__ == "__main__":
    seen = []
    work = [batch.Item(label="item-1", command="test", options={"do": "ok"}, key="1")]
    batch.build_and_record(work, batch.Settings(), sys.argv[1], runner=faulty, before=lambda: seen.append(running_fork_server()),
                           timeout=60, memory_mb=0)
    print(seen)
"""


def test_the_fork_server_is_importing_while_the_content_is_checked(tmp_path):
    """build_and_record starts the fork server (WeasyPrint's import, about a second) before `before()` (the CLI's
    content check, about as long), so the two run side by side; a fresh process, so no earlier test started it."""
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", FORK_SERVER_FIRST, str(tmp_path / "out")], cwd=root, text=True,
                          capture_output=True, timeout=120)
    assert done.stdout.strip() == "[True]", done.stderr
