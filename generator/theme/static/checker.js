// The card checker (docs/site.md, "The card checker"): a reader's own cards answered by
// the generator's engine and templates, run by Pyodide. site.js imports this module when
// a reader opens a checker; nothing of it loads with the page.
// - Pyodide comes from where ../checker/manifest.json says (its CDN or the site's own
//   folder), every file checked against its Subresource Integrity hash.
// - The form is built when opened: game, rules and options (the table's by default), a
//   text box per input for codes (QH KH AH, JK), and a picker whose buttons are cards
//   named in the page's language.
// - Each change answers again (the verdict, points and reasoning as the example rows show
//   them, in an aria-live region); "Copy as a case" copies what `explain` prints; the
//   cards go into the address (#try=rami51:QH.KH.AH) and come back from it.
const base = new URL("../checker/", import.meta.url);
let started = null;
// How long Pyodide may take to start once a file of its own has arrived (a slow phone
// starts it in seconds; a wasm that does not compile never does). A page's
// `checkerStartsWithinMs` (the tests') shortens it.
const STARTS_WITHIN_MS = 60000;

const BOOT = `
import json, sys, types
from pathlib import Path
sys.path.insert(0, "/checker")
sys.modules.setdefault("fcntl", types.ModuleType("fcntl"))  # (the checker writes no file)
from generator.commands.checker import answer_json, form_json
from generator.i18n.catalog import Translator, source_translator
from generator.render.environment import make_environment
_messages = Path("/checker/messages.json")
translator = (Translator.from_data(json.loads(_messages.read_text("utf-8")))
              if _messages.exists() else source_translator())
env = make_environment(Path("/checker/project"))
`;

function script(src, integrity) {
  return new Promise(function (resolve, reject) {
    const el = document.createElement("script");
    el.src = src;
    el.integrity = integrity;
    el.crossOrigin = "anonymous";
    el.onload = resolve;
    el.onerror = function () { reject(new Error("cannot load " + src)); };
    document.head.appendChild(el);
  });
}

async function bytes(url, integrity) {
  const response = await fetch(url, {integrity: integrity});
  if (!response.ok) throw new Error(url + ": " + response.status);
  return new Uint8Array(await response.arrayBuffer());
}

// Pyodide and the answer's Python, once per page: resolves to {form, answer}.
function load(locale) {
  if (started) return started;
  started = (async function () {
    const began = performance.now();
    const manifest = await (await fetch(new URL("manifest.json", base))).json();
    const from = new URL(manifest.pyodide, base).href;
    const sums = {};
    for (const name in manifest.files) sums[new URL(name, from).href] = manifest.files[name];
    await script(from + "pyodide.js", manifest.files["pyodide.js"]);
    await script(from + "pyodide.asm.js", manifest.files["pyodide.asm.js"]);
    const own = globalThis.fetch;
    let fail;
    const failed = new Promise(function (resolve, reject) { fail = reject; });
    failed.catch(function () {});  // (said by the race below, or too late to matter)
    globalThis.fetch = function (input, init) {  // Pyodide's own fetches, checked too
      // (a string, a URL object or a Request: Pyodide hands the wasm and the standard
      // library over as URL objects)
      const raw = typeof input === "string" || input instanceof URL ? String(input) : input.url;
      const url = new URL(raw, location.href).href;
      const fetched = own(input, sums[url] ? Object.assign({}, init, {integrity: sums[url]}) : init);
      if (sums[url]) {  // a file of the manifest that fails ends the loading (Pyodide waits)
        fetched.then(function (r) {
          if (!r.ok) fail(new Error(url + ": " + r.status));
          // a file that arrived but never starts (a wasm that does not compile) ends it too
          else setTimeout(function () { fail(new Error(url + ": not started")); },
                          globalThis.checkerStartsWithinMs || STARTS_WITHIN_MS);
        }, fail);
      }
      return fetched;
    };
    let py;
    try {
      py = await Promise.race([globalThis.loadPyodide({indexURL: from}), failed]);
    } finally {
      globalThis.fetch = own;
    }
    const wanted = [bytes(new URL("runtime.zip", base), manifest.runtime),
                    bytes(new URL("templates.zip", base), manifest.templates)];
    if (manifest.messages[locale]) {
      wanted.push(bytes(new URL(locale + ".json", base), manifest.messages[locale]));
    }
    const [runtime, templates, messages] = await Promise.all(wanted);
    py.FS.mkdirTree("/checker/project");
    py.unpackArchive(runtime, "zip", {extractDir: "/checker"});
    py.unpackArchive(templates, "zip", {extractDir: "/checker"});
    if (messages) py.FS.writeFile("/checker/messages.json", messages);
    py.runPython(BOOT);
    const g = py.globals;
    const answerJson = g.get("answer_json"), formJson = g.get("form_json");
    const translator = g.get("translator"), env = g.get("env");
    return {
      loadMs: performance.now() - began,
      form: function (kind) { return JSON.parse(formJson(kind, translator)); },
      answer: function (question) {
        return JSON.parse(answerJson(JSON.stringify(question), translator, env));
      },
    };
  })();
  started.catch(function () { started = null; });  // a later click tries again
  return started;
}

