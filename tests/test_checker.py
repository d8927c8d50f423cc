"""The card checker: its answer equals what ``explain`` prints and the example rows show;
what the build packs for it (the runtime, the messages, Pyodide's manifest with integrity
hashes) within its budget; ``site.yaml``'s ``pyodide``; the runtime imports nothing
beyond what is packed."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from generator.cache import input_digests
from generator.commands.checker import Question
from generator.commands.checker import answer
from generator.commands.checker import checker_kinds
from generator.commands.checker import form
from generator.commands.explain import ExplainRequest
from generator.commands.explain import explain
from generator.config import PYODIDE_FILES
from generator.config import load_config
from generator.engine.codes import InputReason
from generator.i18n.catalog import source_translator
from generator.i18n.explain import Words
from generator.layout import Layout
from generator.render.checker_files import LOCALE_BUDGET
from generator.render.checker_files import PYODIDE_CDN_URL
from generator.render.checker_files import PYODIDE_SRI
from generator.render.checker_files import RUNTIME_BUDGET
from generator.render.checker_files import checker_files
from generator.render.checker_files import sri
from generator.render.checker_words import REFUSALS
from generator.render.checker_words import YOUR_CARDS
from generator.render.checker_words import your_cards
from generator.render.environment import make_environment
from tests.conftest import REPO
from tests.conftest import parsed_page
from tests.conftest import repo_translator
from tests.conftest import run_cli

NPM_PYODIDE = REPO / ".ci" / "node_modules" / "pyodide"


def test_the_checkers_kinds() -> None:
    """A checker stands beside the six kinds whose inputs a reader types or picks."""
    assert [k.name for k in checker_kinds()] == [
        "meld", "first_meld", "hand", "layoff", "joker_swap", "best_opening"]


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_the_answer_is_what_explain_prints(lang: str) -> None:
    """The case "Copy as a case" copies is explain's, and the row shows the engine's
    verdict, points and reasoning in the locale."""
    translator = source_translator() if lang == "en" else repo_translator(lang)
    env = make_environment(REPO)
    found = answer(Question("meld", "rami51", "house", (), {"cards": ("JK", "7S", "8S")}),
                   translator, env)
    printed = explain(ExplainRequest(kind="meld", game="rami51", rules="house",
                                     given={"cards": ["JK", "7S", "8S"]}, lang=lang,
                                     project=REPO))
    assert found.problem == ""
    assert found.case == printed.text
    assert found.verdict == "valid"
    assert found.points_text == "30"
    assert f"# {found.reasoning[0]}" in printed.text
    assert 'class="verdict verdict--ok"' in found.html
    assert 'id="try-rami51-house-meld-jk-7s-8s"' in found.html
    if lang == "cs":
        assert found.verdict_text == "Platná postupka"
        assert "Tvoje karty" in found.html


@pytest.mark.parametrize(("code", "said"), [
    ("QX", "QX není karta: její barva není S, H, D ani C (♠ ♥ ♦ ♣)."),
    ("1H", "1H není karta: její hodnota není 2 až 10, J, Q, K ani A."),
    ("Q", "Q není karta: karta se píše jako hodnota a barva, např. QH, a žolík jako JK."),
    ("QH,KH,AH", "QH,KH,AH není karta: karty odděluj mezerami, např. QH KH AH."),
])
def test_a_typed_code_that_names_no_card_is_said_in_the_locale(code: str, said: str) -> None:
    found = answer(Question("meld", "rami51", None, (), {"cards": ("QH", code)}),
                   repo_translator("cs"), make_environment(REPO))
    assert found.problem == said
    assert found.case == ""


def test_a_field_without_cards_and_inputs_the_kind_refuses() -> None:
    env = make_environment(REPO)
    empty = answer(Question("layoff", "rami51", None, (), {"meld": ("QH KH AH",)}),
                   source_translator(), env)
    assert empty.problem == "Enter the cards of every field to check them."
    short = answer(Question("best_opening", "rami51", None, (), {"cards": ("QH", "KH")}),
                   source_translator(), env)
    assert short.problem == ("A best opening is sought in a hand as dealt or after drawing: "
                             "13 or 14 cards (here: 2).")


REFUSED = [
    (Question("meld", "rami51", None, (), {"cards": ("QH QH QH QH",)}), "cs",
     InputReason.TOO_MANY_COPIES,
     "Karta Q♥ je tu 4krát, ale ve hře Rami 51 jsou nejvýš 3 sady karet, takže každá karta "
     "je v nich nejvýš 3krát."),
    (Question("hand", "cardverse", None, (), {"cards": ("AH AH KH",)}), "pl",
     InputReason.TOO_MANY_COPIES,
     "Karta A♥ występuje tu 2 razy, ale w CardVerse gra się jedną talią, w której każda "
     "karta jest tylko raz."),
    (Question("meld", "cardverse", None, (), {"cards": ("QH JK KH",)}), "de",
     InputReason.NO_JOKERS, "CardVerse wird ohne Joker gespielt."),
    (Question("meld", "rami51", "house", (), {"cards": ("JK " * 7,)}), "sk",
     InputReason.TOO_MANY_JOKERS, "V hre Rami 51 sú najviac 4 žolíky (tu: 7)."),
    (Question("best_opening", "rami51", None, (), {"cards": ("QH KH AH",)}), "et",
     InputReason.NOT_A_HAND_SIZE,
     "Parimat avamist otsitakse terves käes, nagu see jagati või pärast kaardi võtmist: "
     "13 või 14 kaarti (siin: 3)."),
    (Question("layoff", "rami51", None, (), {"meld": ("QH KH",), "cards": ("AH",)}), "hu",
     InputReason.TABLE_MELD_INVALID,
     "Az asztalon lévő kombináció (Q♥ K♥) nem érvényes. Egy kombinációhoz legalább három "
     "lap kell."),
    (Question("joker_swap", "rami51", None, (), {"meld": ("JK 7S 8S",), "card": ("JK",)}),
     "cs", InputReason.JOKER_FOR_JOKER, "Na místo žolíka patří přirozená karta, ne žolík."),
]


def test_every_input_reason_has_the_readers_words() -> None:
    assert sorted(REFUSALS) == sorted(InputReason)
    assert sorted({code for *_, code, _said in REFUSED}) == sorted(InputReason)


@pytest.mark.parametrize(("question", "lang", "code", "said"), REFUSED,
                         ids=[str(code) for *_, code, _said in REFUSED])
def test_inputs_the_kind_refuses_are_said_in_the_locale(
        question: Question, lang: str, code: InputReason, said: str) -> None:
    """Cards the loader refuses (valid codes, but not a question the game can be asked)
    are said in the reader's language from the error's code, with the card's label, the
    game's name and the meld's reason, not the loader's English words."""
    printed = explain(ExplainRequest(kind=question.kind, game=question.game,
                                     rules=question.rules, given={
                                         k: list(v) for k, v in question.given.items()}))
    assert [e.code for e in printed.input_errors][:1] == [code]
    found = answer(question, repo_translator(lang), make_environment(REPO))
    assert found.problem == said
    assert found.case == ""


