"""Parse arguments, call build, show errors, choose the exit code."""

from __future__ import annotations

import argparse
import contextlib
import secrets
import sys
from pathlib import Path

from dungeonpress import __version__, build
from dungeonpress.errors import ContentErrors, RenderError, UsageError
from dungeonpress.products import options
from dungeonpress.products.common import THEMES

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (the usage text is for --help), values shortened."""

    def error(self, message):
        if len(message) > 200:
            message = message[:200] + "…"
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")


def _parser(commands) -> argparse.ArgumentParser:
    parser = _Parser(prog="dungeonpress", description="Print solo dungeon-crawling games from YAML content.")
    parser.add_argument("--version", action="version", version=f"dungeonpress {__version__}")
    top = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def common(sub, seeded: bool):
        sub.add_argument("--content", action="append", type=Path, default=[], metavar="DIR",
                         help="an extra content pack (or folder of packs); its tables replace built-in ones by id")
        sub.add_argument("--out", type=Path, default=build.DEFAULT_OUT, metavar="DIR", help="output folder (default: build/)")
        sub.add_argument("--quiet", action="store_true", help="no progress output")
        sub.add_argument("--strict", action="store_true", help="treat rendering warnings as errors")
        sub.add_argument("--debug", action="store_true", help="show tracebacks")
        sub.add_argument("--theme", default=THEMES[0], choices=THEMES, help="the look of every product (default: standard)")
        if seeded:
            sub.add_argument("--seed", default=None, metavar="N",
                             help="make the same output again (default: a fresh seed, printed)")

    validate = top.add_parser("validate", help="check every content file and report all mistakes")
    validate.add_argument("--content", action="append", type=Path, default=[], metavar="DIR")
    validate.add_argument("--debug", action="store_true")

    tables = top.add_parser("tables", help="list every table: id, die, title, pack and the products that use it")
    tables.add_argument("--content", action="append", type=Path, default=[], metavar="DIR",
                        help="an extra content pack (or folder of packs); its tables replace built-in ones by id")
    tables.add_argument("--debug", action="store_true")
    new_pack = top.add_parser("new-pack", help="write a small, valid, commented content pack to start your own",
                              epilog="example: dungeonpress new-pack my-pack")
    new_pack.add_argument("dir", type=Path, metavar="DIR", help="a new (or empty) folder for the pack")
    new_pack.add_argument("--debug", action="store_true")

    build_parser = top.add_parser("build", help="build a book product (rulebook, tables) or everything (all)")
    build_sub = build_parser.add_subparsers(dest="product", metavar="PRODUCT", required=True)
    all_parser = build_sub.add_parser("all", help="build every main product into build/ (what `make` runs)")
    common(all_parser, seeded=False)
    export_parser = top.add_parser("export", help="export content as data files (tables as JSON, CSV, Foundry VTT)")
    export_sub = export_parser.add_subparsers(dest="product", metavar="WHAT", required=True)
    parents = {"": top, "build": build_sub, "export": export_sub}

    for command in commands:
        holder = parents[command.parent]
        sub = holder.add_parser(command.name, help=command.help, description=command.help,
                                epilog=f"example: {command.example}" if command.example else None)
        common(sub, seeded=command.seeded)
        for field, spec in options.specs(command.options):
            if spec.switch:
                sub.add_argument(options.flag_of(field), dest=field.name, action="store_true", help=spec.help)
            else:
                # Values stay text here: options.parse converts and range-checks every one the same way.
                metavar = "{" + ",".join(map(str, spec.choices)) + "}" if spec.choices else ("N" if spec.whole else None)
                sub.add_argument(options.flag_of(field), dest=field.name, default=None, metavar=metavar,
                                 help=spec.help)
        sub.set_defaults(_command=command)
    return parser


def main(argv=None, stdout=None, stderr=None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    commands = build.commands()
    parser = _parser(commands)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: 0 for --help/--version, 2 for usage errors
        return int(exc.code or 0)
    if not args.command:
        parser.print_help(stdout)
        return EXIT_USAGE
    problem = _usage_problem(args)
    if problem:  # checked before any content is read or any work is done
        print(f"dungeonpress: error: {problem}", file=stderr)
        return EXIT_USAGE
    try:
        jobs = _jobs(args, commands)  # every option checked before any content is read
    except UsageError as exc:
        print(f"{_prog(args)}: error: {exc}", file=stderr)
        return EXIT_USAGE
    try:
        return _dispatch(args, jobs, stdout, stderr)
    except ContentErrors as exc:
        print(exc, file=stderr)
        return EXIT_FAILED
    except RenderError as exc:
        print(f"error: {exc}", file=stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("interrupted", file=stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:
        if getattr(args, "debug", False):
            raise
        print(f"error: {_os_error(exc)}", file=stderr)
        return EXIT_FAILED
    except Exception as exc:  # a bug, never the user's fault: one line, not a traceback
        if getattr(args, "debug", False):
            raise
        print(f"error: unexpected {type(exc).__name__}: {_first_line(exc)} (a bug in dungeonpress; "
              f"run with --debug for details and please report it)", file=stderr)
        return EXIT_FAILED


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else "no message"


def _os_error(exc: OSError) -> str:
    """An OS error as `FILE: what went wrong`, naming the file whenever the error knows it."""
    if exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return str(exc)


def _usage_problem(args) -> str | None:
    """A bad --out, as one line; None when it is fine."""
    out = getattr(args, "out", None)
    if out is not None:
        problem = build.out_problem(out)
        if problem:
            return problem
    return None  # option values are typed and range-checked by options.parse, in _jobs


def _prog(args) -> str:
    command = getattr(args, "_command", None)
    return f"dungeonpress {command.full_name}" if command else f"dungeonpress {args.command}"


def _jobs(args, commands) -> list:
    """(command, options, seed) for each run asked for; options typed and range-checked, UsageError if not."""
    if args.command in ("validate", "tables", "new-pack"):
        return []
    if args.command == "build" and args.product == "all":
        return [(command, options.parse(command.options, job.options), job.seed)
                for command in commands for job in command.build_all]
    command = args._command
    given = {field.name: getattr(args, field.name) for field, _ in options.specs(command.options)}
    seed = None
    if command.seeded and args.seed is not None:
        try:
            seed = int(args.seed)
        except ValueError:
            raise UsageError(f"--seed must be a whole number (got {options.shown(args.seed)})") from None
    return [(command, options.parse(command.options, given), seed)]


def _dispatch(args, jobs, stdout, stderr) -> int:
    if args.command == "new-pack":
        return _new_pack(args.dir, stdout, stderr)
    content = build.load_content(args.content)
    for warning in content.warnings:  # files a pack holds that were not read: say so, never pass them over
        print(f"warning: {warning}", file=stderr)
    if args.command == "validate":
        for note in content.notes:
            print(note, file=stdout)
        tables = len(content.tables)
        print(f"content ok: {tables} tables, {len(content.creatures)} creatures, "
              f"{len(content.book.chapters) if content.book else 0} chapters"
              f"{f', {len(content.warnings)} files not read' if content.warnings else ''}", file=stdout)
        return EXIT_OK
    if args.command == "tables":
        from dungeonpress import authoring  # reads the product code: only when asked
        products = {module: [c.full_name for c in found] for module, found in build.commands_by_module().items()
                    if module not in ("tables", "exports")}
        for line in authoring.tables_listing(content, products):
            print(line.rstrip(), file=stdout)
        return EXIT_OK
    status = EXIT_OK
    for command, opts, seed in jobs:
        if command.seeded and seed is None:
            seed = secrets.randbelow(10**9)
            print(f"seed: {seed}", file=stderr)
        progress = None if args.quiet else _progress_printer(stderr)
        ctx = build.context_for(content, seed=seed if command.seeded else None, progress=progress,
                                user_packs=args.content, strict=args.strict, theme=args.theme,
                                out_dir=args.out)
        report = build.run_command(command, ctx, opts, args.out)
        for warning in report.warnings:
            print(f"warning: {warning}", file=stderr)
        if report.warnings and ctx.strict:
            status = EXIT_FAILED
        for path in report.written:
            print(f"wrote {_shown(path)}", file=stdout)
    return status


def _new_pack(target: Path, stdout, stderr) -> int:
    from dungeonpress import authoring
    try:
        written = authoring.write_new_pack(target)
    except FileExistsError as exc:
        print(f"error: {exc}", file=stderr)
        return EXIT_USAGE
    print(f"wrote {len(written)} files to {_shown(target)}/; try: dungeonpress validate --content {_shown(target)}",
          file=stdout)
    return EXIT_OK


def full_name(command) -> str:
    """How a command is typed after `dungeonpress`: `build rulebook`, `export tables`, `dungeon`."""
    return command.full_name


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _progress_printer(stream):
    """A one-line progress bar on stderr, redrawn in place when stderr is a terminal."""
    interactive = stream.isatty()

    def show(done: int, total: int, label: str) -> None:
        width = 24
        filled = width * done // max(total, 1)
        line = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label}"
        if interactive:
            stream.write("\r" + line.ljust(70) + ("\n" if done >= total else ""))
        else:
            stream.write(line + "\n")
        stream.flush()

    return show
