"""Installed from a wheel, outside the checkout, the tool finds its own content and templates."""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from dungeonpress.cli import main

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
NOT_SHIPPED = shutil.ignore_patterns(".venv", "build", "dist", ".git", "preview", "*.egg-info", "__pycache__",
                                     ".pytest_cache", ".hypothesis")


def test_every_code_folder_is_a_listed_package():
    """pyproject lists packages by hand (content/ and templates/ are mapped in): a new sub-package must be listed."""
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    src = ROOT / "src"
    found = {init.parent.relative_to(src).as_posix().replace("/", ".") for init in src.rglob("__init__.py")}
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"


def test_every_data_folder_is_a_listed_package():
    """setuptools warns "Package would be ignored" for a data folder it is not told is a package.

    Every folder under content/, templates/ and src/dungeonpress/schema that git tracks files in, and
    whose name can be a package name, is listed; one with a hyphen is shipped by its parent's patterns.
    """
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    tracked = subprocess.run(["git", "ls-files", "content", "templates", "src/dungeonpress/schema"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout")
    folders = set()
    for path in tracked:
        parts = Path(path).parent.parts
        for depth in range(1, len(parts) + 1):
            folders.add(parts[:depth])
    wanted = set()
    for parts in folders:
        if parts[0] == "src":
            parts = parts[2:]
        if all(part.isidentifier() for part in parts):
            wanted.add(".".join(("dungeonpress", *parts)))
    assert wanted <= listed, f"add to [tool.setuptools] packages: {sorted(wanted - listed)}"


def test_every_content_and_template_file_is_shipped_in_the_wheel():
    """Each file git tracks under content/ and templates/ matches a package-data pattern (a pack's rules file,
    content/dungeoneer/delve-rules.md, once matched none, and the installed zine printed no rules)."""
    import fnmatch
    data = PYPROJECT["tool"]["setuptools"]["package-data"]
    tracked = subprocess.run(["git", "ls-files", "content", "templates"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout")
    missing = []
    for path in tracked:
        top, _, rest = path.partition("/")
        patterns = data[f"dungeonpress.{top}"]
        if not any(fnmatch.fnmatch(rest, pattern) and rest.count("/") == pattern.count("/") for pattern in patterns):
            missing.append(path)
    assert missing == [], f"add a pattern to [tool.setuptools.package-data] for: {missing[:10]}"


def test_an_in_tree_build_keeps_out_of_the_products_folder():
    """setuptools' build folder is `build/` unless setup.cfg moves it; `build/` is where our products go."""
    import configparser
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    assert config.get("build", "build_base", fallback="build").strip("/") not in ("build", "")


def test_every_dependency_is_pinned_in_constraints():
    """make and CI install from constraints.txt: every dependency needs an exact pin there."""
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[name.lower().replace("_", "-")] = version
    wanted = PYPROJECT["project"]["dependencies"] + PYPROJECT["project"]["optional-dependencies"]["test"]
    for requirement in wanted:
        name = requirement.split(">")[0].split("<")[0].split("=")[0].split("[")[0].strip().lower()
        assert pins.get(name), f"{name} has no exact pin in constraints.txt (run make constraints)"


@pytest.mark.slow
def test_wheel_installs_and_builds_a_zine_from_another_folder(tmp_path):
    source = tmp_path / "checkout"
    shutil.copytree(ROOT, source, ignore=NOT_SHIPPED)  # building in the real checkout would write into build/
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", tmp_path / "dist", source],
                           check=True, capture_output=True, text=True)
    wheel, = (tmp_path / "dist").glob("dungeonpress-*.whl")
    assert "would be ignored" not in built.stdout + built.stderr  # every data folder declared
    assert not (source / "build").exists()  # setuptools worked in its own folder, not in our products'

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", "--no-index",
                    wheel], check=True, capture_output=True)
    # Dependencies come from this venv's site-packages (a plain path line: its editable-install
    # hook is not run, so `dungeonpress` can only be the wheel's copy).
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    Path(purelib, "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run([python, "-c", "import dungeonpress; print(dungeonpress.__file__)"], cwd=elsewhere,
                           check=True, capture_output=True, text=True).stdout
    assert where.startswith(purelib), where
    done = subprocess.run([venv / "bin" / "dungeonpress", "dungeon", "--seed", "5"],
                          cwd=elsewhere, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    zine = elsewhere / "build" / "dungeon-5-zine-a4.pdf"
    assert zine.is_file(), sorted(p.name for p in elsewhere.rglob("*"))

    # Installed or run from the checkout, the same seed gives the same bytes.
    assert main(["dungeon", "--seed", "5", "--paper", "a4", "--quiet", "--out", str(tmp_path / "here")]) == 0
    assert zine.read_bytes() == (tmp_path / "here" / "dungeon-5-zine-a4.pdf").read_bytes()
