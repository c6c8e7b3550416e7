"""Page weight of the browser game as served (run by hand).

Starts the real server, loads the page in the system Chromium, and sums the
bytes of every file the page loaded from the server other than the JSON API
(index.html, JS modules, CSS, images).  Prints each file and the total in KB,
raw and gzip-compressed (for reference: the server sends them uncompressed).

    .venv/bin/python benchmarks/bench_page_weight.py
"""

from __future__ import annotations

import gzip
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "weight.sqlite3")
        server.start()
        try:
            files = load(server.url)
        finally:
            server.stop()
    total = sum(len(body) for body in files.values())
    zipped = sum(len(gzip.compress(body, 9)) for body in files.values())
    for path, body in sorted(files.items()):
        print(f"{path:28} {len(body) / 1024:7.1f} KB")
    print(f"{'total (' + str(len(files)) + ' files)':28} {total / 1024:7.1f} KB"
          f"   (gzip {zipped / 1024:.1f} KB)")


def load(url: str) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    outside: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()

        def seen(response):  # type: ignore[no-untyped-def]
            if not response.url.startswith((url, "data:")):
                outside.append(response.url)  # a CDN or an external font: not allowed
            path = response.url.removeprefix(url)
            if response.url.startswith(url) and not path.startswith("/api/"):
                files[path.split("?")[0] or "/"] = response.body()

        page.on("response", seen)
        page.goto(url + "/")
        page.wait_for_selector('body[data-ready="true"]')
        page.wait_for_load_state("networkidle")
        browser.close()
    assert not outside, f"the page loaded files from elsewhere: {outside}"
    return files


if __name__ == "__main__":
    main()
