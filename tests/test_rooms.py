"""The architecture's import rules (ARCHITECTURE.md "Rooms"), checked on the source with ast; and proof the checks bite."""

from __future__ import annotations

import ast
import re
import functools
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "dungeonpress"
DOORS = {"yaml": {"load"}, "jinja2": {"render"}, "markdown_it": {"render"}, "markupsafe": {"render"},
         "weasyprint": {"pdf"}, "pikepdf": {"impose", "bind"}, "argparse": {"cli"},
         "pypdfium2": {"preview", "preflight", "raster"}, "PIL": {"preview", "raster"}, "watchfiles": {"serve"}, "tqdm": {"progress"},
         "plyvel": {"export"}}
LEAVES = {"errors", "model", "dice"}
# Left to right: a module may import only modules of its own stage or earlier ones.
ORDER = ["errors", "model", "dice", "resources", "budget", "sealed", "load", "validate", "generate", "draw", "views", "render",
         "export", "cascade", "pdf", "bind", "paginate", "impose", "raster", "guard", "preflight", "products", "manifest", "atomic", "collect",
         "forks", "part_workers", "cache", "build", "batch",
         "authoring", "progress", "preview",
         "serve", "cli"]
# Stages that take values and return values: no clock, no environment, no files, no global random.
PURE = ("validate", "generate", "draw", "views", "render", "bind", "paginate", "products")
WORLD = {"os", "time", "datetime", "pathlib", "secrets", "uuid", "logging", "shutil", "tempfile", "subprocess"}
PURE_ALLOWED = {"render": {"pathlib"}, "products": {"pathlib"}}  # folder names; reading is checked on its own
# Who may touch the world at all: load reads content, build writes build/, cli prints; pdf reads only
# through its sealed fetcher and logs WeasyPrint's warnings; authoring writes a starter pack where
# `new-pack` is told to, and reads the product code to list which tables each product uses;
# preflight reads back the PDFs it is given; preview writes PNGs beside a PDF; serve (its own
# process) reads and serves the build folder, makes its roll folders there and prints its address;
# manifest hashes raw input bytes (it parses nothing); batch runs workers and writes through build;
# impose decodes a PDF's streams (pikepdf's read_bytes) to measure them before anything renders it; build reads
# back, through the sealed reader, the laid-out book parts it kept under build/.cache; cache keeps those
# parts and checked content models there (read back sealed); atomic writes one file by temp file and rename; forks
# reads how many processes are running this moment (/proc/loadavg) before it asks a question ahead.
READERS = {"sealed", "load", "pdf", "authoring", "preflight", "serve", "manifest", "impose", "build", "cache", "forks"}
WRITERS = {"build", "authoring", "preview", "serve", "cache", "atomic"}
OPENERS = {"load", "build"}
# Modules (by name) whose library writes only to disk: they make a private scratch folder, read back
# what it wrote and remove it, and return bytes (export.leveldb: plyvel writes a LevelDB folder).
SCRATCH = {"export.leveldb"}
PRINTERS = {"cli", "serve", "progress"}  # progress draws the run's bar and summary for cli
RANDOM_OK = {"Random"}  # the only name of `random` a module may use, and only with a seed


@functools.lru_cache(maxsize=1)
def _parsed() -> tuple:
    return tuple((path.relative_to(SRC).with_suffix("").as_posix().replace("/", "."), ast.parse(path.read_text()))
                 for path in sorted(SRC.rglob("*.py")))


def modules():
    """(dotted name under dungeonpress, parsed tree) of every source module; parsed once per test run."""
    return iter(_parsed())


def _with(target: str, code: str) -> list:
    """Every module, with `code` appended to `target` (the mutation under test)."""
    return [(name, ast.parse(ast.unparse(tree) + "\n" + code) if name == target else tree) for name, tree in modules()]


_IMPORTS: dict = {}  # id(tree) -> its imports, for the trees parsed once


