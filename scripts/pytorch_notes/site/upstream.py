"""Every access of the site's code to another package's private names, undocumented attributes or patched
methods, in one place.

Each access is one function below, registered with ``@access``: the package(s), and the upstream issue or
change that would remove it. ``check_versions`` (``on_config`` of the plugin, once per build) compares
the installed versions of those packages with the range each access was tested with (``TESTED``) and
stops the build with one message (package, version, tested range, what to re-check) instead of letting an
upgrade silently change the site or its ``--strict`` link checking. ``tests/site/test_upstream.py`` fails
on a private name of another package used anywhere else under ``scripts/``, on an undocumented attribute
it lists (``UNDOCUMENTED``: mkdocs-static-i18n's ``building``, ``current_language``, ``locale``,
``alternates``, its menu attribute ``alternate``; MkDocs' ``server.observer``, watchdog's ``event_queue``,
...) used elsewhere, and on more than ``LIMIT`` accesses.

Reviewed and not counted, being public or documented (issue 43 listed them):

* mkdocs-static-i18n: the language being built is the theme's ``language``, which it sets per language
  (documented: "Setting up Material"), not its ``current_language``; the builds it runs inside the first
  one are counted by the plugin itself (``builds_open``), not read from its ``building``; the notebook pages
  it does not know get its documented page context variables from ``i18n.notebook_page_context``, not
  through its ``locale``/``alternates`` attributes; their language menu is their own ``page.meta``, shown by
  the theme override ``partials/alternate.html`` (it used to be set as mkdocs-static-i18n's undocumented
  attribute of ``config.extra``: ultrabug/mkdocs-static-i18n#297).
* mkdocs-jupyter's eviction of the cache entries a build did not render: its documented ``cache`` option
  is off while its ``on_post_build`` runs, and the plugin evicts with every language counted
  (``notebook_view.RenderCache``), instead of marking entries in its private ``_used_cache_paths``.
* ``os.utime(html, (0, 0))`` (``incremental``, ``times``): MkDocs documents that a dirty build compares
  the modification times of the source and the HTML (release notes 0.16, "Support for dirty builds").
* ``page.content`` set aside around Material's search handler (``search``): MkDocs' documented page
  attribute and event priorities; Material's handler only rewrites it.
* ``deferimports``: stand-ins in ``sys.modules`` (Python's import system); a module used early loads.
* mkdocs-jupyter's public functions ``convert.nb2html`` and ``plugin.get_nb_toc`` (``prewarm``).
* Material's lunr.zh stop words, read from the script it ships (``searchwords.lunr_stop_words``, which
  fails with a clear message if the file or its list moves).

After re-checking an access against a new version (its test files: ``test_mdcache.py``,
``test_buildcache.py``, ``test_search_*.py``, ``test_prewarm.py``, ``test_notebook_view.py``,
``test_servewatch.py``, and a strict build compared with the last one), widen its package's range in
``TESTED``.
"""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Callable
from pathlib import Path

LIMIT = 6  # issue 43: at most 6 accesses, patches included

# package -> (lowest tested version, first version not tested): the versions of constraints.txt; only the
# packages an access below touches
TESTED: dict[str, tuple[str, str]] = {
    "mkdocs": ("1.6.1", "1.7"),
    "mkdocs-material": ("9.8.1", "9.9"),
    "mkdocs-jupyter": ("0.26.3", "0.27"),
    "watchdog": ("7.1.0", "7.2"),
}

ACCESSES: dict[str, tuple[tuple[str, ...], str]] = {}  # function name -> (packages, upstream reference)


def access(package: str | tuple[str, ...], upstream: str):
    """Register the decorated function as one access to ``package`` (a key of ``TESTED``, or several);
    ``upstream``: the issue or change that would remove it."""
    packages = (package,) if isinstance(package, str) else tuple(package)
    for name in packages:
        if name not in TESTED:
            raise ValueError(f"{name!r} has no tested range in upstream.TESTED")

    def register(func: Callable) -> Callable:
        ACCESSES[func.__name__] = (packages, upstream)
        return func

    return register


def version_problem(package: str, version: str) -> str | None:
    """The message stopping the build when ``version`` of ``package`` is outside its tested range, else None."""
    from packaging.version import Version  # noqa: PLC0415 - a dependency of MkDocs

    low, high = TESTED[package]
    if Version(low) <= Version(version) < Version(high):
        return None
    uses = ", ".join(name for name, (packages, _) in ACCESSES.items() if package in packages)
    return (f"{package} {version} is outside the range the site's code was tested with (>={low},<{high}): "
            f"re-check {uses} in scripts/pytorch_notes/site/upstream.py (and their tests), then widen "
            f"upstream.TESTED; or install the version of constraints.txt")