def test_a_field_of_one_card_given_two() -> None:
    """Two cards where the joker's place takes one: said in the locale, with the field's
    label (the loader would call "6S 9S" a card of a bad rank, in English)."""
    found = answer(Question("joker_swap", "rami51", None, (),
                            {"meld": ("JK 7S 8S",), "card": ("6S 9S",)}),
                   repo_translator("cs"), make_environment(REPO))
    assert found.problem == "Karta místo žolíka: zadej jen jednu kartu."


def test_the_first_error_of_each_code_is_said() -> None:
    """Two cards used too often and a joker in a game without: one sentence per code."""
    found = answer(Question("meld", "cardverse", None, (), {"cards": ("AH AH KH KH JK",)}),
                   source_translator(), make_environment(REPO))
    assert found.problem == (
        "A♥ is used 2 times, but CardVerse is played with one deck, which holds each card "
        "once. CardVerse is played without jokers.")


def test_the_form_names_every_card_in_the_locale() -> None:
    offered = form("joker_swap", repo_translator("cs"))
    assert [g["id"] for g in offered["games"]] == ["rami40", "rami51"]
    assert [p["id"] for p in offered["games"][1]["presets"]] == ["reference", "house"]
    assert [f["field"] for f in offered["fields"]] == ["meld", "card", "opened"]
    assert offered["names"]["QH"] == "srdcová dáma"
    assert len(offered["names"]) == 53
    assert offered["suits"]["H"] == "Srdce"
    assert your_cards(Words(source_translator())) == YOUR_CARDS


