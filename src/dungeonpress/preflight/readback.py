"""Read a freshly written PDF's text back and name what the laid-out pages said but the file no longer does."""

from __future__ import annotations

from collections import Counter

import pypdfium2 as pdfium

SAMPLE_PAGES = 8  # pages read back per document, spread evenly: a broken font shows on every page
# Characters whose place in the text layer is the PDF reader's guess, not the file's: spaces, line
# breaks and the hyphens a line break adds or a soft hyphen becomes.
UNCOUNTED = frozenset("\u00ad\u200b-\u2010\u2011")


def sample(page_count: int, most: int = SAMPLE_PAGES) -> list[int]:
    """Up to `most` page indices spread evenly from the first page to the last."""
    if page_count <= most:
        return list(range(page_count))
    return sorted({round(i * (page_count - 1) / (most - 1)) for i in range(most)})


def _letters(text: str) -> Counter:
    return Counter(c for c in text if not c.isspace() and c not in UNCOUNTED)


def lost_text(data: bytes, laid_out: dict[int, str]) -> list[str]:
    """One line per sampled page whose PDF text lacks characters the page was laid out with.

    `laid_out` maps page indices to the text laid out there. Only what is missing counts: a
    drawing's own labels (SVG text) are in the file but not in the laid-out boxes. Order is not
    compared either (readers order a page their own way); a lost glyph shows as a missing letter.
    """
    document = pdfium.PdfDocument(data)
    try:
        found = []
        for index, text in sorted(laid_out.items()):
            textpage = document[index].get_textpage()
            missing = _letters(text) - _letters(textpage.get_text_range())
            textpage.close()
            if missing:
                letters = "".join(sorted(missing))[:24]
                found.append(f"page {index + 1}: {sum(missing.values())} character(s) laid out but not in the "
                             f"PDF's text (copy, search and screen readers miss them): {letters!r}")
        return found
    finally:
        document.close()
