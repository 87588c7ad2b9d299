"""Parse arguments, call build, show errors, choose the exit code."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import difflib
import json
import re
import secrets
import sys
from pathlib import Path

from dungeonpress import __version__, batch, budget, build, collect, manifest, progress
from dungeonpress.errors import ContentErrors, RenderError, UsageError
from dungeonpress.products import options
from dungeonpress.products.common import THEMES

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
# A seed names output files (dungeon-<seed>.json): 18 digits is more seeds than anyone will roll and keeps names short.
MAX_SEED_DIGITS = 18
MAX_PAGES = 1000  # the default of --max-pages: pdf.MAX_PAGES (not imported here: it loads WeasyPrint)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the command, what is wrong, what was meant), exit 2."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {_one_line(message, self.prog)}\n")


def _one_line(message: str, prog: str) -> str:
    """argparse's own messages, with a did-you-mean for a mistyped command in place of the list of all."""
    wrong = re.fullmatch(r"argument (\S+): invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if not wrong or wrong[1] not in ("COMMAND", "PRODUCT", "WHAT"):
        if len(message) > 200:  # a pasted paragraph is not echoed back whole
            message = message[:200] + "…"
        return f"{message} (see {prog} --help)"
    choices = re.findall(r"'([^']*)'", wrong[3])
    noun = {"COMMAND": "command", "PRODUCT": "product", "WHAT": "export"}[wrong[1]]
    return f"unknown {noun} '{wrong[2]}'{_did_you_mean(wrong[2], choices, prog)}"


def _did_you_mean(word: str, choices, prog: str) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else f" (see {prog} --help)"


def _unknown_arguments(parser: argparse.ArgumentParser, extras: list) -> str:
    """One line for words the command does not take: the first unknown option and the option meant."""
    options = [flag for action in parser._actions for flag in action.option_strings if flag.startswith("--")]
    for word in extras:
        if word.startswith("-"):
            return f"unknown option {word.split('=', 1)[0]}{_did_you_mean(word.split('=', 1)[0], options, parser.prog)}"
    return f"unexpected argument{'s' * (len(extras) > 1)}: {' '.join(extras)} (see {parser.prog} --help)"


def _parser(commands) -> argparse.ArgumentParser:
    parser = _Parser(prog="dungeonpress", description="Print solo dungeon-crawling games from YAML content.")
    parser.add_argument("--version", action="version", version=f"dungeonpress {__version__}")
    top = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    subparsers = {}

    def supervision(sub):
        # Runs of many items (build all, --batch) use workers with these limits; a single product
        # runs in this process, watched by budget.limited with the same ones.
        sub.add_argument("--item-timeout", type=_positive(float, 1, 86400), default=None, metavar="S",
                         help=f"stop a product run (each item of build all or --batch) after S seconds "
                              f"(default {batch.ITEM_TIMEOUT:g})")
        sub.add_argument("--item-memory", type=_positive(int, batch.MIN_ITEM_MEMORY_MB, 65536), default=None,
                         metavar="MB", help=f"memory cap of a product run (each worker of build all or --batch), in "
                                            f"MiB, at least {batch.MIN_ITEM_MEMORY_MB} (what WeasyPrint and Pango need "
                                            f"to start; default {batch.ITEM_MEMORY_MB})")
        sub.add_argument("--max-pages", type=_positive(int, 1, 100000), default=None, metavar="N",
                         help=f"stop laying out a document past N pages (default {MAX_PAGES})")

    def common(sub, seeded: bool):
        sub.add_argument("--content", action="append", type=Path, default=[], metavar="DIR",
                         help="an extra content pack (or folder of packs); its tables replace built-in ones by id")
        sub.add_argument("--out", type=Path, default=build.DEFAULT_OUT, metavar="DIR", help="output folder (default: build/)")
        talk = sub.add_mutually_exclusive_group()
        talk.add_argument("--quiet", action="store_true", help="print nothing but errors and the seed")
        talk.add_argument("--verbose", action="store_true", help="also name every file written")
        sub.add_argument("--strict", action="store_true", help="treat rendering warnings as errors")
        sub.add_argument("--debug", action="store_true", help="show tracebacks")
        sub.add_argument("--theme", default=THEMES[0], choices=THEMES, help="the look of every product (default: standard)")
        sub.add_argument("--preflight", action=argparse.BooleanOptionalAction, default=None,
                         help="read every PDF written back and report page problems (default: on for `build all`)")
        supervision(sub)
        if seeded:
            sub.add_argument("--seed", default=None, metavar="N",
                             help="make the same output again (default: a fresh seed, printed)")

    validate = top.add_parser("validate", help="check every content file and report all mistakes")
    common(validate, seeded=False)
    subparsers["validate"] = validate

    tables = top.add_parser("tables", help="list every table: id, die, title, pack and the products that use it")
    tables.add_argument("--content", action="append", type=Path, default=[], metavar="DIR",
                        help="an extra content pack (or folder of packs); its tables replace built-in ones by id")
    tables.add_argument("--debug", action="store_true")
    new_pack = top.add_parser("new-pack", help="write a small, valid, commented content pack to start your own",
                              epilog="example: dungeonpress new-pack my-pack")
    new_pack.add_argument("dir", type=Path, metavar="DIR", help="a new (or empty) folder for the pack")
    new_pack.add_argument("--debug", action="store_true")
    check = top.add_parser("preflight", help="read PDFs back and report what a reader or a print shop would notice")
    check.add_argument("files", nargs="+", type=Path, metavar="FILE.pdf")
    check.add_argument("--json", action="store_true", help="findings as JSON on stdout")
    check.add_argument("--shop", action="store_true", help="also check TrimBox/BleedBox for a print shop")
    check.add_argument("--strict", action="store_true", help="warnings fail too")
    subparsers.update({"tables": tables, "new-pack": new_pack, "preflight": check})

    build_parser = top.add_parser("build", help="build a book product (rulebook, tables) or everything (all)")
    build_sub = build_parser.add_subparsers(dest="product", metavar="PRODUCT", required=True)
    all_parser = build_sub.add_parser("all", help="build every main product into build/ (what `make` runs); "
                                      "unchanged ones are skipped (build/manifest.json)")
    common(all_parser, seeded=False)
    _spread_options(all_parser, seeds=False)
    export_parser = top.add_parser("export", help="export content as data files (tables as JSON, CSV, Foundry VTT)")
    export_sub = export_parser.add_subparsers(dest="product", metavar="WHAT", required=True)
    parents = {"": top, "build": build_sub, "export": export_sub}
    subparsers.update({"build": build_parser, "build all": all_parser, "export": export_parser})
    subparsers.update(_tool_parsers(top))

    for command in commands:  # each product module's own declaration, in `--help` order
        sub = parents[command.parent].add_parser(command.name, help=command.help, description=command.help,
                                                 epilog=f"example: {command.example}" if command.example else None)
        common(sub, seeded=command.seeded)
        if command.batch:  # a product that makes batches: their seeds from a file, and the run in parts
            _spread_options(sub, seeds=command.seeded)
        for field, spec in options.specs(command.options):
            if spec.switch:
                sub.add_argument(options.flag_of(field), dest=field.name, action="store_true", help=spec.help)
            else:
                # Values stay text here: options.parse converts and range-checks every one the same way.
                metavar = "{" + ",".join(map(str, spec.choices)) + "}" if spec.choices else ("N" if spec.whole else None)
                sub.add_argument(options.flag_of(field), dest=field.name, default=None, metavar=metavar,
                                 help=spec.help)
        sub.set_defaults(_command=command)
        subparsers[command.full_name] = sub
    parser.set_defaults(_subparsers=subparsers)
    return parser


def _spread_options(sub, *, seeds: bool) -> None:
    """--seeds FILE and --shard K/N: a run of many items spread over machines by the runners people already use."""
    if seeds:
        sub.add_argument("--seeds", type=Path, default=None, metavar="FILE",
                         help="a batch of one output per seed listed in FILE (one whole number a line; # comments)")
    sub.add_argument("--shard", type=_shard, default=None, metavar="K/N",
                     help="make only part K of N of the run's items (every N-th from the K-th): the N parts are "
                          "disjoint, and their outputs and manifest entries together are the whole run")


def _shard(text: str) -> tuple:
    match = re.fullmatch(r"(\d{1,6})/(\d{1,6})", text.strip())
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise argparse.ArgumentTypeError(f"must be K/N, part K of N parts with 1 <= K <= N, such as 2/4 "
                                         f"(got {options.shown(text)})")
    return int(match[1]), int(match[2])


def main(argv=None, stdout=None, stderr=None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    argv = sys.argv[1:] if argv is None else list(argv)
    commands = build.commands()
    parser = _parser(commands)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args, extras = parser.parse_known_args(argv)
    except SystemExit as exc:  # argparse: 0 for --help/--version, 2 for usage errors
        return int(exc.code or 0)
    if not args.command:
        print("dungeonpress: error: a command is needed (see dungeonpress --help)", file=stderr)
        return EXIT_USAGE
    if extras:
        sub = _subparser_of(args)
        print(f"{sub.prog}: error: {_unknown_arguments(sub, extras)}", file=stderr)
        return EXIT_USAGE
    problem = _usage_problem(args)
    if problem:  # checked before any content is read or any work is done
        print(f"dungeonpress: error: {problem}", file=stderr)
        return EXIT_USAGE
    if args.command in TOOLS:  # preview and serve read the build folder; they load no content
        return _run_tool(args, stdout, stderr)
    try:
        jobs = _jobs(args, commands)  # every option checked before any content is read
    except UsageError as exc:
        print(f"{_prog(args)}: error: {exc}", file=stderr)
        return EXIT_USAGE
    try:
        return _dispatch(args, jobs, stdout, stderr)
    except UsageError as exc:  # an option only the content can check (`export tables --table ID`)
        print(f"{_prog(args)}: error: {exc}", file=stderr)
        return EXIT_USAGE
    except ContentErrors as exc:
        print(exc, file=stderr)
        return EXIT_FAILED
    except RenderError as exc:
        print(f"error: {exc}", file=stderr)
        return EXIT_FAILED
    except budget.OverBudget as exc:
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


def _subparser_of(args) -> argparse.ArgumentParser:
    command = getattr(args, "_command", None)
    name = command.full_name if command else " ".join(filter(None, (args.command, getattr(args, "product", None))))
    return args._subparsers[name]


def _prog(args) -> str:
    command = getattr(args, "_command", None)
    return f"dungeonpress {command.full_name}" if command else f"dungeonpress {args.command}"


TOOLS = ("preview", "serve")


def _tool_parsers(top) -> dict:
    """`preview` (PDF → PNG pages) and `serve` (the local preview page): tools around the products."""
    out_help = "the build folder (default: build/)"
    preview = top.add_parser("preview", help="rasterise a PDF (or a built product) to PNG pages and a contact sheet",
                             epilog="example: dungeonpress preview rulebook --pages 1-4 --dpi 80")
    preview.add_argument("target", metavar="FILE.pdf|PRODUCT",
                         help="a PDF, or a product in the build folder: rulebook, tables, zine, pack, character…")
    preview.add_argument("--pages", default=None, metavar="1-4", help="which pages (default: all)")
    preview.add_argument("--dpi", type=float, default=80, help="resolution of the PNG pages (default: 80)")
    preview.add_argument("--out", type=Path, default=build.DEFAULT_OUT, metavar="DIR", help=out_help)
    serve = top.add_parser("serve", help="a local page (127.0.0.1 only) to browse the build folder and roll zines",
                           epilog="example: dungeonpress serve --port 8000 --content my-pack/")
    serve.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000; 0 picks a free one)")
    serve.add_argument("--content", action="append", type=Path, default=[], metavar="DIR",
                       help="an extra content pack, watched and passed to every build")
    serve.add_argument("--out", type=Path, default=build.DEFAULT_OUT, metavar="DIR", help=out_help)
    serve.add_argument("--timeout", type=_positive(float, 1, 3600), default=300, metavar="S",
                       help="seconds a build may take, 1-3600 (default: 300)")
    serve.add_argument("--quiet", action="store_true", help="no request log")
    return {"preview": preview, "serve": serve}


def _run_tool(args, stdout, stderr) -> int:
    if args.command == "preview":
        from dungeonpress import preview

        try:
            made = preview.preview(preview.resolve(args.target, args.out), pages=args.pages, dpi=args.dpi)
        except preview.Refused as exc:  # the file is over a limit, or a PNG in the way is not preview's
            print(f"error: {exc}", file=stderr)
            return EXIT_FAILED
        except preview.PreviewError as exc:
            print(f"error: {exc}", file=stderr)
            return EXIT_USAGE
        for path in made.pages + [made.sheet]:
            print(f"wrote {_shown(path)}", file=stdout)
        return EXIT_OK
    from dungeonpress import serve

    if not 0 <= args.port <= 65535:
        print(f"error: --port {args.port}: choose 0-65535", file=stderr)
        return EXIT_USAGE
    missing = [str(p) for p in args.content if not p.is_dir()]
    if missing:
        print(f"error: --content {missing[0]}: no such folder", file=stderr)
        return EXIT_USAGE
    serve.run_fresh(port=args.port, out_dir=args.out, packs=args.content, timeout=args.timeout,
                    watched=[build.CONTENT_DIR, build.TEMPLATES_DIR], quiet=args.quiet)
    return EXIT_FAILED  # not reached: run_fresh replaces this process


def _jobs(args, commands) -> list:
    """(command, options, seed) for each run asked for; options typed and range-checked, UsageError if not."""
    if args.command in ("validate", "tables", "new-pack", "preflight"):
        return []
    if args.command == "build" and args.product == "all":
        return [(command, options.parse(command.options, job.options), job.seed)
                for command in commands for job in command.build_all]
    command = args._command
    given = {field.name: getattr(args, field.name) for field, _ in options.specs(command.options)}
    seed = None
    if command.seeded and args.seed is not None:
        digits = str(args.seed).strip().lstrip("+-")
        if digits.isdigit() and len(digits) > MAX_SEED_DIGITS:  # it names output files: refuse before any work
            raise UsageError(f"--seed must be a whole number of at most {MAX_SEED_DIGITS} digits "
                             f"(got one of {len(digits)} digits)")
        try:
            seed = int(args.seed)
        except ValueError:
            seed = None
        if seed is None or not 0 <= seed < 10**MAX_SEED_DIGITS:  # dungeon--1.json was the old answer to -1
            raise UsageError(f"--seed must be a whole number from 0 to {10**MAX_SEED_DIGITS - 1} "
                             f"(got {options.shown(args.seed)})")
    return [(command, options.parse(command.options, given), seed)]


def _dispatch(args, jobs, stdout, stderr) -> int:
    if args.command == "new-pack":
        return _new_pack(args.dir, stdout, stderr)
    if args.command == "preflight":
        return _preflight(args.files, stdout, stderr, as_json=args.json, shop=args.shop, strict=args.strict)
    quiet, verbose = getattr(args, "quiet", False), getattr(args, "verbose", False)
    level = progress.QUIET if quiet else progress.VERBOSE if verbose else progress.NORMAL
    strict = getattr(args, "strict", False)
    items = _supervised_items(args, jobs, stderr)
    if items is not None:
        return _run_supervised(args, items, level, stdout, stderr)
    # A book built alone: its workers start now and import WeasyPrint while this process reads the content.
    workers = build.part_workers(args.out) if len(jobs) == 1 and jobs[0][0].book else None
    if workers is not None:
        workers.start()
    try:
        return _run_here(args, jobs, level, strict, stdout, stderr, workers)
    finally:
        if workers is not None:  # a book made has let them go; a run that failed before (the content) ends them
            workers.stop()


def _run_here(args, jobs, level, strict, stdout, stderr, workers) -> int:
    """Read the content, then make the jobs in this process (`workers`: a book's, started already)."""
    cache = _content_cache(args)
    content = build.load_content(args.content, cache, False)  # not kept until the run succeeds (keep_content)
    for warning in content.warnings:  # files a pack holds that were not read: say so, never pass them over
        if level != progress.QUIET or strict:
            print(f"{'error' if strict else 'warning'}: {warning}", file=stderr)
    if args.command == "validate":
        if level != progress.QUIET:
            for note in content.notes:
                print(note, file=stdout)
            tables = len(content.tables)
            print(f"content ok: {tables} tables, {len(content.creatures)} creatures, "
                  f"{len(content.book.chapters) if content.book else 0} chapters"
                  f"{f', {len(content.warnings)} warnings' if content.warnings else ''}", file=stdout)
        return EXIT_FAILED if strict and content.warnings else EXIT_OK
    if strict and content.warnings:  # the warnings above are errors under --strict: build nothing
        return EXIT_FAILED
    if args.command == "tables":
        from dungeonpress import authoring  # each command declares the tables it reads (Command.inputs)
        for line in authoring.tables_listing(content, build.commands()):
            print(line.rstrip(), file=stdout)
        return EXIT_OK
    if args.preflight is None:  # `build all` reads back what it wrote unless told not to
        args.preflight = args.command == "build" and args.product == "all"
    pdfs = []
    display = progress.Display(stdout, stderr, level=level, history=_history(args.out))
    display.plan(len(jobs))
    # A single product runs here, in this process: the same time and memory limits as a worker's.
    limits = {"seconds": args.item_timeout or batch.ITEM_TIMEOUT, "memory_mb": args.item_memory or batch.ITEM_MEMORY_MB}
    try:
        with budget.limited(**limits, what=_prog(args).removeprefix("dungeonpress ")):
            strict_failed = _run_jobs(args, content, jobs, display, pdfs, workers)
    except BaseException:
        display.close(summary_line=False)  # the error says what happened; the bar must not hide it
        raise
    status = EXIT_FAILED if strict_failed else EXIT_OK
    build.keep_content(args.content, cache)
    display.close(_shown(args.out) + "/")
    if args.preflight and pdfs:
        # Page problems are reported for every build; they fail it only with --strict until every product is clean.
        found = _preflight(pdfs, stdout, stderr, summary_only=True)
        if found != EXIT_OK and args.strict:
            status = EXIT_FAILED
    return status


def _content_cache(args) -> Path | None:
    """Where a build keeps its checked content model: OUT/.cache/content, when the build folder is one this tool
    has built into before (it holds a manifest or a cache): a first run, or a run into a folder of a user's own
    (or a serve roll's), writes only its outputs; a run that fails, nothing. `validate` reads every file every time."""
    out = getattr(args, "out", None)  # `tables` writes nothing and has no build folder
    if out is None or args.command == "validate":
        return None
    out = Path(out)
    if not ((out / "manifest.json").is_file() or (out / ".cache").is_dir()):
        return None
    return out / build.CONTENT_CACHE


def _run_jobs(args, content, jobs, display, pdfs, workers=None) -> bool:
    """Make each job in this process and write its outputs (PDFs added to `pdfs`); True when --strict fails one.
    `workers`: the part workers started for a book built alone."""
    collect.ready_to_lay_out()  # the imports and the checked model live to the end: layouts' collections skip them
    failed = False
    for command, opts, seed in jobs:
        if command.seeded and seed is None:
            seed = secrets.randbelow(10**9)
            display.note(f"seed: {seed}")  # printed even when quiet: the one way to make it again
        ctx = build.context_for(content, seed=seed if command.seeded else None, progress=display.step,
                                on_item=display.event, user_packs=args.content, strict=args.strict,
                                theme=args.theme, out_dir=args.out, max_pages=args.max_pages, keep_parts=True,
                                workers=workers if command.book else None)
        with display.job(command.full_name + (f" --seed {seed}" if command.seeded else "")):
            report = build.run_command(command, ctx, opts, args.out, count_pages=display.level != progress.QUIET)
        _show_capped(report.warnings, lambda warning: display.warning(warning, error=ctx.strict))
        if report.warnings and ctx.strict:
            failed = True
        for path, size, pages in zip(report.written, report.sizes, report.pages):
            display.wrote(_shown(path), size, pages)
            if path.suffix == ".pdf" and path not in pdfs:
                pdfs.append(path)
    return failed


SHOWN_MAX = 100  # errors and warnings shown one by one; the rest are counted


def _show_capped(lines: list, show) -> None:
    """`show` the first SHOWN_MAX lines, then one line counting the rest."""
    for line in lines[:SHOWN_MAX]:
        show(line)
    if len(lines) > SHOWN_MAX:
        show(f"… and {len(lines) - SHOWN_MAX:,} more")


def _supervised_items(args, jobs, stderr) -> list | None:
    """The items of `build all` or of a --batch run (each made in a worker), None for a single run."""
    if args.command in ("validate", "tables", "new-pack", "preflight"):
        return None
    many = args.command == "build" and getattr(args, "product", None) == "all"
    runs = []
    for command, opts, seed in jobs:
        listed = _listed_seeds(args, command, opts, seed)
        if listed is not None:  # --seeds FILE: the batch --batch N makes, with the file's seeds
            made = command.batch(dataclasses.replace(opts, batch=len(listed)), 0)
            runs.extend((command, given, one_seed) for (given, _), one_seed in zip(made, listed))
            many = True
            continue
        if command.seeded and seed is None and command.batch and command.batch(opts, 0) is not None:
            seed = secrets.randbelow(10**9)
            print(f"seed: {seed}", file=stderr)
        expanded = command.batch(opts, seed) if command.batch else None
        if expanded is not None:
            many = True
            runs.extend((command, given, one_seed) for given, one_seed in expanded)
        else:
            runs.append((command, _given(opts), seed if command.seeded else None))
    shard = getattr(args, "shard", None)
    if shard and not many:
        raise UsageError("--shard K/N splits a run of many items: give --batch N or --seeds FILE")
    if not many:
        return None
    if shard:  # round robin: parts of one run are disjoint, even in size, and together the whole run
        runs = runs[shard[0] - 1::shard[1]]
    prints = manifest.Fingerprints(build.CONTENT_DIR, build.TEMPLATES_DIR, args.content)
    settings = {"strict": args.strict, "theme": args.theme}
    items = []
    for command, given, seed in runs:
        flags = {field.name: (options.flag_of(field), spec.switch) for field, spec in options.specs(command.options)}
        shown = [flags[k][0] if flags[k][1] else f"{flags[k][0]} {v}" for k, v in sorted(given.items())]
        label = " ".join([command.full_name, *shown, *([f"--seed {seed}"] if seed is not None else [])])
        key = manifest.item_key(label, command.full_name, given, seed, settings, prints.inputs(command.inputs.packs))
        items.append(batch.Item(label=label, command=command.full_name, options=given, seed=seed, key=key))
    return items


MAX_LISTED_SEEDS = 100_000  # seeds one --seeds file may list (a batch of them is spread with --shard)


def _listed_seeds(args, command, opts, seed) -> list | None:
    """The seeds of `--seeds FILE` (None without it); UsageError when they cannot make a batch."""
    path = getattr(args, "seeds", None)
    if path is None:
        return None
    if getattr(opts, "batch", None) is not None:
        raise UsageError("give --batch N or --seeds FILE, not both")
    if seed is not None:
        raise UsageError("--seeds FILE lists every seed of the batch: leave out --seed")
    return build.read_seeds(path, max_digits=MAX_SEED_DIGITS, max_seeds=MAX_LISTED_SEEDS)


def _history(out_dir) -> dict:
    """Seconds each item took in the last build in `out_dir` (its manifest), for the progress bar's time left."""
    items = manifest.read(out_dir).get("items", {})
    return {label: entry["seconds"] for label, entry in items.items()
            if isinstance(entry, dict) and isinstance(entry.get("seconds"), (int, float)) and entry["seconds"] > 0}


def _given(opts) -> dict:
    """An options instance back as {field: value}, leaving out what was not given."""
    return {field.name: getattr(opts, field.name) for field, spec in options.specs(type(opts))
            if getattr(opts, field.name) not in (None, False)}


def _run_supervised(args, items, level, stdout, stderr) -> int:
    settings = batch.Settings(user_packs=tuple(str(p) for p in args.content), strict=args.strict,
                              theme=args.theme, out_dir=str(args.out), max_pages=args.max_pages)
    supervision = {"timeout": args.item_timeout or batch.ITEM_TIMEOUT, "memory_mb": args.item_memory or batch.ITEM_MEMORY_MB}
    display = progress.Display(stdout, stderr, level=level, history=_history(args.out))
    display.plan(len(items))
    pdfs = []

    def on_event(event) -> None:  # what a worker did, told to the one display of the run
        display.event(event)
        if event.kind == "finished" and event.result is not None:
            for output in event.result.outputs:
                path = args.out / output.name
                display.wrote(_shown(path), len(output.data), event.result.pages.get(output.name, 0))
                if output.kind == "pdf":
                    pdfs.append(path)

    def check_content():  # content mistakes are reported once, here, not once per item by every worker
        for warning in build.load_content(args.content, args.out / build.CONTENT_CACHE).warnings:  # the run writes there
            display.warning(warning, error=args.strict)

    try:
        summary = batch.build_and_record(items, settings, args.out, on_event=on_event, before=check_content,
                                         **supervision)
    except BaseException:
        display.close(summary_line=False)
        raise
    _show_capped(summary.warnings, lambda warning: display.warning(warning, error=args.strict))
    _show_capped([f"failed: {label}: {reason}" for label, reason in summary.failures],
                 display.note)  # shown even when quiet: it is an error
    display.close(_shown(args.out) + "/")
    if level != progress.QUIET:
        print(summary.line(), file=stderr)
    status = EXIT_OK
    if summary.failed or (summary.warnings and args.strict):
        status = EXIT_FAILED
    if args.preflight is None:  # `build all` reads back what it wrote unless told not to
        args.preflight = args.command == "build" and getattr(args, "product", None) == "all"
    if args.preflight and pdfs and not summary.interrupted:
        # Page problems are reported for every build; they fail it only with --strict until every product is clean.
        if _preflight(pdfs, stdout, stderr, summary_only=True) != EXIT_OK and args.strict:
            status = EXIT_FAILED
    return EXIT_INTERRUPTED if summary.interrupted else status


def _positive(kind, low, high):
    def convert(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number from {low} to {high} (got {text})") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a number from {low} to {high} (got {text})")
        return value
    return convert




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


def _preflight(files, stdout, stderr, *, as_json=False, shop=False, strict=False, summary_only=False) -> int:
    """Check each PDF; print findings (or one summary line per file); 1 on errors, or on warnings with strict."""
    from dungeonpress import preflight  # imported here: only preflight runs need the PDF reader

    status, everything, unread = EXIT_OK, [], 0
    # A child process per core reads the files, under guard's limits; findings are shown in the files' order.
    for path, findings in preflight.check_files(files, shop=shop):
        if isinstance(findings, preflight.BadPDF):
            print(f"error: {findings}", file=stderr)
            status, unread = EXIT_FAILED, unread + 1
            continue
        everything.extend(findings)
        errors = sum(f.severity == preflight.ERROR for f in findings)
        if errors or (strict and findings):
            status = EXIT_FAILED
        if summary_only:
            if findings:
                counts = ", ".join(f"{check} {n[preflight.ERROR]}e/{n[preflight.WARNING]}w"
                                   for check, n in preflight.summary(findings).items())
                print(f"preflight: {_shown(path)}: {errors} error(s), {len(findings) - errors} warning(s) ({counts})",
                      file=stderr)
        elif not as_json:
            for finding in findings:
                print(finding, file=stdout)
    if as_json:
        json.dump([f.as_dict() for f in everything], stdout, indent=1, ensure_ascii=False)
        stdout.write("\n")
    elif not summary_only:
        errors = sum(f.severity == preflight.ERROR for f in everything)
        refused = f"{unread} refused, " if unread else ""
        print(f"preflight: {len(files)} file(s), {refused}{errors} error(s), {len(everything) - errors} warning(s)",
              file=stderr)
    return status


def full_name(command) -> str:
    """How a command is typed after `dungeonpress`: `build rulebook`, `export tables`, `dungeon`."""
    return command.full_name


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
