"""Typed command options: frozen dataclasses whose fields carry flag, help and allowed values, checked in one place."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from dungeonpress.errors import UsageError


@dataclass(frozen=True)
class Spec:
    """What the command line needs to know about one options field (kept in the field's metadata)."""

    help: str
    choices: tuple | None = None
    min: int | None = None
    max: int | None = None
    switch: bool = False  # a flag without a value (store_true)
    flag: str = ""  # the option as typed; default: `--` and the field name with dashes

    @property
    def whole(self) -> bool:
        return self.min is not None or self.max is not None

    def allowed(self) -> str:
        """The allowed values in words, as every usage error names them."""
        if self.choices:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.min is not None and self.max is not None:
            return f"a whole number from {self.min} to {self.max}"
        if self.min is not None:
            return f"a whole number, at least {self.min}"
        return f"a whole number, at most {self.max}"


def option(default=None, help: str = "", *, choices=None, min=None, max=None, flag: str = ""):
    """A valued option: `--name VALUE`, None when not given unless it has a default."""
    spec = Spec(help=help, choices=tuple(choices) if choices else None, min=min, max=max, flag=flag)
    return dataclasses.field(default=default, metadata={"option": spec})


def switch(help: str, *, flag: str = ""):
    """A switch: `--name` sets it, absent it is False."""
    return dataclasses.field(default=False, metadata={"option": Spec(help=help, switch=True, flag=flag)})


# Shared presets: every command that takes a paper, a layout or a format says so the same way.
# The papers' sizes are written once, in dungeonpress.model.paper.
PAPERS = ("a4", "letter")
DEFAULT_PAPER = "a4"  # what a product that prints on one paper uses when --paper is not given
ALL_PAPERS = ("a4", "letter", "a5")


def paper(default=None, help: str = "paper size (default: a4)", choices=PAPERS):
    return option(default, help, choices=choices)


def layout(choices, default=None, help: str = ""):
    return option(default, help, choices=choices)


def output_format(choices, default=None, help: str = ""):
    return option(default, help, choices=choices, flag="--format")


@dataclass(frozen=True)
class Options:
    """Base of every command's options: checks each field against its Spec, then the command's own rules."""

    def __post_init__(self):
        for field, spec in specs(type(self)):
            check_value(spec, field.name, getattr(self, field.name))
        self.check()

    def check(self) -> None:
        """Rules between options (raise UsageError); most commands have none."""

    def chosen(self, name: str) -> list:
        """What a list option asks for: the one value given, or, when none is, every choice its spec allows
        (`sheet` with no --paper makes all three papers)."""
        spec = next(spec for field, spec in specs(type(self)) if field.name == name)
        if spec.switch or not spec.choices:
            raise ValueError(f"option {name} has no choices to fall back on")
        value = getattr(self, name)
        return [value] if value is not None else list(spec.choices)


def flag_of(field: dataclasses.Field) -> str:
    spec = field.metadata["option"]
    return spec.flag or "--" + field.name.replace("_", "-")


def specs(options_type) -> list:
    """(field, Spec) for every option of a command, in declaration order."""
    return [(f, f.metadata["option"]) for f in dataclasses.fields(options_type) if "option" in f.metadata]


def shown(value) -> str:
    """A value as the user typed it, cut short: an error line stays one short line."""
    text = str(value)
    return text if len(text) <= 40 else text[:40] + "…"


def check_value(spec: Spec, name: str, value) -> None:
    if value is None or spec.switch:
        return
    flag = spec.flag or "--" + name.replace("_", "-")
    if spec.choices and value not in spec.choices:
        raise UsageError(f"{flag} must be {spec.allowed()} (got {shown(value)})")
    if spec.whole and (isinstance(value, bool) or not isinstance(value, int)
                       or (spec.min is not None and value < spec.min) or (spec.max is not None and value > spec.max)):
        raise UsageError(f"{flag} must be {spec.allowed()} (got {shown(value)})")


def parse(options_type, given: dict):
    """Options from values as typed on the command line (strings) or given in code; UsageError when out of range."""
    values = {}
    for field, spec in specs(options_type):
        if field.name not in given or given[field.name] is None:
            continue
        value = given[field.name]
        if spec.whole and isinstance(value, str):
            try:
                value = int(value)
            except ValueError:
                raise UsageError(f"{flag_of(field)} must be {spec.allowed()} (got {shown(value)})") from None
        values[field.name] = value
    unknown = set(given) - {f.name for f in dataclasses.fields(options_type)}
    if unknown:
        raise UsageError(f"unknown option {', '.join(sorted(unknown))}")
    return options_type(**values)


# Print-shop options, shared by the books a shop prints (rulebook, tables booklet).
BLEEDS = ("3mm", "5mm", "0.125in")
MARKS = ("crop", "cross", "crop-cross")
DEFAULT_CREEP_MM = 0.1  # one sheet of 80-90 g/m² office paper is about 0.1 mm thick
MAX_CREEP_MM = 0.5
MAX_SIGNATURE_SHEETS = 8  # a signature of more than 8 sheets (32 pages) folds as badly as a thick saddle booklet


@dataclass(frozen=True)
class PrintShopOptions(Options):
    """Bleed, printer's marks, PDF/X and creep for a saddle-stitched book sent to a print shop."""

    bleed: str | None = option(None, "extend the pages by this bleed: backgrounds and the cover reach into it "
                                     "(TrimBox and BleedBox set)", choices=BLEEDS)
    marks: str | None = option(None, "printer's marks drawn outside the trim (needs --bleed)", choices=MARKS)
    pdf_x: bool = switch("write PDF/X-3 (sRGB output intent, still tagged) instead of PDF/UA", flag="--pdf-x")
    creep: str | None = option(None, f"creep compensation for the saddle-stitched booklets: the paper's thickness, "
                                     f"e.g. 0.1mm (default {DEFAULT_CREEP_MM}mm; 0mm for none)")
    signatures: int | None = option(None, "impose for sewing instead of stapling: signatures of N folded sheets "
                                          f"(4N pages) each, with collation marks on the spine fold "
                                          f"({MAX_SIGNATURE_SHEETS} at most; e.g. 4)", min=1, max=MAX_SIGNATURE_SHEETS)

    def check(self) -> None:
        if self.marks and not self.bleed:
            raise UsageError("--marks needs --bleed (the marks are drawn in the bleed)")
        if self.creep is not None:
            self.creep_mm  # raises UsageError when the value is not a thickness in mm

    @property
    def creep_mm(self) -> float:
        if self.creep is None:
            return DEFAULT_CREEP_MM
        text = str(self.creep).strip()
        number = text[:-2] if text.endswith("mm") else text
        try:
            value = float(number)
        except ValueError:
            value = -1.0
        if not 0 <= value <= MAX_CREEP_MM:
            raise UsageError(f"--creep must be a paper thickness from 0mm to {MAX_CREEP_MM}mm, like 0.1mm "
                             f"(got {shown(self.creep)})")
        return value

    @property
    def binding(self) -> str:
        """The words the imposed file is named with: `booklet` (saddle-stitched) or `sewn-booklet` (--signatures)."""
        return "sewn-booklet" if self.signatures else "booklet"

    def page_css(self) -> str:
        """The @page rule the options ask for ("" when none): bleed and marks."""
        if not self.bleed:
            return ""
        marks = (self.marks or "none").replace("-", " ")
        return f"@page {{ bleed: {self.bleed}; marks: {marks}; }}"