def imports(tree):
    key = id(tree)
    if key not in _IMPORTS:
        _IMPORTS[key] = (tree, list(_imports(tree)))  # the tree is kept so its id is never reused
    return iter(_IMPORTS[key][1])


def _imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            if node.module == "dungeonpress" or node.module.startswith("dungeonpress."):
                yield from (f"{node.module}.{alias.name}" for alias in node.names)


def stage(name: str) -> str:
    return name.split(".")[0]


# ---------------------------------------------------------------- the checks, each a list of problems


def door_problems(name, tree):
    for imported in imports(tree):
        top = imported.split(".")[0]
        if top in DOORS and stage(name) not in DOORS[top]:
            yield f"{name} imports {top} (only {sorted(DOORS[top])} may)"


def leaf_problems(name, tree):
    """A leaf (errors, the model, dice) imports only errors and its own modules."""
    if stage(name) in LEAVES:
        own = f"dungeonpress.{stage(name)}"
        for imported in imports(tree):
            if imported.startswith("dungeonpress") and not imported.startswith("dungeonpress.errors") \
                    and imported != own and not imported.startswith(own + "."):
                yield f"leaf {name} imports {imported}"


def flow_problems(name, tree):
    here = stage(name)
    if here in ("__init__", "__main__") or here not in ORDER:
        return
    for imported in imports(tree):
        if not imported.startswith("dungeonpress."):
            continue
        there = stage(imported.removeprefix("dungeonpress."))
        if there in ORDER and ORDER.index(there) > ORDER.index(here):
            yield f"{name} imports {imported} (right to left)"


def relative_problems(name, tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            yield f"{name} uses a relative import (from {'.' * node.level}{node.module or ''}): name the module"


def random_problems(name, tree):
    """Only `random.Random(seed)`: no module-level functions, no unseeded Random, however imported."""
    aliases = set()  # names bound to the random module
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names if a.name == "random"}
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            for alias in node.names:
                if alias.name not in RANDOM_OK:
                    yield f"{name} imports random.{alias.name} (pass a seeded random.Random)"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases \
                and node.attr not in RANDOM_OK:
            yield f"{name} uses random.{node.attr} (pass a seeded random.Random)"
        if isinstance(node, ast.Call) and not node.args and not node.keywords:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called == "Random":
                yield f"{name} makes an unseeded Random() (seed it: dice.sub_rng(seed, ...))"
        if isinstance(node, ast.Attribute) and node.attr in ("randint", "choice", "shuffle", "sample", "randrange") \
                and stage(name) in ("generate", "draw", "views"):
            yield f"{name} calls .{node.attr}: use dungeonpress.dice (stable across Pythons)"


# Builtins whose value changes from process to process: hash() of a str with PYTHONHASHSEED, id() with memory.
UNSTABLE = {"hash", "id"}
# Stages whose values feed what is printed or exported: no hash order and no per-process values in them.
FEEDS_OUTPUT = ("validate", "generate", "draw", "views", "render", "export", "paginate", "products")


def unstable_problems(name, tree):
    """hash() or id() in a stage that feeds output (a seed, a sort key or a name made from them changes per process)."""
    if stage(name) not in FEEDS_OUTPUT:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in UNSTABLE:
            yield f"{name} calls {node.func.id}() (its value changes from process to process: seed from the seed)"


SET_MAKERS = {"set", "frozenset"}
SET_OPS = (ast.BitOr, ast.BitAnd, ast.Sub, ast.BitXor)
SET_METHODS = {"union", "intersection", "difference", "symmetric_difference", "keys"}  # dict.keys() is ordered: see _setlike
ORDERED_BY = {"list", "tuple", "enumerate", "iter", "next", "zip", "reversed", "join", "map", "filter"}


