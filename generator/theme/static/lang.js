// The language switcher keeps the reader's place: a link to the same page in another
// language takes the current #anchor along (heading and case ids are the same in every
// language). Without JavaScript the links still lead to the same page.
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest(".lang-switch a[hreflang]");
  if (link && location.hash) {
    link.href = link.href.split("#")[0] + location.hash;
  }
});

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
  form.addEventListener("focusin", start);
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    start();
  });
})();
