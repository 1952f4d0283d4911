/* Search, 0: what the other search modules share (docs/overrides/main.html loads search-index.js first, then
 * search-chinese.js, search-forms.js, search-query.js and search.js, before Material's bundle): the words that
 * name no topic, lunr's stop words, the stemmer, and the index's own words (loadVocabulary). Each module is a
 * function of window.__pnSearch, which holds what the earlier ones export. */
(function () {
  "use strict";
  var WORD_END = "\u2060";
  var EN_STOP = new Set(("a an and are as at be but by can for from has have if in into is it its no not of on " +
    "or so such that the their then there these they this to was were will with all " +
    /* and the words of an English question ("what does backward do" asks about backward; "how do I make training
       deterministic" about determinism: mak* put the chapters with "make" in a title first) */
    "what does do did make how why when where which who i my me you your we our should would could vs versus")
    .split(" "));
  /* Words of a question, not of its topic: "如何把张量放到GPU上" asks about 张量, 放到 and GPU */
  var ZH_QUESTION = new Set(("如何 怎么 怎么办 怎样 怎么样 什么 为什么 是否 请问 一下 哪些 哪个 哪里 能不能 " +
    "可以 有没有 意思 啥 咋 咋办 吗 呢 啊 吧 区别 作用 用法 干什么 干啥 有何 还是 到底 是不是").split(" "));
  /* Words that name no topic ("is_causal参数" asks about is_causal, "pytorch equivalent of np.arange" about
     np.arange; every page is about PyTorch): left out when the query has others */
  var WEAK = new Set(("参数 函数 方法 问题 例子 代码 教程 使用 报错 解释 含义 原理 实现 对应 相当于 等价 写法 里 写 " +
    "equivalent equivalents alternative way ways example examples use using get difference work works").split(" "));
  /* ...and the library's own name beside an API name (np.arange, tf.function): the API is the
     topic. Alone or beside plain words ("pytorch和tensorflow区别", "为什么要学pytorch") it is the topic. */
  /* ...and so is another library's name beside one of its APIs ("keras MultiHeadAttention", "sklearn
     train_test_split", "tf.keras.layers.Dense pytorch equivalent"): the pages that mention Keras most
     (nn-module/) came before the one on the API. kera: keras as stemmed. */
  var LIBRARY = new Set(["pytorch", "torch", "keras", "kera", "tensorflow", "tf", "jax", "sklearn"]);
  var API_NAME = /[._]\w|[a-z][A-Z]/;  /* np.arange, train_test_split, MultiHeadAttention */
  var config = JSON.parse(document.getElementById("__config").textContent);
  var root = new URL(config.base.replace(/\/?$/, "/"), location.href);
  /* lunr's English stop words (lunr 2.3.9, lunr.stopWordFilter, which Material's worker applies to the English
     index): the index has none of them */
  var LUNR_EN_STOP = new Set(("a able about across after all almost also am among an and any are as at be because " +
    "been but by can cannot could dear did do does either else ever every for from get got had has have he her hers " +
    "him his how however i if in into is it its just least let like likely may me might most must my neither no nor " +
    "not of off often on only or other our own rather said say says she should since so some than that the their " +
    "them then there these they this tis to too twas us wants was we were what when where which while who whom why " +
    "will with would yet you your").split(" "));

  /* The index's words (search/vocabulary.js, written by the build: site/searchwords.py), fetched when the reader
     first opens or types into the box. The modules read them from index, whose fields are set here. */
  var index = {vocabulary: null, latin: {}, latinWords: [], stopWords: new Set(), total: 1, maxWord: 1};
  var loading = false;
  function loadVocabulary(then) {
    if (index.vocabulary || loading) return;
    loading = true;
    var script = document.createElement("script");
    script.src = new URL("search/vocabulary.js", root).href;
    script.onload = function () {
      index.vocabulary = window.__pnVocabulary || {};
      index.latin = window.__pnLatin || {};
      index.latinWords = Object.keys(index.latin).sort();
      index.stopWords = new Set(window.__pnStopWords || []);
      index.maxWord = window.__pnMaxWord || 1;  /* the longest word the vocabulary holds (searchwords.MAX_WORD) */
      var total = 0;
      for (var w in index.vocabulary) total += index.vocabulary[w];
      index.total = Math.max(total, 1);
      if (then) then();
    };
    document.head.appendChild(script);
  }

  /* English words are indexed as written (no stemmer: Material makes each query term a prefix, "glossary*",
     which does not match a stemmed "glossari"). A query word is cut back to its stem instead, and the prefix
     finds the forms the pages use: "events" -> event* (Event, events), "initialization" -> initiali*
     (initialisation, initialize), "batches" -> batch*, "trained" -> train*. Words of letters only; a stem
     keeps at least 4 letters ("uses", "loss" and API names such as cuda stay as typed). */
  var SUFFIXES = [[/(?:[iy]z|is)(?:ations?|ing|e[sd]?)$/, "i"], [/([a-z]{5})ations?$/, "$1"],
    /* "reproducible" -> reproducib* (reproducibility), "available" -> availab* (availability) */
    [/([a-z]{3}[ai]b)le$/, "$1"], [/ies$/, ""],
    [/(ss|[sxz]|ch|sh)es$/, "$1"], [/([^su])s$/, "$1"], [/ing$/, ""], [/ed$/, ""],
    /* "concatenate" -> concatenat* (concatenation), "reshape" -> reshap* (reshaped, reshaping) */
    [/([a-z]{4})e$/, "$1"]];
  function stem(word) {
    if (!/^[A-Za-z]{5,}$/.test(word)) return word;
    var lower = word.toLowerCase();
    for (var i = 0; i < SUFFIXES.length; i++) {
      if (!SUFFIXES[i][0].test(lower)) continue;
      var cut = lower.replace(SUFFIXES[i][0], SUFFIXES[i][1]);
      return cut.length >= 4 ? cut : word;
    }
    return word;
  }
  /* A word that names no topic, as typed or as stemmed: this step comes after the stemmer, and "ctx.save_for_backward
     example" kept exampl*, which put about/ ("which GPU and which CPU the examples run on", a title) before
     custom-function/ */
  var weakStems = null;
  function weak(word) {
    if (!weakStems) weakStems = new Set(Array.from(WEAK).map(stem));
    return WEAK.has(word) || weakStems.has(word);
  }
  /* The position of the first word of the index not before w (a binary search of the sorted index.latinWords) */
  function firstFrom(w) {
    var words = index.latinWords, lo = 0, hi = words.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (words[mid] < w) lo = mid + 1; else hi = mid; }
    return lo;
  }
  /* Whether a word of the index starts with w */
  function startsAWord(w) {
    var words = index.latinWords, i = firstFrom(w);
    return i < words.length && words[i].lastIndexOf(w, 0) === 0;
  }
  /* The words of the index that start with prefix */
  function wordsStarting(prefix) {
    var words = index.latinWords, out = [];
    for (var i = firstFrom(prefix); i < words.length && words[i].lastIndexOf(prefix, 0) === 0; i++) out.push(words[i]);
    return out;
  }

  window.__pnSearch = {
    index: index, loadVocabulary: loadVocabulary, WORD_END: WORD_END, EN_STOP: EN_STOP, ZH_QUESTION: ZH_QUESTION,
    LIBRARY: LIBRARY, API_NAME: API_NAME, LUNR_EN_STOP: LUNR_EN_STOP,
    stem: stem, weak: weak, startsAWord: startsAWord, wordsStarting: wordsStarting
  };
})();
