"""Turn Paperogue tables and a seeded Random into a pre-rolled PaperogueCharacter."""
from dataclasses import dataclass


@dataclass(frozen=True)
class PaperogueCharacter:
    name: str = ""


def generate_paperogue_character(content, rng):
    raise NotImplementedError
