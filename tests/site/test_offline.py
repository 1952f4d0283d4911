"""The offline copy (``make offline``): opened from file://, it searches and switches language with no network.

The copy is built by Material's ``offline`` plugin (``OFFLINE=true``), which turns directory URLs off
(pages are ``autograd.html``) and inlines the search index into ``search/search_index.js``. The site
is built from a copy of the sources in a temp folder, beside the served build (the ``site`` fixture,
possibly running at the same time on the other worker), sharing its build cache.

Chromium runs without ``--allow-file-access-from-files``: it is not needed. The search index is a
script (not a fetch) and the search worker runs in an iframe (the iframe-worker shim), both allowed
from file://. The only blocked request is Material's sitemap fetch, which it does without.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from benchmarks.chromium import INSTALL, find_chromium

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = Path(sys.executable).with_name("mkdocs")
CHROMIUM = find_chromium()  # Debian's; Playwright's own browser download is never used
pytestmark = pytest.mark.xdist_group("offline")  # one offline build per run, on one worker
# The checks of the built copy run with its browser test, in `make test-browser` (marker `browser`): one
# offline build (~25 s of CPU, every page rendered again with directory URLs off) serves them all, and
# `make test` keeps within its 3 minutes.
WITH_THE_BROWSER_TEST = pytest.mark.browser

LINK = re.compile(r'\b(?:href|src)="([^"]*)"')
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//|#)", re.I)  # http:, mailto:, data:, //host, #anchor


def _require(ok: bool, reason: str) -> None:
    """Skip when a browser-test prerequisite is missing, but fail under CI (where it must be there)."""
    if ok:
        return
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail(f"{reason} (CI is set, so the browser tests must run: install it, see .github/workflows/test.yml)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def offline_site(tmp_path_factory, site) -> Path:  # after `site`: mkdocs-jupyter's cache is filled
    """``make offline`` into a temp folder, built from a copy of the sources (see the module docstring)."""
    src = tmp_path_factory.mktemp("offline-src")
    shutil.copy2(ROOT / "mkdocs.yml", src / "mkdocs.yml")
    for folder in ("docs", "examples", "scripts"):
        shutil.copytree(ROOT / folder, src / folder,
                        ignore=shutil.ignore_patterns("__pycache__", ".lock"))
    # mkdocs-jupyter's render cache is keyed by notebook content: share it with the checkout.
    (ROOT / ".cache").mkdir(exist_ok=True)
    (src / ".cache").symlink_to(ROOT / ".cache")
    out = tmp_path_factory.mktemp("site-offline")
    env = {**os.environ, "OFFLINE": "true", "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(src / "scripts")}
    proc = subprocess.run([str(MKDOCS), "build", "--strict", "--site-dir", str(out)], cwd=src, env=env,
                          capture_output=True, text=True, timeout=400)
    if proc.returncode != 0:
        log = proc.stdout + proc.stderr
        problems = "\n".join(ln for ln in log.splitlines() if ln.startswith(("WARNING", "ERROR"))) or log[-3000:]
        pytest.fail(f"OFFLINE=true mkdocs build --strict failed (make offline reproduces it):\n{problems}")
    return out


@pytest.mark.parametrize(("use_directory_urls", "page", "notebook"), [
    (True, "autograd/", "notebooks/autograd/"),
    (False, "autograd.html", "notebooks/autograd/index.html"),
])
def test_hook_urls_follow_the_url_style(use_directory_urls, page, notebook):
    """The hook's links, with directory URLs (served site) and without (offline copy)."""
    from pytorch_notes.site import urls  # noqa: PLC0415 - imports MkDocs; only this test needs it

    assert urls.page_url("autograd.md", use_directory_urls) == page
    assert urls.page_url("index.md", use_directory_urls) == ("" if use_directory_urls else "index.html")
    assert urls.chapter_notebook_url("autograd.md", use_directory_urls) == notebook
    assert urls.chapter_notebook_dest("autograd.md") == "notebooks/autograd/index.html"
    assert urls.chapter_ipynb_url("autograd.md") == "notebooks/autograd.ipynb"
    assert urls.example_ipynb_url("autograd/leaf.py") == "notebooks/autograd/leaf.ipynb"


def _html_pages(site: Path) -> list[Path]:
    # 404.html links from the site root on purpose (it is served for any missing path);
    # overrides/ holds the theme's template overrides (custom_dir lies inside docs/), not pages.
    return [p for p in sorted(site.rglob("*.html"))
            if p.name != "404.html" and p.relative_to(site).parts[0] != "overrides"]


@WITH_THE_BROWSER_TEST
def test_pages_are_files_not_folders(offline_site):
    assert (offline_site / "autograd.html").is_file() and (offline_site / "en" / "autograd.html").is_file()
    notebooks = sorted((offline_site / "en" / "notebooks").glob("*/index.html"))
    assert len(notebooks) >= 30, "no chapter notebook pages in en/notebooks/"
    for page in notebooks:
        ipynb = page.parent.with_suffix(".ipynb")
        assert ipynb.is_file(), f"{page}: the chapter's .ipynb download {ipynb} is missing"


