"""Character sheets: content and seeded pre-rolls → blank sheet PDFs (fillable, pencil), pre-rolled PDFs and JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from dungeonpress.dice import sub_rng
from dungeonpress.generate.character import generate_character
from dungeonpress.generate.paperogue_character import PaperogueCharacter, generate_paperogue_character
from dungeonpress.products import options
from dungeonpress.views.sheet import SPACE, dungeoneer_view, oracle_strip_view, paperogue_view
from dungeonpress.products.common import BuildContext, Command, Job, Output, pdf_from_template

GAMES = ("dungeoneer", "paperogue")
PAPERS = ("a4", "letter", "a5")
FORMATS = ("pdf", "json")


MAX_CHARACTERS = 100  # a pre-rolled stack, not a census


@dataclass(frozen=True)
class SheetOptions(options.Options):
    game: str | None = options.option(None, "which game's sheet (default: both)", choices=GAMES)
    paper: str | None = options.paper(help="paper size (default: all three)", choices=PAPERS)
    fillable: bool = options.switch("only the fillable PDF form (default: fillable and print)")
    print: bool = options.switch("only the version for pencil (default: fillable and print)")


@dataclass(frozen=True)
class CharacterOptions(options.Options):
    count: int = options.option(1, f"how many characters, 1-{MAX_CHARACTERS} (default: 1)", min=1,
                                max=MAX_CHARACTERS)
    game: str | None = options.option(None, "dungeoneer (default) or paperogue", choices=GAMES)
    format: str | None = options.output_format(FORMATS, help="pdf or json (default: both)")
    paper: str | None = options.paper(help="paper size of the PDF (default: a4)", choices=PAPERS)


def build_sheets(ctx: BuildContext, opts: SheetOptions) -> list[Output]:
    """Blank sheets: every game, paper and form asked for (by default all of them)."""
    games = [opts.game] if opts.game else list(GAMES)
    papers = [opts.paper] if opts.paper else list(PAPERS)
    forms = [form for form in ("fillable", "print") if getattr(opts, form)] or ["fillable", "print"]
    jobs = [(game, paper, form) for game in games for paper in papers for form in forms]
    outputs = []
    for done, (game, paper, form) in enumerate(jobs):
        ctx.tick(done, len(jobs), f"{game} sheet, {paper}, {form}")
        data = render_sheet_pdf(ctx, game, paper, form == "fillable")
        outputs.append(Output(sheet_file_name(game, paper, form), data))
    ctx.tick(len(jobs), len(jobs), "sheets done")
    return outputs


def sheet_file_name(game: str, paper: str, form: str) -> str:
    """`sheet-dungeoneer-a4-fillable.pdf`; Paperogue's pencil sheet is plain `sheet-paperogue-a4.pdf`."""
    if game == "paperogue" and form == "print":
        return f"sheet-paperogue-{paper}.pdf"
    return f"sheet-{game}-{paper}-{form}.pdf"


def render_sheet_pdf(ctx: BuildContext, game: str, paper: str, fillable: bool) -> bytes:
    layout = SPACE[paper]
    if game == "dungeoneer":
        sheet = dungeoneer_view(ctx.content, layout, None, kicker="Character sheet")
        return _pdf(ctx, "sheet_dungeoneer.html.j2", paper, fillable, [sheet], "Loner: Dungeoneer character sheet")
    sheet = paperogue_view(ctx.content, layout, None, kicker="Character sheet")
    return _pdf(ctx, "sheet_paperogue.html.j2", paper, fillable, [sheet], "Paperogue character sheet")


