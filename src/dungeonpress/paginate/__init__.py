"""Page fitting, between render and pdf: HTML made per candidate fit → the laid-out document that fits its pages.

`pages` reads a layout as numbers (anchors, spare pages) and pads it; `zine` chooses the one-sheet zine's fit;
`geometry` holds the page measures the Python and the stylesheets share.
"""
