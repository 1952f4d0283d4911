// What Chromium does to the book's HTML (assemble.book_html) before printing it (printer.py). Each chapter is
// a built page's <article>, in a <section class="pn-book-chapter" id="ch-..." data-url="...">, its links and
// ids still those of its page; this makes it one document. Run as page.evaluate(BOOK, cfg) with
// cfg = {root: the site's file:// URL ending in "/", chapters: {site-relative page URL: section id},
// siteUrl: the published site's address or ""}; returns {entries: the table of contents, [{id, title,
// level}], level 1 for a part; overflow: CSS px past the page's width}.
async (cfg) => {
  const root = new URL(cfg.root);
  const unquote = (s) => { try { return decodeURIComponent(s); } catch { return s; } };
  const chapterOf = (url) => {  // a URL inside the site -> the id of its chapter, or null
    if (url.protocol !== root.protocol || !url.pathname.startsWith(root.pathname)) return null;
    const rel = unquote(url.pathname.slice(root.pathname.length)).replace(/index\.html$/, "");
    return cfg.chapters[rel] ?? null;
  };
  const chapters = [...document.querySelectorAll("section.pn-book-chapter")];
  // one document: every id of a page becomes "<chapter id>-<n>" (short ASCII names for the PDF's
  // destinations), and the links to it follow
  const ids = new Map();  // "<chapter id>#<id on its page>" -> its id in the book
  for (const chapter of chapters) {
    chapter.querySelectorAll("[id]").forEach((el, n) => {
      ids.set(`${chapter.id}#${el.id}`, `${chapter.id}-${n + 1}`);
      el.id = `${chapter.id}-${n + 1}`;
    });
  }
  const anchor = (cid, hash) => `#${(hash && ids.get(`${cid}#${unquote(hash)}`)) || cid}`;
  for (const chapter of chapters) {
    const cid = chapter.id;
    const base = new URL(chapter.dataset.url, root);
    for (const el of chapter.querySelectorAll("label[for]")) el.htmlFor = ids.get(`${cid}#${el.htmlFor}`) ?? "";
    for (const a of chapter.querySelectorAll("a[href]")) {
      const raw = a.getAttribute("href");
      if (raw.startsWith("#")) { a.setAttribute("href", anchor(cid, raw.slice(1))); continue; }
      const url = new URL(raw, base);
      if (url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:") continue;
      const target = chapterOf(url);
      if (target) a.setAttribute("href", anchor(target, url.hash.slice(1)));
      else if (cfg.siteUrl) a.setAttribute("href", new URL(url.pathname.slice(root.pathname.length) + url.hash, cfg.siteUrl).href);
      else a.removeAttribute("href");  // a page the book leaves out, a download: its text stays
    }
    for (const img of chapter.querySelectorAll("img[src]")) {
      img.src = new URL(img.getAttribute("src"), base).href;
      img.removeAttribute("loading");  // a lazy image below the screen is never loaded for print
    }
    // the tab shown first: its label and block stay, the other tabs go (Material prints every tab)
    for (const set of chapter.querySelectorAll(".tabbed-set")) {
      for (const sel of [":scope > input", ":scope > .tabbed-labels > label", ":scope > .tabbed-content > .tabbed-block"]) {
        set.querySelectorAll(sel).forEach((el, i) => { if (i) el.remove(); });
      }
    }
    // solutions and collapsed notes open; a traceback inside an output stays folded to its last line
    for (const d of chapter.querySelectorAll("details")) if (!d.closest(".pn-output")) d.open = true;
  }
  // the table of contents: parts, chapters and their sections, each a link (Chromium then names its target
  // in the PDF, where printer.py finds its page); the same entries make the PDF's outline
  const toc = document.querySelector(".pn-book-toc ol");
  const entries = [];
  const entry = (heading, kind, level, id) => {
    const title = heading.textContent.replace(/\u00b6/g, "").trim();
    const li = document.createElement("li");
    li.className = `pn-book-toc-${kind}`;
    const a = document.createElement("a");
    a.href = `#${id}`;
    a.textContent = title;
    const page = document.createElement("span");
    page.className = "pn-book-page";
    page.dataset.for = id;
    li.append(a, page);
    toc.append(li);
    entries.push({id, title, level});
  };
  for (const el of document.querySelectorAll(".pn-book-part > h1, section.pn-book-chapter")) {
    if (el.tagName === "H1") { entry(el, "part", 1, el.id); continue; }
    const depth = Number(el.dataset.depth || 0);  // 1 in a part, 0 outside one (the home page)
    const title = el.querySelector("h1");
    if (title) entry(title, "chapter", 1 + depth, el.id);
    for (const h of el.querySelectorAll("h2[id]")) entry(h, "section", 2 + depth, h.id);
  }
  // on paper nothing scrolls: a code block or output wider than the page (the page is as wide as the printed
  // one: printer.py) gets a smaller font, down to 40 % (a PDF is read zoomed in, too), and wraps only beyond that; else Chromium would shrink
  // every page of the book to fit the widest
  const right = document.querySelector("article").getBoundingClientRect().right;
  const text = document.createRange();
  for (const code of document.querySelectorAll(".md-typeset pre > code")) {
    const base = parseFloat(getComputedStyle(code).fontSize);
    for (let pass = 0; pass < 3; pass++) {  // its box may be wider than its text: measure the text
      text.selectNodeContents(code);
      const box = text.getBoundingClientRect();
      const room = right - parseFloat(getComputedStyle(code).paddingRight) - 2 - box.left;
      if (!box.width || box.width <= room) break;
      const size = parseFloat(getComputedStyle(code).fontSize) * room / box.width * 0.99;
      code.style.fontSize = `${Math.max(size, 0.4 * base)}px`;
      if (size < 0.4 * base) { code.style.whiteSpace = "pre-wrap"; break; }
    }
  }
  await Promise.all([...document.images].map((img) => img.complete ? null :
    new Promise((done) => { img.onload = img.onerror = done; })));
  await document.fonts.ready;
  // how far the widest thing reaches past the page: Chromium would shrink every page by as much
  return {entries, overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}
