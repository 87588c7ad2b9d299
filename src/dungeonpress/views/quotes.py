"""Straight quotes → typographic ones, ranges set with an en dash, and ranges and dice kept on one line: in the text
(not the markup) of HTML.

Prose goes through markdown-it's smartquotes, but table cells, bestiary entries, generated rooms and
the templates' own words are printed as written; the last render step sets every one of them alike, so
no straight quote reaches a PDF. After a digit a quote is a measure (feet ′, inches ″), not a quote.
A line may break after an en dash, so a range ("4–6"), a roll ("2d6+1") or an appendix's name ("Appendix D") is set in a `.nobr` span,
as are odds ("1 in 6"), a number and its unit ("30 ft") and a short quoted question ("Does it give?")
(base.css: white-space nowrap), except in SVG, where a span is not text. A range typed with a hyphen ("3-6") is set
with the en dash the rest of the book uses, but only where it runs upward: "1-1" is a monster's hit dice (one die less
one point), not a range. Three full stops are an ellipsis.
"""

from __future__ import annotations

import re

# Tags, comments, and whole elements whose content is not text to read (CSS, scripts).
_SKIP = re.compile(r"<!--.*?-->|<(style|script|title|textarea)\b[^>]*>.*?</\1\s*>|<[^>]*>", re.DOTALL | re.IGNORECASE)
# A range of numbers or a roll of dice: 4–6, 11-16, 2d6, d66, 1d6+1 (not a word ending in digits).
# "Appendix A" and "Appendices A–F" name one thing and stay together too, and so do odds ("1 in 6"), a measure
# or a sum with its unit ("30 ft", "50 gp"), and a short question quoted in a sentence (ask “Does it give?”):
# split before its last word, the question reads as two.
_UNBROKEN = re.compile(r"(?<![\w–-])(?:\d+ in \d+|\d+ (?:ft|gp|sp|cp|ep|pp)\b|\d+\s?[–-]\s?\d+"
                       r"|\d*d\d+(?:\s?[+×x–-]\s?\d+)?|Appendix [A-F]\d*|Appendices [A-F]–[A-F]"
                       r"|(?<=\s)“[^“”<\s]+(?: [^“”<\s]+){0,3}\?”)(?![\w–-])")
# A range typed with a hyphen-minus, as `_UNBROKEN` found it: the whole match, nothing before or after.
_HYPHENED_RANGE = re.compile(r"(\d+)(\s?)-(\s?)(\d+)")
_ENTITIES = {"&#39;": "'", "&#x27;": "'", "&#34;": '"', "&#x22;": '"', "&quot;": '"', "&apos;": "'"}
_ENTITY = re.compile("|".join(map(re.escape, _ENTITIES)))
_OPENS_AFTER = set(" \t\n\u00a0([{‘“—–-/") | {""}
# Tags that start a new run of text (a block, or an SVG text element); compiled once: these run for every tag.
_BLOCK = re.compile(r"</?(p|div|li|td|th|tr|h\d|br|section|table|text|tspan|dt|dd)\b", re.IGNORECASE)
_REFERENCE = re.compile(r"&[#\w]+;")
_DIGIT = re.compile(r"\d")


def typographic(text: str, before: str = "") -> str:
    """`text` with every ' and " turned: ’ inside and after a word, ‘ “ where a quotation opens, ′ ″ after a digit.

    `before` is the character printed just before `text` (the end of the previous run of text), so a
    quote right after an inline tag is read in context.
    """
    if "'" not in text and '"' not in text:
        return text
    out = []
    last = before
    for char in text:
        if char == "'":
            char = "′" if last.isdigit() else "‘" if last in _OPENS_AFTER else "’"
        elif char == '"':
            char = "″" if last.isdigit() else "“" if last in _OPENS_AFTER else "”"
        out.append(char)
        last = char
    return "".join(out)


def typographic_html(html: str) -> str:
    """`html` with the quotes of its text turned (see `typographic`); tags, attributes, styles and scripts untouched."""
    out = []
    position = 0
    last = ""
    svg = 0  # how deep inside <svg> elements: no spans there
    for match in _SKIP.finditer(html):
        if match.start() > position:
            piece = _text(html[position:match.start()], last)
            out.append(piece if svg else _unbroken(piece))
            last = _last_char(piece, last)
        out.append(match.group(0))
        tag = match.group(0)[:5].lower()
        svg += 1 if tag == "<svg " or tag == "<svg>" else -1 if tag == "</svg" else 0
        if _BLOCK.match(match.group(0)):
            last = ""  # a new block (or an SVG text element) starts a new run
        position = match.end()
    tail = _text(html[position:], last)
    out.append(tail if svg else _unbroken(tail))
    return "".join(out)


def _unbroken(piece: str) -> str:
    """Ranges, rolls, odds, measures, appendices' names and short quoted questions in a run of HTML text wrapped in
    `<span class="nobr">`."""
    # Every pattern but an appendix's name and a question needs a digit (\d): where there is none, nothing matches.
    if not _DIGIT.search(piece) and "Append" not in piece and "?”" not in piece:
        return piece
    return _UNBROKEN.sub(lambda m: f'<span class="nobr">{_en_dashed(m.group(0))}</span>', piece)


def _en_dashed(found: str) -> str:
    """A range typed "3-6" as "3–6"; anything else `_UNBROKEN` finds as it is."""
    range_ = _HYPHENED_RANGE.fullmatch(found)
    if not range_ or int(range_[1]) >= int(range_[4]):
        return found
    return f"{range_[1]}{range_[2]}–{range_[3]}{range_[4]}"


def _text(piece: str, before: str) -> str:
    if "..." in piece:
        piece = piece.replace("...", "…")
    if not _ENTITY.search(piece) and "'" not in piece and '"' not in piece:
        return piece
    return typographic(_ENTITY.sub(lambda m: _ENTITIES[m.group(0)], piece), before)


def _last_char(piece: str, before: str) -> str:
    stripped = _REFERENCE.sub("x", piece)
    return stripped[-1] if stripped else before
