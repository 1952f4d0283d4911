"""The build's one cache (pytorch_notes.site.cache): one key recipe, the kind, the value's own inputs and
the environment digest (constraints.txt, the package's code, mkdocs.yml, docs/overrides); changing any of
them changes the key, and so the value a build gets; one atomic write; unused entries evicted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pytorch_notes.atomic import write_atomic
from pytorch_notes.site import cache
from pytorch_notes.site.project import Project

ENVIRONMENT = {  # a part of the environment digest -> a file of it, relative to the checkout
    "constraints": "constraints.txt",
    "code": "scripts/pytorch_notes/site/render.py",
    "config": "mkdocs.yml",
    "overrides": "docs/overrides/main.html",
}


@pytest.fixture
def checkout(tmp_path) -> Path:
    for rel in ENVIRONMENT.values():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{rel} as first written\n", encoding="utf-8")
    return tmp_path


def _store(root: Path) -> cache.Store:
    """The store a build of the checkout ``root`` makes (``Store.of``), with ``root``'s package as its code."""
    project = Project.from_config(type("Config", (), {"config_file_path": str(root / "mkdocs.yml"),
                                                        "docs_dir": str(root / "docs")})())
    store = cache.Store(project.cache_dir, cache.Environment.of(project, code=root / "scripts" / "pytorch_notes"))
    store.new_build()
    return store


def _render(root: Path, page: str) -> str:
    """A stand-in for a costly value: it reads the page and every file of the environment."""
    return page + "|" + "|".join((root / rel).read_text(encoding="utf-8") for rel in ENVIRONMENT.values())


def _build(root: Path, page: str) -> tuple[str, str, bool]:
    """The value of ``page`` as a build gets it: from the store when its key is there. Returns (key, value, hit)."""
    store = _store(root)
    key = store.key("markdown", [page])
    found = store.get("markdown", key)
    if found is not None:
        return key, found.decode("utf-8"), True
    value = _render(root, page)
    store.put("markdown", key, value)
    return key, value, False


def test_a_value_is_reused_while_its_inputs_are_the_same(checkout):
    key, value, hit = _build(checkout, "<p>one</p>")
    assert not hit
    assert _build(checkout, "<p>one</p>") == (key, value, True)
    assert cache.Store(checkout).key("markdown", ["<p>one</p>"]) != key  # another environment: another key


def test_its_own_input_changes_the_key_and_the_value(checkout):
    key, value, _ = _build(checkout, "<p>one</p>")
    other_key, other_value, hit = _build(checkout, "<p>two</p>")
    assert other_key != key and not hit and other_value == _render(checkout, "<p>two</p>") != value
    store = _store(checkout)
    assert store.key("search", ["<p>one</p>"]) != key  # the kind is in the key too


@pytest.mark.parametrize("part", ENVIRONMENT)
def test_each_part_of_the_environment_changes_the_key_and_the_value(checkout, part):
    key, value, _ = _build(checkout, "<p>one</p>")
    path = checkout / ENVIRONMENT[part]
    path.write_text(path.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    new_key, new_value, hit = _build(checkout, "<p>one</p>")
    assert new_key != key, f"{part} is not in the key"
    assert not hit and new_value == _render(checkout, "<p>one</p>") != value  # not the stale value


def test_a_new_file_in_a_folder_of_the_environment_changes_the_key(checkout):
    key = _build(checkout, "x")[0]
    (checkout / "docs" / "overrides" / "partials").mkdir()
    (checkout / "docs" / "overrides" / "partials" / "footer.html").write_text("<footer>", encoding="utf-8")
    assert _build(checkout, "x")[0] != key


def test_the_code_is_hashed_once_per_store_the_rest_at_each_build(checkout):
    store = _store(checkout)
    key = store.key("markdown", ["x"])
    (checkout / ENVIRONMENT["code"]).write_text("edited while running\n", encoding="utf-8")
    store.new_build()
    assert store.key("markdown", ["x"]) == key  # the code that runs is the code imported at the start
    (checkout / ENVIRONMENT["config"]).write_text("site_name: other\n", encoding="utf-8")
    store.new_build()
    assert store.key("markdown", ["x"]) != key


def test_the_site_environment_covers_the_checkout_and_this_package():
    project = Project.from_config(type("Config", (), {"config_file_path": "/r/mkdocs.yml", "docs_dir": "/r/docs"})())
    env = cache.Environment.of(project)
    assert env.places == {"constraints": Path("/r/constraints.txt"), "config": Path("/r/mkdocs.yml"),
                          "overrides": Path("/r/docs/overrides")}
    assert set(env.code) == {"code"} and env.code["code"] == cache.files_digest(Path(cache.__file__).parents[1])
    theme = type("Theme", (), {"custom_dir": "/r/theme"})()  # the theme's custom_dir, wherever it is
    config = type("Config", (), {"config_file_path": "/r/mkdocs.yml", "docs_dir": "/r/docs", "theme": theme})()
    assert cache.Environment.of(Project.from_config(config)).places["overrides"] == Path("/r/theme")


def test_write_atomic_leaves_the_whole_file_and_no_temporary_one(tmp_path):
    target = tmp_path / "a" / "b.json"
    write_atomic(target, "first")
    write_atomic(target, b"second", durable=True)
    assert target.read_bytes() == b"second" and os.listdir(target.parent) == ["b.json"]


def test_unused_entries_go_after_ten_minutes(tmp_path):
    store = cache.Store(tmp_path)
    used, old = store.key("markdown", ["used"]), store.key("search", ["old"])
    store.put("markdown", used, "<p>used</p>")
    store.put_json("search", old, [{"old": 1}])
    (tmp_path / "notebooks" / "zh").mkdir(parents=True)
    (tmp_path / "notebooks" / "zh" / "chapter.ipynb").write_text("{}", encoding="utf-8")  # not an entry
    store.new_build()
    assert store.get("markdown", used) == b"<p>used</p>"
    now = store.path("search", old).stat().st_mtime
    assert store.evict(now=now + 60) == 0  # another configuration's entry, a minute old: kept
    assert store.evict(now=now + cache.KEEP_S + 1) == 1
    assert store.get_json("search", old) is None and store.get("markdown", used) is not None
    assert (tmp_path / "notebooks" / "zh" / "chapter.ipynb").exists()
