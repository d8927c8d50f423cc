"""The card checker in a real browser (tests/test_browser.py's Chromium), on the
repository's project built with a self-hosted Pyodide (npm's ``pyodide`` in
``.ci/node_modules``, which ``.ci/run`` installs: no network).

The browser's answers equal ``explain``'s (the same case text, verdict, points and
reasoning): on a page's checker opened from its address, in two locales; on seeded
random inputs of every checker's kind in every locale (a few by default, more in the
extended round: :data:`RANDOM_PER_KIND`). A checker opened and used by keyboard alone on a
phone-wide page announces its answer; axe finds nothing in it. The times (a cold load,
a warm one, an answer after a change of cards) go to ``checker-times.json`` in the
screenshots' folder with the shots at 375 and 1280 px.
"""

from __future__ import annotations

import base64
import json
import os
import random
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.commands.checker import Question
from generator.commands.checker import answer
from generator.commands.checker import checker_kinds
from generator.commands.explain import ExplainRequest
from generator.commands.explain import explain
from generator.config import PYODIDE_FILES
from generator.engine.cards import all_cards
from generator.engine.rules import options_of
from generator.engine.rules import presets_of
from generator.i18n.catalog import source_translator
from generator.kinds import KINDS
from generator.render.checker_files import sri
from generator.render.environment import make_environment
from tests.conftest import REPO
from tests.conftest import repo_translator
from tests.conftest import run_cli
from tests.test_browser import _skip
from tests.test_browser import _width
from tests.test_browser import axe_source  # noqa: F401 - fixtures
from tests.test_browser import browser  # noqa: F401
from tests.test_browser import serving
from tests.test_browser import shots  # noqa: F401
from tests.test_checker import REFUSED

pytestmark = pytest.mark.browser

NPM_PYODIDE = Path(os.environ.get("RULES_PYODIDE", REPO / ".ci" / "node_modules" / "pyodide"))
LOCALES = ("en", "cs", "sk", "et", "de", "pl", "hu")
EXTENDED = os.environ.get("RULES_EXTENDED") == "1"
RANDOM_PER_KIND = int(os.environ.get("RULES_CHECKER_RANDOM", "29" if EXTENDED else "3"))
"""Random inputs per kind and locale: 29 in the extended round (203 of each kind over the
seven locales, about a minute), a few by default; ``RULES_CHECKER_RANDOM=200``: 200 of
each kind in every locale (8,400 questions, about 6 minutes on 2 processors)."""


@pytest.fixture(scope="module")
def checker_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's project built with ``pyodide: pyodide``, npm's files copied in."""
    if not (NPM_PYODIDE / "pyodide.js").is_file():
        _skip(f"npm's pyodide is not installed at {NPM_PYODIDE} (npm install --prefix .ci "
              "pyodide; .ci/run does)")
    root = tmp_path_factory.mktemp("checker")
    project = root / "project"
    shutil.copytree(REPO / "content", project / "content")
    shutil.copytree(REPO / "locales", project / "locales")
    (project / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copyfile(NPM_PYODIDE / name, project / "pyodide" / name)
    (project / "site.yaml").write_text("pyodide: pyodide\n", encoding="utf-8")
    done = run_cli("build", "--project", str(project), "--out", str(root / "site"),
                   "--no-cache")
    assert done.returncode == 0, done.stdout + done.stderr
    return root / "site"


@pytest.fixture(scope="module")
def checker_server(checker_site: Path) -> Iterator[str]:
    """The checker's site served over HTTP: its base URL."""
    with serving(checker_site) as url:
        yield url


AXE_IN = """
const done = arguments[arguments.length - 1];
axe.run(document.querySelector(arguments[0]), {resultTypes: ["violations"]}).then(
  (r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact,
    targets: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}))),
  (e) => done([{id: "axe-error", targets: [String(e)]}]));
"""
"""axe-core's violations inside the element ``arguments[0]`` (a selector)."""