def build_characters(ctx: BuildContext, opts: CharacterOptions) -> list[Output]:
    """Pre-rolled characters: N filled sheets in one PDF, and the same characters as JSON."""
    # 1. Roll: each character has its own stream, so character 3 is the same whatever the count.
    game = opts.game or "dungeoneer"
    count = opts.count
    paper = opts.paper or ctx.paper
    formats = [opts.format] if opts.format else list(FORMATS)
    generate = generate_character if game == "dungeoneer" else generate_paperogue_character
    characters = [generate(ctx.content, sub_rng(ctx.seed, "character", game, str(n))) for n in range(1, count + 1)]

    # 2. Write what was asked for.
    stem = f"characters-{ctx.seed}" if game == "dungeoneer" else f"characters-{game}-{ctx.seed}"
    outputs = []
    if "pdf" in formats:
        ctx.tick(0, 1, f"laying out {count} pre-rolled {game} character(s)")
        layout = SPACE[paper]
        if game == "dungeoneer":
            sheets = [dungeoneer_view(ctx.content, layout, c, kicker=f"Pre-rolled delver {n} · seed {ctx.seed}",
                                    legend="Grey numbers: the d66 rolls", anchor=f"sheet-{n}")
                      for n, c in enumerate(characters, start=1)]
            data = _pdf(ctx, "sheet_dungeoneer.html.j2", paper, False, sheets, f"Pre-rolled delvers, seed {ctx.seed}")
        else:
            sheets = [paperogue_view(ctx.content, layout, c, kicker=f"Pre-rolled rogue {n} · seed {ctx.seed}",
                                     legend="Grey numbers: the rolls", anchor=f"sheet-{n}")
                      for n, c in enumerate(characters, start=1)]
            data = _pdf(ctx, "sheet_paperogue.html.j2", paper, False, sheets, f"Pre-rolled rogues, seed {ctx.seed}")
        outputs.append(Output(f"{stem}.pdf", data))
        ctx.tick(1, 1, "characters done")
    if "json" in formats:
        outputs.append(Output(f"{stem}.json", characters_json(ctx, game, characters)))
    return outputs


def characters_json(ctx: BuildContext, game: str, characters: list) -> bytes:
    """Every value with the table and roll behind it; stable key order, so a seed gives the same bytes."""
    items = [{"number": number, **character_record(character)} for number, character in enumerate(characters, start=1)]
    doc = {"game": game, "seed": ctx.seed, "count": len(characters), "generator": f"dungeonpress {ctx.version}",
           "characters": items}
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def character_record(character) -> dict:
    """A character as plain JSON values: dataclass fields, with stat pairs and dice turned into objects."""
    record = asdict(character)
    if isinstance(character, PaperogueCharacter):
        record["rolls"] = dict(character.rolls)
        record["scores"] = dict(character.scores)
        record["swap"] = list(character.swap) if character.swap else None
        for item in record["items"]:
            item["dice"] = [{"dice": notation, "results": list(results)} for notation, results in item["dice"]]
    else:
        record = {"name": character.name, **record}
    return record


def _pdf(ctx: BuildContext, template: str, paper: str, fillable: bool, sheets: list, title: str) -> bytes:
    form = "fillable" if fillable else "print"
    return pdf_from_template(ctx, template, forms=fillable, sheets=sheets, fillable=fillable, doc_title=title,
                             body_class=f"sheets paper-{paper} {form}", oracle=oracle_strip_view())


# ---------------------------------------------------------------- view-models: Loner: Dungeoneer


COMMANDS = (
    Command(
        name="sheet",
        help="blank character sheets: fillable PDF form and pencil version, A4, Letter and A5",
        run=build_sheets,
        options=SheetOptions,
        example="dungeonpress sheet --game dungeoneer --paper letter --fillable",
        build_all=(Job(),),
        order=50,
    ),
    Command(
        name="character",
        help="pre-rolled characters: N filled sheets in one PDF, and JSON with every roll",
        run=build_characters,
        seeded=True,
        options=CharacterOptions,
        example="dungeonpress character --seed 1234 --count 4 --game dungeoneer",
        build_all=(Job({"count": 4}, seed=1234),),
        order=55,
    ),
)
