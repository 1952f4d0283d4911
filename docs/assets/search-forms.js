/* Search, 2: an English word as the index writes it: cut to its stem (the index has no stemmer), its -ing form,
 * a mistyped word as the index's word. Loaded by docs/overrides/main.html after search-index.js; search-query.js
 * calls stemmed and spelled. */
(function (S) {
  "use strict";
  var index = S.index, stem = S.stem, startsAWord = S.startsAWord, wordsStarting = S.wordsStarting;

  /* A pasted message ("Expected all tensors to be on the same device") is not stemmed: its words are the page's */
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
    if (!/^[A-Za-z]{3}e$/.test(word) || !index.latinWords.length) return word;
    var lower = word.toLowerCase(), head = lower.slice(0, 3), ing = head + "ing";
    if (!startsAWord(lower)) return startsAWord(ing) ? ing : word;
    /* both forms as one term, the three letters they share, when every word of the index that starts so is one
       of the two ("move" -> mov*: move, moved, moving; not "none" -> non*: non_blocking) */
    return startsAWord(ing) && wordsStarting(head).every(function (w) {
      return w.lastIndexOf(lower, 0) === 0 || w.lastIndexOf(ing, 0) === 0 || w === head;
    }) ? head : word;
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
    if (raw.indexOf('"') >= 0 || pasted(typed) || !index.latinWords.length) return raw;
    return raw.replace(/(^|[^A-Za-z0-9_])([A-Za-z]{6,})(?![A-Za-z0-9_])/g, function (all, before, word) {
      var lower = word.toLowerCase();
      if (startsAWord(lower)) return all;
      var near = nearest(lower, LETTERS), best = near.word, most = near.count;
      /* two words of the index written as one ("torchsummary", "dataparallel"): searched as the two */
      for (var i = 3; !near.word && i <= lower.length - 3; i++) {
        var a = lower.slice(0, i), b = lower.slice(i), n = Math.min(index.latin[a] || 0, index.latin[b] || 0);
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
    oneEditAway(w, letters).forEach(function (e) {
      if (index.latin[e] > best.count) best = {word: e, count: index.latin[e]};
    });
    return best;
  }

  S.stemmed = stemmed;
  S.spelled = spelled;
})(window.__pnSearch);