def _set_names(tree) -> set:
    """Names bound anywhere in the module to a set (an assignment of a set expression, or annotated `set`)."""
    names: set = {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg) and node.annotation is not None
                  and ast.unparse(node.annotation).split("[")[0] in ("set", "frozenset")}
    for _ in range(2):  # a name bound to another set name
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and _setlike(node.value, names):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and (
                    (node.value is not None and _setlike(node.value, names))
                    or (ast.unparse(node.annotation).split("[")[0] in ("set", "frozenset"))):
                names.add(node.target.id)
    return names


def _setlike(node, names) -> bool:
    """Is `node` a set: a literal, a comprehension, set()/frozenset(), a set operation or method, a set's name."""
    if isinstance(node, (ast.Set, ast.SetComp)):
        return True
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name) and func.id in SET_MAKERS:
            return True
        if isinstance(func, ast.Attribute) and func.attr in SET_METHODS - {"keys"} and _setlike(func.value, names):
            return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, SET_OPS):
        return _setlike(node.left, names) or _setlike(node.right, names)
    return False


def set_order_problems(name, tree):
    """A set iterated in an order that reaches output: a for loop or comprehension over it, or list()/join() of it.

    sorted(), len(), `in`, min()/max() and any()/all() of a set are fine; iterating one is not (str hashes change
    with PYTHONHASHSEED, so the order does).
    """
    if stage(name) not in FEEDS_OUTPUT:
        return
    names = _set_names(tree)
    for node in ast.walk(tree):
        iterated = []
        if isinstance(node, (ast.For, ast.AsyncFor)):
            iterated.append(node.iter)
        elif isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.DictComp)):
            iterated += [gen.iter for gen in node.generators]
        elif isinstance(node, ast.Call) and _called(node) in ORDERED_BY:
            iterated += list(node.args)
        elif isinstance(node, ast.Starred):
            iterated.append(node.value)
        for it in iterated:
            if _setlike(it, names):
                yield f"{name} iterates the set {ast.unparse(it)[:60]} in hash order (sort it first)"


def _called(node) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def world_problems(name, tree):
    """Printing, opening and writing files, and world-touching modules, outside the edges that may."""
    here = stage(name)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = _called(node)
        if called == "print" and isinstance(node.func, ast.Name) and here not in PRINTERS:
            yield f"{name} calls print() (only cli prints; return values or warnings)"
        if called == "open" and isinstance(node.func, ast.Name) and here not in OPENERS and name not in SCRATCH:
            yield f"{name} calls open() (only load reads content, only build writes)"
        if called in ("write_text", "write_bytes", "mkdir", "unlink", "rmdir", "touch") \
                and isinstance(node.func, ast.Attribute) and here not in WRITERS:
            yield f"{name} calls .{called}() (only build writes)"
        if called in ("read_text", "read_bytes") and isinstance(node.func, ast.Attribute) and here not in READERS:
            yield f"{name} calls .{called}() (content is read only by load)"
    if here in PURE:
        allowed = PURE_ALLOWED.get(here, set())
        for imported in imports(tree):
            top = imported.split(".")[0]
            if top in WORLD - allowed:
                yield f"{name} imports {imported} ({here} takes values and returns values)"


ENGINE_ATTRIBUTES = ("document", "anchors", "ffi", "_page_box")
# Calls that reach an attribute by its name in a string.
BY_NAME = {"getattr", "hasattr", "setattr", "delattr", "attrgetter", "methodcaller"}


