"""Shared fixtures: the project's content (loaded once) and a way to write small content packs."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest

from dungeonpress import build, cli, load, validate
from dungeonpress.errors import ContentErrors

# The fast tier (`make test-fast`, `pytest -m "not slow"`) leaves out every test that lays out a PDF
# or rolls hundreds of seeds: those ask for one of these fixtures, or are named below (measured
# over half a second on the reference machine). `make test` runs everything.
SLOW_FIXTURES = {
    "built", "reader", "page_texts", "zine_a4", "zine_letter", "booklet", "pack", "zine_pages_a4", "sheets", "kit",
    "dungeoneer_fillable", "dungeoneer_print", "paperogue_sheets", "prerolled", "layouts", "dungeons", "drawn",
    "many", "delves", "before_maps", "fly_maps", "files", "packs", "packages", "validator", "outputs",
    "product_findings", "bestiary",
}
SLOW_TESTS = {
    "test_a_deck_of_one_size_and_paper",
    "test_a_user_pack_replaces_a_table_by_id",
    "test_an_unwritable_output_folder_leaves_no_half_bundle",
    "test_bad_table_is_one_line_and_writes_nothing",
    "test_before_maps_follow_the_procedure",
    "test_before_maps_mark_a_special_room_when_stuck",
    "test_broken_content_exits_one_with_every_error",
    "test_build_commands_preflight_what_they_wrote",
    "test_caves_are_irregular_and_never_cross_themselves",
    "test_cell_option_overrides_the_paper_default",
    "test_chapters_and_sections_are_bookmarked",
    "test_cli_character_json",
    "test_cli_json_progress_and_quiet",
    "test_cli_paper_command",
    "test_contents_page_numbers_match_the_headings",
    "test_corridors_are_orthogonal_and_never_pass_through_rooms",
    "test_deep_nesting_is_refused_cleanly",
    "test_default_run_makes_four_sheets_without_warnings",
    "test_delve_log_lists_every_turn_and_the_way_out",
    "test_dungeon_deck_holds_the_rolled_dungeons_inhabitants_and_two_rivals",
    "test_each_mutation_of_a_module_is_caught",
    "test_every_bad_option_value_of_every_command_is_one_line_exit_two",
    "test_every_package_validates_against_the_schema",
    "test_every_rolled_value_is_a_row_of_its_table",
    "test_every_room_is_reachable_from_the_entrance",
    "test_every_value_comes_from_its_table",
    "test_fillable_dungeoneer_has_every_field",
    "test_fly_maps_follow_the_procedure",
    "test_html_output_carries_no_path_of_the_building_machine",
    "test_ids_are_16_characters_unique_and_the_same_on_every_build",
    "test_json_is_the_same_whatever_the_hash_seed",
    "test_kit_outputs_and_no_weasyprint_warnings",
    "test_level_pdf_has_one_level_per_page_with_seed_and_number",
    "test_module_manifest_names_both_packs_and_the_versions",
    "test_no_hash_order_leaks_into_the_dungeon",
    "test_no_weasyprint_warnings",
    "test_one_file_per_rolled_table",
    "test_outputs_are_named_and_byte_identical",
    "test_outputs_are_named_as_documented",
    "test_pack_index_seeds_and_dungeons",
    "test_paperogue_sheets",
    "test_prerolled_dungeoneer_sheets_show_every_value",
    "test_prerolled_paperogue_sheet",
    "test_print_version_has_no_fields_and_reads_like_a_sheet",
    "test_procedure_pdf_holds_card_appendices_and_log",
    "test_property_any_seed_gives_a_valid_character",
    "test_python_dash_m_works",
    "test_room_type_frequencies_match_2d6_odds",
    "test_same_content_gives_the_same_bytes_in_another_process",
    "test_same_seed_same_bytes",
    "test_sheet_carries_the_legend_the_monster_lists_and_the_tally",
    "test_simulation_is_seeded",
    "test_spelling",
    "test_the_map_draws_the_key_over_a_large_sweep",
    "test_the_booklet_keeps_whole_turn_log_pages_and_a_long_log_folds",
    "test_the_source_keeps_every_room_rule",
    "test_typing_into_the_fillable_form",
    "test_validate_the_project_content",
    "test_wandering_checks_only_on_even_turns",
    "test_written_bundle_is_byte_identical_on_rebuild",
    "test_zine_pages_read_in_order",
}


def pytest_collection_modifyitems(items):
    for item in items:
        if SLOW_FIXTURES & set(item.fixturenames) or item.originalname in SLOW_TESTS or item.get_closest_marker("builds"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def content():
    """The project's own content, loaded and validated once per test run."""
    return build.load_content()


@pytest.fixture
def make_pack(tmp_path, monkeypatch):
    """Write files into a fresh pack folder and return a function that validates it alone.

    Paths in error messages are relative to the working directory, so the test runs inside
    tmp_path and messages read `pack/tables/x.yaml:3: …`.
    """
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "pack"

    def write(files: dict) -> Path:
        for name, text in files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                path.write_bytes(text)
            else:
                path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return root

    return write


def validate_folder(folder: Path):
    """Load and validate one folder of content on its own (no built-in packs)."""
    return validate.validate_content(load.load_content([folder]))


