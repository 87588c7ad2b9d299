"""Paper sizes, the one place they are written: a paper's name → its portrait (width, height) in mm."""

from __future__ import annotations

# ISO 216 A sizes and US Letter (8.5 x 11 in). Commands offer a4, letter and a5 (products/options.py);
# a6 and a7 are the oracle card, the foe cards and the zine's panels, and half-letter the page of
# a booklet folded from Letter; preflight recognises them all.
PAPER_MM = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a5": (148.0, 210.0),
    "a6": (105.0, 148.0),
    "a7": (74.0, 105.0),
    "half-letter": (139.7, 215.9),
}
