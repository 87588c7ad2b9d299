"""Every command, option, make target and picture the READMEs name exists: checked against the CLI itself."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import shlex
from pathlib import Path

import pytest

from dungeonpress import build, cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
CONTENT_README = (ROOT / "content" / "README.md").read_text()
PARSER = cli._parser(build.commands())


def children(parser) -> dict:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices
    return {}


def every_parser(parser=PARSER, name="dungeonpress"):
    yield name, parser
    for child_name, child in children(parser).items():
        yield from every_parser(child, f"{name} {child_name}")


def resolve(words: list[str]):
    """The sub-parser a command line lands in, and the words after the command's name."""
    parser = PARSER
    while words and words[0] in children(parser):
        parser = children(parser)[words[0]]
        words = words[1:]
    return parser, words


def options_of(parser) -> dict:
    return {flag: action for action in parser._actions for flag in action.option_strings}


def code_lines(text: str) -> list[str]:
    """Each `dungeonpress …` command in the ```sh blocks, comments removed, `&&` chains split."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].split(" # ")[0].strip()
            for part in line.split("&&"):
                part = part.strip().removeprefix(".venv/bin/")
                if part.startswith("dungeonpress"):
                    lines.append(part)
    return lines


def inline_commands(text: str) -> list[str]:
    """Each `dungeonpress …` written inline in backticks (the command table, the prose)."""
    return [span.replace("\\|", "|") for span in re.findall(r"`((?:\.venv/bin/)?dungeonpress [^`]+)`", text)]


@pytest.mark.parametrize("text", [README, CONTENT_README], ids=["README", "content-README"])
def test_every_example_command_line_is_accepted_by_the_cli(text):
    lines = code_lines(text)
    assert len(lines) >= (10 if text is README else 3)
    for line in lines:
        words = shlex.split(line)[1:]
        with contextlib.redirect_stderr(io.StringIO()) as err:
            try:
                args = PARSER.parse_args(words)
            except SystemExit:
                raise AssertionError(f"{line}: {err.getvalue().strip()}") from None
        assert args.command, line


def test_every_inline_command_and_its_options_and_values_exist():
    spans = inline_commands(README) + inline_commands(CONTENT_README)
    assert len(spans) > 15
    for span in spans:
        words = [w for w in re.split(r"[\s\[\]]+", span.removeprefix(".venv/bin/"))[1:] if w]
        parser, rest = resolve(words)
        assert parser is not PARSER, f"{span}: no such command"
        options = options_of(parser)
        for index, word in enumerate(rest):
            if not word.startswith("--"):
                continue
            flag = word.split("=")[0]
            assert flag in options, f"{span}: {flag} is not an option of that command"
            action = options[flag]
            if action.choices and index + 1 < len(rest) and not rest[index + 1].startswith("-"):
                choices = {str(choice) for choice in action.choices}
                for value in rest[index + 1].split("|"):
                    assert value in choices, f"{span}: {flag} {value} (choices: {sorted(choices)})"


def test_every_option_the_readmes_name_is_an_option_of_some_command():
    known = {flag for _, parser in every_parser() for flag in options_of(parser)}
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", README + CONTENT_README))
    assert named - known == set()


def test_every_product_takes_the_common_options():
    paragraph = README.split("Every command takes", 1)[1].split("\n\n", 1)[0]
    common = set(re.findall(r"`(--[a-z-]+)", paragraph)) - {"--seed"}
    assert {"--help", "--out", "--content", "--quiet", "--verbose", "--strict", "--debug", "--theme"} <= common
    validate, _ = resolve(["validate"])
    assert not common - set(options_of(validate)), "validate takes the same common options"
    for command in build.commands():
        parser, _ = resolve(cli.full_name(command).split())
        missing = common - set(options_of(parser))
        assert not missing, f"{cli.full_name(command)} lacks {missing}"
        assert ("--seed" in options_of(parser)) == command.seeded, cli.full_name(command)


def test_every_command_the_cli_has_is_in_the_readme():
    for name, parser in every_parser():
        if name == "dungeonpress" or children(parser):
            continue
        assert f"`{name}" in README, f"{name} is not documented"


def test_make_targets_named_exist():
    makefile = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([a-z][\w.-]*):", makefile, flags=re.M))
    named = set(re.findall(r"`make ([a-z][\w-]*)", README))
    assert named and named <= targets


def test_pictures_exist_and_stay_small():
    pictures = re.findall(r"\]\((docs/images/[^)]+)\)", README)
    assert len(pictures) >= 11
    for picture in pictures:
        path = ROOT / picture
        assert path.is_file(), picture
        if path.suffix == ".png":
            assert path.stat().st_size <= 60_000, f"{picture} is {path.stat().st_size} bytes"


def test_the_vscode_schema_settings_point_at_real_files():
    settings = json.loads(re.search(r"```json\n(.*?)```", CONTENT_README, flags=re.S).group(1))["yaml.schemas"]
    assert len(settings) == 4
    for schema, pattern in settings.items():
        assert (ROOT / schema).is_file(), schema
        assert list(ROOT.glob(pattern)), pattern


def test_the_readme_s_usage_error_and_summary_are_what_the_cli_prints():
    from dungeonpress import progress
    example = re.search(r"probably meant: \*(dungeonpress: error: [^*]+)\*", README)[1]
    err = io.StringIO()
    assert cli.main(shlex.split(re.search(r"unknown command '(\w+)'", example)[1]), io.StringIO(), err) == 2
    assert err.getvalue() == example + "\n"
    shown = re.search(r"It ends with one\nline: `([^`]+)`", README)[1]
    tally = progress.Tally(files=16, pages=98, bytes=3_100_000, warnings=["w"])
    assert progress.summary(tally, 41.2, "build/") == shown
