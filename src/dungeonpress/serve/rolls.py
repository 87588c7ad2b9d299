"""A form or URL query → one checked roll: its command line, its URL and the name of its folder."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from urllib.parse import urlencode

from dungeonpress.errors import UsageError
from dungeonpress.products import options
from dungeonpress.products.common import THEMES  # the looks `--theme` offers (a plain tuple; no WeasyPrint)

SEEDS = (0, 999_999_999)
THEME = "standard"


class BadRoll(ValueError):
    """A form value out of range: shown to the user, nothing is run."""


@dataclass(frozen=True)
class RollRequest:
    """One roll: a seeded command, its seed, the options given (flag, value; value None for a switch), a theme."""

    product: str = "dungeon"
    seed: int = 1234
    options: tuple = ()
    theme: str = THEME

    @classmethod
    def from_query(cls, query: dict, catalog: dict) -> "RollRequest":
        """From a form or URL query ({key: [values]}): each option is keyed by its flag without the dashes.

        A blank seed is a fresh one; option values are checked by the product's own option types,
        so the page refuses exactly what the command line refuses.
        """
        def one(key, default=""):
            return (query.get(key) or [default])[0].strip()

        name = one("product", "dungeon")
        if name not in catalog:
            raise BadRoll(f"unknown product {name!r} (expected {', '.join(catalog)})")
        product = catalog[name]
        seed_text = one("seed")
        seed = secrets.randbelow(SEEDS[1] + 1) if not seed_text else _int(seed_text, "seed", *SEEDS)
        given, flags = {}, {}
        for choice in product.choices:
            text = one(choice.flag[2:])
            if choice.switch:
                if text.lower() in ("on", "1", "true", "yes"):
                    given[choice.name], flags[choice.name] = True, (choice.flag, None)
            elif text:
                given[choice.name], flags[choice.name] = text, choice.flag
        try:
            checked = options.parse(product.options_type, given)
        except UsageError as exc:
            raise BadRoll(str(exc)) from None
        chosen = tuple(flags[c.name] if isinstance(flags[c.name], tuple) else (flags[c.name], str(getattr(checked, c.name)))
                       for c in product.choices if c.name in flags)
        theme = one("theme", THEME)
        if theme not in THEMES:
            raise BadRoll(f"theme {theme!r} (expected {', '.join(THEMES)})")
        return cls(name, seed, chosen, theme)

    def argv(self) -> list[str]:
        """The command line (after `dungeonpress`) that makes this roll, less where to and from what content."""
        args = [self.product, "--seed", str(self.seed)]
        for flag, value in self.options:
            args += [flag] if value is None else [flag, value]
        if self.theme != THEME:
            args += ["--theme", self.theme]
        return args

    def query(self) -> str:
        """The URL query that asks for this roll again (seed included): `product=dungeon&seed=42&rooms=5`."""
        return self._query(str(self.seed))

    def reroll(self) -> str:
        """The same query with the seed left blank: the server picks a fresh one."""
        return self._query("")

    def _query(self, seed: str) -> str:
        pairs = [("product", self.product), ("seed", seed)]
        pairs += [(flag[2:], "on" if value is None else value) for flag, value in self.options]
        if self.theme != THEME:
            pairs.append(("theme", self.theme))
        return urlencode(pairs)

    def folder_name(self) -> str:
        """`dungeon-seed-42-rooms-5`: the roll's folder under rolls/, named by its command line."""
        return re.sub(r"[^A-Za-z0-9.]+", "-", " ".join(self.argv())).strip("-.")


def _int(text: str, name: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise BadRoll(f"{name} {text[:40]!r} is not a whole number") from None
    if not low <= value <= high:
        raise BadRoll(f"{name} {value} is out of range ({low}-{high})")
    return value
