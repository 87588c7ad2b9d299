"""Rasterise every PDF under a folder (or one PDF) to PNG pages and a contact sheet each, in OUT_FOLDER.

usage: python scripts/preview.py PDF_OR_FOLDER OUT_FOLDER [--dpi 60]
The work is `dungeonpress.preview` (the same code as `dungeonpress preview`); this loops over a folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dungeonpress import preview


def main(argv: list[str]) -> int:
    dpi = 60.0
    if "--dpi" in argv:
        at = argv.index("--dpi")
        dpi = float(argv[at + 1])
        argv = argv[:at] + argv[at + 2:]
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    source, out = Path(argv[0]), Path(argv[1])
    if source.is_dir():  # hidden folders (temp files) and rolls/ (the preview page's rolls) are skipped
        pdfs = sorted(p for p in source.rglob("*.pdf")
                      if not any(part.startswith(".") for part in p.relative_to(source).parts)
                      and p.relative_to(source).parts[0] != "rolls")
    else:
        pdfs = [source]
    for path in pdfs:
        made = preview.preview(path, dpi=dpi, out_dir=out)
        print(f"{path}: {len(made.pages)} pages, sheet {made.sheet}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
