"""Headless Debian Chromium driven by Selenium with the system chromedriver (nothing downloaded)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOTS = "FACTJUDGE_SCREENSHOTS"  # a folder that also receives every screenshot a test takes
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
needs_chromium = pytest.mark.skipif(
    not CHROMIUM or not os.path.exists(CHROMEDRIVER),
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)")


def chromium() -> Iterator[Any]:
    """Yield a headless Chrome WebDriver that records the browser console."""
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1200,1400", "--no-proxy-server"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # The system driver: Selenium Manager would otherwise try to download one.
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def console_errors(driver: Any) -> list[dict[str, Any]]:
    """Console entries of level SEVERE (errors) since the last call."""
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def screenshot(driver: Any, folder: Path, name: str, full_page: bool = True) -> list[Path]:
    """Save a PNG of the page into ``folder`` and, when FACTJUDGE_SCREENSHOTS names a folder, there too.

    ``full_page``: the window is stretched to the page's height first (then put back), so the
    picture shows what a reader scrolls through.
    """
    size = driver.get_window_size()
    if full_page:
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(size["width"], min(int(height) + 120, 12000))
    folders = [folder] + ([Path(os.environ[SCREENSHOTS])] if os.environ.get(SCREENSHOTS) else [])
    saved = []
    try:
        for where in folders:
            where.mkdir(parents=True, exist_ok=True)
            assert driver.save_screenshot(str(where / name)), f"no screenshot saved to {where / name}"
            saved.append(where / name)
    finally:
        if full_page:
            driver.set_window_size(size["width"], size["height"])
    return saved


# Tables: each one fits its box, or its box scrolls sideways and stays inside the window.
UNCLIPPED_TABLES = """
const out = [];
for (const table of document.querySelectorAll('table')) {
  if (!table.offsetParent) continue;  // not drawn (a closed <details>)
  const box = table.parentElement, style = getComputedStyle(box);
  const fits = table.scrollWidth <= box.clientWidth + 1;
  const scrolls = ['auto', 'scroll'].includes(style.overflowX) && box.scrollWidth > box.clientWidth;
  const inside = box.getBoundingClientRect().right <= document.documentElement.clientWidth + 1;
  out.push({fits, scrolls, inside, text: table.innerText.slice(0, 60)});
}
return out;
"""


def clipped_tables(driver: Any) -> list[dict[str, Any]]:
    """Tables cut at an edge: wider than their box with no way to scroll, or a box past the window."""
    tables = driver.execute_script(UNCLIPPED_TABLES)
    return [t for t in tables if not ((t["fits"] or t["scrolls"]) and t["inside"])]
