// The search box's results (loaded by site.js when the reader first focuses the box):
// Pagefind's pagefind.js and this locale's index (form.dataset.bundle), queried as the
// reader types. A result is a page, with the places on it where the words are: the
// sections (headings) and the examples (case rows), each linked by its #id. Text is set
// as text, never as HTML. The status line says how many pages were found (the catalog's
// plural forms, in data-count-N attributes: see count()). From the keyboard, Enter opens
// the top hit and the arrow keys move between the box and the results' links.

const SHOWN_PAGES = 8;
const SHOWN_PLACES = 6;
const LOOKED_AT = 40;
let pagefind = null;
let asked = 0;

export async function start(form) {
  const input = form.querySelector("input");
  const panel = form.querySelector(".site-search__panel");
  const status = form.querySelector(".site-search__status");
  const list = form.querySelector(".site-search__results");
  pagefind = await import(new URL(form.dataset.bundle + "pagefind.js", document.baseURI).href);
  await pagefind.options({ excerptLength: 18 });
  await pagefind.init();
  const open = (yes) => {
    panel.hidden = !yes;
  };
  const run = async () => {
    const term = input.value.trim();
    const mine = ++asked;
    if (!term) {
      list.replaceChildren();
      status.textContent = "";
      open(false);
      return;
    }
    const search = await pagefind.debouncedSearch(term, {}, 120);
    if (search === null || mine !== asked) {
      return;
    }
    const fetched = await Promise.all(search.results.slice(0, LOOKED_AT).map((r) => r.data()));
    if (mine !== asked) {
      return;
    }
    const found = fetched.filter((page) => wordsOf(page, term));
    const pages = found.slice(0, SHOWN_PAGES);
    list.replaceChildren(...pages.map((page) => item(page, form.dataset.base)));
    // (the pages past the first LOOKED_AT are counted as found, not looked at)
    const more = Math.max(0, search.results.length - LOOKED_AT);
    status.textContent = pages.length
      ? count(form, found.length + more)
      : form.dataset.none.replace("{query}", term);
    open(true);
  };
  let running = Promise.resolve();
  input.addEventListener("input", () => {
    running = run();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (input.value.trim() && !list.childElementCount) {
      running = run();
    }
    await running;
    const top = list.querySelector("a");
    if (top) {
      top.click();
    }
  });
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      input.value = "";
      running = run();
      input.focus();
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && !panel.hidden) {
      const links = [...list.querySelectorAll("a")];
      const at = links.indexOf(event.target);
      const down = event.key === "ArrowDown";
      const next = event.target === input ? (down ? links[0] : null)
        : at < 0 ? null
        : down ? links[Math.min(at + 1, links.length - 1)]
        : at === 0 ? input : links[at - 1];
      if (next) {
        event.preventDefault();
        next.focus();
      }
    }
  });
  document.addEventListener("click", (event) => {
    if (!form.contains(event.target)) {
      open(false);
    }
  });
  input.addEventListener("focus", () => {
    if (input.value.trim() && list.childElementCount) {
      open(true);
    }
  });
  if (input.value.trim()) {
    running = run();
    await running;
  } else {
    status.textContent = "";
    open(false);
  }
}

// Whether the page holds the words searched for: Pagefind answers a word it does not
// know with the longest start of it that it does ("kxyzzy" finds "k", "jelly" "je"),
// so a matched word less than half as long as the shortest word searched for is
// dropped (page.locations keeps the others); a stemmed match ("jokers" → "joker",
// "installation" → "instal") is kept.
function wordsOf(page, term) {
  const shortest = Math.min(...term.split(/\s+/).map((t) => plain(t).length));
  const all = page.content.split(/[\r\n\s]+/g);
  page.locations = page.locations.filter((at) => 2 * plain(all[at] || "").length >= shortest);
  return page.locations.length > 0;
}

function plain(word) {
  return word.normalize("NFD").replace(/[^\p{L}\p{N}]/gu, "");
}