def layout_problems(name, tree):
    """A laid-out WeasyPrint document (its pages, anchors, text ffi) is pdf's own: others ask pdf for values.

    However reached: `.document`, getattr(x, "document"), operator.attrgetter("document"), or a module after
    pdf looking into an object's `__dict__` / vars().
    """
    if stage(name) == "pdf":
        return
    after_pdf = stage(name) in ORDER and ORDER.index(stage(name)) > ORDER.index("pdf")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ENGINE_ATTRIBUTES:
            yield f"{name} reads .{node.attr} of a laid-out document (ask pdf.measure for its pages as numbers)"
        if isinstance(node, ast.Call) and _called(node) in BY_NAME:
            for arg in node.args:
                if isinstance(arg, ast.Constant) and arg.value in ENGINE_ATTRIBUTES:
                    yield (f"{name} reads .{arg.value} of a laid-out document by name "
                           "(ask pdf.measure for its pages as numbers)")
        if after_pdf and ((isinstance(node, ast.Attribute) and node.attr == "__dict__")
                          or (isinstance(node, ast.Call) and _called(node) == "vars")):
            yield f"{name} looks into an object's attributes (__dict__ / vars()): ask for values instead"


CHECKS = (door_problems, leaf_problems, flow_problems, relative_problems, random_problems, world_problems,
          layout_problems, unstable_problems, set_order_problems)


def module_problems(name, tree) -> list:
    return [problem for check in CHECKS for problem in check(name, tree)]


@functools.lru_cache(maxsize=None)
def _original_problems(name) -> tuple:
    return tuple(module_problems(name, dict(modules())[name]))


def problems(tree_by_name) -> list:
    """Every rule broken by these modules (unchanged source modules are checked once per run)."""
    original = dict(modules())
    found = []
    for name, tree in tree_by_name:
        found.extend(_original_problems(name) if original.get(name) is tree else module_problems(name, tree))
    found.extend(cycle_problems(tree_by_name))
    return found