@WITH_THE_BROWSER_TEST
def test_every_local_link_resolves_to_a_file(offline_site):
    """From file:// a link to a folder shows a directory listing: every href/src must name a file."""
    broken = []
    for page in _html_pages(offline_site):
        for url in LINK.findall(page.read_text(encoding="utf-8")):
            path = unquote(url.split("#", 1)[0].split("?", 1)[0])
            if not path or EXTERNAL.match(url):
                continue
            if not (page.parent / path).is_file():
                broken.append(f"{page.relative_to(offline_site)}: {url}")
    assert not broken, f"{len(broken)} links that do not resolve to a file, e.g.:\n" + "\n".join(broken[:20])


@WITH_THE_BROWSER_TEST
def test_nothing_refers_to_a_cdn(offline_site):
    for page in _html_pages(offline_site):
        text = page.read_text(encoding="utf-8")
        assert "unpkg.com" not in text and "cdn.jsdelivr" not in text, f"{page}: refers to a CDN"
    index = (offline_site / "index.html").read_text(encoding="utf-8")
    assert 'src="assets/iframe-worker/shim.js"' in index, "the vendored iframe-worker shim is not loaded"
    assert (offline_site / "assets/iframe-worker/shim.js").is_file()


def _script_index(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8")
    prefix = "var __index = "
    assert text.startswith(prefix), f"{path}: expected a script starting with {prefix!r}"
    return json.loads(text[len(prefix):])["docs"]


@WITH_THE_BROWSER_TEST
def test_each_language_has_its_own_search_script(offline_site):
    zh = _script_index(offline_site / "search" / "search_index.js")
    en = _script_index(offline_site / "en" / "search" / "search_index.js")
    assert zh and en
    assert not [d for d in zh if d["location"].startswith("en/")], "English pages in the Chinese index"
    for lang_root, docs in ((offline_site, zh), (offline_site / "en", en)):
        missing = {d["location"] for d in docs if not (lang_root / d["location"].split("#")[0]).is_file()}
        assert not missing, f"search locations without a file under {lang_root}: {sorted(missing)[:5]}"


# --- in a browser, from file:// -----------------------------------------------------------------


@pytest.fixture(scope="module")
def browser_page():
    """(page, requests): a Chromium page and the list of every URL it has requested so far."""
    _require(CHROMIUM is not None, f"no Chromium found (set CHROMIUM, or install it: {INSTALL})")
    try:
        from playwright.sync_api import sync_playwright  # noqa: PLC0415 - optional dev dependency
    except ImportError:
        _require(False, "playwright is not installed (make test installs the dev dependencies)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page, requests = browser.new_page(), []
        page.on("request", lambda request: requests.append(request.url))
        yield page, requests
        browser.close()


def _file(url: str) -> Path:
    assert url.startswith("file://"), f"not a file:// URL: {url}"
    return Path(unquote(urlparse(url).path))


def _search(page, url: str, query: str) -> list[str]:
    """Open ``url``, search for ``query`` and return the result links."""
    page.goto(url, wait_until="load")
    box = page.locator("input.md-search__input")
    box.fill(query)
    box.press("End")  # Material reads the query on keyup; fill() alone sends none
    try:
        page.wait_for_selector(".md-search-result__item a", timeout=20_000)
    except Exception as exc:  # noqa: BLE001 - turn Playwright's timeout into a readable failure
        meta = page.locator(".md-search-result__meta").inner_text()
        pytest.fail(f"searching {query!r} on {url} showed no result within 20 s (search says {meta!r}): {exc}")
    return page.eval_on_selector_all(".md-search-result__item a", "els => els.map(e => e.href)")


def _switch_language(page, url: str, lang: str) -> str:
    page.goto(url, wait_until="load")
    page.hover(".md-header .md-select")
    with page.expect_navigation():
        page.click(f'.md-header a.md-select__link[hreflang="{lang}"]')
    return page.url.split("#")[0]


@pytest.mark.browser
def test_from_file_url_search_and_language_switch_need_no_network(offline_site, browser_page):
    (page, requests), root = browser_page, offline_site.as_uri()

    zh = _search(page, f"{root}/tensors.html", "张量")
    assert zh, "no results for 张量"
    assert all(h.startswith(f"{root}/") and not h.startswith(f"{root}/en/") for h in zh), \
        f"a Chinese page's search returned pages of another language: {zh[:5]}"
    assert all(_file(h).is_file() for h in zh)

    en = _search(page, f"{root}/en/autograd.html", "autograd")
    assert en, "no results for autograd"
    assert all(h.startswith(f"{root}/en/") for h in en), f"an English page's search returned other pages: {en[:5]}"
    assert all(_file(h).is_file() for h in en)

    for start, lang, expected in [("autograd.html", "en", "en/autograd.html"),
                                  ("en/tensors.html", "zh", "tensors.html"),
                                  ("notebooks/autograd/index.html", "en", "en/notebooks/autograd/index.html")]:
        landed = _switch_language(page, f"{root}/{start}", lang)
        assert landed == f"{root}/{expected}", f"switching {start} to {lang} went to {landed}"
        assert _file(landed).is_file()

    assert requests, "no request was recorded at all"
    others = sorted({u for u in requests if not u.startswith("file://")})
    assert not others, f"requests other than file:// from the offline copy: {others}"