// "N results" in the page's language: the form holds the catalog's text for a few
// numbers (data-count-N, with "{count}" for the number); the one whose plural category
// (CLDR, as the catalog's Plural-Forms) is the same as n's gives n's text.
function count(form, n) {
  const rules = new Intl.PluralRules(document.documentElement.lang || "en");
  const samples = form.dataset.counts.split(" ").map(Number);
  const same = samples.find((s) => s === n) ?? samples.find((s) => rules.select(s) === rules.select(n));
  const text = form.getAttribute("data-count-" + (same ?? samples[samples.length - 1]));
  return text.replace("{count}", n.toLocaleString(document.documentElement.lang || "en"));
}

// One page's entry: its title linked, then the places on it that hold the words.
function item(page, base) {
  const url = base + page.raw_url.replace(/^\//, "");
  const li = document.createElement("li");
  li.className = "site-search__page";
  li.append(link(url, page.meta.title || url, "site-search__title"));
  const places = where(page);
  if (places.length) {
    const ul = document.createElement("ul");
    const all = page.content.split(/[\r\n\s]+/g);
    for (const place of places) {
      const sub = document.createElement("li");
      const a = link(url + "#" + place.id, "", "site-search__place");
      // A section's heading is the first words of its text: shown once, as the heading
      // (its matched words marked there), and the excerpt goes on after it.
      const after = place.start + place.headingWords;
      if (place.headingWords) {
        const h = words(all, place.start, after, place.words);
        h.className = "site-search__heading";
        a.append(h);
      }
      a.append(excerpt(all, after, place.words.filter((at) => at >= after)));
      sub.append(a);
      ul.append(sub);
    }
    li.append(ul);
  }
  return li;
}

function link(href, text, className) {
  const a = document.createElement("a");
  a.href = href;
  a.className = className;
  a.textContent = text;
  return a;
}

// The anchors (elements with an id: headings and case rows) that hold the matched
// words, in the order of the page, at most SHOWN_PLACES; each with its words.
function where(page) {
  const anchors = page.anchors.filter((a) => a.id).sort((a, b) => a.location - b.location);
  const weights = new Map((page.weighted_locations || []).map((w) => [w.location, w.weight]));
  const found = new Map();
  for (const at of page.locations) {
    let anchor = null;
    for (const a of anchors) {
      if (a.location > at) {
        break;
      }
      anchor = a;
    }
    if (anchor === null) {
      continue;
    }
    if (!found.has(anchor.id)) {
      const heading = /^h\d$/i.test(anchor.element) ? anchor.text.trim() : "";
      const headingWords = heading ? heading.split(/[\r\n\s]+/g).length : 0;
      found.set(anchor.id, { id: anchor.id, headingWords, start: anchor.location, words: [] });
    }
    found.get(anchor.id).words.push(at);
  }
  // sections whose heading and examples whose title (weighted above the text by the
  // theme) holds a matched word first, then the others in page order
  const named = (p) => p.words.some((at) => at < p.start + p.headingWords
                                    || (weights.get(at) || 1) > 1);
  return [...found.values()]
    .sort((a, b) => named(b) - named(a) || a.start - b.start)
    .slice(0, SHOWN_PLACES);
}

// A few words of the page's text (all, split into words) from start (a case's title, a
// section's first words after its heading) or, further in, from a little before the
// first matched word; the matched words marked.
function excerpt(all, start, found) {
  const first = found.length ? found[0] : start;
  const from = first - start < 12 ? start : first - 4;
  const to = Math.min(all.length, first + 12);
  const span = words(all, from, to, found);
  span.className = "site-search__excerpt";
  if (from > start) {
    span.prepend("… ");
  }
  if (to < all.length) {
    span.append(" …");
  }
  return span;
}

// A span of the words all[from..to), those at the places in found marked.
function words(all, from, to, found) {
  const span = document.createElement("span");
  for (let i = from; i < to; i++) {
    if (found.includes(i)) {
      const mark = document.createElement("mark");
      mark.textContent = all[i];
      span.append(mark);
    } else {
      span.append(all[i]);
    }
    if (i + 1 < to) {
      span.append(" ");
    }
  }
  return span;
}