def cycle_problems(tree_by_name) -> list:
    """Import cycles between our modules (a package's own __init__ counts as its module)."""
    names = {name.removesuffix(".__init__") for name, _ in tree_by_name}
    graph = {}
    for name, tree in tree_by_name:
        here = name.removesuffix(".__init__")
        edges = set()
        for imported in imports(tree):
            target = imported.removeprefix("dungeonpress.")
            while target and target not in names:
                target = target.rpartition(".")[0]
            if imported.startswith("dungeonpress.") and target and target != here:
                edges.add(target)
        graph[here] = edges
    found, state = [], {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                found.append("import cycle: " + " -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


# ---------------------------------------------------------------- the source obeys them


def test_the_source_keeps_every_room_rule():
    assert problems(list(modules())) == []


def test_every_stage_is_checked():
    stages = {stage(name) for name, _ in modules()} - {"__init__", "__main__"}
    assert stages <= set(ORDER), stages - set(ORDER)
    assert {"validate", "views", "products", "pdf"} <= stages


# ---------------------------------------------------------------- and the checks bite: each mutation is caught


MUTATIONS = {
    "module-level random": "from random import randint\nX = randint(1, 6)\n",
    "unseeded Random": "import random\nRNG = random.Random()\n",
    "print": "def shout():\n    print('hello')\n",
    "open().write()": "def save():\n    open('x.txt', 'w').write('x')\n",
    "relative import": "from . import layout\n",
    "random module function": "import random as r\nX = r.random()\n",
}


@pytest.mark.parametrize("target", ["generate.dungeon", "views.dungeon", "products.dungeon", "validate", "pdf",
                                    "draw.dungeon_map"])
@pytest.mark.parametrize("mutation", list(MUTATIONS))
def test_each_mutation_of_a_module_is_caught(target, mutation):
    assert target in dict(modules())
    found = problems(_with(target, MUTATIONS[mutation]))
    assert found and all(target in problem for problem in found), (mutation, found)


@pytest.mark.parametrize("target", ["generate.dungeon", "draw.dungeon_map", "views.dungeon", "products.dungeon",
                                    "paginate.zine", "export.foundry"])
@pytest.mark.parametrize("code, problem", [
    ("import random\ndef roll(x):\n    return random.Random(hash(x))\n", "calls hash()"),
    ("def key(x):\n    return id(x)\n", "calls id()"),
    ("def names(rooms):\n    return [r for r in {room.name for room in rooms}]\n", "iterates the set"),
    ("def names(rooms):\n    seen = set(rooms)\n    for name in seen:\n        yield name\n", "iterates the set seen"),
    ("def line(tags: frozenset):\n    return ', '.join(tags)\n", "iterates the set tags"),
    ("def first(a, b):\n    return list(set(a) | set(b))\n", "iterates the set set(a) | set(b)"),
])
def test_hash_order_and_process_values_are_caught(target, code, problem):
    found = problems(_with(target, code))
    assert found and all(p.startswith(f"{target} {problem}") for p in found), found


@pytest.mark.parametrize("code", ["def names(rooms):\n    return sorted({room.name for room in rooms})\n",
                                  "def count(rooms):\n    return len(set(rooms)), 'a' in set(rooms), max(set(rooms))\n"])
def test_sorted_or_counted_sets_are_fine(code):
    assert problems(_with("generate.dungeon", code)) == []


def test_a_file_read_in_validate_is_caught():
    found = problems(_with("validate", "def peek(path):\n    return path.read_bytes()\n"))
    assert any("validate calls .read_bytes()" in p for p in found)


def test_a_cycle_is_caught():
    found = problems(_with("views.dungeon", "from dungeonpress.products import dungeon\n"))
    assert any(p.startswith("import cycle:") for p in found), found


def test_reading_a_laid_out_document_outside_pdf_is_caught():
    found = problems(_with("products.dungeon", "def pages(rendered):\n    return rendered.document.pages\n"))
    assert found == ["products.dungeon reads .document of a laid-out document (ask pdf.measure for its pages as numbers)"]


@pytest.mark.parametrize("code, attribute", [
    ("def pages(rendered):\n    return getattr(rendered, 'document').pages\n", "document"),
    ("import operator\nPAGES = operator.attrgetter('document')\n", "document"),
    ("def boxes(page):\n    return getattr(page, 'anchors', {})\n", "anchors"),
])
def test_reaching_a_laid_out_document_by_name_is_caught(code, attribute):
    found = problems(_with("products.dungeon", code))
    assert found == [f"products.dungeon reads .{attribute} of a laid-out document by name "
                     "(ask pdf.measure for its pages as numbers)"]


def test_looking_into_an_objects_attributes_after_pdf_is_caught():
    found = problems(_with("paginate.pages", "def peek(rendered):\n    return vars(rendered)['document']\n"))
    assert found == ["paginate.pages looks into an object's attributes (__dict__ / vars()): ask for values instead"]
    found = problems(_with("products.rulebook", "def peek(rendered):\n    return rendered.__dict__\n"))
    assert found == ["products.rulebook looks into an object's attributes (__dict__ / vars()): ask for values instead"]


def test_a_door_broken_by_views_is_caught():
    assert any("views.sheet imports weasyprint" in p for p in problems(_with("views.sheet", "import weasyprint\n")))


def test_a_model_module_importing_a_generator_is_caught():
    found = problems(_with("model.dungeon", "from dungeonpress.generate import floor_plan\n"))
    assert any(p.startswith("leaf model.dungeon imports dungeonpress.generate") for p in found), found


def generated_type_problems(tree_by_name) -> list:
    """Generated things are model types: a generator may keep only private (`_Name`) classes of its own."""
    return [f"{name} defines class {node.name} (generated things live in dungeonpress.model)"
            for name, tree in tree_by_name if stage(name) == "generate"
            for node in tree.body if isinstance(node, ast.ClassDef) and not node.name.startswith("_")]


def test_generated_things_live_in_the_model():
    assert generated_type_problems(modules()) == []
    found = generated_type_problems(_with("generate.dungeon", "class Room:\n    pass\n"))
    assert found == ["generate.dungeon defines class Room (generated things live in dungeonpress.model)"]


def test_domain_names_mean_one_thing():
    """Roll, Room and Layout are no class's name, and no public class of the model, generators, drawing or views
    is defined twice (a dungeon's room and a Paperogue room are DungeonRoom and PaperogueRoom)."""
    seen = {}
    for name, tree in modules():
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                seen.setdefault(node.name, []).append(name)
    assert not {"Roll", "Room", "Layout"} & set(seen)
    inner = ("model", "generate", "draw", "views")
    twice = {cls: where for cls, where in seen.items() if len(where) > 1 and any(stage(w) in inner for w in where)}
    assert twice == {}


# A colour written into a drawing: the palette lives in CSS (templates/css/*.css), drawings name classes.
# Hex, functional (rgb(), hsl(), ...) and named colours (stroke="dimgray", fill: teal) alike.
HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b")
FUNCTIONAL_COLOUR = re.compile(r"\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(", re.IGNORECASE)
_PAINT = r"\b(?:fill|stroke|stop-color|flood-color|lighting-color|color|background(?:-color)?)"
_NOT_A_COLOUR = r"(?!(?:none|currentColor|inherit|transparent|context-fill|context-stroke)\b|url\(|var\()"
NAMED_COLOUR = re.compile(_PAINT + r"""\s*(?:=\s*\\?["']|:)\s*""" + _NOT_A_COLOUR + r"([a-zA-Z]+)\b", re.IGNORECASE)


def colours_in(text: str) -> list:
    """Every colour `text` spells out: #hex, rgb()/hsl()/..., or a name given to fill, stroke or colour."""
    return ([m.group(0) for m in HEX_COLOUR.finditer(text)] + [m.group(0) + "...)" for m in FUNCTIONAL_COLOUR.finditer(text)]
            + [m.group(1) for m in NAMED_COLOUR.finditer(text)])


def palette_problems(tree_by_name) -> list:
    """Every drawing module (draw/, and any module whose strings make an <svg>) writes no hex colour."""
    found = []
    for name, tree in tree_by_name:
        texts = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]
        if stage(name) != "draw" and not any("<svg" in text for text in texts):
            continue
        found += [f"{name} writes the colour {colour} (name a class; the colour goes in the drawing's CSS)"
                  for text in texts for colour in colours_in(text)]
    return found


def test_drawings_take_their_colours_from_css():
    assert palette_problems(modules()) == []


@pytest.mark.parametrize("target, code", [
    ("draw.dominoes", 'INK = "#1d1a17"\n'),
    ("draw.dominoes", "def edge(x):\n    return f'<line x1=\"{x}\" stroke=\"dimgray\"/>'\n"),
    ("draw.cave", "WALL = 'stroke: rgb(40, 30, 20)'\n"),
    ("draw.furnish", "MARK = '<path style=\"fill:teal\"/>'\n"),
    ("draw.pen", "INK = 'hsl(20, 10%, 15%)'\n"),
    ("draw.paperogue_grid", "def dot(x):\n    return f'<circle cx=\"{x}\" fill=\"#fff\"/>'\n"),
    ("views.dunginoes", "BADGE = '<svg xmlns=\"http://www.w3.org/2000/svg\"><rect fill=\"#7a1f1f\"/></svg>'\n"),
])
def test_a_colour_written_into_a_drawing_is_caught(target, code):
    found = palette_problems(_with(target, code))
    assert found and all(p.startswith(f"{target} writes the colour ") for p in found), found


@pytest.mark.parametrize("text", ['<path class="wall" fill="none"/>', "stroke: currentColor", 'fill="url(#hatch)"',
                                  "fill: var(--ink)", '<g class="room-rock">'])
def test_classes_none_and_variables_are_not_colours(text):
    assert colours_in(text) == []


PAPER_SIDES = {(210, 297), (215.9, 279.4), (148, 210), (297, 210), (279.4, 215.9)}  # mm, either way round
# The same papers in points (A4, Letter, A5, half-letter, rounded or not) and inches, either way round.
_OTHER_UNITS = {(595.28, 841.89), (595, 842), (612, 792), (419.53, 595.28), (420, 595), (396, 612),
                (8.27, 11.69), (8.5, 11), (5.5, 8.5), (5.83, 8.27), (11.69, 16.54)}
PAPER_SIDES |= _OTHER_UNITS | {(b, a) for a, b in _OTHER_UNITS}
# Lengths that are a paper's side in points whatever they stand beside (612 and 792 alone are too common to tell).
PAPER_POINTS = {595.28, 841.89, 419.53}
# A paper's size spelled in a CSS string: `size: 8.5in 11in`, `210mm 297mm`.
PAPER_CSS = re.compile(r"\b(?:8\.5in 11in|11in 8\.5in|5\.5in 8\.5in|8\.5in 5\.5in|210mm 297mm|297mm 210mm|148mm 210mm"
                       r"|210mm 148mm|612pt 792pt|595pt 842pt)\b")


def paper_size_problems(tree_by_name) -> list:
    """A paper's size is written once, in mm, in model.paper: no other module spells A4, A5 or Letter out,
    in mm, points or inches, as numbers or in a CSS string."""
    found = []
    for name, tree in tree_by_name:
        if name == "model.paper":
            continue
        covered = set()  # the numbers of a size already reported as a pair
        for node in ast.walk(tree):
            if id(node) in covered:
                continue
            if isinstance(node, ast.Tuple) and len(node.elts) == 2 \
                    and all(isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) for e in node.elts) \
                    and tuple(e.value for e in node.elts) in PAPER_SIDES:
                found.append(f"{name} writes the paper size {ast.unparse(node)} (use model.paper.PAPER_MM)")
                covered |= {id(e) for e in node.elts}
            elif isinstance(node, ast.Constant) and node.value in (215.9, 279.4):
                found.append(f"{name} writes Letter's {node.value} mm (use model.paper.PAPER_MM)")
            elif isinstance(node, ast.Constant) and node.value in PAPER_POINTS:
                found.append(f"{name} writes a paper's side in points, {node.value} (use model.paper.PAPER_MM)")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and PAPER_CSS.search(node.value):
                found.append(f"{name} writes the paper size {PAPER_CSS.search(node.value).group(0)} "
                             "(use model.paper.PAPER_MM)")
    return found