function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const key in attrs || {}) {
    if (key === "text") node.textContent = attrs[key];
    else node.setAttribute(key, attrs[key]);
  }
  for (const child of children || []) node.appendChild(child);
  return node;
}

// A button showing `shown` (a card, a suit sign) and named `name` (as it is spoken).
function named(attrs, shown, name) {
  return el("button", Object.assign({type: "button"}, attrs), [
    el("span", {"aria-hidden": "true", text: shown}),
    el("span", {class: "visually-hidden", text: name})]);
}

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
let counter = 0;

// The address's part for a question: #try=GAME[+PRESET][+OPTION...]:FIELD...[@N].
function encode(q, fields, index) {
  const head = [q.game].concat(q.rules ? [q.rules] : [], q.options).join("+");
  const parts = fields.map(function (f) {
    const words = q.given[f.field] || [];
    if (f.shape === "boolean") return words[0] === "false" ? "0" : "1";
    const lists = f.shape === "card lists" ? words : [words.join(" ")];
    return lists.map(function (w) { return w.trim().split(/\s+/).join("."); }).join("_");
  });
  return "try=" + [head].concat(parts).join(":") + (index > 1 ? "@" + index : "");
}

function decode(hash) {
  const m = /^#try=([^@]*)(?:@(\d+))?$/.exec(hash);
  if (!m) return null;
  let text;
  try {
    text = decodeURIComponent(m[1]);
  } catch (error) {
    return null;  // a malformed address: the table's own question stands
  }
  const parts = text.split(":");
  const head = parts.shift().split("+");
  return {index: m[2] ? Number(m[2]) : 1, game: head[0], rest: head.slice(1), parts: parts};
}

