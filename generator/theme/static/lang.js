// The language switcher keeps the reader's place: a link to the same page in another
// language takes the current #anchor along (heading and case ids are the same in every
// language). Without JavaScript the links still lead to the same page.
document.addEventListener("click", function (event) {
  var link = event.target.closest && event.target.closest(".lang-switch a[hreflang]");
  if (link && location.hash) {
    link.href = link.href.split("#")[0] + location.hash;
  }
});
