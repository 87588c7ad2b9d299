"""dungeonpress: YAML game content to printable PDF."""

__version__ = "0.1.0"
