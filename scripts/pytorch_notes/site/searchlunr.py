"""A fix for lunr 2.3.9, which Material's search worker bundles: some queries threw inside the worker, and Material
showed no result at all.

lunr keeps the index's words in a ``TokenSet``, a minimised automaton, and merges two nodes when their keys
(``TokenSet.prototype.toString``) are equal. The key joins each edge's label to its child's id with nothing
between them, so on an index holding digits two different nodes can share one: edges ``1`` -> node 234 give
``01234``, and so do edges ``1`` -> node 2 and ``3`` -> node 4. The merged automaton then accepts words the index
does not hold, and a query matching one reads its entry in the inverted index, which is missing: ``TypeError:
Cannot read properties of undefined (reading '_index')`` in ``Index.query``, "Invalid query" in the console, and
nothing shown. On the Chinese index of 2026-11-29 ``s`` (the ``s^1`` that search.js makes of "Missing key(s) in
state_dict") was such a word; before, on the English index, ``32`` (search.js's ``withoutLoneDigits`` dropped
numbers for it). Which words they are depends on every word of the index, so no query rewriting avoids them.
Upstream: olivernn/lunr.js#503 (open; lunr has had no release since 2.3.9).

The build appends ``TOKEN_SET_KEY`` to the site's copy of lunr-languages' ``lunr.stemmer.support.min.js``, which
the worker imports (with the Chinese and multi-language support) before it builds the index: the key puts a comma
after each child's id, so that keys are equal only for equal nodes. The same script runs under ``make offline``'s
iframe worker. ``tests/browser/test_search_query.py`` builds an index in Material's worker whose automaton merged
two nodes.
"""

from __future__ import annotations

from pathlib import Path

SUPPORT_SCRIPT = Path("assets/javascripts/lunr/min/lunr.stemmer.support.min.js")  # in the built site
MARKER = "/* pytorch-notes: lunr TokenSet keys */"
TOKEN_SET_KEY = MARKER + """
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


def fix_token_set_keys(site_dir: str | Path) -> None:
    """Append ``TOKEN_SET_KEY`` to ``SUPPORT_SCRIPT`` in the built site ``site_dir`` (once: a script that has it
    is left as it is, so ``make serve``'s rebuilds may call it each time).

    Raises:
        RuntimeError: the script is not where Material 9 puts it (its search would run unfixed).
    """
    path = Path(site_dir) / SUPPORT_SCRIPT
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RuntimeError(f"search: cannot read Material's {SUPPORT_SCRIPT} to fix lunr's TokenSet keys: {exc}") \
            from None
    if MARKER not in text:
        path.write_text(text.rstrip("\n") + "\n" + TOKEN_SET_KEY, encoding="utf-8")
