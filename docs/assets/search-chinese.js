/* Search, 1: a Chinese query segmented with the index's own words (search-index.js loads them). Loaded by
 * docs/overrides/main.html after search-index.js; search-query.js calls segment. */
(function (S) {
  "use strict";
  var index = S.index, WORD_END = S.WORD_END, ZH_QUESTION = S.ZH_QUESTION, LIBRARY = S.LIBRARY, EN_STOP = S.EN_STOP,
      weak = S.weak;
  var HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";

  /* The most probable split of a run of Han characters under the index's word counts (unigram model,
     as jieba splits with its dictionary); a character the index lacks stands alone. */
  function splitRun(run, longest) {
    var n = run.length, best = [0], from = [0], logTotal = Math.log(index.total), most = longest || index.maxWord;
    for (var j = 1; j <= n; j++) best.push(-Infinity), from.push(j - 1);
    for (var i = 0; i < n; i++) {
      if (best[i] === -Infinity) continue;
      for (var k = i + 1; k <= Math.min(n, i + most); k++) {
        var count = index.vocabulary[run.slice(i, k)], score;
        if (count) score = Math.log(count) - logTotal;
        else if (k === i + 1) score = -logTotal - 10;  /* unknown character: alone, and rarely */
        else continue;
        if (best[i] + score > best[k]) { best[k] = best[i] + score; from[k] = i; }
      }
    }
    var words = [];
    for (var end = n; end > 0; end = from[end]) words.unshift(run.slice(from[end], end));
    return words;
  }

  function chineseTerms(run) {
    var words = [];
    splitRun(run).forEach(function (w) {
      words.push(w);
      /* a compound (自动求导) also as its parts (自动 求导): the index holds it one way or the other. Not
         when a part is one character (学习率 -> 学习 率): the index has no such word, and 学习* alone pulled
         in every page about learning */
      if (w.length >= 3 && index.vocabulary[w]) {
        var parts = splitRun(w, w.length - 1);
        if (parts.length > 1 && parts.every(function (p) { return index.vocabulary[p] && p.length > 1; })) {
          words.push.apply(words, parts);
        }
      }
    });
    /* a word typed twice (不同层不同学习率) counts once */
    words = words.filter(function (w, i) { return words.indexOf(w) === i; });
    words = words.filter(function (w) { return !index.stopWords.has(w) && !ZH_QUESTION.has(w); });
    return words
      .map(function (w) {
        /* marked as the index marks its words: U+2060 between the characters */
        return w.split("").join(WORD_END);
      });
  }

  var hanRun = new RegExp("[" + HAN + "]+", "g");
  var spacedHan = new RegExp("([" + HAN + "])\\s+(?=[" + HAN + "])", "g");
  function segment(raw) {
    if (!index.vocabulary || raw.indexOf('"') >= 0 || !hanRun.test(raw)) return raw;
    hanRun.lastIndex = 0;
    /* the words as typed between spaces ("学习率 调度器"), kept when the index has them */
    var typed = (raw.match(hanRun) || []).filter(function (w) { return w.length > 1 && index.vocabulary[w]; });
    raw = raw.replace(spacedHan, "$1");  /* "自动 求导": Chinese has no spaces between words; segment it whole */
    var out = raw.replace(hanRun, function (run) { return " " + chineseTerms(run).join(" ") + " "; })
      .replace(/\s+/g, " ").trim();
    var terms = out.split(" ");
    typed.forEach(function (w) {
      var marked = w.split("").join(WORD_END);
      if (terms.indexOf(marked) < 0 && !index.stopWords.has(w) && !ZH_QUESTION.has(w)) terms.push(marked);
    });
    terms = withoutLoneCharacters(terms);
    out = terms.join(" ");
    return out || raw;
  }
  /* A lone character is the prefix of too many words (Material adds its wildcard: 开* matches 开始, 开销, 公开…).
     Beside a word the reader typed it goes, whatever the script of that word: a colloquial word the index lacks
     fell apart into characters that outranked the query's topic ("怎么在 pytorch 里开启 flashattention" put
     data-loading/, with 开销 and 启动 in a heading, first; "手搓 gpt" quickstart/, titled with 手写数字), and a
     one-character word went with it ("按行求平均值" -> 按行 平均值: 求* matched 求导 everywhere). Kept when
     nothing else is left, or only a word that names no topic. Measured on the built site, recall@3 of the
     Chinese sets: tests/search_queries.json 1664 -> 1665 of 1706 (4 found, 3 lost: one-character verbs such as
     装 and 存 carried the topic), spent sets 20-22 +6, 17A/17B -1 (issue 44). */
  var LONE = new RegExp("^[" + HAN + "]$");
  function withoutLoneCharacters(terms) {
    var topical = terms.some(function (t) {
      var w = t.split(WORD_END).join("").toLowerCase();
      return w && !LONE.test(w) && !LIBRARY.has(w) && !EN_STOP.has(w) && !weak(w) && !/^\d+$/.test(w);
    });
    return topical ? terms.filter(function (t) { return !LONE.test(t); }) : terms;
  }

  S.segment = segment;
})(window.__pnSearch);
