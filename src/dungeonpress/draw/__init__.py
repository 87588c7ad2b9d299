"""Drawings: generated things → SVG strings."""
