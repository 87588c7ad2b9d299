"""The command line: exit codes, error output without tracebacks, help everywhere."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from dungeonpress import __version__
from dungeonpress.cli import main


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_validate_the_project_content():
    code, out, err = run("validate")
    assert code == 0, err
    assert out.startswith("content ok: ")


def test_broken_content_exits_one_with_every_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pack = tmp_path / "mypack" / "tables"
    pack.mkdir(parents=True)
    (pack / "loot.yaml").write_text("id: loot\ntitle: Loot\ndie: d7\nsource: core\ncolumns: {a: A}\nrows: {1: x}\n")
    (pack / "bad.yaml").write_text("id: bad\ntitle: [\n")
    code, out, err = run("validate", "--content", "mypack")
    assert code == 1
    assert err.splitlines() == [
        "mypack/tables/bad.yaml:3: YAML syntax error: expected the node content, but found '<stream end>'",
        "mypack/tables/loot.yaml:3: unknown dice 'd7' (expected one of d4, d6, d8, d10, d12, d20, 2d6, d66, d100, none)",
        "build failed: 2 content errors",
    ]
    assert "Traceback" not in err


def test_a_user_pack_replaces_a_table_by_id(tmp_path):
    pack = tmp_path / "tables"
    pack.mkdir()
    (pack / "scene_mood.yaml").write_text(
        "id: scene_mood\ntitle: My Mood\ndie: d6\nsource: core\ncolumns: {mood: Mood}\nrows: {1-6: Always grim}\n")
    code, out, err = run("validate", "--content", str(tmp_path))
    assert code == 0, err


def test_usage_errors_exit_two():
    assert run("build", "rulebook", "--paper", "a3")[0] == 2
    assert run("no-such-command")[0] == 2
    assert run()[0] == 2


def test_version_and_help(capsys):
    assert run("--version")[0] == 0
    assert capsys.readouterr().out.strip() == f"dungeonpress {__version__}"
    for argv in (["--help"], ["build", "--help"], ["build", "rulebook", "--help"], ["export", "tables", "--help"]):
        assert run(*argv)[0] == 0
        assert "usage:" in capsys.readouterr().out


def test_python_dash_m_works():
    result = subprocess.run([sys.executable, "-m", "dungeonpress", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == f"dungeonpress {__version__}"


def test_a_failed_build_leaves_no_half_file(tmp_path, monkeypatch):
    from dungeonpress import build
    from dungeonpress.products.common import Output
    target = tmp_path / "out"
    build.write_outputs(target, [Output("a.pdf", b"%PDF-1.7\nold\n%%EOF\n")])
    with pytest.raises(RuntimeError, match="incomplete"):
        build.write_outputs(target, [Output("a.pdf", b"%PDF-1.7\ntruncated")])
    assert (target / "a.pdf").read_bytes() == b"%PDF-1.7\nold\n%%EOF\n"
    assert [p.name for p in target.iterdir()] == ["a.pdf"]