def test_the_built_site_holds_the_checker_within_its_budget(built_site: Path) -> None:
    """The default: Pyodide from its CDN at the pinned version with integrity hashes;
    the runtime and each locale's messages within their budgets (docs/site.md)."""
    folder = built_site / "checker"
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["pyodide"] == PYODIDE_CDN_URL
    assert manifest["files"] == dict(PYODIDE_SRI)
    runtime = (folder / "runtime.zip").read_bytes()
    assert manifest["runtime"] == sri(runtime)
    assert len(runtime) <= RUNTIME_BUDGET
    names = set(zipfile.ZipFile(io.BytesIO(runtime)).namelist())
    assert {"generator/commands/checker.py", "generator/theme/kinds/meld.html",
            "jinja2/__init__.py", "babel/locale-data/cs.dat"} <= names
    assert "babel/locale-data/fr.dat" not in names
    assert not any(n.startswith(("generator/scaffold/", "generator/locales/")) for n in names)
    for lang, digest in manifest["messages"].items():
        data = (folder / f"{lang}.json").read_bytes()
        assert sri(data) == digest
        assert len(data) <= LOCALE_BUDGET


def test_a_page_gains_one_hidden_button_per_table(built_site: Path) -> None:
    """Each table of a checker's kind has one button, hidden until the script shows it,
    with the table's game and preset; no other kind's table has one."""
    page = parsed_page(built_site / "cs" / "rules" / "index.html")
    boxes = page.select("div.checker")
    assert boxes and all(b.has_attr("hidden") for b in boxes)
    button = boxes[0].select_one("button")
    assert button is not None and button.get_text() == "Vyzkoušej své karty"
    questions = [json.loads(str(b["data-checker"])) for b in boxes]
    kinds = {k.name for k in checker_kinds()}
    assert all(q["kind"] in kinds for q in questions)
    tables = [t for t in page.select("table.cases")
              if any(f"cases--{k}" in t["class"] for k in kinds)]
    assert len(tables) == len(boxes)
    assert not page.select('script[src*="checker"]')


def test_the_runtime_imports_nothing_but_what_is_packed(built_site: Path,
                                                        tmp_path: Path) -> None:
    """Unpacked on its own (no site-packages, no fcntl, no jsonschema, as in Pyodide),
    the runtime answers."""
    zipfile.ZipFile(built_site / "checker" / "runtime.zip").extractall(tmp_path)
    code = (
        "import sys, types\n"
        "sys.modules['fcntl'] = None; sys.modules['jsonschema'] = None\n"
        "sys.modules['fcntl'] = types.ModuleType('fcntl')\n"
        f"sys.path[:0] = [{str(tmp_path)!r}]\n"
        "from pathlib import Path\n"
        "from generator.commands.checker import answer_json\n"
        "from generator.i18n.catalog import source_translator\n"
        "from generator.render.environment import make_environment\n"
        f"Path({str(tmp_path / 'project')!r}).mkdir()\n"
        "print(answer_json('{\"kind\": \"meld\", \"game\": \"rami51\", \"given\": "
        "{\"cards\": [\"QH\", \"KH\", \"AH\"]}}', source_translator(), "
        f"make_environment(Path({str(tmp_path / 'project')!r}))))\n")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert (said["verdict"], said["points_text"]) == ("valid", "31")