def content_errors(folder: Path) -> list[str]:
    """The error lines validating `folder` on its own gives (it must fail)."""
    with pytest.raises(ContentErrors) as caught:
        validate_folder(folder)
    return [str(e) for e in caught.value.errors]


def run_cli(*argv) -> tuple[int, str, str]:
    """`dungeonpress ARGV...` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    status = cli.main([str(a) for a in argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


# A valid d6 table, the smallest a pack can hold (tests change a line of it to make one fault).
MOOD_D6 = """id: mood
title: Mood
die: d6
source: core
columns: {mood: Mood}
rows:
  1: Grim
  2: Tense
  3: Quiet
  4: Calm
  5: Odd
  6: Wild
"""


# --- Slow builds made once per session, in a second process ------------------------------------
# Several test files need whole-product builds (every product in every theme; `build all` read back
# by the preflight). A worker process started after collection makes the ones the selected tests
# ask for, in order, on the machine's other core while this process runs the rest of the suite;
# a test that needs a build the worker has not started yet makes it here instead. Results are the
# same either way: each job is a plain function of its arguments.

class SharedBuilds:
    """Jobs (module, function, args) run by one worker process, or here when the worker has not begun them.

    The worker is a plain subprocess in its own session: tests that count this process's children
    or signal its process group do not see it. A job is taken by creating its claim file, which
    only one side can do.
    """

    def __init__(self):
        self.keys: list = []
        self.worker = None

    def start(self, jobs: dict) -> None:
        import json
        import subprocess
        import sys
        import tempfile
        self.keys = list(jobs)
        if not self.keys:
            return
        self.folder = Path(tempfile.mkdtemp(prefix="dungeonpress-tests-"))
        (self.folder / "jobs.json").write_text(json.dumps([list(jobs[k]) for k in self.keys]))
        self.worker = subprocess.Popen(
            [sys.executable, "-c", "import sys; from tests.conftest import _worker_main; _worker_main(sys.argv[1])",
             str(self.folder)], cwd=Path(__file__).resolve().parents[1], start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def result(self, key: str, here):
        """The job's value: from the worker when it has taken the job, else `here()` made now in this process."""
        if key not in self.keys or self.worker is None or _claim(self.folder, self.keys.index(key)):
            return here()
        import pickle
        import time
        done = self.folder / f"{self.keys.index(key)}.pickle"
        while not done.exists():
            if self.worker.poll() is not None and not done.exists():
                return here()  # the worker is gone: make it here
            time.sleep(0.2)
        ok, value = pickle.loads(done.read_bytes())
        if not ok:
            raise AssertionError(value)
        return value

    def stop(self) -> None:
        if self.worker is not None:
            if self.worker.poll() is None:
                self.worker.terminate()
            self.worker.wait()
            import shutil
            shutil.rmtree(self.folder, ignore_errors=True)
            self.worker = None


def _claim(folder: Path, index: int) -> bool:
    import os
    try:
        os.close(os.open(folder / f"{index}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _call(job) -> object:
    import importlib
    module, function, args = job
    return getattr(importlib.import_module(module), function)(*args)


def _worker_main(folder: str) -> None:
    """The worker: every job not yet claimed, from the last needed to the first (pytest reaches the first ones itself)."""
    import json
    import pickle
    import traceback
    folder = Path(folder)
    jobs = json.loads((folder / "jobs.json").read_text())
    for index in reversed(range(len(jobs))):
        if not _claim(folder, index):
            continue
        try:
            outcome = (True, _call(jobs[index]))
        except AssertionError as exc:
            outcome = (False, str(exc))
        except Exception:
            outcome = (False, traceback.format_exc())
        part = folder / f"{index}.part"
        part.write_bytes(pickle.dumps(outcome))
        part.rename(folder / f"{index}.pickle")


SHARED = SharedBuilds()


def pytest_configure(config):
    config.addinivalue_line("markers", "builds(*keys): whole-product builds the test reads, made once (see SHARED); "
                                       "theme:NAME is every `build all` job in that theme")


def pytest_collection_finish(session):
    """Start the worker on every shared build the selected tests name, in the order they are first needed."""
    wanted: dict = {}
    for item in session.items:
        for marker in item.iter_markers("builds"):
            params = getattr(getattr(item, "callspec", None), "params", {})
            for key in marker.args:
                key = key.format(**params)
                keys = ([f"{key[6:]}/{name}/{index}" for name, index in theme_jobs()] if key.startswith("theme:") else [key])
                for key in keys:
                    wanted.setdefault(key, shared_job(key))
    SHARED.start(wanted)


def pytest_sessionfinish(session):
    SHARED.stop()


def theme_jobs() -> list:
    """(command name, job index) of every `build all` job that makes PDFs."""
    return [(c.name, i) for c in build.commands() if c.parent != "export" for i in range(len(c.build_all))]


def shared_job(key: str) -> tuple:
    """What a shared build key means: THEME/COMMAND/INDEX, one `build all` job in a theme; or
    build-all-preflight, `build all` read back by the preflight."""
    if key == "build-all-preflight":
        return ("tests.test_preflight", "build_all_and_preflight", ())
    theme, name, index = key.split("/")
    return ("tests.test_themes", "build_job", (theme, name, int(index)))


@pytest.fixture(scope="session")
def shared_builds():
    return SHARED
