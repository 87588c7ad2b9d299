"""The architecture's import rules (ARCHITECTURE.md "Rooms"), checked on the source with ast."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "dungeonpress"
DOORS = {"yaml": {"load"}, "jinja2": {"render"}, "markdown_it": {"render"}, "markupsafe": {"render"},
         "weasyprint": {"pdf"}, "pikepdf": {"impose"}, "argparse": {"cli"},
         "pypdfium2": {"preview"}, "PIL": {"preview"}, "watchfiles": {"serve"}}
LEAVES = {"errors", "model", "dice"}
# Left to right: a module may import only modules of its own stage or earlier ones.
ORDER = ["errors", "model", "dice", "load", "validate", "generate", "draw", "render", "export", "pdf", "impose",
         "products", "build", "cli"]


def modules():
    for path in sorted(SRC.rglob("*.py")):
        name = path.relative_to(SRC).with_suffix("").as_posix().replace("/", ".")
        yield name, ast.parse(path.read_text())


def imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            if node.module == "dungeonpress":
                yield from (f"dungeonpress.{alias.name}" for alias in node.names)


def stage(name: str) -> str:
    return name.split(".")[0]


def test_each_outside_library_has_one_door():
    for name, tree in modules():
        for imported in imports(tree):
            top = imported.split(".")[0]
            if top in DOORS:
                assert stage(name) in DOORS[top], f"{name} imports {top} (only {DOORS[top]} may)"


def test_leaves_stay_leaves():
    for name, tree in modules():
        if name in LEAVES:
            for imported in imports(tree):
                if imported.startswith("dungeonpress"):
                    assert imported == "dungeonpress.errors", f"leaf {name} imports {imported}"


def test_data_flows_one_way():
    for name, tree in modules():
        here = stage(name)
        if here in ("__init__", "__main__"):
            continue
        for imported in imports(tree):
            if not imported.startswith("dungeonpress.") or imported == "dungeonpress.__init__":
                continue
            there = stage(imported.removeprefix("dungeonpress."))
            if there in ORDER and here in ORDER:
                assert ORDER.index(there) <= ORDER.index(here), f"{name} imports {imported} (right to left)"


def test_generators_do_not_touch_the_world():
    banned = {"os", "time", "datetime", "pathlib", "secrets", "uuid", "logging"}
    for name, tree in modules():
        if stage(name) in ("generate", "draw", "render"):
            allowed = {"pathlib"} if name == "render" else set()  # render reads its templates, nothing else
            for imported in imports(tree):
                top = imported.split(".")[0]
                assert top not in banned - allowed, f"{name} imports {imported}"
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
                    assert node.attr == "Random", f"{name} uses random.{node.attr} (pass a seeded Random)"
                if isinstance(node, ast.Attribute) and node.attr in ("randint", "choice", "shuffle", "sample", "randrange"):
                    raise AssertionError(f"{name} calls .{node.attr}: use dungeonpress.dice (stable across Pythons)")
