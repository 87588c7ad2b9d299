"""The README tells the truth: the two commands, and every CLI command with an example."""

from __future__ import annotations

from pathlib import Path

from dungeonpress import build
from dungeonpress.products.options import flag_of, specs
from dungeonpress.cli import full_name

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_the_two_commands():
    assert "make        #" in README and "make test   #" in README


def test_every_command_is_documented_with_an_example():
    for command in build.commands():
        name = full_name(command)
        assert f"`dungeonpress {name}" in README, name
        examples = README.split("Examples:")[1].split("```")[1]
        assert any(line.split("dungeonpress ", 1)[-1].startswith(name) for line in examples.splitlines()), name
        for field, _ in specs(command.options):
            assert flag_of(field) in README, f"{name} {flag_of(field)}"


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    assert "make test" in ci