def check_versions(versions: dict[str, str] | None = None) -> None:
    """Stop the build (``mkdocs.exceptions.PluginError``) if an installed package is outside its tested range;
    ``versions``: package -> version (default: the installed ones, ``importlib.metadata``)."""
    from mkdocs.exceptions import PluginError  # noqa: PLC0415

    for package in TESTED:
        version = (versions or {}).get(package) if versions is not None else _installed(package)
        if version is None:
            continue  # not installed: none of its accesses runs
        problem = version_problem(package, version)
        if problem is not None:
            raise PluginError(problem)


def _installed(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


# --- MkDocs


@access("mkdocs", "no upstream issue found; would need an event between on_page_markdown and the Markdown "
                  "conversion (related: mkdocs/mkdocs#2384, #3695); report text in CONTRIBUTING, 'Patches'")
def patch_page_render(make_wrapper) -> None:
    """Patch: ``Page.render`` becomes ``make_wrapper(render, extras)`` (``mdcache.install``); ``render`` is
    MkDocs' own, and ``extras(page, restore=None)`` reads or sets what it leaves in undocumented attributes
    (the title found in the HTML, ``_title_from_render``; the anchors of the page, ``present_anchor_ids``;
    and ``links_to_anchors``, which MkDocs sets only when its page logger is not at DEBUG): a replaced render
    has to set them too, so they belong here. ``extras(page)`` returns ``{"title", "anchors", "links"}``;
    ``extras(page, restore)`` sets them as MkDocs would."""
    import logging  # noqa: PLC0415

    from mkdocs.structure.pages import Page  # noqa: PLC0415

    def extras(page, restore: dict | None = None) -> dict:
        if restore is None:
            return {"title": page._title_from_render, "anchors": set(page.present_anchor_ids or ()),
                    "links": getattr(page, "links_to_anchors", None) or {}}
        page._title_from_render = restore["title"]
        page.present_anchor_ids = set(restore["anchors"])
        if logging.getLogger("mkdocs.structure.pages").getEffectiveLevel() > logging.DEBUG:
            page.links_to_anchors = restore["links"]
        return restore

    render = getattr(Page.render, "__wrapped__", Page.render)  # MkDocs' own
    Page.render = make_wrapper(render, extras)


_THEME_FILES = "Files.add_files_from_theme.<locals>.filter"  # MkDocs' filter of a theme's static files


@access("mkdocs", "no upstream issue found; would need MkDocs to keep a theme's listing of static files for "
                  "the process (mkdocs/mkdocs#3695 is serve's speed in general); report in CONTRIBUTING")
def patch_theme_listing(listing) -> None:
    """Patch: ``Theme.get_env`` is wrapped so that its environment's ``list_templates``, called with MkDocs'
    filter of a theme's static files (recognised by its ``__qualname__``), answers ``listing(theme, env,
    filter_func)``; any other call goes to Jinja's own. Installed once per process."""
    from jinja2 import Environment  # noqa: PLC0415
    from mkdocs.theme import Theme  # noqa: PLC0415

    get_env = Theme.get_env
    if getattr(get_env, "_pytorch_notes_listing", False):
        return

    @functools.wraps(get_env)
    def get_theme_env(self):
        env = get_env(self)

        def list_templates(extensions=None, filter_func=None):
            if extensions is not None or getattr(filter_func, "__qualname__", None) != _THEME_FILES:
                return Environment.list_templates(env, extensions, filter_func)
            return listing(self, env, filter_func)

        env.list_templates = list_templates  # on the environment this patch returns: part of the patch
        return env

    get_theme_env._pytorch_notes_listing = True  # type: ignore[attr-defined]
    Theme.get_env = get_theme_env


# --- Material for MkDocs


@access("mkdocs-material", "no upstream issue found; would need a public way to reuse a page's search entries "
                           "(a replaceable entry provider or a cache_dir option); report in CONTRIBUTING")
def patch_search_entries(make_wrapper) -> None:
    """Patch: Material's ``SearchIndex.add_entry_from_context`` becomes ``make_wrapper(add_entry, entries)``
    (``buildcache.install``); ``add_entry`` is Material's own (also where a wrapper was installed before), and
    ``entries(index)`` the list in which its index keeps the pages' entries (``SearchIndex.entries``,
    undocumented): the wrapper adds a page's cached entries there, as Material's method would."""
    from material.plugins.search.plugin import SearchIndex  # noqa: PLC0415

    method = SearchIndex.add_entry_from_context
    SearchIndex.add_entry_from_context = make_wrapper(getattr(method, "__wrapped__", method),
                                                      lambda index: index.entries)


# --- lunr 2.3.9, bundled in Material's search worker, and lunr-languages' support script, which Material ships

LUNR_SUPPORT_SCRIPT = Path("assets/javascripts/lunr/min/lunr.stemmer.support.min.js")  # in the built site
LUNR_MARKER = "/* pytorch-notes: lunr TokenSet keys */"
LUNR_TOKEN_SET_KEY = LUNR_MARKER + """
(function () {
  var lunr = self.lunr;
  if (!lunr || !lunr.TokenSet) return;
  lunr.TokenSet.prototype.toString = function () {
    if (this._str) return this._str;
    var key = this.final ? "1" : "0", labels = Object.keys(this.edges).sort();
    for (var i = 0; i < labels.length; i++) key += labels[i] + this.edges[labels[i]].id + ",";
    return key;
  };
})();
"""


@access("mkdocs-material", "olivernn/lunr.js#503 (open; lunr has had no release since 2.3.9): a TokenSet key that "
                           "cannot be equal for two different nodes; or Material bundling a lunr with that fix")
def fix_lunr_token_set_keys(site_dir: str | Path) -> None:
    """Patch (in the browser): lunr 2.3.9, which Material's search worker bundles, threw inside the worker on
    some queries, and Material showed no result at all.

    lunr keeps the index's words in a ``TokenSet``, a minimised automaton, and merges two nodes when their keys
    (``TokenSet.prototype.toString``) are equal. The key joins each edge's label to its child's id with nothing
    between them, so on an index holding digits two different nodes can share one: edges ``1`` -> node 234
    give ``01234``, and so do edges ``1`` -> node 2 and ``3`` -> node 4. The merged automaton then accepts
    words the index does not hold, and a query matching one reads a missing entry of the inverted index
    (``TypeError: Cannot read properties of undefined (reading '_index')`` in ``Index.query``). On the Chinese
    index of 2026-11-29 ``s`` was such a word; before, on the English index, ``32``. Which words they are
    depends on every word of the index, so no query rewriting avoids them.

    This appends ``LUNR_TOKEN_SET_KEY`` (a key with a comma after each child's id: equal only for equal nodes)
    to ``LUNR_SUPPORT_SCRIPT`` in the built site ``site_dir``, which the worker imports before it builds the
    index (also under ``make offline``'s iframe worker); once: a script that has it is left as it is, so
    ``make serve``'s rebuilds may call it each time. ``tests/browser/test_search_query.py`` builds an index in
    Material's worker whose automaton merged two nodes.

    Raises:
        RuntimeError: the script is not where Material 9 puts it (its search would run unfixed).
    """
    path = Path(site_dir) / LUNR_SUPPORT_SCRIPT
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RuntimeError(f"search: cannot read Material's {LUNR_SUPPORT_SCRIPT} to fix lunr's TokenSet keys: "
                           f"{exc}") from None
    if LUNR_MARKER not in text:
        path.write_text(text.rstrip("\n") + "\n" + LUNR_TOKEN_SET_KEY, encoding="utf-8")


# --- mkdocs-jupyter: its render cache (danielfrg/mkdocs-jupyter#161 asked for the cache it now has; no
# issue asks for a public way to fill it or to keep entries across builds of several languages)


@access("mkdocs-jupyter", "no upstream issue found; would need a public function giving a notebook's cache "
                          "entry path, so that a build can fill the cache ahead (or skip a notebook it has)")
def jupyter_cache_path(config, path):
    """The path of the notebook ``path``'s entry in mkdocs-jupyter's render cache for its plugin config
    ``config``, not executed (its ``_compute_cache_key`` and ``_get_cache_path``: one access, where an
    entry lives)."""
    from mkdocs_jupyter import plugin  # noqa: PLC0415

    return plugin._get_cache_path(config["cache_dir"], plugin._compute_cache_key(str(path), config, False))


# --- MkDocs' live-reload server and watchdog


@access(("mkdocs", "watchdog"),
        "mkdocs/mkdocs#2477 made the server poll (0.5 s, LiveReloadServer's polling_interval, which mkdocs serve "
        "does not expose); a native observer was proposed to ProperDocs (ProperDocs/properdocs#73, closed); "
        "would need a public way to request a rebuild, or the interval as an option")
def live_reload_trigger(server, path: str) -> Callable[[], None]:
    """A function that makes MkDocs' live-reload ``server`` rebuild at once, as a change of ``path`` (a file
    it watches: ``server.watch(path)`` or the configuration file) would once its poll saw it: a modification
    event of ``path`` put on the queue of its watchdog observer (MkDocs' undocumented ``server.observer``;
    watchdog's ``event_queue``), for the watch that ``LiveReloadServer.watch`` scheduled (an
    ``ObservedWatch`` of ``path``, found by equality)."""
    from watchdog.events import FileModifiedEvent  # noqa: PLC0415 - only under make serve
    from watchdog.observers.api import ObservedWatch  # noqa: PLC0415

    queue, watch = server.observer.event_queue, ObservedWatch(path, recursive=True)
    return lambda: queue.put((FileModifiedEvent(path), watch))