def test_paper_sizes_are_written_once():
    assert paper_size_problems(modules()) == []
    assert paper_size_problems(_with("views.foes", 'SHEETS = {"a4": (210.0, 297.0)}\n')) == \
        ["views.foes writes the paper size (210.0, 297.0) (use model.paper.PAPER_MM)"]
    assert paper_size_problems(_with("impose.__init__", "LETTER_WIDE = 279.4 * 72 / 25.4\n")) == \
        ["impose.__init__ writes Letter's 279.4 mm (use model.paper.PAPER_MM)"]


@pytest.mark.parametrize("code, problem", [
    ("LETTER = (612, 792)\n", "writes the paper size (612, 792)"),
    ("A4_PT = (595.28, 841.89)\n", "writes the paper size (595.28, 841.89)"),
    ("SHEET = {'letter': (11, 8.5)}\n", "writes the paper size (11, 8.5)"),
    ("WIDE = 841.89\n", "writes a paper's side in points, 841.89"),
    ("CSS = '@page { size: 8.5in 11in }'\n", "writes the paper size 8.5in 11in"),
])
def test_a_paper_size_in_points_or_inches_is_caught(code, problem):
    assert paper_size_problems(_with("views.foes", code)) == [f"views.foes {problem} (use model.paper.PAPER_MM)"]


