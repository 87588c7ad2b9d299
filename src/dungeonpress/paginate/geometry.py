"""The zine's and the delve booklet's page measures, written once: the Python that fits pages reads them, and
`zine_css()` writes the ones the stylesheet needs as CSS custom properties (zine.css uses var(--zine-foot))."""

from __future__ import annotations



def px(mm: float) -> float:
    """A length in mm as CSS px, the unit WeasyPrint measures a layout in."""
    return mm / 25.4 * 96

# The aids and back pages are at least this tall: the back page's text box on A4 (zine.css's @page zine-a4-back
# margins give 94 mm), the height their foot stands on.
ZINE_FOOT_MM = 94.0
# The Letter back page's text box: its panel is 2.95 mm taller than A4's and its page margins are the other pages'
# 5 mm. It was held to A4's 94 mm, but the narrower panel wraps more lines, and a fresh nine-digit seed's command
# with --rooms takes a second line there in the dyslexia theme's wide letters: that ran the back page over.
ZINE_LETTER_BACK_FOOT_MM = 107.95 - 5.0 - 5.0
# The fold-and-cut diagram keeps this much free under it (its dashed cut line would touch the page's edge).
FOLD_CUT_CLEARANCE_MM = 1.2
# The zine key page's bottom margin (zine.css: @page zine-*-key), where a room entry must end.
ZINE_PAGE_FOOT_MM = 5.0
# Where the map goes, in mm (width, height): the page's text box less the heading and legend lines.
MAP_BOX = {"zine-a4": (64.2, 82.0), "zine-letter": (59.8, 84.0), "a5": (122.0, 142.0), "half-letter": (113.0, 148.0)}

# How far below its page's top each foot ends (px): the aids page's foot is put there by a measured gap
# (paginate.zine.foot_gaps), the back page's by zine.css.
ZINE_FOOT_AT_PX = {"aids": px(ZINE_FOOT_MM - FOLD_CUT_CLEARANCE_MM), "back": px(ZINE_FOOT_MM)}
PAGE_FOOT_PX = px(ZINE_PAGE_FOOT_MM)  # the zine page's bottom margin, in CSS px


def _mm(value: float) -> str:
    return f"{value:g}mm"


def zine_css() -> str:
    """The zine's shared measures as CSS custom properties, for a <style> before zine.css is applied."""
    return (f":root {{ --zine-foot: {_mm(ZINE_FOOT_MM)}; --zine-foot-up: {_mm(-ZINE_FOOT_MM)}; }}"
            f" .zine-letter .back {{ --zine-foot: {_mm(ZINE_LETTER_BACK_FOOT_MM)};"
            f" --zine-foot-up: {_mm(-ZINE_LETTER_BACK_FOOT_MM)}; }}")
