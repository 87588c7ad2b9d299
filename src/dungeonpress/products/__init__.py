"""One module per product: what it gathers, which template, which outputs."""
