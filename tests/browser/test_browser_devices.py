# ruff: noqa: F811
"""Device tabs in a real browser, on the built course, whose store holds a CPU and a CUDA record of most
examples (the GPU capture of 2026-11-27; the chapter "Training on the GPU" has CUDA records only).

Checked in both languages: one tab per device with the GPU first, switching, and the choice kept on
the next page (Material's linked content tabs). Screenshots (desktop, 375 px, dark mode) of a chapter
with outputs, an error, a figure and the tabs go to ``artifacts/screenshots/``. Until 2026-11-27 these
tests ran on a copy of the course with made-up CUDA records, built once more for them.
"""

from __future__ import annotations

import pytest
import test_browser

# The fixtures of the main browser suite, shared (ruff: they are used as arguments, not redefined).
from test_browser import DESKTOP, PHONE, SCREENSHOTS, browser  # noqa: F401

base = test_browser.base
LABEL = "NVIDIA H100 · CUDA 13.0"

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("devices-site")]


def tab_state(page) -> list[dict]:
    """Each tab set on the page: its labels in order and the selected one."""
    return page.evaluate("""() => [...document.querySelectorAll('.pn-example ~ .tabbed-set')].map((set) => {
      const labels = [...set.querySelectorAll('.tabbed-labels > label')];
      const inputs = [...set.querySelectorAll(':scope > input')];
      return {labels: labels.map((l) => l.textContent.trim()),
              selected: labels[inputs.findIndex((i) => i.checked)].textContent.trim()};
    })""")


def open_tab_state(page) -> list[dict]:
    """``tab_state`` of the tab sets outside a closed ``<details>`` (an exercise's solution): Material's linked
    tabs switch those that are shown."""
    shown = page.evaluate("""() => [...document.querySelectorAll('.pn-example ~ .tabbed-set')]
      .map((set) => !set.closest('details:not([open])'))""")
    return [state for state, show in zip(tab_state(page), shown, strict=True) if show]


@pytest.mark.parametrize("root, lang", [("", "zh"), ("en/", "en")])
def test_device_tabs_switch_and_the_choice_is_kept_across_pages(browser, base, root, lang):
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(base + root + "devices/")
        states = tab_state(page)
        assert states and all(s == {"labels": [LABEL, "CPU"], "selected": LABEL} for s in states), \
            f"one tab per device, the GPU first: {states}"
        assert len(states) == page.locator(".pn-example").count() == page.locator(".pn-compare").count()
        example = page.locator(".pn-example + .tabbed-set").first  # the code once, each device's outputs
        # text content: the browser skips a block off screen (content-visibility), and its innerText is empty
        code = example.locator(".highlight code").all_text_contents()
        assert code and all(example.locator(".highlight").nth(i).is_visible() for i in range(len(code)))
        assert "NVIDIA H100 80GB HBM3" in example.locator(".pn-provenance:visible").text_content()
        gpu_outputs = example.locator(".pn-output:visible").all_text_contents()
        figure = page.locator(".tabbed-set .tabbed-block:first-child .pn-figure img").first  # the timing chart
        figure.scroll_into_view_if_needed()  # figures load lazily
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=figure.element_handle())
        page.locator(".tabbed-set .tabbed-labels > label", has_text="CPU").first.click()
        page.wait_for_function("""() => [...document.querySelectorAll('.pn-example ~ .tabbed-set')]
          .filter((set) => !set.closest('details:not([open])'))
          .every((set) => set.querySelectorAll(':scope > input')[1].checked)""")  # linked: every shown example
        assert "CPU · torch" in example.locator(".pn-provenance:visible").text_content()
        assert example.locator(".highlight code").all_text_contents() == code, "the same code, shown"
        assert all(example.locator(".highlight").nth(i).is_visible() for i in range(len(code)))
        cpu_outputs = example.locator(".pn-output:visible").all_text_contents()
        assert cpu_outputs and cpu_outputs != gpu_outputs, "the CPU's outputs replace the GPU's"
        page.goto(base + root + "autograd/")
        states = open_tab_state(page)
        assert states and all(s["selected"] == "CPU" for s in states), f"the choice was not kept: {states}"
        assert page.evaluate("document.documentElement.lang").startswith(lang)
    finally:
        context.close()


@pytest.mark.parametrize("name, viewport, scheme", [("desktop", DESKTOP, "light"), ("375px", PHONE, "light"),
                                                    ("dark", DESKTOP, "dark")])
