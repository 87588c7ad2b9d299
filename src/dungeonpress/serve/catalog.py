"""Product commands → the rolls the preview page offers: every seeded command and its options, as the CLI has them."""

from __future__ import annotations

from dataclasses import dataclass

# Options a roll on the page never takes: --batch writes many separate products (a page shows one
# roll), and --format picks files the page could not show (it previews PDFs; the JSON comes along).
LEFT_OUT = ("batch", "format")


@dataclass(frozen=True)
class FormOption:
    """One option of a product as the form shows it; `name` is the options field, `flag` the CLI option."""

    name: str
    flag: str
    help: str
    choices: tuple | None = None
    low: int | None = None
    high: int | None = None
    switch: bool = False


@dataclass(frozen=True)
class Product:
    """A seeded command: its name as typed after `dungeonpress`, its help line, its options and their type."""

    command: str
    help: str
    choices: tuple
    options_type: type

    def choice(self, name: str) -> FormOption | None:
        return next((c for c in self.choices if c.name == name), None)


def seeded_products() -> dict:
    """{command: Product} for every command that takes --seed, in `--help` order.

    The product modules are imported here (their generators and views, never WeasyPrint): the
    page offers exactly what the command line does, with the same option checks.
    """
    from dungeonpress import products
    from dungeonpress.products import options

    order = [typed for _module, typed, _help in products.index()]
    found = {}
    for command in sorted(products.commands(), key=lambda c: order.index(c.full_name)):
        if not command.seeded:
            continue
        choices = tuple(
            FormOption(field.name, options.flag_of(field), spec.help, spec.choices, spec.min, spec.max, spec.switch)
            for field, spec in options.specs(command.options) if field.name not in LEFT_OUT)
        found[command.full_name] = Product(command.full_name, command.help, choices, command.options)
    return found
