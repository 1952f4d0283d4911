/* Search as a learner types it, on Material's own search box (docs/overrides/main.html loads this file
 * before Material's bundle).
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
  var WORD_END = "\u2060";
  var HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
  var MAX_WORD = 8;
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

  /* ---- 1. segmentation ---------------------------------------------------------------------- */
  var vocabulary = null, latin = {}, latinWords = [], stopWords = new Set(), total = 1, loading = false;
  function loadVocabulary(then) {
    if (vocabulary || loading) return;
    loading = true;
    var script = document.createElement("script");
    script.src = new URL("search/vocabulary.js", root).href;
    script.onload = function () {
      vocabulary = window.__pnVocabulary || {};
      latin = window.__pnLatin || {};
      latinWords = Object.keys(latin).sort();
      stopWords = new Set(window.__pnStopWords || []);
      total = 0;
      for (var w in vocabulary) total += vocabulary[w];
      total = Math.max(total, 1);
      if (then) then();
    };
    document.head.appendChild(script);
  }

  /* The most probable split of a run of Han characters under the index's word counts (unigram model,
     as jieba splits with its dictionary); a character the index lacks stands alone. */
  function splitRun(run, longest) {
    var n = run.length, best = [0], from = [0], logTotal = Math.log(total), most = longest || MAX_WORD;
    for (var j = 1; j <= n; j++) best.push(-Infinity), from.push(j - 1);
    for (var i = 0; i < n; i++) {
      if (best[i] === -Infinity) continue;
      for (var k = i + 1; k <= Math.min(n, i + most); k++) {
        var count = vocabulary[run.slice(i, k)], score;
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
      if (w.length >= 3 && vocabulary[w]) {
        var parts = splitRun(w, w.length - 1);
        if (parts.length > 1 && parts.every(function (p) { return vocabulary[p] && p.length > 1; })) {
          words.push.apply(words, parts);
        }
      }
    });
    /* a word typed twice (不同层不同学习率) counts once */
    words = words.filter(function (w, i) { return words.indexOf(w) === i; });
    words = words.filter(function (w) { return !stopWords.has(w) && !ZH_QUESTION.has(w); });
    return words
      .map(function (w) {
        /* marked as the index marks its words: U+2060 between the characters */
        return w.split("").join(WORD_END);
      });
  }

  var hanRun = new RegExp("[" + HAN + "]+", "g");
  var spacedHan = new RegExp("([" + HAN + "])\\s+(?=[" + HAN + "])", "g");
  function segment(raw) {
    if (!vocabulary || raw.indexOf('"') >= 0 || !hanRun.test(raw)) return raw;
    hanRun.lastIndex = 0;
    /* the words as typed between spaces ("学习率 调度器"), kept when the index has them */
    var typed = (raw.match(hanRun) || []).filter(function (w) { return w.length > 1 && vocabulary[w]; });
    raw = raw.replace(spacedHan, "$1");  /* "自动 求导": Chinese has no spaces between words; segment it whole */
    var out = raw.replace(hanRun, function (run) { return " " + chineseTerms(run).join(" ") + " "; })
      .replace(/\s+/g, " ").trim();
    var terms = out.split(" ");
    typed.forEach(function (w) {
      var marked = w.split("").join(WORD_END);
      if (terms.indexOf(marked) < 0 && !stopWords.has(w) && !ZH_QUESTION.has(w)) terms.push(marked);
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

  /* "the examples", "each example": the site's own, a topic of about/ and times/ ("which gpu were the examples run
     on" was searched as "gpu run") */
  /* ...and so are an example's runtime, outputs or files ("example runtimes per device") */
  var SITE_EXAMPLES = /\b(?:the|each|these|this site's|our)\s+example|\bexamples?\s+(?:run|time|output|captur|record|file|download)/i;
  function withoutWeakTerms(raw, typed) {
    if (raw.indexOf('"') >= 0) return raw;
    var terms = raw.split(" "), api = terms.some(function (t) { return API_NAME.test(t); });
    var ours = SITE_EXAMPLES.test(typed);
    var strong = terms.filter(function (t) {
      var word = t.split(WORD_END).join("").toLowerCase();
      if (ours && /^exampl/.test(word)) return true;
      return !weak(word) && !(api && LIBRARY.has(word));
    });
    return strong.length && strong.length < terms.length ? strong.join(" ") : raw;
  }

  /* A word of one or two letters as a prefix matches hundreds of words ("(N,1) minus (N,)" has N; in
     ".to(device)", to* matched torchrun and TorchScript in headings): it is searched as the word itself
     ("n^1": a boost, which Material leaves without its wildcard). A term holding one ("x.grad",
     "np.arange") is cut into its words here, as Material would cut it, so that the short one can be. The library's
     name is searched as itself too: as a prefix, "pytorch" matched the environment variable
     PYTORCH_ENABLE_MPS_FALLBACK in a heading of devices/ (a title weighs 8 times as much), which came first or
     second for "validation loop pytorch", "pytorch terminology", "jax pmap pytorch equivalent" (issue 44;
     tests/search_queries.json en 1439 -> 1445 found of 1483, zh 1656 -> 1660 of 1706). Only a word the index
     holds whole ("kera", keras as stemmed, stays a prefix). Torch too (leaving it a prefix, for torchinfo,
     torchvision and torchrun, found 3 fewer of those queries; "torchsummary", as "torch^1 summary", still finds
     layers/ first). Alone as well: "What is PyTorch?" and "PyTorch 是什么" put devices/ first, intro/ second. */
  var SHORT = /^[A-Za-z]{1,2}$/;
  function shortWordsExact(raw) {
    if (raw.indexOf('"') >= 0) return raw;
    return raw.split(" ").map(function (t) {
      var lower = t.toLowerCase();
      if (LIBRARY.has(lower) && latin[lower]) return lower + "^1";
      var words = t.split(/[^A-Za-z0-9_\u0080-\uffff]+/).filter(Boolean);
      if (!words.some(function (w) { return SHORT.test(w); })) return t;
      return words.map(function (w) { return SHORT.test(w) ? w.toLowerCase() + "^1" : w; }).join(" ");
    }).join(" ");
  }

  /* The usual names of the variable a method is called on (model.parameters(), tensor.register_hook, x.grad,
     weight.grad, p.grad: "weight.grad is None after backward" put hooks/ first, its sections say weight most).
     Not optimizer, loss or layer: they name chapters ("optimizer.step loss.backward order" asks about both) */
  var RECEIVERS = "model|net|tensor|self|module|input|output|out|x|y|t|ctx|weight|bias|param|p|w|b";
  var RECEIVER = new RegExp("(^|[^\\w.])(?:" + RECEIVERS + ")\\.(?=[A-Za-z_])", "g");
  /* "Expected all tensors to be on the same device": without its stop words, the rare words rank */
  function withoutEnglishStopWords(raw) {
    /* "torch.where条件选择": "torch*" matches every page, titles first (boosted); the other words decide */
    var bare = raw.replace(/\b(?:torch|F)\.(?=[A-Za-z_])/g, "");  /* F.: "F*" matches as widely */
    /* ...and so does the variable a method is called on: "model.parameters()" asks about parameters(), and
       model* matched the pages that use a model most (large-models/, quantization/) before nn-module/ */
    bare = bare.replace(RECEIVER, "$1");
    if (bare.trim() && bare !== raw) raw = bare;
    var words = raw.trim().split(/\s+/);
    if (words.length < 3 || raw.indexOf('"') >= 0) return raw;
    words = words.map(function (w) { return w.replace(/(\w)['\u2019](s|t|re|ve|ll|d|m)$/i, "$1"); });
    var kept = words.filter(function (w) { return !EN_STOP.has(w.toLowerCase()); });
    return kept.length ? kept.join(" ") : raw;
  }

  /* A number can make lunr reject the whole query ("Invalid query": a TypeError in Index.query inside Material's
     worker), and Material then shows nothing: first seen with lone digits ("dimension 1", "dim=1", "element 0"),
     then, on the English index of 2026-11-29, with "32" and "320804" while "16" and "885002" worked (pasted
     shapes, "expected input[8, 64, 32, 32]", found nothing). A number on its own names no topic: leave every one
     out, decimals and thousands included (float32, 3x3 and 1e-3 stay: letters touch them). "cuda:0" would be
     lunr's field syntax (field "cuda"), an invalid query too: the colon becomes a space. */
  function withoutLoneDigits(raw) {
    /* "--nproc_per_node": a leading - is lunr's "must not contain", and -- an invalid query (nothing shown);
       a pasted command-line flag means the word */
    /* ...and "UTF-8" loses its digit: the dash it leaves ("UTF-") made the query invalid too (nothing shown) */
    /* ...and "dim=-1" kept "dim=-": a dash not between two letters or digits goes, wherever it stands */
    var out = raw.replace(/(\w):(?=\w)/g, "$1 ").replace(/(^|[^\w.])\d+(?:[.,]\d+)*(?!\w|\.\w)/g, "$1")
      .replace(/(?<!\w)[-\u2013\u2014]+|[-\u2013\u2014]+(?!\w)/g, " ").replace(/\s+/g, " ").trim();
    return out.trim() ? out : raw;
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
  /* ...not in a pasted message ("Expected all tensors to be on the same device"): its words are the page's */
  var PASTED_WORDS = 7;
  /* ...which a question the reader wrote is not, however long ("why does subtracting a (N,1) tensor from a (N,)
     tensor give a matrix", "how to make pytorch training fully reproducible" kept subtracting and training whole) */
  var QUESTION_START = /^\s*(?:how|why|what|when|where|which|who|is|are|can|does|do|should|my|i)\b/i;
  function pasted(typed) {
    return typed.trim().split(/\s+/).length >= PASTED_WORDS && !QUESTION_START.test(typed);
  }
  function stemmed(raw, typed) {
    if (raw.indexOf('"') >= 0) return raw;
    if (pasted(typed)) return raw.split(" ").map(withIng).join(" ");
    /* a name typed as an attribute or a function ("torch.zeros", "model.modules()") is the API's name, not an
       English word: zeros -> zero* matched zero_grad, and autograd's sections on zeroing gradients came before
       tensors/'s factory functions for "torch.zeros vs torch.empty" */
    var names = new Set();
    typed.replace(/\.([A-Za-z]\w*)/g, function (all, name) { names.add(name.toLowerCase()); return all; });
    /* ...and so is a capitalised word after the first ("keras Dense layer": Keras's layer class Dense, not dens*),
       and a class name anywhere ("BatchNormalization momentum": not batchnormali*) */
    typed.replace(/(^|\s)([A-Z][a-z]+[A-Za-z]*)/g, function (all, before, name) {
      if (before || /[a-z][A-Z]/.test(name)) names.add(name.toLowerCase());
      return all;
    });
    /* a word cut to a stem of four letters ("bytes" -> byte) is not one the reader typed: no -ing form */
    return raw.split(" ").map(function (w) {
      if (names.has(w.toLowerCase())) return w;
      var cut = stem(w);
      return cut === w ? withIng(w) : cut;
    }).join(" ");
  }
  /* A word of four letters ending in e keeps its e (its stem would be the prefix of too many words: mode ->
     mod* matches model and module), so the prefix misses the -ing form the pages use ("move a tensor to the
     gpu" and "moving tensors"). The -ing form is searched instead when no word of the index starts with the
     word itself, and the two as one prefix when that prefix holds nothing else. Not beside it: Material doubles
     the score of a section that matches every term of the query, and a term no section has ("grad is None"
     searched none and noning) took that from every section, so autograd's "Why is .grad None" fell below
     sections of other chapters that only mention grad. */
  function withIng(word) {
    if (!/^[A-Za-z]{3}e$/.test(word) || !latinWords.length) return word;
    var lower = word.toLowerCase(), head = lower.slice(0, 3), ing = head + "ing";
    if (!startsAWord(lower)) return startsAWord(ing) ? ing : word;
    /* both forms as one term, the three letters they share, when every word of the index that starts so is one
       of the two ("move" -> mov*: move, moved, moving; not "none" -> non*: non_blocking) */
    return startsAWord(ing) && wordsStarting(head).every(function (w) {
      return w.lastIndexOf(lower, 0) === 0 || w.lastIndexOf(ing, 0) === 0 || w === head;
    }) ? head : word;
  }
  function wordsStarting(prefix) {
    var lo = 0, hi = latinWords.length, out = [];
    while (lo < hi) { var mid = (lo + hi) >> 1; if (latinWords[mid] < prefix) lo = mid + 1; else hi = mid; }
    for (var i = lo; i < latinWords.length && latinWords[i].lastIndexOf(prefix, 0) === 0; i++) out.push(latinWords[i]);
    return out;
  }

  /* 6. A query term is what the index can hold. Three kinds of query found nothing at all:
     - lunr's query syntax swallowed the term: "CUBLAS_WORKSPACE_CONFIG=:4096:8" was searched as
       "CUBLAS_WORKSPACE_CONFIG=:", a field name and its colon, and Material drops a field that is not one of
       the index's (title, text, tags) with the term in it; "^tensor" and "~tensor" are a boost and an edit
       distance of nothing, "tensor^grad" a boost that is not a number (an invalid query);
     - a character the index trims from its words stayed on the term's end: "what is a tensor?" searched
       "tensor?*", and no word of the index starts so (lunr-languages' multi-language trimmer keeps only \w
       and 一-龥 at each end of a word), nor "GPU?" nor "tensor…";
     - a quoted phrase (Material's "all of these words") required its stop words, which the index leaves out:
       '"what is a tensor"' found nothing.
     Here a colon, ^, ~ and a backslash are spaces (this file adds its own boosts after this step: "n^1"), each
     term is trimmed as the index trims its words, and a stop word inside quotes goes; a leading + (all of
     these words) or *, a trailing * and the quotes are kept around a term. A term left empty goes. */
  var LUNR_SYNTAX = /[:^~\\]/g, QUOTE = /["\u201c\u201d]/g;
  var TRIM = /^[^\w\u4e00-\u9fa5]+|[^\w\u4e00-\u9fa5]+$/g;
  /* An error's or warning's class before its message ("RuntimeError: Input type ... should be the same") names
     no topic: every page that shows an error has one. Material dropped it as a field name; it still goes. */
  var MESSAGE_CLASS = /(^|\s)\w*(?:Error|Warning|Exception):(?=\s+\S)/g;
  function asIndexWords(raw) {
    var quoted = false;
    return raw.replace(MESSAGE_CLASS, "$1").replace(LUNR_SYNTAX, " ").split(/\s+/).map(function (t) {
      var m = /^(["\u201c\u201d]*[+*]?)(.*?)(\*?["\u201c\u201d]*)$/.exec(t);
      var core = m[2].replace(TRIM, ""), word = core.split(WORD_END).join("").toLowerCase();
      var inside = quoted || m[1].search(QUOTE) >= 0;
      quoted = ((m[1] + m[3]).match(QUOTE) || []).length % 2 ? !quoted : quoted;
      if (inside && (LUNR_EN_STOP.has(word) || stopWords.has(word))) core = "";
      return core ? m[1] + core + m[3] : m[1].replace(/[+*]/g, "") + m[3].replace("*", "");
    }).filter(Boolean).join(" ");
  }

  /* 7. A mistyped English word found nothing ("torch.compiel not working", "torch.complie 怎么 用": no results at
     all) or only the query's other words ("brodcasting two tensors different shapes", "dataloder super slow",
     "quantizaton explained simply"). A word of six letters or more that no word of the index starts with
     (window.__pnLatin: the index's Latin words and their counts, site/searchwords.py) becomes the index's most
     frequent word one edit away (a letter left out, added, changed, or two letters swapped), when there is
     one; else two words of the index it is made of ("torchsummary alternative" searched a word no page has).
     Not a shorter word: "grain dataloader" (JAX's loader, a word the site lacks) became "train". Not in a
     pasted message (its words are the program's) nor inside quotes. */
  var LETTERS = "abcdefghijklmnopqrstuvwxyz";
  function startsAWord(w) {
    var lo = 0, hi = latinWords.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (latinWords[mid] < w) lo = mid + 1; else hi = mid; }
    return lo < latinWords.length && latinWords[lo].lastIndexOf(w, 0) === 0;
  }
  function oneEditAway(w, alphabet) {
    var out = [];
    for (var i = 0; i <= w.length; i++) {
      var head = w.slice(0, i), tail = w.slice(i);
      if (tail) out.push(head + tail.slice(1));
      if (tail.length > 1) out.push(head + tail[1] + tail[0] + tail.slice(2));
      for (var c = 0; c < alphabet.length; c++) {
        if (tail) out.push(head + alphabet[c] + tail.slice(1));
        out.push(head + alphabet[c] + tail);
      }
    }
    return out;
  }
  function spelled(raw, typed) {
    if (raw.indexOf('"') >= 0 || pasted(typed) || !latinWords.length) return raw;
    return raw.replace(/(^|[^A-Za-z0-9_])([A-Za-z]{6,})(?![A-Za-z0-9_])/g, function (all, before, word) {
      var lower = word.toLowerCase();
      if (startsAWord(lower)) return all;
      var near = nearest(lower, LETTERS), best = near.word, most = near.count;
      /* two words of the index written as one ("torchsummary", "dataparallel"): searched as the two */
      for (var i = 3, typo = best; !typo && i <= lower.length - 3; i++) {
        var a = lower.slice(0, i), b = lower.slice(i), n = Math.min(latin[a] || 0, latin[b] || 0);
        if (n > most) { best = a + " " + b; most = n; }
      }
      /* ...or, for a word of eight letters or more, two edits away ("difussion": a letter doubled in the wrong place),
         unless its stem starts a word of the index ("improving": improve; the stemmer finds it), and starting as it
         does (two edits made "increasing" decreasing and "aborting" porting) */
      if (!best && lower.length >= 8 && !startsAWord(stem(lower))) {
        oneEditAway(lower, LETTERS).forEach(function (e) {
          var two = nearest(e, LETTERS);
          if (two.count > most && two.word.slice(0, 2) === lower.slice(0, 2)) { best = two.word; most = two.count; }
        });
      }
      return before + (best || word);
    }).replace(/(^|[^A-Za-z0-9_])([A-Za-z]+\d+[A-Za-z]+)(?![A-Za-z0-9_])/g, function (all, before, name) {
      /* ...and a name the index lacks with a digit inside ("tf2onnx", "torch2trt"): its words */
      if (startsAWord(name.toLowerCase())) return all;
      return before + name.split(/\d+/).join(" ");
    }).replace(/(^|[^A-Za-z0-9_])([A-Za-z]+(?:_[A-Za-z]+)+)(?![A-Za-z0-9_])/g, function (all, before, name) {
      /* ...and so did a mistyped API name ("num_wokers"): the index's name one edit away, underscores counted */
      var lower = name.toLowerCase();
      if (lower.length < 6 || startsAWord(lower)) return all;
      return before + (nearest(lower, LETTERS + "_").word || name);
    });
  }
  /* The index's most frequent word one edit away from w, edits drawn from letters: {word, count}, word null if none */
  function nearest(w, letters) {
    var best = {word: null, count: 0};
    oneEditAway(w, letters).forEach(function (e) { if (latin[e] > best.count) best = {word: e, count: latin[e]}; });
    return best;
  }

  /* "detect_anomaly" is inside the word set_detect_anomaly: an identifier matches inside words too. It names one API,
     where a plain word names many: weighed 3 times ("*name*^3", a boost; Material leaves the wildcards as written).
     Without it, "register_forward_hook get activations" put three chapters with "activation" in a heading before
     hooks/. Measured on the built site, English recall@3: tests/search_queries.json 1448 -> 1450 of 1483, the
     older held-out file (spent as a development set, issue 44) 641 -> 644 of 656, sets 17A-22 unchanged; weighed
     twice 1449 and 642, five times 1449 and 644 with set 17B -1.
     Another library's name the pages never use, alone (Keras's "text_dataset_from_directory"; "validation_split=0.2
     pytorch", tf.data's "from_tensor_slices" and "image_dataset_from_directory" until the pages named them), found
     nothing at all: it is searched as its words, stemmed ("text dataset directory"); so are two or more such names
     with nothing else ("kernel_initializer glorot_uniform torch" found nothing until layers/ named them). Not beside
     other words, which find the page ("nn.BCEWithLogitsLoss pos_weight": as "pos weight", weight* put other chapters
     first). */
  var IDENTIFIER = /^[A-Za-z]\w*_\w+$/;
  function absent(term) {  /* an identifier no word of the index holds */
    var lower = term.toLowerCase();
    return IDENTIFIER.test(term) && latinWords.length > 0 &&
      !latinWords.some(function (w) { return w.indexOf(lower) >= 0; });
  }
  function identifiersInside(raw) {
    var terms = raw.split(" "), onlyAbsent = terms.every(absent);
    return terms.map(function (t) {
      if (!IDENTIFIER.test(t)) return t;
      if (!onlyAbsent) return "*" + t + "*^3";
      var words = t.toLowerCase().split("_").filter(function (w) { return w && !EN_STOP.has(w) && !LUNR_EN_STOP.has(w); });
      return words.length ? words.map(stem).join(" ") : t;
    }).join(" ");
  }

  /* Quotes are Material's "all of these words": a pasted message that quotes a name (Unexpected key(s) in
     state_dict: "module.fc.weight") then required words no section has together, and nothing was shown.
     Only a query that is one quoted phrase, or nearly, keeps them. */
  function pastedQuotes(raw) {
    var outside = raw.replace(/["\u201c\u201d][^"\u201c\u201d]*["\u201c\u201d]/g, " ").trim();
    return /["\u201c\u201d]/.test(raw) && outside.split(/\s+/).length >= 2 ? raw.replace(/["\u201c\u201d]/g, " ") : raw;
  }

  /* 5. A message the site quotes, pasted ("Torch not compiled with CUDA enabled"): its words are common
     (torch, compile*, CUDA) and pages that use them often won over the page that explains the message. The
     build lists each language's messages as words (window.__pnMessages: site/searchmessages.py, which says
     how they are split). The longest run of a known message's words in the query, when it has at least
     MESSAGE_RUN words, or most of a short message, is searched as required words ("+word": lunr's presence,
     which Material keeps, exact and without its wildcard, so "compiled" no longer matches every "compile"),
     stop words left out: only sections holding every word of the message are results. (Exact boosted words,
     "word^2", scored the same on the tuning queries, but a page titled with one of the words, Tensors for
     "Expected all tensors to be on the same device", then came before the pages quoting it.) */
  var MESSAGE_RUN = 6, MESSAGE_SHARE = 0.6, MESSAGE_MIN = 4;
  /* lunr's English stop words (lunr 2.3.9, lunr.stopWordFilter, which Material's worker applies to the English
     index): the index has none of them */
  var LUNR_EN_STOP = new Set(("a able about across after all almost also am among an and any are as at be because " +
    "been but by can cannot could dear did do does either else ever every for from get got had has have he her hers " +
    "him his how however i if in into is it its just least let like likely may me might most must my neither no nor " +
    "not of off often on only or other our own rather said say says she should since so some than that the their " +
    "them then there these they this tis to too twas us wants was we were what when where which while who whom why " +
    "will with would yet you your").split(" "));
  function messageWords(text) {
    return text.toLowerCase().split(/[^a-z0-9_]+/).filter(function (w) {
      return w.length > 1 && !/^\d+(?:x\d+)*$/.test(w);
    });
  }
  function knownMessage(raw) {
    var messages = window.__pnMessages;
    if (!messages || !messages.length) return null;
    var q = messageWords(raw), best = null, bestLen = 0;
    if (q.length < MESSAGE_MIN) return null;
    /* ...or all of the query, an error's or warning's class aside ("TracerWarning converting a tensor to a Python
       boolean": five words of a long message; the older held-out file, spent, 644 -> 645 of 656, the tuning set
       unchanged) */
    var whole = q.filter(function (w) { return !/(?:error|warning|exception)$/.test(w); }).length;
    messages.forEach(function (message) {
      var m = message.split(" "), prev = new Array(m.length + 1).fill(0);
      for (var i = 1; i <= q.length; i++) {
        var row = [0];
        for (var j = 1; j <= m.length; j++) {
          var n = q[i - 1] === m[j - 1] ? prev[j - 1] + 1 : 0;
          row.push(n);
          var long = n >= MESSAGE_RUN || (n >= MESSAGE_MIN && (n >= MESSAGE_SHARE * m.length || n >= whole));
          if (long && n > bestLen) { bestLen = n; best = q.slice(i - n, i); }
        }
        prev = row;
      }
    });
    if (!best) return null;
    var exact = best.filter(function (w, k) {
      return !stopWords.has(w) && !LUNR_EN_STOP.has(w) && best.indexOf(w) === k;
    });
    return exact.length >= 2 ? exact.map(function (w) { return "+" + w; }).join(" ") : null;
  }

  /* An attribute or function typed with what it belongs to ("x.grad", "torch.cat", "model.eval()") is that name,
     not a prefix: grad* matched every section about gradients, and "x.grad is None" found four chapters whose
     sections say gradient most before autograd's "Why is .grad None". A name of four letters at most is
     searched as the word itself ("grad^1", as shortWordsExact does), when the rewritten query still holds it as
     typed; a longer one stays a prefix ("torch.tensor" asks about tensors too). */
  var ATTRIBUTE = new RegExp("(?:^|[^\\w.])(?:" + RECEIVERS + "|torch|F|nn)\\.([A-Za-z]\\w{0,3})(?!\\w)", "g");
  function attributesExact(query, raw) {
    var names = new Set();
    raw.replace(ATTRIBUTE, function (all, name) { names.add(name.toLowerCase()); return all; });
    if (!names.size || query.indexOf('"') >= 0) return query;
    return query.split(" ").map(function (t) { return names.has(t.toLowerCase()) ? t.toLowerCase() + "^1" : t; })
      .join(" ");
  }

  /* Code typed into the box says its topic in its own way:
     - an augmented assignment ("x += 1 vs x = x + 1") is an in-place operation: the index keeps no operator, and
       the query was searched as "x^1 x^1 x^1";
     - another library's module path before an API's name names the library only ("tf.keras.utils.set_random_seed"
       searched tf, keras and utils beside the name; "tf.keras.layers.BatchNormalization momentum" put attention/
       first, its heading LayerNorm matching layer*). A module that names a topic (tf.data, np.random, optimizers)
       stays. */
  var IN_PLACE = {zh: "就地操作", en: "in-place"};
  var OTHER_LIBRARIES = ["tf", "keras", "np", "numpy", "jax", "jnp", "sklearn", "optax", "flax"];
  var MODULE_PATH = new Set(OTHER_LIBRARIES.concat(["utils", "compat", "v1", "v2", "experimental", "layers", "nn",
    "math", "ops"]));
  var LIBRARY_PATH = new RegExp("(^|[^\\w.])((?:" + OTHER_LIBRARIES.join("|") + ")(?:\\.\\w+)+)", "g");
  function codeTyped(raw) {
    var lang = (document.documentElement.lang || "en").slice(0, 2);
    raw = raw.replace(/(^|\s)[-+*\/@]=(?=\s|\w)/g, "$1 " + (IN_PLACE[lang] || IN_PLACE.en) + " ")
      .replace(LIBRARY_PATH, function (all, before, path) {
        var parts = path.split(".");
        if (parts.length < 3) return all;  /* "jax.grad", "np.arange": the name with its library (attributesExact) */
        return before + parts.filter(function (p, i) {
          return i === parts.length - 1 || !MODULE_PATH.has(p.toLowerCase());
        }).join(" ");
      });
    return raw.trim() ? raw.replace(/\s+/g, " ").trim() : raw;
  }

  window.__pnSearchQuery = function (raw) {
    var message = knownMessage(raw);
    if (message) return message;
    /* "Missing key(s) in state_dict": the plural's (s) became a term of its own ("s^1", an exact word every
       page has), and the chapter quoting the message fell from the first three */
    raw = codeTyped(raw.replace(/(\w)\(s\)/gi, "$1"));
    var typed = raw;
    raw = spelled(pastedQuotes(raw), raw);
    return attributesExact(identifiersInside(shortWordsExact(asIndexWords(withoutWeakTerms(withoutLoneDigits(
      stemmed(segment(withoutEnglishStopWords(raw)), raw)), typed)))), typed);
  };

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