def _copy_pyodide(project: Path) -> None:
    (project / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        (project / "pyodide" / name).write_bytes(f"fake {name}".encode())


def test_a_pyodide_folder_is_copied_with_its_hashes(lean_project: Path) -> None:
    _copy_pyodide(lean_project)
    (lean_project / "site.yaml").write_text("pyodide: pyodide/\n")
    config, errors = load_config(lean_project)
    assert errors == []
    assert config.pyodide == "pyodide"
    files = checker_files(Layout.of(lean_project), ["en", "cs"],
                          {"cs": repo_translator("cs")}, "pyodide")
    manifest = json.loads(files["checker/manifest.json"])
    assert manifest["pyodide"] == "pyodide/"
    for name in PYODIDE_FILES:
        data = f"fake {name}".encode()
        assert files[f"checker/pyodide/{name}"] == data
        assert manifest["files"][name] == "sha384-" + base64.b64encode(
            hashlib.sha384(data).digest()).decode()
    assert set(manifest["messages"]) == {"cs"}


@pytest.mark.parametrize(("text", "said"), [
    ("pyodide: 3\n", "site.yaml:1:10: pyodide is integer 3 (quote it to make it text); "
     "expected cdn (the default), false (no card checker) or the folder of a Pyodide "
     "distribution in the project, e.g. pyodide: node_modules/pyodide"),
    ("pyodide: ../pyodide\n", "site.yaml:1:10: pyodide '../pyodide' is not in the project;"
     " expected the path, relative to the project, of a folder holding Pyodide, e.g. "
     "pyodide: node_modules/pyodide"),
    ("pyodide: missing\n", "site.yaml:1:10: pyodide 'missing' does not hold pyodide.js, "
     "pyodide.asm.js, pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json; expected a "
     "folder of the project holding a Pyodide distribution (pyodide.js, pyodide.asm.js, "
     "pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json), e.g. pyodide: node_modules/pyodide "
     "after npm install pyodide@0.29.5"),
    ("pyodide: no\n", "site.yaml:1:10: pyodide is no, which YAML 1.1 reads as false and YAML "
     "1.2 and editors as text; expected cdn (the default), false (no card checker) or the "
     "folder of a Pyodide distribution in the project, e.g. pyodide: node_modules/pyodide "
     "(write false for no card checker)"),
    ("pyodide: On\n", "site.yaml:1:10: pyodide is On, which YAML 1.1 reads as true and YAML "
     "1.2 and editors as text; expected cdn (the default), false (no card checker) or the "
     "folder of a Pyodide distribution in the project, e.g. pyodide: node_modules/pyodide "
     "(write false for no card checker)"),
    ("pyodide: CDN\n", "site.yaml:1:10: pyodide is 'CDN' (did you mean 'cdn'?); expected cdn "
     "(the default), false (no card checker) or the folder of a Pyodide distribution in the "
     "project, e.g. pyodide: node_modules/pyodide"),
])
def test_a_wrong_pyodide_setting_is_said_at_its_place(lean_project: Path, text: str,
                                                     said: str) -> None:
    (lean_project / "site.yaml").write_text(text)
    _config, errors = load_config(lean_project)
    assert [e.format() for e in errors] == [said]


def test_a_pyodide_folder_is_an_input_of_the_build(init_project: Path) -> None:
    """The folder's files key the build like the project's other inputs: a second build
    is taken from the cache with no note that they changed while it ran, and a changed
    file is in the next site."""
    _copy_pyodide(init_project)
    (init_project / "site.yaml").write_text("pyodide: pyodide\n")
    first = run_cli("build", "--project", str(init_project))
    again = run_cli("build", "--project", str(init_project))
    assert (first.returncode, again.returncode) == (0, 0), first.stdout + again.stdout
    said = first.stdout + first.stderr + again.stdout + again.stderr
    assert "changed while the build ran" not in said
    assert re.search(r"built (\d+) files \(\1 of them from the cache\)", again.stderr), said
    (init_project / "pyodide" / "pyodide.js").write_bytes(b"fake, saved again")
    assert run_cli("build", "--project", str(init_project)).returncode == 0
    assert (init_project / "site" / "checker" / "pyodide" / "pyodide.js").read_bytes() \
        == b"fake, saved again"


@pytest.mark.parametrize(("text", "named"), [
    ("pyodide: pyodide\n", True), ("title: x\npyodide: 'pyodide/'  # offline\n", True),
    ('pyodide: "pyodide"\n', True), ("pyodide: cdn\n", False), ("pyodide: false\n", False),
    ("title: x\n", False), ("{pyodide: pyodide}\n", None),
])
def test_the_inputs_hold_the_pyodide_folder_site_yaml_names(
        init_project: Path, text: str, named: bool | None) -> None:
    """The build cache's inputs hold the folder's files, read from ``site.yaml``'s
    ``pyodide:`` line; a form the line reading cannot take keeps no whole build."""
    _copy_pyodide(init_project)
    (init_project / "site.yaml").write_text(text)
    digests = input_digests(Layout.of(init_project))
    if named is None:
        assert digests is None
        return
    assert digests is not None
    assert [rel for rel in digests if rel.startswith("pyodide/")] == (
        [f"pyodide/{name}" for name in PYODIDE_FILES] if named else [])


def test_pyodide_false_and_cdn(lean_project: Path) -> None:
    (lean_project / "site.yaml").write_text("pyodide: false\n")
    assert load_config(lean_project)[0].pyodide is None
    (lean_project / "site.yaml").write_text("pyodide: cdn\n")
    assert load_config(lean_project)[0].pyodide == "cdn"
    (lean_project / "site.yaml").write_text("title: Rules\n")
    assert load_config(lean_project)[0].pyodide == "cdn"


@pytest.mark.skipif(not NPM_PYODIDE.is_dir(), reason="npm's pyodide is not installed "
                    "(.ci/run installs it)")
def test_the_pinned_hashes_are_those_of_the_npm_package() -> None:
    version = json.loads((NPM_PYODIDE / "package.json").read_text())["version"]
    assert PYODIDE_CDN_URL.endswith(f"/v{version}/full/")
    assert {name: sri((NPM_PYODIDE / name).read_bytes()) for name in PYODIDE_FILES} \
        == dict(PYODIDE_SRI)


def test_the_runtime_archive_is_kept_in_the_cache_until_a_source_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """runtime.zip is packed once and then read from the build cache (the same bytes) by
    a process that did not pack it; a source file with another size or time is a new
    key."""
    import os

    from generator.cache import BuildCache
    from generator.render import checker_files as module

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # the cache's key
    locales = ("cs", "en")
    store = BuildCache(tmp_path / "cache", "/project")
    monkeypatch.setattr(module, "_RUNTIMES", {})
    first = module.runtime_zip(locales, store)
    assert zipfile.ZipFile(io.BytesIO(first)).getinfo("generator/engine/melds.py")

    monkeypatch.setattr(module, "_RUNTIMES", {})  # another process: from the cache only
    monkeypatch.setattr(module, "_zipped", lambda entries: pytest.fail("packed again"))
    assert module.runtime_zip(locales, BuildCache(tmp_path / "cache", "/project")) == first

    source = tmp_path / "melds.py"
    source.write_text("x = 1\n")
    before = module._sources_key([("generator/engine/melds.py", source)])
    stat = source.stat()
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert module._sources_key([("generator/engine/melds.py", source)]) != before


def test_a_process_looks_at_the_runtimes_sources_once_per_set_of_locales(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The key of runtime.zip (every source file's size and time) is found once per
    process for a set of locales: a second build's Runtime looks at no file again, and
    another set of locales is a key of its own."""
    from generator.render import checker_files as module

    module._runtime_key.cache_clear()
    looked: list[int] = []
    real = module._sources_key

    def counted(sources: Any) -> str:
        looked.append(1)
        return real(sources)

    monkeypatch.setattr(module, "_sources_key", counted)
    first = module._runtime_key(("cs", "en"))
    assert module._runtime_key(("cs", "en")) == first
    assert len(looked) == 1
    assert module._runtime_key(("en", "sk")) != first
    assert len(looked) == 2
    assert first == real(module._library_sources(("cs", "en")))
    module._runtime_key.cache_clear()


def test_runtime_zip_packed_by_a_helper_is_the_one_packed_here(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The build starts packing runtime.zip in a forked helper as the site opens
    (``Runtime(..., helped=True)``); what it takes from there is what this process packs."""
    from generator.render import checker_files as module
    from tests.test_forks import counted_forks
    from tests.test_forks import ended

    locales = ("cs", "en")
    monkeypatch.setattr(module, "_RUNTIMES", {})
    here = module.runtime_zip(locales)
    monkeypatch.setattr(module, "_RUNTIMES", {})
    pids = counted_forks(monkeypatch)
    runtime = module.Runtime(locales, helped=True)
    assert len(pids) == 1 and ended(pids[0])
    monkeypatch.setattr(module, "_zipped", lambda entries: pytest.fail("packed here"))
    try:
        assert runtime.zipped() == here
    finally:
        runtime.close()
