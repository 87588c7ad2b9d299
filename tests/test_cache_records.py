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