def _shot_of(driver: Any, element: Any, path: Path) -> None:
    """A screenshot of ``element``'s box as PNG."""
    box = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height};",
        element)
    data = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "clip": {**box, "scale": 1}})
    path.write_bytes(base64.b64decode(data["data"]))


def _boxes(driver: Any) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, ".checker"))


def _index_of(driver: Any, kind: str) -> int:
    """The 1-based place of the page's first checker of ``kind``."""
    for i, box in enumerate(_boxes(driver), 1):
        if json.loads(box.get_attribute("data-checker"))["kind"] == kind:
            return i
    raise AssertionError(f"no checker of {kind} on the page")


def _answered(driver: Any, seconds: float = 180) -> dict[str, Any]:
    """The first opened checker's answer, once it has one, with its times."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = driver.execute_script(
            "const b = [...document.querySelectorAll('.checker')].find(b => b.checkerAnswer);"
            "return b ? {answer: b.checkerAnswer, load: b.dataset.loadMs,"
            " change: b.dataset.answerMs, live: b.querySelector('[aria-live]').innerText}"
            " : null;")
        if found:
            return dict(found)
        failed = driver.execute_script(
            "const s = document.querySelector('.checker__status'); return s && s.innerText;")
        assert not failed or "…" in failed, failed
        time.sleep(0.1)
    raise AssertionError("no answer")


def _printed(kind: str, game: str, rules: str | None, options: list[str],
             given: dict[str, list[str]], lang: str) -> str:
    report = explain(ExplainRequest(kind=kind, game=game, rules=rules, options=options,
                                    given=given, lang=lang, project=REPO))
    assert report.errors == []
    return report.text


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_an_address_opens_the_checker_and_it_answers_as_explain(
        browser: Any, checker_server: str, lang: str) -> None:  # noqa: F811
    """``#try=rami51+reference:QH.KH.AH@N`` opens the page's meld checker with those cards;
    its answer is the case ``explain --lang`` prints, and the row's words."""
    browser.get(f"{checker_server}{lang}/rules/index.html")
    index = _index_of(browser, "meld")
    browser.get(f"{checker_server}{lang}/rules/index.html#try=rami51+reference:QH.KH.AH@{index}")
    browser.refresh()
    found = _answered(browser)
    printed = _printed("meld", "rami51", "reference", [], {"cards": ["QH", "KH", "AH"]}, lang)
    assert found["answer"]["case"] == printed
    assert found["answer"]["points_text"] == "31"
    assert found["answer"]["verdict_text"] in found["live"]
    assert all(r in found["live"] for r in found["answer"]["reasoning"])
    assert browser.get_log("browser") == []


def test_a_malformed_address_leaves_the_checker_usable(
        browser: Any, checker_server: str) -> None:  # noqa: F811
    """An address whose ``#try=`` is no valid percent-encoding is not read: a checker
    opened on that page builds one form with the table's own question, says no failure,
    and logs nothing."""
    from selenium.webdriver.common.by import By

    browser.get(f"{checker_server}cs/rules/index.html#try=%E0%A4%A")
    browser.refresh()
    box = _boxes(browser)[0]
    browser.execute_script("arguments[0].querySelector('.checker__open').click()", box)
    deadline = time.monotonic() + 180
    while not box.find_elements(By.CSS_SELECTOR, ".checker__answer"):
        assert time.monotonic() < deadline, "the checker did not open"
        time.sleep(0.1)
    panels, status, said = browser.execute_script(
        "const b = arguments[0]; const s = b.querySelector('.checker__status');"
        "return [b.querySelectorAll('.checker__panel').length, s ? s.textContent : '',"
        " b.querySelector('.checker__answer').textContent];", box)
    assert (panels, status) == (1, "")
    assert said == "Zadej karty a zkontrolujeme je."  # the table's question: no cards
    assert browser.get_log("browser") == []
    # an option no game has, with a quotation mark: dropped, the cards answered
    index = _index_of(browser, "meld")
    browser.get(f"{checker_server}cs/rules/index.html#try=rami51+x%22%5D:QH.KH.AH@{index}")
    browser.refresh()
    assert _answered(browser)["answer"]["points_text"] == "31"


