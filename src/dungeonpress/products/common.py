"""What every product shares: the build context, the outputs it returns, and template → PDF."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dungeonpress import pdf, render
from dungeonpress.errors import RenderError
from dungeonpress.model import Content

PAPER_SIZES = {"a4": "A4", "letter": "Letter", "a5": "A5"}


@dataclass
class BuildContext:
    """What a product needs to make its outputs; products return bytes and never write files."""

    content: Content
    templates_dir: Path
    roots: tuple  # folders the PDF renderer may read from (content packs and templates)
    seed: int | None = None
    version: str = ""
    progress: object = None  # callable(done, total, label) or None
    warnings: list = field(default_factory=list)

    def tick(self, done: int, total: int, label: str) -> None:
        if self.progress:
            self.progress(done, total, label)


@dataclass(frozen=True)
class Output:
    """One file a product makes: its name under the output folder and its bytes."""

    name: str
    data: bytes

    @property
    def kind(self) -> str:
        return self.name.rsplit(".", 1)[-1]


def html_from_template(ctx: BuildContext, template: str, **context) -> str:
    return render.render_template(ctx.templates_dir, template, version=ctx.version, **context)


def layout(ctx: BuildContext, html: str, *, forms: bool = False) -> pdf.Rendered:
    """Lay out HTML against the templates folder (relative links resolve there); `forms` makes fields."""
    return pdf.layout_html(html, base_url=ctx.templates_dir, roots=ctx.roots, forms=forms)


def write(ctx: BuildContext, rendered: pdf.Rendered, *, forms: bool = False) -> bytes:
    """PDF bytes of a laid-out document; its WeasyPrint warnings are kept on the context."""
    data = pdf.write_pdf(rendered, forms=forms)
    ctx.warnings.extend(rendered.warnings)
    return data


def layout_padded(ctx: BuildContext, html_with_notes, *, multiple: int = 4) -> pdf.Rendered:
    """Lay out `html_with_notes(n)`, adding n notes pages so the page count folds into a booklet."""
    rendered = layout(ctx, html_with_notes(0))
    padding = -rendered.page_count % multiple
    if padding:
        rendered = layout(ctx, html_with_notes(padding))
        if rendered.page_count % multiple:  # a notes page must never spill onto a second page
            raise RenderError(f"{rendered.page_count} pages after adding {padding} notes pages "
                              f"(expected a multiple of {multiple})")
    return rendered


def pdf_from_template(ctx: BuildContext, template: str, *, forms: bool = False, **context) -> bytes:
    """Render a template and print it to PDF bytes in one step."""
    return write(ctx, layout(ctx, html_from_template(ctx, template, **context), forms=forms), forms=forms)


@dataclass(frozen=True)
class Option:
    """One command-line option of a product, declared here so only cli.py touches argparse."""

    flags: tuple  # e.g. ("--paper",)
    help: str
    type: type = str
    default: object = None
    choices: tuple | None = None
    flag: bool = False  # a switch (store_true); `--no-x` style switches name the negative flag
    min: int | None = None  # whole-number options: the allowed range, checked by the CLI before any work
    max: int | None = None

    @property
    def dest(self) -> str:
        return self.flags[0].lstrip("-").replace("-", "_")

    def range_problem(self, value) -> str | None:
        """`--name must be LOW to HIGH (got VALUE)` when `value` is outside the declared range, else None."""
        if value is None or (self.min is None and self.max is None):
            return None
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            low = "" if self.min is None else self.min
            high = "" if self.max is None else self.max
            return f"{self.flags[0]} must be {low} to {high} (got {value})"
        return None


@dataclass(frozen=True)
class Command:
    """A product as the CLI sees it: `dungeonpress [build] NAME [options]`, and the function that makes it.

    `run(ctx, options)` returns the outputs; `seeded` commands get a seed (given or fresh and printed).
    """

    name: str
    help: str
    run: object
    options: tuple = ()
    seeded: bool = False
    parent: str = ""  # "build" or "export" for `dungeonpress build NAME`; "" for `dungeonpress NAME`
    example: str = ""
