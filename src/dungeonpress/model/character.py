"""A pre-rolled Loner: Dungeoneer character as data: each trait with the table roll behind it."""

from __future__ import annotations

from dataclasses import dataclass

LUCK = 6  # the seed: Luck starts and caps at 6


@dataclass(frozen=True)
class TableValue:
    """One value taken from a table, and the roll behind it (a `TableRoll` keeps a dungeon roll's whole row)."""

    table: str  # table id
    result: int  # the die as read: a d66 gives 11..66
    value: str  # the row's text
    rerolled: tuple = ()  # earlier results thrown away because they repeated a value already taken


@dataclass(frozen=True)
class GearItem:
    """A piece of starting gear and its durability, when some table gives one."""

    item: TableValue
    durability: str | None = None  # as the table writes it: "3 uses", "2 scenes", "permanent"
    durability_table: str | None = None  # the table that gave the durability


@dataclass(frozen=True)
class Character:
    """A pre-rolled delver: every trait of the seed, each with the roll that gave it."""

    name_list_roll: int  # the d6 that chose the first-name table (1-3 female, 4-6 male)
    first_name: TableValue
    surname: TableValue
    nickname: TableValue
    concept: TableValue
    skills: tuple  # two TableValues with different values
    frailty: TableValue
    gear: tuple  # two GearItems with different items
    goal: TableValue
    motive: TableValue
    nemesis: TableValue
    luck: int = LUCK

    @property
    def name(self) -> str:
        """`Elara “Stonefoot” Duskbane`: first name, nickname in quotes, surname."""
        return f"{self.first_name.value} \u201c{self.nickname.value}\u201d {self.surname.value}"

