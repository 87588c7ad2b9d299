"""Read PDFs back and report what a reader or a print shop would notice: PDF paths in, findings out."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from dungeonpress import guard
from dungeonpress.preflight.reading import BadPDF, open_pdf
from dungeonpress.preflight import layout, overprint, text

ERROR, WARNING = "error", "warning"

__all__ = ["BadPDF", "Finding", "ERROR", "WARNING", "check_file", "check_files", "summary"]


@dataclass(frozen=True)
class Finding:
    """One problem on one page (page is 1-based; 0 means the whole file)."""

    file: str
    page: int
    check: str
    severity: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:p{self.page}" if self.page else self.file
        return f"{where}: {self.severity}: {self.check}: {self.message}"

    def as_dict(self) -> dict:
        return asdict(self)


def check_file(path: Path | str, *, shop: bool = False, budget: guard.Budget = guard.DEFAULT,
               reader: guard.Reader | None = None) -> list[Finding]:
    """Every check over one PDF, in a child process under `budget`; BadPDF (one line) when it cannot be read.

    A file over a reading limit (pages, page size, decoded streams, form nesting, memory, time) is
    a BadPDF naming the file and the limit. `reader` (a guard.Reader) reuses one child for many files.
    """
    path = Path(path)
    try:
        if reader is not None:
            return reader.read(path, _check_read, shop)
        return guard.read_pdf(path, _check_read, shop, budget=budget)
    except guard.Refused as exc:
        raise BadPDF(str(exc)) from None


def check_files(paths: list, *, shop: bool = False, budget: guard.Budget = guard.DEFAULT):
    """(path, findings) for each PDF in its order, read by a child process per core (guard.read_each): a BadPDF
    (one line) in place of the findings for a file that cannot be read. Any other exception is a bug, raised here."""
    for path, outcome in guard.read_each([Path(p) for p in paths], _check_read, shop, budget=budget):
        if isinstance(outcome, guard.Refused):
            outcome = BadPDF(str(outcome))
        elif isinstance(outcome, BaseException) and not isinstance(outcome, BadPDF):
            raise outcome
        yield path, outcome


def _check_read(path: Path, media_boxes, shop: bool) -> list[Finding]:
    """check_file's work, done in the child process."""
    doc = open_pdf(path, media_boxes)
    try:
        found = []
        for check in (*text.CHECKS, *overprint.CHECKS, *layout.CHECKS, *(layout.SHOP_CHECKS if shop else ())):
            for page, severity, message in check(doc):
                found.append(Finding(path.name, page, check.__name__.lstrip("_").removeprefix("check_"), severity, message))
    finally:
        doc.close()
    return sorted(found, key=lambda f: (f.page, f.severity != ERROR, f.check, f.message))


def summary(findings: list[Finding]) -> dict:
    """{check: {"error": n, "warning": n}} for a short report."""
    out: dict = {}
    for finding in findings:
        out.setdefault(finding.check, {ERROR: 0, WARNING: 0})[finding.severity] += 1
    return out
