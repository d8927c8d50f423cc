// The search box's results (loaded by site.js when the reader first focuses the box):
// Pagefind's pagefind.js and this locale's index (form.dataset.bundle), queried as the
// reader types. A result is a page, with the places on it where the words are: the
// sections (headings) and the examples (case rows), each linked by its #id. Text is set
// as text, never as HTML.

const SHOWN_PAGES = 8;
const SHOWN_PLACES = 6;
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
    const pages = await Promise.all(search.results.slice(0, SHOWN_PAGES).map((r) => r.data()));
    if (mine !== asked) {
      return;
    }
    list.replaceChildren(...pages.map((page) => item(page, form.dataset.base)));
    status.textContent = pages.length ? "" : form.dataset.none.replace("{query}", term);
    open(true);
  };
  input.addEventListener("input", run);
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      input.value = "";
      run();
      input.focus();
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
    await run();
  } else {
    status.textContent = "";
    open(false);
  }
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
    for (const place of places) {
      const sub = document.createElement("li");
      const a = link(url + "#" + place.id, "", "site-search__place");
      if (place.heading) {
        const h = document.createElement("span");
        h.className = "site-search__heading";
        h.textContent = place.heading;
        a.append(h);
      }
      a.append(excerpt(page.content, place.start, place.words));
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
      const heading = /^h\d$/i.test(anchor.element) ? anchor.text : "";
      found.set(anchor.id, { id: anchor.id, heading, start: anchor.location, words: [] });
    }
    found.get(anchor.id).words.push(at);
  }
  return [...found.values()].sort((a, b) => a.start - b.start).slice(0, SHOWN_PLACES);
}

// A few words of the page's text from the anchor's start (a case's title, a section's
// first words) or, further in, from a little before the first matched word; the matched
// words marked.
function excerpt(content, start, words) {
  const all = content.split(/[\r\n\s]+/g);
  const first = words[0];
  const from = first - start < 12 ? start : first - 4;
  const to = Math.min(all.length, first + 12);
  const span = document.createElement("span");
  span.className = "site-search__excerpt";
  if (from > start) {
    span.append("… ");
  }
  for (let i = from; i < to; i++) {
    if (words.includes(i)) {
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
  if (to < all.length) {
    span.append(" …");
  }
  return span;
}
