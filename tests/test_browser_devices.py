# ruff: noqa: F811
"""Device tabs in a real browser, on a fixture site whose store has records of two devices.

The fixture is a copy of the course with made-up CUDA records (copies of the CPU ones with an H100's
provenance) for two examples in two chapters; ``examples/_outputs/`` itself holds only real captures.
Checked in both languages: one tab per device with the GPU first, switching, and the choice kept on
the next page (Material's linked content tabs). Screenshots (desktop, 375 px, dark mode) of a chapter
with outputs, an error, a figure and the tabs go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

# The browser fixture of the main browser suite, shared (ruff: it is used as an argument, not redefined).
from test_browser import DESKTOP, HOST, PHONE, SCREENSHOTS, _QuietHandler, _Server, browser  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = Path(sys.executable).with_name("mkdocs")
GPU_EXAMPLES = ("devices/matmul_timing.py", "autograd/inplace_error.py")  # a figure; an expected error
GPU = {"device": "NVIDIA H100 80GB HBM3", "device_kind": "cuda", "torch": "2.11.0+cu130", "cuda": "13.0",
       "driver": "580.65.06", "python": "3.12.3"}
LABEL = "NVIDIA H100 · CUDA 13.0"

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("devices-site")]


@pytest.fixture(scope="module")
def devices_site(tmp_path_factory, site) -> Path:  # after `site`: mkdocs-jupyter's cache is filled
    """A strict build of a copy of the course whose two ``GPU_EXAMPLES`` also have a (made-up) CUDA record."""
    src = tmp_path_factory.mktemp("devices-src")
    shutil.copy2(ROOT / "mkdocs.yml", src / "mkdocs.yml")
    for folder in ("docs", "examples", "scripts"):
        shutil.copytree(ROOT / folder, src / folder, ignore=shutil.ignore_patterns("notebooks", "__pycache__", ".lock"))
    for rel in GPU_EXAMPLES:
        cpu = src / "examples/_outputs" / rel[:-3] / "cpu.json"
        record = json.loads(cpu.read_text(encoding="utf-8"))
        record["device_kind"] = "cuda"
        record["provenance"].update(GPU, duration_s=round(record["provenance"]["duration_s"] / 3, 4))
        cpu.with_name("cuda.json").write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    (ROOT / ".cache").mkdir(exist_ok=True)
    (src / ".cache").symlink_to(ROOT / ".cache")
    out = tmp_path_factory.mktemp("devices-site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(src / "scripts")}
    proc = subprocess.run([str(MKDOCS), "build", "--strict", "--site-dir", str(out)], cwd=src, env=env,
                          capture_output=True, text=True, timeout=400)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def devices_base(devices_site: Path):
    server = _Server((HOST, 0), functools.partial(_QuietHandler, directory=str(devices_site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://{HOST}:{server.server_port}/"
    server.shutdown()
    server.server_close()


def tab_state(page) -> list[dict]:
    """Each tab set on the page: its labels in order and the selected one."""
    return page.evaluate("""() => [...document.querySelectorAll('.pn-example ~ .tabbed-set')].map((set) => {
      const labels = [...set.querySelectorAll('.tabbed-labels > label')];
      const inputs = [...set.querySelectorAll(':scope > input')];
      return {labels: labels.map((l) => l.textContent.trim()),
              selected: labels[inputs.findIndex((i) => i.checked)].textContent.trim()};
    })""")


@pytest.mark.parametrize("root, lang", [("", "zh"), ("en/", "en")])
def test_device_tabs_switch_and_the_choice_is_kept_across_pages(browser, devices_base, root, lang):
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(devices_base + root + "devices/")
        (state,) = tab_state(page)
        assert state == {"labels": [LABEL, "CPU"], "selected": LABEL}, "one tab per device, the GPU first"
        gpu_panel = page.locator(".tabbed-set .tabbed-block").nth(0)
        assert "NVIDIA H100 80GB HBM3" in gpu_panel.locator(".pn-provenance").inner_text()
        figure = gpu_panel.locator(".pn-figure img")
        figure.scroll_into_view_if_needed()  # figures load lazily
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=figure.element_handle())
        assert page.locator(".pn-compare").count() == 1
        page.locator(".tabbed-set .tabbed-labels > label", has_text="CPU").first.click()
        assert tab_state(page)[0]["selected"] == "CPU"
        cpu_panel = page.locator(".tabbed-set .tabbed-block").nth(1)
        assert cpu_panel.is_visible() and "CPU · torch" in cpu_panel.locator(".pn-provenance").inner_text()
        page.goto(devices_base + root + "autograd/")
        states = tab_state(page)
        assert states and all(s["selected"] == "CPU" for s in states), f"the choice was not kept: {states}"
        assert page.evaluate("document.documentElement.lang").startswith(lang)
    finally:
        context.close()


@pytest.mark.parametrize("name, viewport, scheme", [("desktop", DESKTOP, "light"), ("375px", PHONE, "light"),
                                                    ("dark", DESKTOP, "dark")])
def test_screenshots_of_a_chapter_with_device_tabs(browser, devices_base, name, viewport, scheme):
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    try:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.goto(devices_base + "devices/")
        labels = page.locator(".pn-example ~ .tabbed-set .tabbed-labels").first
        page.evaluate("(el) => { el.scrollIntoView(); window.scrollBy(0, -90); }", labels.element_handle())
        page.wait_for_timeout(300)  # the header's title settles after a scroll
        page.screenshot(path=str(SCREENSHOTS / f"device-tabs-{name}.png"))
        page.goto(devices_base + "autograd/")
        page.locator(".pn-output--raised").first.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"error-output-{name}.png"))
        sideways = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert sideways <= 1, f"{name}: the page scrolls sideways by {sideways} px"
    finally:
        context.close()