// Builds the form in `box` (once) and answers as the reader changes it.
function build(box, runtime, defaults, index) {
  const form = runtime.form(defaults.kind);
  box.checkerRuntime = runtime;
  const words = form.words;
  const id = "checker-" + (++counter);
  const panel = el("div", {class: "checker__panel", role: "group", "aria-labelledby": id + "-title"});
  panel.appendChild(el("p", {class: "checker__title", id: id + "-title", text: box.querySelector(".checker__open").textContent}));
  const game = el("select", {id: id + "-game"});
  for (const g of form.games) game.appendChild(el("option", {value: g.id, text: g.name}));
  const rules = el("select", {id: id + "-rules"});
  const rulesLabel = el("label", {for: id + "-rules", text: words.rules});
  const options = el("span", {class: "checker__options"});
  panel.appendChild(el("div", {class: "checker__row"}, [
    el("label", {for: id + "-game", text: words.game}), game, rulesLabel, rules, options]));
  const inputs = {};
  let last = null;
  for (const f of form.fields) {
    const fid = id + "-" + f.field;
    if (f.shape === "boolean") {
      const box2 = el("input", {type: "checkbox", id: fid});
      box2.checked = true;
      inputs[f.field] = box2;
      panel.appendChild(el("div", {class: "checker__row"}, [box2, el("label", {for: fid, text: f.label})]));
      continue;
    }
    const input = f.shape === "card lists"
      ? el("textarea", {id: fid, rows: "3", spellcheck: "false", autocapitalize: "characters", "aria-describedby": id + "-codes"})
      : el("input", {type: "text", id: fid, spellcheck: "false", autocomplete: "off", autocapitalize: "characters", "aria-describedby": id + "-codes"});
    input.addEventListener("focus", function () { last = input; });
    inputs[f.field] = input;
    last = last || input;
    panel.appendChild(el("div", {class: "checker__field"}, [el("label", {for: fid, text: f.label}), input]));
  }
  panel.appendChild(el("p", {class: "checker__hint", id: id + "-codes", text: words.codes}));
  // The picker: a suit, then a card of it (each button named as the card is spoken).
  const picker = el("div", {class: "checker__picker", role: "group", "aria-label": words.picker});
  const suits = el("div", {class: "checker__suits"});
  const cards = el("div", {class: "checker__cards"});
  let suit = "H";
  function showSuit() {
    cards.textContent = "";
    for (const r of RANKS.concat(["JK"])) {
      const code = r === "JK" ? "JK" : r + suit;
      const symbol = r === "JK" ? "JK" : r + SUITS.find(function (s) { return s[0] === suit; })[1];
      const b = named({class: "checker__card", "data-code": code}, symbol, form.names[code]);
      if ((suit === "H" || suit === "D") && r !== "JK") b.classList.add("card--red");
      cards.appendChild(b);
    }
    for (const b of suits.children) b.setAttribute("aria-pressed", String(b.dataset.suit === suit));
  }
  for (const s of SUITS) {
    const b = named({class: "checker__suit", "data-suit": s[0]}, s[1], form.suits[s[0]]);
    if (s[0] === "H" || s[0] === "D") b.classList.add("card--red");
    b.addEventListener("click", function () { suit = s[0]; showSuit(); });
    suits.appendChild(b);
  }
  cards.addEventListener("click", function (event) {
    const b = event.target.closest("[data-code]");
    if (!b || !last) return;
    last.value = (last.value.replace(/\s+$/, "") + " " + b.dataset.code).trim();
    changed();
  });
  picker.appendChild(el("span", {class: "checker__label", text: words.suit}));
  picker.appendChild(suits);
  picker.appendChild(cards);
  showSuit();
  panel.appendChild(picker);
  const clear = el("button", {type: "button", class: "checker__clear", text: words.clear});
  const copy = el("button", {type: "button", class: "checker__copy", text: words.copy});
  const copied = el("span", {class: "checker__copied", role: "status"});
  panel.appendChild(el("div", {class: "checker__row"}, [clear, copy, copied]));
  const out = el("div", {class: "checker__answer", "aria-live": "polite", "aria-atomic": "true"});
  panel.appendChild(out);
  box.appendChild(panel);

  let current = null;
  function setGame(chosen) {
    const g = form.games.find(function (x) { return x.id === chosen; }) || form.games[0];
    game.value = g.id;
    rules.textContent = "";
    for (const p of g.presets) rules.appendChild(el("option", {value: p.id, text: p.name}));
    rules.hidden = rulesLabel.hidden = !g.presets.length;
    options.textContent = "";
    for (const o of g.options) {
      const oid = id + "-" + o.id;
      options.appendChild(el("input", {type: "checkbox", id: oid, "data-option": o.id}));
      options.appendChild(el("label", {for: oid, text: o.name}));
    }
  }
  function question() {
    const q = {kind: defaults.kind, game: game.value, rules: rules.hidden ? "" : rules.value,
               options: [], given: {}};
    for (const o of options.querySelectorAll("[data-option]")) if (o.checked) q.options.push(o.dataset.option);
    for (const f of form.fields) {
      const input = inputs[f.field];
      if (f.shape === "boolean") q.given[f.field] = [input.checked ? "true" : "false"];
      else if (f.shape === "card lists") {
        const lists = input.value.split("\n").map(function (s) { return s.trim(); }).filter(Boolean);
        if (lists.length) q.given[f.field] = lists;
      } else if (input.value.trim()) q.given[f.field] = input.value.trim().split(/\s+/);
    }
    return q;
  }
  function changed() {
    const q = question();
    const empty = form.fields.every(function (f) { return f.shape === "boolean" || !q.given[f.field]; });
    copied.textContent = "";
    if (empty) {
      current = box.checkerAnswer = null;
      out.textContent = words.empty;
      return;
    }
    const began = performance.now();
    current = box.checkerAnswer = runtime.answer(q);
    box.dataset.answerMs = String(performance.now() - began);
    if (current.problem) {
      out.textContent = "";
      out.appendChild(el("p", {class: "checker__problem", text: current.problem}));
    } else {
      out.innerHTML = current.html;  // the generator's own templates, escaped there
    }
    copy.disabled = !current.case;
    history.replaceState(null, "", "#" + encode(q, form.fields, index));
  }
  let timer = 0;
  panel.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(changed, 120); });
  game.addEventListener("change", function () { setGame(game.value); changed(); });
  rules.addEventListener("change", changed);
  options.addEventListener("change", changed);
  clear.addEventListener("click", function () {
    for (const f of form.fields) if (f.shape !== "boolean") inputs[f.field].value = "";
    changed();
  });
  copy.addEventListener("click", function () {
    if (!current || !current.case || !navigator.clipboard) return;
    navigator.clipboard.writeText(current.case).then(function () { copied.textContent = words.copied; });
  });
  // The table's question first, then the address's.
  setGame(defaults.game);
  if (defaults.rules) rules.value = defaults.rules;
  // (an option's box found by comparing, not by a selector: the address's words are
  // anything a link holds)
  function tick(option) {
    for (const b of options.querySelectorAll("[data-option]")) if (b.dataset.option === option) b.checked = true;
  }
  for (const o of defaults.options || []) tick(o);
  const wanted = decode(location.hash);
  if (wanted && wanted.index === index) {
    setGame(wanted.game);
    for (const r of wanted.rest) {
      if ([].some.call(rules.options, function (x) { return x.value === r; })) rules.value = r;
      tick(r);
    }
    form.fields.forEach(function (f, i) {
      const part = wanted.parts[i] || "";
      if (f.shape === "boolean") inputs[f.field].checked = part !== "0";
      else inputs[f.field].value = part.split("_").map(function (s) { return s.split(".").join(" "); }).join(f.shape === "card lists" ? "\n" : " ");
    });
  }
  changed();
  // in view below the sticky contents bar (the box's scroll-margin), then focused
  box.scrollIntoView({ block: "nearest" });
  (last || game).focus({ preventScroll: true });
}

// Opens the checker `box` (a div.checker of cases.html): loads, then builds its form.
export async function open(box, index) {
  const button = box.querySelector(".checker__open");
  const status = box.querySelector(".checker__status") || box.appendChild(el("p", {class: "checker__status", role: "status"}));
  if (typeof WebAssembly !== "object") {
    status.textContent = box.dataset.unsupported;
    return;
  }
  button.setAttribute("aria-expanded", "true");
  button.disabled = true;
  status.textContent = box.dataset.loading;
  const bar = status.appendChild(el("progress", {"aria-label": box.dataset.loading}));
  try {
    const locale = (document.documentElement.lang || "en").replace("-", "_");
    const runtime = await load(locale);
    box.dataset.loadMs = String(runtime.loadMs);
    bar.remove();
    status.textContent = "";
    build(box, runtime, JSON.parse(box.dataset.checker), index);
    button.hidden = true;
  } catch (error) {
    bar.remove();
    const half = box.querySelector(".checker__panel");
    if (half) half.remove();  // a form that failed half-way is not left on the page
    status.textContent = box.dataset.failed;
    button.disabled = false;
    button.setAttribute("aria-expanded", "false");
  }
}