# ---------------------------------------------------------------- templates get values ready to print

TEMPLATES = SRC.parents[1] / "templates"
# Logic a view owes the template: arithmetic, lengths, min/max/abs, slicing, ranges, comparisons with numbers
# (which is how pluralising and box counts creep in).
TEMPLATE_LOGIC = re.compile(
    r"\{\{[^}]*( [-+*/%] |\|\s*(abs|min|max|round|int|sum|length|count)\b|\[[-0-9]*:)[^}]*\}\}"
    r"|\{%[^%]*( [-+*/%] |range\(|\|\s*(length|count)\b|(==|!=|<|>|<=|>=) *[0-9])[^%]*%\}")


def template_problems(texts) -> list:
    found = []
    for name, text in texts:
        found += [f"{name}: {m.group(0)} (make it in views/)" for m in TEMPLATE_LOGIC.finditer(text)]
        if name != "partials/notes.html.j2" and '<div class="line"></div>' in text:
            found.append(f"{name}: draws ruled lines (notes pages come from the notes macro)")
    return found


def _templates():
    return [(path.relative_to(TEMPLATES).as_posix(), path.read_text()) for path in sorted(TEMPLATES.rglob("*.j2"))]


def test_templates_get_values_ready_to_print():
    assert len(_templates()) > 10
    assert template_problems(_templates()) == []