def _random_question(kind: str, rng: random.Random) -> Question:
    """A seeded random question of ``kind`` (most of which no page holds)."""
    spec = KINDS[kind]
    game = rng.choice(list(spec.games))
    presets = list(presets_of(game))
    options = tuple(o for o in options_of(game) if rng.random() < 0.5)
    deck = list(all_cards())

    def cards(n: int) -> str:
        return " ".join(c.code for c in rng.sample(deck, n))

    given: dict[str, tuple[str, ...]] = {}
    for argument in spec.arguments:
        if argument.shape == "boolean":
            given[argument.field] = (rng.choice(["true", "false"]),)
        elif argument.shape == "card":
            given[argument.field] = (rng.choice(deck).code,)
        elif argument.shape == "card lists":
            given[argument.field] = tuple(cards(rng.randint(3, 4))
                                          for _ in range(rng.randint(1, 3)))
        elif kind == "best_opening":
            given[argument.field] = tuple(cards(rng.choice([13, 14])).split())
        else:
            given[argument.field] = tuple(cards(rng.randint(2, 5)).split())
    return Question(kind, game, rng.choice(presets) if presets else None, options, given)


def _example_questions() -> list[Question]:
    """Every example of the repository's case files of a checker's kind, as a question
    (its inputs as ``explain`` takes them; the file's ``defaults`` filled in)."""
    kinds = {k.name: k for k in checker_kinds()}
    found: list[Question] = []
    for path in sorted((REPO / "content" / "examples").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        defaults = data.get("defaults") or {}
        for case in data.get("cases", []):
            case = {**defaults, **case}
            kind = kinds.get(case.get("kind", ""))
            if kind is None:
                continue
            given: dict[str, tuple[str, ...]] = {}
            for argument in kind.arguments:
                value = case.get(argument.field)
                if value is None:
                    continue
                if argument.shape == "boolean":
                    given[argument.field] = ("true" if value else "false",)
                elif argument.shape == "card lists":
                    given[argument.field] = tuple(
                        " ".join(v) if isinstance(v, list) else str(v) for v in value)
                else:
                    given[argument.field] = tuple(
                        " ".join(value).split() if isinstance(value, list)
                        else str(value).split())
            options = tuple(sorted(k for k, v in (case.get("options") or {}).items() if v))
            rules = case.get("rules") if presets_of(case["game"]) else None
            found.append(Question(kind.name, case["game"], rules, options, given))
    return found


def _same_answers(browser: Any, server: str, lang: str,  # noqa: F811
                  questions: list[Question]) -> None:
    """The browser's answers (the Pyodide runtime of a checker opened on ``lang``'s rules
    page) to ``questions`` equal the answers here, whose case is ``explain``'s text (a
    problem: the same words)."""
    env = make_environment(REPO)
    browser.get(f"{server}{lang}/rules/index.html#try=rami51:QH.KH.AH")
    browser.refresh()
    _answered(browser)
    translator = source_translator() if lang == "en" else repo_translator(lang)
    data = [{"kind": q.kind, "game": q.game, "rules": q.rules or "",
             "options": list(q.options), "given": {k: list(v) for k, v in q.given.items()}}
            for q in questions]
    got = browser.execute_script(
        "const b = [...document.querySelectorAll('.checker')].find(b => b.checkerRuntime);"
        "return arguments[0].map(q => b.checkerRuntime.answer(q));", data)
    for question, said in zip(questions, got, strict=True):
        here = answer(question, translator, env)
        assert said["problem"] == here.problem, question
        assert said["case"] == here.case, question
        assert said["reasoning"] == list(here.reasoning), question
        assert (said["verdict_text"], said["points_text"]) == \
            (here.verdict_text, here.points_text), question
        if not here.problem:
            assert here.case == _printed(
                question.kind, question.game, question.rules, list(question.options),
                {k: list(v) for k, v in question.given.items()}, lang)


def _random_questions(lang: str, per_kind: int) -> list[Question]:
    rng = random.Random(f"checker-{lang}")
    return [_random_question(k.name, rng) for k in checker_kinds() for _ in range(per_kind)]


@pytest.mark.parametrize("lang", LOCALES)
def test_every_example_answers_as_explain(browser: Any, checker_server: str,  # noqa: F811
                                          lang: str) -> None:
    """Every example of a checker's kind, a few seeded random inputs of each kind and one
    input the kind refuses per reason: the browser's answer is ``explain``'s (the
    refusal in the locale's words), in every locale."""
    examples = _example_questions()
    assert len(examples) > 60
    refused = [question for question, *_ in REFUSED]
    _same_answers(browser, checker_server, lang,
                  examples + _random_questions(lang, 3) + refused)


@pytest.mark.extended
@pytest.mark.parametrize("lang", LOCALES)
def test_random_inputs_answer_as_explain(browser: Any, checker_server: str,  # noqa: F811
                                        lang: str) -> None:
    """Seeded random inputs that no page holds, :data:`RANDOM_PER_KIND` of each
    checker's kind: the browser's answer is ``explain``'s."""
    _same_answers(browser, checker_server, lang, _random_questions(lang, RANDOM_PER_KIND))


def test_by_keyboard_on_a_phone(
        browser: Any, checker_server: str, axe_source: str,  # noqa: F811
        shots: Path) -> None:  # noqa: F811
    """At 320 px, the meld checker is opened with Enter, cards are typed and picked with
    the keyboard alone, and the live region announces the answer; axe finds nothing in
    the checker; the times and the screenshots at 375 and 1280 px are kept."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    _width(browser, 320)
    began = time.monotonic()
    browser.get(f"{checker_server}cs/rules/index.html")
    box = _boxes(browser)[_index_of(browser, "meld") - 1]
    button = box.find_element(By.CSS_SELECTOR, ".checker__open")
    browser.execute_script("arguments[0].scrollIntoView(); arguments[0].focus();", button)
    button.send_keys(Keys.ENTER)
    deadline = time.monotonic() + 180
    while not box.find_elements(By.CSS_SELECTOR, ".checker__panel"):
        assert time.monotonic() < deadline, "the checker did not open"
        time.sleep(0.1)
    cold = time.monotonic() - began
    uncovered = browser.execute_script(
        "const bar = document.querySelector('.toc--mobile').getBoundingClientRect();"
        "return arguments[0].getBoundingClientRect().top >= bar.bottom - 1;", box)
    assert uncovered, "the sticky contents bar covers the opened checker's top"
    field = browser.switch_to.active_element
    assert field.get_attribute("id").endswith("-cards")
    field.send_keys("QH KH")
    suit = box.find_element(By.CSS_SELECTOR, '.checker__suit[data-suit="H"]')
    suit.send_keys(Keys.ENTER)  # (a button pressed from the keyboard)
    ace = box.find_element(By.CSS_SELECTOR, '.checker__card[data-code="AH"]')
    assert ace.accessible_name == "srdcové eso"
    ace.send_keys(Keys.ENTER)
    deadline = time.monotonic() + 20
    live = box.find_element(By.CSS_SELECTOR, ".checker__answer[aria-live=polite]")
    while "Platná postupka" not in live.text:
        assert time.monotonic() < deadline, live.text
        time.sleep(0.05)
    assert field.get_attribute("value") == "QH KH AH"
    assert "31" in live.text
    scroll = browser.execute_script("return document.scrollingElement.scrollWidth - "
                                    "document.scrollingElement.clientWidth")
    assert scroll <= 1
    browser.execute_script(axe_source)
    browser.execute_script("arguments[0].id = 'checker-under-test'", box)
    found = browser.execute_async_script(AXE_IN, "#checker-under-test")
    assert found == [], found
    times = {"cold_open_s": round(cold, 2), "load_ms": float(box.get_attribute("data-load-ms")),
             "change_to_answer_ms": float(box.get_attribute("data-answer-ms"))}
    for width in (375, 1280):
        _width(browser, width, 1400)  # (tall enough for the whole checker)
        browser.execute_script(
            "arguments[0].scrollIntoView({block: 'start', behavior: 'instant'})", box)
        time.sleep(0.3)  # (the layout settles at the new width)
        _shot_of(browser, box, shots / f"checker-cs-{width}.png")
    browser.get(f"{checker_server}cs/rules/index.html")
    began = time.monotonic()
    box = _boxes(browser)[_index_of(browser, "meld") - 1]
    browser.execute_script("arguments[0].querySelector('.checker__open').click()", box)
    while not box.find_elements(By.CSS_SELECTOR, ".checker__panel"):
        time.sleep(0.05)
    times["warm_open_s"] = round(time.monotonic() - began, 2)
    times["warm_load_ms"] = float(box.get_attribute("data-load-ms"))
    (shots / "checker-times.json").write_text(json.dumps(times, indent=1))
    print(f"checker times: {times}")


BREAKS = {
    "no WebAssembly": None,
    "a runtime whose hash differs": "runtime",
    "a standard library one byte longer": "pyodide/python_stdlib.zip",
    "no wasm file": "pyodide/pyodide.asm.wasm",
    "a wasm that does not compile, with its hash": "pyodide/pyodide.asm.wasm:empty",
}
"""The ways a checker cannot load, and the file of the site's ``checker/`` each breaks
(the manifest's hash of the runtime; Pyodide's files that it fetches itself)."""


@pytest.mark.parametrize("why", BREAKS)
def test_it_fails_politely(browser: Any, checker_site: Path,  # noqa: F811
                           tmp_path: Path, why: str) -> None:
    """Without WebAssembly, when a file's integrity hash differs (the runtime, or
    Pyodide's own standard library) or a file is missing, the checker says so in the
    page's language, its button comes back, no half-built form stays and the page's
    tables are as they were."""
    from selenium.webdriver.common.by import By

    broken = tmp_path / "site"
    shutil.copytree(checker_site, broken)
    part = BREAKS[why]
    if part == "runtime":
        manifest = json.loads((broken / "checker" / "manifest.json").read_text())
        manifest["runtime"] = "sha384-" + "A" * 64
        (broken / "checker" / "manifest.json").write_text(json.dumps(manifest))
    elif part is not None and part.endswith(":empty"):
        (broken / "checker" / part.removesuffix(":empty")).write_bytes(b"")
        manifest = json.loads((broken / "checker" / "manifest.json").read_text())
        manifest["files"]["pyodide.asm.wasm"] = sri(b"")
        (broken / "checker" / "manifest.json").write_text(json.dumps(manifest))
    elif part is not None and part.endswith(".zip"):
        with (broken / "checker" / part).open("ab") as grown:
            grown.write(b"\0")
    elif part is not None:
        (broken / "checker" / part).unlink()
    said = ("Tento prohlížeč kontrolu karet nespustí: potřebuje WebAssembly." if part is None
            else "Kontrolu karet se nepodařilo načíst; příklady zůstávají beze změny.")
    with serving(broken) as base:
        browser.get(f"{base}cs/rules/index.html")
        rows = len(browser.find_elements(By.CSS_SELECTOR, "table.cases tr[id]"))
        if part is None:
            browser.execute_script("delete window.WebAssembly")
        browser.execute_script("window.checkerStartsWithinMs = 5000")  # (60 s on a site)
        box = _boxes(browser)[0]
        box.find_element(By.CSS_SELECTOR, ".checker__open").click()
        deadline = time.monotonic() + 180
        status = box.find_element(By.CSS_SELECTOR, ".checker__status") \
            if box.find_elements(By.CSS_SELECTOR, ".checker__status") else None
        while status is None or status.text != said:
            assert time.monotonic() < deadline, status.text if status else None
            time.sleep(0.1)
            found = box.find_elements(By.CSS_SELECTOR, ".checker__status")
            status = found[0] if found else None
        assert box.find_element(By.CSS_SELECTOR, ".checker__open").is_enabled()
        assert not box.find_elements(By.CSS_SELECTOR, ".checker__panel")
        assert len(browser.find_elements(By.CSS_SELECTOR, "table.cases tr[id]")) == rows
