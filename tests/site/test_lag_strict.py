"""The translation-lag banner never fails ``mkdocs build --strict`` (issue 14, point 5).

A small two-language site is built in a throw-away folder, with the real mkdocs.yml's link
validation and i18n, the ``pytorch-notes`` plugin (reading this site's folders: ``site/project.py``),
and a ledger (``docs/twins.json``) in which one language of a top-level page and of a page in a
subfolder changed after the last sync. The strict build must pass, the banner must be on the stale
twin, and its link must reach the newer one.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from conftest import bytecode_env
from pytorch_notes import twins

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = Path(sys.executable).with_name("mkdocs")

PAGES = {  # page -> (zh text, en text)
    "index.md": ("# 首页\n\n[甲](a.md) · [子页](sub/page.md)\n", "# Home\n\n[A](a.md) · [Sub](sub/page.md)\n"),
    "a.md": ("# 甲\n\n第一版。\n", "# A\n\nFirst version.\n"),
    "sub/page.md": ("# 子页\n\n第一版。\n", "# Sub page\n\nFirst version.\n"),
}
BANNER = {"zh": "译文可能已过期", "en": "This translation may be out of date"}


def _build_lagging_site(tmp_path: Path, edited: str) -> tuple[subprocess.CompletedProcess, Path]:
    """Sync every page, edit language ``edited`` of ``a.md`` and ``sub/page.md``, build strictly."""
    real = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    validation = yaml.safe_load(real.split("\nvalidation:", 1)[1].split("\ntheme:", 1)[0].join(["validation:", ""]))
    config = {
        "site_name": "t", "site_url": "http://127.0.0.1:8000/", "docs_dir": "docs", **validation,
        "exclude_docs": "/twins.json\n",
        "theme": {"name": "material", "language": "zh", "font": False},
        "markdown_extensions": ["admonition", "toc"],
        "plugins": ["pytorch-notes", {"i18n": {"docs_structure": "folder", "reconfigure_material": True, "languages": [
            {"locale": "zh", "name": "中文", "default": True, "build": True},
            {"locale": "en", "name": "English", "build": True}]}}],
    }
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    docs = tmp_path / "docs"
    for page, texts in PAGES.items():
        for lang, text in zip(("zh", "en"), texts, strict=True):
            p = docs / lang / page
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(textwrap.dedent(text), encoding="utf-8")
    twins.sync(list(PAGES), docs)
    assert twins.lags(docs) == []
    for page in ("a.md", "sub/page.md"):
        p = docs / edited / page
        p.write_text(p.read_text(encoding="utf-8") + "\n" + ("改过。" if edited == "zh" else "Edited.") + "\n",
                     encoding="utf-8")
    assert sorted(lag.page for lag in twins.lags(docs)) == ["a.md", "sub/page.md"]
    site = tmp_path / "site"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "NO_MKDOCS_2_WARNING": "1",
           "PYTHONPATH": str(ROOT / "scripts"), **bytecode_env()}
    proc = subprocess.run([str(MKDOCS), "build", "--strict", "--site-dir", str(site)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=180, env=env)
    return proc, site


def _html(site: Path, lang: str, page: str) -> str:
    prefix = "" if lang == "zh" else "en/"
    return (site / prefix / page.removesuffix(".md") / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("edited", ["zh", "en"])
def test_lag_banner_passes_the_strict_build(tmp_path, edited):
    proc, site = _build_lagging_site(tmp_path, edited)
    assert proc.returncode == 0, f"strict build failed with a translation-lag banner:\n{proc.stderr}"
    assert "unrecognized relative link" not in proc.stderr, proc.stderr
    stale = "en" if edited == "zh" else "zh"
    for page in ("a.md", "sub/page.md"):
        html = _html(site, stale, page)
        assert BANNER[stale] in html, f"no banner on the {stale} {page}"
        assert BANNER[edited] not in _html(site, edited, page), f"a banner on the edited {edited} {page}"
        # the banner's link resolves to the newer twin's page in the built site
        box = html.split('class="admonition warning"', 1)[1].split("</div>", 1)[0]
        (href,) = re.findall(r'href="([^"]+)"', box)
        assert not href.startswith(("http:", "https:", "/")), href
        page_dir = site / ("" if stale == "zh" else "en/") / page.removesuffix(".md")
        target = (page_dir / href).resolve()
        newer = (site / ("" if edited == "zh" else "en/") / page.removesuffix(".md")).resolve()
        assert target == newer, f"{stale} {page}: banner link {href} goes to {target}, not {newer}"
        assert (target / "index.html").is_file()
