/* Search, 3: the query Material searches for what the reader typed (window.__pnSearchQuery), made of the steps
 * below and those of search-chinese.js and search-forms.js. Loaded by docs/overrides/main.html after them;
 * search.js reads the box through it. */
(function (S) {
  "use strict";
  var index = S.index, WORD_END = S.WORD_END, EN_STOP = S.EN_STOP, LUNR_EN_STOP = S.LUNR_EN_STOP, LIBRARY = S.LIBRARY,
      API_NAME = S.API_NAME, stem = S.stem, weak = S.weak, segment = S.segment, stemmed = S.stemmed,
      spelled = S.spelled;

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
      if (LIBRARY.has(lower) && index.latin[lower]) return lower + "^1";
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
      if (inside && (LUNR_EN_STOP.has(word) || index.stopWords.has(word))) core = "";
      return core ? m[1] + core + m[3] : m[1].replace(/[+*]/g, "") + m[3].replace("*", "");
    }).filter(Boolean).join(" ");
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
    return IDENTIFIER.test(term) && index.latinWords.length > 0 &&
      !index.latinWords.some(function (w) { return w.indexOf(lower) >= 0; });
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
      return !index.stopWords.has(w) && !LUNR_EN_STOP.has(w) && best.indexOf(w) === k;
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

  /* The steps in order: those above, segment (search-chinese.js), stemmed and spelled (search-forms.js) */
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
})(window.__pnSearch);
