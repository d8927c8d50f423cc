// Progressive enhancement: every page reads and works without this script.
// - Tables: a table wider than its place is shown as stacked cards (the stylesheet
//   already stacks them in a narrow column without the script).
// - The table of contents marks the section being read; the phone menu closes on a jump.
// - "Copy link" on a case row copies the row's address (page URL + #case-id);
//   without the script (or a clipboard) it is a link to the row.
// - The language switcher keeps the reader's place: a link to the same page in another
//   language takes the #anchor or the section being read along. Without JavaScript the
//   links still lead to the same page.
// - An #anchor lands below the sticky menu, also where a table turns into cards after
//   the browser has scrolled to it.
// - A card checker beside a table (cases.html): its button is shown, and a click (or an
//   address #try=...) imports static/checker.js, which loads the rest; without this
//   script the button stays hidden.
(function () {
  var checkers = document.querySelectorAll(".checker[data-checker]");
  if (!checkers.length) return;
  var src = document.currentScript && document.currentScript.src;
  if (!src) return;
  var module = new URL("checker.js", src).href;
  function open(box, index) {
    import(module).then(function (checker) {
      return checker.open(box, index);
    }).catch(function () {
      var status = box.querySelector(".checker__status") || box.appendChild(document.createElement("p"));
      status.className = "checker__status";
      status.setAttribute("role", "status");
      status.textContent = box.dataset.failed;
    });
  }
  Array.prototype.forEach.call(checkers, function (box, i) {
    box.hidden = false;
    box.querySelector(".checker__open").addEventListener("click", function () { open(box, i + 1); });
  });
  var wanted = /^#try=[^@]*(?:@(\d+))?$/.exec(location.hash);
  if (wanted) {
    var box = checkers[(wanted[1] ? Number(wanted[1]) : 1) - 1];
    if (box) open(box, (wanted[1] ? Number(wanted[1]) : 1));
  }
})();

