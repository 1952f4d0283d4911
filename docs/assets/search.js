/* Search as a learner types it, on Material's own search box (docs/overrides/main.html loads the search modules
 * before Material's bundle: search-index.js, search-chinese.js, search-forms.js, search-query.js, then this file).
 *
 * 1. Chinese queries are segmented with the index's own words (search/vocabulary.js, written by the build:
 *    scripts/pytorch_notes/site/searchwords.py): the most probable split under the words' counts, Latin
 *    terms split from Chinese ones ("CUDA张量" -> "CUDA 张量"), question words dropped, and U+2060
 *    between the characters of each word as in the index, so that Material's own segmenter (which
 *    cuts a word short when its first character is a word too) leaves it whole.
 *    Words that name no topic (question words, "equivalent", 对应, the library's name beside an API name)
 *    are left out; a word of one or two letters is searched as itself, not as a prefix.
 * 2. Pasted text (no key event) is searched at once: Material reads the box on keyup. Quotes inside a pasted
 *    message are its text, not Material's "all of these words" (pastedQuotes).
 * 3. On a page opened from a result (?h=...), the searched words are highlighted here, Chinese ones
 *    included (Material's highlighter needs a word boundary before a term, which Chinese text has not:
 *    squidfunk/mkdocs-material#3990), and the parameter is removed before Material reads it.
 *
 * The box keeps showing what was typed: only the value Material reads is rewritten.
 */
(function () {
  "use strict";
  var S = window.__pnSearch, WORD_END = S.WORD_END, loadVocabulary = S.loadVocabulary;

  var box = document.querySelector('[data-md-component="search-query"]');
  var native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value");
  function research() { if (box && native.get.call(box)) box.dispatchEvent(new KeyboardEvent("keyup", {bubbles: true})); }
  if (box && native) {
    Object.defineProperty(box, "value", {
      configurable: true,
      get: function () { return window.__pnSearchQuery(native.get.call(this)); },
      set: function (v) { native.set.call(this, v); }
    });
    /* the words arrive while the reader opens the box; a query typed before that is searched again */
    box.addEventListener("focus", function () { loadVocabulary(research); });
    document.addEventListener("keydown", function () { loadVocabulary(research); }, {once: true});
    /* 2. a paste, a drop or an input method's commit: Material listens for keyup only */
    box.addEventListener("input", function (ev) {
      if (!ev.isComposing) research();
    });
  }

  /* ---- 4. the "missing" line of a result names no word the result highlights ------------------------
     Material lists a query term a result lacks ("Missing: 消失"). The query 梯度消失 is searched as the word
     and as its parts (chineseTerms): a section indexed with the word 梯度消失 lacks the part 消失 while its
     title and text highlight 梯度消失. A missing term that a highlighted word contains is dropped, and the
     line with it when none is left. Material builds the line as <p class="md-search-result__terms">, a
     <del> per term (its search result template). */
  function pruneMissing(article) {
    var line = article.querySelector(".md-search-result__terms");
    if (!line) return;
    var plain = function (t) { return t.split(WORD_END).join("").replace(/[*~^]\d*$/, "").toLowerCase(); };
    var marked = Array.prototype.map.call(article.querySelectorAll("mark"), function (m) { return plain(m.textContent); });
    Array.prototype.forEach.call(line.querySelectorAll("del"), function (del) {
      var word = plain(del.textContent);
      if (word && marked.some(function (m) { return m.indexOf(word) >= 0; })) del.remove();
    });
    if (!line.querySelector("del")) line.remove();
  }
  var results = document.querySelector(".md-search-result__list");
  if (results && window.MutationObserver) {
    new MutationObserver(function () {
      Array.prototype.forEach.call(results.querySelectorAll("article.md-search-result__article"), pruneMissing);
    }).observe(results, {childList: true, subtree: true});
  }

  /* ---- 3. highlight on the page opened from a result ------------------------------------------ */
  var url = new URL(location.href), wanted = url.searchParams.get("h");
  if (wanted === null) return;
  url.searchParams.delete("h");
  history.replaceState(history.state, "", url.href);
  var terms = wanted.split(/\s+/).map(function (t) { return t.split(WORD_END).join("").replace(/\*$|\^\d+$/, ""); })
    .filter(function (t) { return t.length > (/[\u3400-\u9fff]/.test(t) ? 0 : 1); });
  if (!terms.length) return;
  var escape = function (t) { return t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); };
  /* a Chinese word anywhere; a Latin term at the start of a word, as Material matches it (prefix) */
  var pattern = new RegExp(terms.map(function (t) {
    return /^[\u3400-\u9fff]/.test(t) ? escape(t) : "\\b" + escape(t);
  }).join("|"), "gi");
  document.addEventListener("DOMContentLoaded", function () {
    var article = document.querySelector(".md-content article") || document.querySelector(".md-content");
    if (!article) return;
    var walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT), nodes = [];
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var parent = node.parentElement;
      if (parent && !parent.closest("script, style, mark, .md-search") && node.nodeValue.trim()) nodes.push(node);
    }
    nodes.forEach(function (text) {
      var value = text.nodeValue, last = 0, frag = document.createDocumentFragment(), m;
      pattern.lastIndex = 0;
      while ((m = pattern.exec(value)) !== null) {
        if (!m[0]) { pattern.lastIndex++; continue; }
        frag.appendChild(document.createTextNode(value.slice(last, m.index)));
        var mark = document.createElement("mark");
        mark.setAttribute("data-md-highlight", "");
        mark.textContent = m[0];
        frag.appendChild(mark);
        last = m.index + m[0].length;
      }
      if (last === 0) return;
      frag.appendChild(document.createTextNode(value.slice(last)));
      text.parentNode.replaceChild(frag, text);
    });
  });
})();
