"""Make the README's picture of the preview page (docs/images/serve.png) in headless Chromium.

usage: python scripts/serve_image.py [--out docs/images/serve.png]
Needs Debian's chromium (/usr/bin/chromium) and playwright (a test dependency). The server runs in a
folder of its own named build/ inside a temporary folder, so the page shows `build/` and no path of
this machine; it rolls zine 1234 as a user would from a shared URL, and the page is shot when the
roll's pages are shown.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, PngImagePlugin

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ROLL = "roll?product=dungeon&seed=1234"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def shoot(target: Path) -> None:
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as work:
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "dungeonpress", "serve", "--port", str(port), "--quiet",
                                   "--out", "build"], cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")})
        try:
            for _ in range(100):  # the server is up when it answers
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                page = browser.new_page(viewport={"width": 1100, "height": 900})
                page.set_default_timeout(240_000)
                page.goto(f"http://127.0.0.1:{port}/{ROLL}")
                page.wait_for_selector("img[src*='dungeon-1234-zine']")
                page.wait_for_load_state("networkidle")
                shot = Path(work) / "shot.png"
                page.screenshot(path=str(shot))
                browser.close()
            image = Image.open(shot).convert("RGB")
            info = PngImagePlugin.PngInfo()
            info.add_text("Source", "scripts/serve_image.py")
            for colours in (64, 32, 16):  # the README's pictures stay under 60 kB (tests/test_docs_cli.py)
                image.quantize(colours, dither=Image.Dither.NONE).save(target, optimize=True, pnginfo=info)
                if target.stat().st_size <= 60_000:
                    break
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path("docs/images/serve.png"))
    shoot(parser.parse_args().out)
    print(parser.parse_args().out)
