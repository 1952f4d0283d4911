"""Faults in pages as the build meets them: the translation-lag banner, broken internal links, a forged
record. Each is set up in a throw-away tree. What parse finds in the pages themselves (a missing twin,
twins that embed different examples, an orphan example, translation lag): parse/test_pages.py."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from conftest import bytecode_env
from pytorch_notes import twins
from pytorch_notes.site.lag import twin_lag_banner as _twin_lag_banner

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = Path(sys.executable).with_name("mkdocs")


# --- translation lag: the banner --------------------------------------------------------------

def test_stale_twin_gets_a_banner_linking_the_newer_version(docs):
    zh = docs("zh/a.md", "# 张量\n")
    docs("en/a.md", "# Tensors\n")
    twins.sync(["a.md"], docs.root)
    zh.write_text("# 张量\n\n新增内容。\n", encoding="utf-8")

    en_page = SimpleNamespace(file=SimpleNamespace(src_uri="en/a.md", url="en/a/"))
    zh_page = SimpleNamespace(file=SimpleNamespace(src_uri="zh/a.md", url="a/"))
    banner = _twin_lag_banner(en_page, "en", docs.root)
    assert banner.startswith('!!! warning "This translation may be out of date"')
    assert '<a href="../../a/">Chinese version</a>' in banner  # raw HTML: --strict checks no Markdown link
    assert _twin_lag_banner(zh_page, "zh", docs.root) == ""


# --- broken internal links fail the build ---------------------------------------------------

def _tiny_site(tmp_path: Path, zh_body: str) -> subprocess.CompletedProcess:
    """Build a two-page bilingual site with the real mkdocs.yml's i18n and link validation."""
    real = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    validation = yaml.safe_load(real.split("\nvalidation:", 1)[1].split("\ntheme:", 1)[0].join(["validation:", ""]))
    config = {"site_name": "t", "docs_dir": "docs", **validation,
              "plugins": [{"i18n": {"docs_structure": "folder", "languages": [
                  {"locale": "zh", "name": "中文", "default": True, "build": True},
                  {"locale": "en", "name": "English", "build": True}]}}]}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    for lang, body in (("zh", zh_body), ("en", "# Home\n\n[Other](other.md)\n")):
        d = tmp_path / "docs" / lang
        d.mkdir(parents=True, exist_ok=True)
        (d / "index.md").write_text(body, encoding="utf-8")
        (d / "other.md").write_text("# Other\n\n## Section\n", encoding="utf-8")
    return subprocess.run([str(MKDOCS), "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1", **bytecode_env()})


def test_valid_internal_links_build(tmp_path):
    proc = _tiny_site(tmp_path, "# 首页\n\n[其他](other.md#section)\n")
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("link, message", [
    ("missing.md", "'missing.md', but the target 'zh/missing.md' is not found"),
    ("other.md#no-such-section", "'other.md#no-such-section', but the doc 'zh/other.md' does not contain an anchor"),
])
def test_broken_internal_link_fails_the_build_naming_the_page(tmp_path, link, message):
    proc = _tiny_site(tmp_path, f"# 首页\n\n[坏链接]({link})\n")
    assert proc.returncode != 0
    assert "zh/index.md" in proc.stderr and message in proc.stderr, proc.stderr


# --- a forged record in a real build ---------------------------------------------------------

HOSTILE_DEVICE = '<img src=x onerror=alert(1)> [x](javascript:alert(1)) **b** `c` "q" :smile: \x1b]0;pwned\x07\u202e'


def test_a_forged_cuda_record_s_device_name_is_text_in_a_real_build(tmp_path):
    """A pull request may change only ``examples/_outputs/``: a ``cuda.json`` whose device name is markup.
    ``mkdocs build --strict`` of a copy of the project (its configuration, plugin, hooks and theme) with one
    page per language embedding one example: the name is text in the tab label, the provenance line and
    the notebook page, and no element of it (image, link, emphasis, code, emoji) is on any page."""
    shutil.copytree(ROOT / "scripts", tmp_path / "scripts",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for folder in ("assets", "overrides"):
        shutil.copytree(ROOT / "docs" / folder, tmp_path / "docs" / folder)
    real = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(real.split("\nnav:\n", 1)[0] + "\nnav:\n  - index.md\n  - ch.md\n",
                                         encoding="utf-8")
    for lang, title in (("zh", "首页"), ("en", "Home")):
        (tmp_path / "docs" / lang).mkdir()
        (tmp_path / "docs" / lang / "index.md").write_text(f"# {title}\n\n[Ch](ch.md)\n", encoding="utf-8")
        (tmp_path / "docs" / lang / "ch.md").write_text("# Ch\n\n::: example ch/ex.py\n", encoding="utf-8")
    examples = tmp_path / "examples"
    (examples / "ch").mkdir(parents=True)
    (examples / "ch" / "ex.py").write_text('# %%\nprint("hi")\n', encoding="utf-8")
    from pytorch_notes.parse import parse_example
    from test_store import fake_record, put
    ex = parse_example(examples / "ch" / "ex.py", examples)
    put(examples, fake_record(ex, "cpu", "on the cpu\n"), "cpu")
    gpu = fake_record(ex, "cuda", "on the gpu\n")
    gpu["provenance"]["device"] = HOSTILE_DEVICE
    put(examples, gpu, "cuda")

    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(tmp_path / "scripts")}
    proc = subprocess.run([str(MKDOCS), "build", "--strict", "--site-dir", str(tmp_path / "site")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    shown = "<img src=x onerror=alert(1)> [x](javascript:alert(1)) **b** `c` 'q' :smile:"
    for lang in ("", "en/"):
        page = (tmp_path / "site" / lang / "ch" / "index.html").read_text(encoding="utf-8")
        labels = re.findall(r'<label for="[^"]*">(.*?)</label>', page, re.S)
        # the OSC sequence removed, the bidi override shown as a mark (characters.py)
        assert [html.unescape(label) for label in labels] == [f"{shown} ⟨U+202E⟩ · CUDA 13.0", "CPU"], labels
        assert "<" not in labels[0]
        notebook = (tmp_path / "site" / lang / "notebooks" / "ch" / "index.html").read_text(encoding="utf-8")
        assert shown in html.unescape(re.sub(r"<[^>]+>", "", notebook)), "the notebook's header names the device"
        for where in (page, notebook):
            for bad in ("<img", 'href="javascript', "<strong>b</strong>", "<code>c</code>", "twemoji", "pwned",
                        "\u202e", "\x1b"):
                assert bad not in where, bad
