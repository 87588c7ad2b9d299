"""A theme's name → the font families its pages print in, worded for the credits."""

from __future__ import annotations

# Who made each shipped family (templates/fonts/README.md); all are under the SIL Open Font License 1.1.
MAKERS = {
    "Vollkorn": "Friedrich Althausen",
    "Cinzel": "The Cinzel Project Authors",
    "Atkinson Hyperlegible": "the Braille Institute of America",
}

# The families a theme's pages are set in, the text face first. Only the dyslexia-friendly stylesheet
# (templates/css/themes/dyslexia-friendly.css) changes the letters: Atkinson Hyperlegible for all text, the
# drawings' words too (the map's room numbers, scale and N, as "Theme Marks"), while Vollkorn still draws the few
# signs Atkinson lacks (arrows, dice faces); nothing is set in Cinzel. Every other theme keeps the standard pair.
STANDARD = ("Vollkorn", "Cinzel")
THEME_FAMILIES = {"dyslexia-friendly": ("Atkinson Hyperlegible", "Vollkorn")}


def theme_families(theme: str) -> tuple:
    return THEME_FAMILIES.get(theme, STANDARD)


def fonts_view(theme: str) -> dict:
    """The theme's families as the templates print them: a list ("A, B, C"), a phrase ("A, B and C") and the
    credits page's line naming each family's makers."""
    families = theme_families(theme)
    return {
        "listed": ", ".join(families),
        "phrase": ", ".join(families[:-1]) + " and " + families[-1],
        "makers": "; ".join(f"{family} by {MAKERS[family]}" for family in families),
        "all": "Both" if len(families) == 2 else "All",  # "Both under the SIL Open Font License"
    }