(function () {
  var doc = document, root = doc.documentElement, frame = 0;
  root.classList.add("js");

  // Returns whether a table changed between columns and cards (the page's length did).
  function fitTables() {
    var wraps = doc.querySelectorAll(".table-wrap"), i, w, before = [];
    for (i = 0; i < wraps.length; i++) {
      before.push(wraps[i].classList.contains("is-stacked"));
      wraps[i].classList.remove("is-stacked");
    }
    var wide = [];
    for (i = 0; i < wraps.length; i++) {
      w = wraps[i];
      if (w.scrollWidth > w.clientWidth) wide.push(w);
    }
    for (i = 0; i < wide.length; i++) wide[i].classList.add("is-stacked");
    var changed = false;
    for (i = 0; i < wraps.length; i++) {
      if (wraps[i].classList.contains("is-stacked") !== before[i]) changed = true;
    }
    for (i = 0; i < wraps.length; i++) {  // still wider (a tiny screen): keyboard-scrollable
      w = wraps[i];
      if (w.scrollWidth > w.clientWidth + 1) w.tabIndex = 0; else w.removeAttribute("tabindex");
    }
    return changed;
  }
  // The element the address's #anchor names, if any.
  function target() {
    var id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { /* not percent-encoded */ }
    return id ? doc.getElementById(id) : null;
  }

  var heads = [], links = doc.querySelectorAll(".toc li a[href^='#']"),
      current = doc.querySelector(".toc__current");
  for (var i = 0; i < links.length; i++) {
    var h = doc.getElementById(links[i].getAttribute("href").slice(1));
    if (h && heads.indexOf(h) < 0) heads.push(h);
  }
  function mark() {
    frame = 0;
    var line = innerHeight * 0.3, at = null, i;
    for (i = 0; i < heads.length; i++) if (heads[i].getBoundingClientRect().top < line) at = heads[i];
    for (i = 0; i < links.length; i++) {
      if (at && links[i].getAttribute("href") === "#" + at.id) links[i].setAttribute("aria-current", "true");
      else links[i].removeAttribute("aria-current");
    }
    if (current) current.textContent = at ? at.textContent.replace(/\s*#$/, "") : "";
    reading = at;
  }
  // The language switcher's links take the reader's place along (heading and case ids are
  // the same in every language): the address's #anchor, until the reader stops scrolling
  // somewhere below the header; then the #anchor if its target is on screen, else the
  // section being read. Scrolling back up to the switcher keeps that place. Set on the
  // links themselves, so that opening one in a new tab or copying its address keeps it.
  var switches = doc.querySelectorAll(".lang-switch a[hreflang]"), header = doc.querySelector(".site-header"),
      reading = null, place = location.hash, pause = 0;
  function setSwitches() {
    for (var i = 0; i < switches.length; i++) {
      switches[i].href = switches[i].href.split("#")[0] + place;
    }
  }
  function settle() {
    pause = 0;
    if (header && header.getBoundingClientRect().bottom > 0) return;  // at the switcher
    var aim = target(), box = aim && aim.getBoundingClientRect();
    place = box && box.bottom > 0 && box.top < innerHeight ? "#" + aim.id
      : reading ? "#" + reading.id : "";
    setSwitches();
  }
  addEventListener("scroll", function () {
    clearTimeout(pause);
    pause = setTimeout(settle, 400);
  }, { passive: true });
  addEventListener("hashchange", function () { place = location.hash; setSwitches(); });
  function later() { if (!frame) frame = requestAnimationFrame(mark); }
  addEventListener("scroll", later, { passive: true });
  addEventListener("resize", function () { fitTables(); later(); });
  // A table turned into cards (or back) while the page loads moves what the browser has
  // scrolled to: once loaded, land on the #anchor's target again.
  var moved = fitTables();
  addEventListener("load", function () {  // fonts and cards laid out
    var aim = target();
    if ((fitTables() || moved) && aim) aim.scrollIntoView();
    later();
  });
  mark(); setSwitches();
  // On phones the pages' strip is one row that scrolls sideways: the current page in view.
  var here = doc.querySelector(".site-nav a[aria-current='page']");
  if (here) {
    var strip = here.closest("ul"), box = here.getBoundingClientRect(), frame_ = strip.getBoundingClientRect();
    if (box.right > frame_.right) strip.scrollLeft += box.right - frame_.right + 16;
  }

  var status = doc.createElement("span");
  status.className = "visually-hidden"; status.setAttribute("role", "status");
  doc.body.appendChild(status);

  doc.addEventListener("click", function (event) {
    var t = event.target, link = t.closest && t.closest("a");
    if (!link) return;
    if (link.matches(".toc--mobile a")) {
      link.closest("details").open = false;
    } else if (link.hasAttribute("data-copy-link") && navigator.clipboard) {
      event.preventDefault();
      var url = location.href.split("#")[0] + link.getAttribute("href"),
          done = doc.getElementById("content").getAttribute("data-copied") || "";
      navigator.clipboard.writeText(url).then(function () {
        link.setAttribute("data-state", "copied"); status.textContent = done;
        setTimeout(function () { link.removeAttribute("data-state"); status.textContent = ""; }, 2000);
      }, function () { location.hash = link.getAttribute("href"); });
    }
  });
})();

// Examples a reader can fold and filter. Without the script every table of examples is
// open (a <details open> the browser folds by itself) and the filter stays hidden.
// - The tables the reader folds stay folded on this page: localStorage, keyed by the
//   page's path and the table's first row id.
// - The filter (page.html), where the page's examples are of more than one game or rule
//   preset: only the rows of the chosen game and preset show, the count is announced.
//   The reader's choice stays on this page too (localStorage, keyed by its path).
// - An #anchor to a row (a link, a search hit) opens its table and clears a filter that
//   hides the row.
(function () {
  var doc = document, folds = doc.querySelectorAll("details.cases-fold");
  if (!folds.length) return;
  var key = "folded:" + location.pathname, folded = [];
  try { folded = JSON.parse(localStorage.getItem(key) || "[]") || []; } catch (e) { folded = []; }
  function store(name, value) {
    try {
      if (value) localStorage.setItem(name, JSON.stringify(value));
      else localStorage.removeItem(name);
    } catch (e) { /* storage refused: folding and the filter still work, for this visit */ }
  }
  function keep() { store(key, folded.length ? folded : null); }
  var chosenKey = "filter:" + location.pathname, chosen = {};
  try { chosen = JSON.parse(localStorage.getItem(chosenKey) || "{}") || {}; } catch (e) { chosen = {}; }
  var restored = false;  // a table folded or a filter chosen again: the #anchor may move
  var form = doc.querySelector("form.case-filter"), rows = doc.querySelectorAll("tr[data-game]");
  function selects() { return form ? form.querySelectorAll("select") : []; }
  // Shows the rows the filter's choices allow; says how many.
  function filter() {
    if (!form) return;
    var game = form.elements.game.value, preset = form.elements.preset.value, shown = 0, i;
    for (i = 0; i < rows.length; i++) {
      var r = rows[i], show = (!game || r.getAttribute("data-game") === game) &&
        (!preset || r.getAttribute("data-preset") === preset);
      r.hidden = !show;
      if (show) shown++;
    }
    for (i = 0; i < folds.length; i++) {  // a table with no row left goes too
      folds[i].hidden = !folds[i].querySelector("tbody tr:not([hidden])");
    }
    form.querySelector(".case-filter__count").textContent = game || preset
      ? form.getAttribute("data-count").replace("{num}", shown).replace("{total}", rows.length) : "";
    store(chosenKey, game || preset ? { game: game, preset: preset } : null);
  }
  if (form) {
    var kinds = { game: {}, preset: {} }, names = { game: [], preset: [] };
    for (var i = 0; i < rows.length; i++) {
      for (var k in kinds) {
        var v = rows[i].getAttribute("data-" + k);
        if (v && !kinds[k][v]) { kinds[k][v] = rows[i].getAttribute("data-" + k + "-name"); names[k].push(v); }
      }
    }
    if (names.game.length > 1 || names.preset.length > 1) {
      for (k in kinds) {
        var select = form.elements[k];
        select.appendChild(new Option(select.getAttribute("data-all"), ""));
        for (i = 0; i < names[k].length; i++) {
          select.appendChild(new Option(kinds[k][names[k][i]], names[k][i]));
        }
        if (names[k].length < 2) select.closest("label").hidden = true;
      }
      form.hidden = false;
      for (k in kinds) {  // the reader's last choice on this page, where it still exists
        if (names[k].indexOf(chosen[k]) >= 0) {
          form.elements[k].value = chosen[k];
          restored = true;
        }
      }
      if (restored) filter();
      form.addEventListener("change", filter);
      form.addEventListener("submit", function (event) { event.preventDefault(); });
    } else {
      form = null;
    }
  }
  // Opens the table of the #anchor's row and shows the row; lands on the #anchor again
  // where that (or folding the tables above it) moved it.
  function reveal(moved) {
    var id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { /* not percent-encoded */ }
    var aim = id && doc.getElementById(id), fold = aim && aim.closest("details.cases-fold");
    if (fold && aim.hidden && form) {
      var s = selects();
      for (var i = 0; i < s.length; i++) s[i].value = "";
      filter();
      moved = true;
    }
    if (fold && !fold.open) { fold.open = true; moved = true; }
    if (aim && moved === true) aim.scrollIntoView();
  }
  for (var j = 0; j < folds.length; j++) {
    var d = folds[j];
    if (folded.indexOf(d.getAttribute("data-fold")) >= 0) { d.open = false; restored = true; }
    d.addEventListener("toggle", function (event) {
      var name = event.target.getAttribute("data-fold"), at = folded.indexOf(name);
      if (event.target.open && at >= 0) folded.splice(at, 1);
      else if (!event.target.open && at < 0) folded.push(name);
      keep();
      dispatchEvent(new Event("resize"));  // an opened table fits its place again
    });
  }
  reveal(restored);
  addEventListener("hashchange", reveal);
  // A printed page has every table: the folded ones open while it prints.
  var shut = [];
  addEventListener("beforeprint", function () {
    shut = [];
    for (var i = 0; i < folds.length; i++) if (!folds[i].open) { shut.push(folds[i]); folds[i].open = true; }
  });
  addEventListener("afterprint", function () {
    for (var i = 0; i < shut.length; i++) shut[i].open = false;
  });
})();

// The search box (search.html): shown only where JavaScript runs. Nothing of the search
// loads until the reader first focuses the box: then static/search.js, which loads
// Pagefind and this locale's index. Opened from a file, where browsers refuse to load
// them, the box says that search needs the site served.
(function () {
  var form = document.querySelector("form.site-search");
  if (!form) {
    return;
  }
  form.hidden = false;
  // On phones the box opens from the magnifier button (the stylesheet shows the one or
  // the other by the screen's width), and closes again with Escape.
  var toggle = document.querySelector(".search-toggle");
  function opened(open) {
    form.classList.toggle("is-open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  }
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener("click", function () {
      var open = !form.classList.contains("is-open");
      opened(open);
      if (open) input.focus();
    });
    form.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && form.classList.contains("is-open")) {
        opened(false);
        toggle.focus();
      }
    });
  }
  var input = form.querySelector("input");
  var panel = form.querySelector(".site-search__panel");
  var status = form.querySelector(".site-search__status");
  var started = null;
  function say(text) {
    status.textContent = text;
    panel.hidden = false;
  }
  function start() {
    if (started) {
      return;
    }
    if (location.protocol === "file:") {
      started = true;
      say(form.dataset.file);
      return;
    }
    say(form.dataset.loading);
    // (a relative import() resolves against this script, so the page's address first)
    started = import(new URL(form.dataset.script, document.baseURI).href).then(function (search) {
      return search.start(form);
    }).catch(function () {
      say(form.dataset.failed);
    });
  }
  // "/" goes to the box (opening it on phones), unless the reader is typing elsewhere.
  document.addEventListener("keydown", function (event) {
    var at = event.target;
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented
        || at.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(at.tagName)) {
      return;
    }
    event.preventDefault();
    if (toggle && !form.classList.contains("is-open") && getComputedStyle(toggle).display !== "none") {
      opened(true);
    }
    input.focus();
  });
  form.addEventListener("focusin", start);
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    start();
  });
})();