@pytest.mark.parametrize("snippet", [
    "{% for _ in range(6) %}<span class=box></span>{% endfor %}",
    "{{ rooms }} room{% if rooms != 1 %}s{% endif %}",
    "{{ delve.exits | length }} checks",
    "left: {{ [a, b] | min }}mm",
    "{{ roll[:-1] }}",
    "{{ count - 1 }}",
    '<section class="notes">{% for _ in lines %}<div class="line"></div>{% endfor %}</section>',
])
def test_template_logic_is_caught(snippet):
    assert template_problems([("mutant.html.j2", snippet)])


# ---------------------------------------------------------------- tests mirror src/

TESTS = Path(__file__).resolve().parent
# Tests of the whole tool rather than of one module: they mirror no module.
CROSS_CUTTING = {"accessible_pdfs", "content_ideas", "content_quality", "docs", "docs_cli", "golden_data", "install",
                 "map_properties", "map_truth", "page_fill", "played_as_printed", "print_shop", "reliability", "reliability_exports",
                 "reliability_faults", "reliability_properties", "rooms", "scripts_sweep", "suite", "themes"}
# Modules still tested only through another module's tests (mostly a product's, end to end). The list
# may only shrink: a new module comes with tests/test_<package>_<module>.py.
UNMIRRORED = {
    "products.common",
    "serve.app",
    "views.sheet",
}


def mirrored_modules() -> set:
    """Every module a test file should mirror, dotted under dungeonpress: a package by its __init__ when that
    holds more than a docstring and imports; not __main__, not the package root."""
    found = set()
    for name, tree in modules():
        if name.endswith("__main__"):
            continue
        if name == "__init__" or name.endswith(".__init__"):
            body = [node for node in tree.body if not isinstance(node, (ast.Import, ast.ImportFrom))
                    and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
            if name == "__init__" or not body:
                continue
            name = name.removesuffix(".__init__")
        found.add(name)
    return found


def mirror_of(module: str) -> str:
    """`draw.dominoes` is tested in tests/test_draw_dominoes.py; `impose` in tests/test_impose.py."""
    return "test_" + module.replace(".", "_") + ".py"


def test_tests_mirror_src():
    names = {path.name for path in TESTS.glob("test_*.py")}
    modules_ = mirrored_modules()
    missing = {module for module in modules_ if mirror_of(module) not in names}
    assert missing <= UNMIRRORED, f"give these modules their test file: {sorted(missing - UNMIRRORED)}"
    assert UNMIRRORED <= missing, f"tested now, take off UNMIRRORED: {sorted(UNMIRRORED - missing)}"
    strays = {name for name in names if name not in {mirror_of(m) for m in modules_}
              and name.removeprefix("test_").removesuffix(".py") not in CROSS_CUTTING}
    assert strays == set(), f"name each test file for the module it tests (or list it in CROSS_CUTTING): {strays}"