def test_screenshots_of_a_chapter_with_device_tabs(browser, base, name, viewport, scheme):
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    try:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.goto(base + "devices/")
        labels = page.locator(".pn-example ~ .tabbed-set .tabbed-labels").first
        page.evaluate("(el) => { el.scrollIntoView(); window.scrollBy(0, -90); }", labels.element_handle())
        page.wait_for_timeout(300)  # the header's title settles after a scroll
        page.screenshot(path=str(SCREENSHOTS / f"device-tabs-{name}.png"))
        page.goto(base + "autograd/")
        page.locator(".pn-output--raised:visible").first.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / f"error-output-{name}.png"))
        sideways = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert sideways <= 1, f"{name}: the page scrolls sideways by {sideways} px"
    finally:
        context.close()


@pytest.mark.parametrize("root", ["", "en/"])
def test_an_opened_solution_shows_the_chosen_tab(browser, base, root):
    """A tab set inside a collapsed solution (参考答案) follows the reader's choice once opened (issue 44,
    item 6): Material links tab sets by their labels' innerText, which a closed <details> leaves empty."""
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(base + root + "autograd/")
        hidden = page.locator("details:not([open]) .tabbed-set")
        assert hidden.count() >= 2, "autograd's solutions hold device tabs"
        page.locator(".tabbed-set .tabbed-labels > label", has_text="CPU").first.click()
        page.wait_for_function("""() => [...document.querySelectorAll('.tabbed-set')]
          .filter((set) => !set.closest('details:not([open])'))
          .every((set) => set.querySelectorAll(':scope > input')[1].checked)""")
        solution = page.locator("details:has(.tabbed-set)").first
        solution.locator(":scope > summary").click()
        assert solution.evaluate("(d) => d.open")
        states = open_tab_state(page)  # the solution's sets with the others
        assert states and all(s["selected"] == "CPU" for s in states), states
        inside = solution.evaluate("""(d) => [...d.querySelectorAll('.tabbed-set')].map((set) =>
          [...set.querySelectorAll(':scope > input')].findIndex((i) => i.checked))""")
        assert inside and all(i == 1 for i in inside), f"the opened solution shows tab {inside}, not CPU"
        assert "CPU · torch" in solution.locator(".pn-provenance:visible").first.text_content()
        page.reload()  # on the next visit too: Material's restore also reads innerText
        solution = page.locator("details:has(.tabbed-set)").first
        solution.locator(":scope > summary").click()
        inside = solution.evaluate("""(d) => [...d.querySelectorAll('.tabbed-set')].map((set) =>
          [...set.querySelectorAll(':scope > input')].findIndex((i) => i.checked))""")
        assert inside and all(i == 1 for i in inside), f"after a reload the solution shows tab {inside}, not CPU"
    finally:
        context.close()


FOCUSED_TAB_JS = """() => {
  const input = document.activeElement;
  if (!input || !input.matches('.tabbed-set > input')) return null;
  const set = input.parentElement, n = [...set.querySelectorAll(':scope > input')].indexOf(input);
  const label = set.querySelectorAll(':scope > .tabbed-labels > label')[n], cs = getComputedStyle(label);
  return {label: label.textContent.trim(), style: cs.outlineStyle, width: parseFloat(cs.outlineWidth),
          color: cs.outlineColor, background: getComputedStyle(document.body).backgroundColor};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_device_tab_shows_keyboard_focus(browser, base, scheme):
    """Tabbing to a device tab draws a ring round its label (issue 44, item 8): the focused radio button is
    invisible, and Material only recolours a label the chosen tab already has that colour."""
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(base + "devices/")
        page.locator(".pn-example").first.evaluate("(el) => el.scrollIntoView()")
        page.locator(".pn-example").first.evaluate(
            "(el) => { el.tabIndex = -1; el.focus(); }")  # the keyboard starts from the first example
        got = None
        for _ in range(10):
            page.keyboard.press("Tab")
            if got := page.evaluate(FOCUSED_TAB_JS):
                break
        assert got, "Tab never reached a device tab"
        assert got["style"] == "solid" and got["width"] >= 2, f"no focus ring on the tab {got}"
        assert got["color"] != got["background"] and not got["color"].endswith(", 0)"), got
        page.keyboard.press("ArrowRight")  # the next tab takes the focus and the ring
        after = page.evaluate(FOCUSED_TAB_JS)
        assert after and after["label"] != got["label"] and after["style"] == "solid", after
    finally:
        context.close()
