"""A cache file is read back only whole, ours and for the key and format it was written for."""

import os

from dungeonpress.cache import records


def test_a_record_reads_back_its_body_for_its_own_key_and_format(tmp_path):
    path = tmp_path / "k.json"
    records.write(path, 1, "k", b'{"a":1}')
    assert records.read(path, tmp_path, 1, "k", 1000) == b'{"a":1}'
    assert records.read(path, tmp_path, 1, "other", 1000) is None
    assert records.read(path, tmp_path, 2, "k", 1000) is None
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_a_changed_body_a_link_or_a_file_others_may_write_is_passed_over(tmp_path):
    path = tmp_path / "k.json"
    records.write(path, 1, "k", b"body")
    path.write_bytes(path.read_bytes() + b"!")
    assert records.read(path, tmp_path, 1, "k", 1000) is None
    records.write(path, 1, "k", b"body")
    link = tmp_path / "link.json"
    link.symlink_to(path)
    assert records.read(link, tmp_path, 1, "k", 1000) is None
    os.chmod(path, 0o622)
    assert records.read(path, tmp_path, 1, "k", 1000) is None


def test_a_record_over_the_size_limit_or_missing_is_none(tmp_path):
    path = tmp_path / "k.json"
    records.write(path, 1, "k", b"x" * 500)
    assert records.read(path, tmp_path, 1, "k", 100) is None
    assert records.read(tmp_path / "missing.json", tmp_path, 1, "k", 1000) is None


def test_prune_keeps_the_newest_of_its_own_names_and_touches_nothing_else(tmp_path):
    import re
    for age, name in enumerate(["c.rec", "b.rec", "a.rec"]):  # a.rec newest
        (tmp_path / name).write_bytes(b"x")
        os.utime(tmp_path / name, ns=(10**9 * (age + 1),) * 2)
    (tmp_path / "notes.txt").write_bytes(b"the user's")
    (tmp_path / "old.rec.d").mkdir()
    (tmp_path / "z.rec").symlink_to(tmp_path / "notes.txt")
    records.prune(tmp_path, re.compile(r"[a-z]\.rec"), keep=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.rec", "notes.txt", "old.rec.d", "z.rec"]
