"""Benchmark the dungeon product: dungeons generated per second (data only), zine PDFs per second, a 6-dungeon pack.

usage: python scripts/bench_dungeon.py [--runs 3]
`bench()` returns the figures as a dict, for scripts/bench.py to print with the others.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dungeonpress import build
from dungeonpress.generate.dungeon import generate_dungeon
from dungeonpress.products import dungeon as product

DATA_SECONDS = 2.0  # how long to keep rolling dungeons for the data-only rate
ZINES = 3  # zine PDFs per run (each laid out, written and imposed)


def bench(runs: int = 3) -> dict:
    """Median figures over `runs` runs, keyed by what they measure."""
    content = build.load_content()
    per_second, zines, pack = [], [], []
    for run in range(runs):
        per_second.append(_dungeons_per_second(content, run))
        zines.append(_zines_per_second(content, run))
        pack.append(_pack_seconds(content, run))
    return {
        "dungeons generated per second (data only, 8 rooms)": statistics.median(per_second),
        "zine PDFs per second (A4, imposed)": statistics.median(zines),
        "6-dungeon pack build (s)": statistics.median(pack),
    }


def _dungeons_per_second(content, run: int) -> float:
    start, count = time.perf_counter(), 0
    while time.perf_counter() - start < DATA_SECONDS:
        generate_dungeon(content, random.Random(f"bench/{run}/{count}"), rooms=8)
        count += 1
    return count / (time.perf_counter() - start)


def _zines_per_second(content, run: int) -> float:
    start = time.perf_counter()
    for n in range(ZINES):
        seed = 1000 * run + n
        ctx = build.context_for(content, seed=seed)
        product.build_dungeon(ctx, product.DungeonOptions(layout="zine", paper="a4", format="pdf"))
    return ZINES / (time.perf_counter() - start)


def _pack_seconds(content, run: int) -> float:
    ctx = build.context_for(content, seed=run)
    start = time.perf_counter()
    product.build_dungeon(ctx, product.DungeonOptions(count=6, format="pdf"))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    figures = bench(parser.parse_args().runs)
    width = max(len(key) for key in figures)
    for key, value in figures.items():
        print(f"{key.ljust(width)}  {value:.3f}")


if __name__ == "__main__":
    main()
