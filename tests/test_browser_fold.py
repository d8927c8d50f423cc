"""Examples a reader can fold and filter, in headless Chromium (the fixtures and helpers
of tests/test_browser.py): a folded table stays folded on the page, a link to a row
opens its table, the filter shows one game's rows and says how many."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_browser import _wait
from tests.test_browser import _width
from tests.test_browser import browser  # noqa: F401 - fixtures
from tests.test_browser import server  # noqa: F401
from tests.test_browser import site  # noqa: F401

pytestmark = pytest.mark.browser

_STATE = """
return Array.from(document.querySelectorAll("details.cases-fold"), (d) => d.open);
"""


def _load(driver: Any, url: str) -> None:
    driver.get("about:blank")  # a new load, also where only the #anchor differs
    driver.get(url)
    _wait(lambda: driver.execute_script("return document.readyState") == "complete")


def test_a_folded_table_stays_folded_and_a_link_to_its_row_opens_it(
        browser: Any, server: str) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    page = f"{server}en/rules/index.html"
    _width(browser, 1280)
    _load(browser, page)
    browser.execute_script("localStorage.clear()")
    _load(browser, page)
    folds = browser.find_elements(By.CSS_SELECTOR, "details.cases-fold")
    assert len(folds) > 10 and all(browser.execute_script(_STATE))
    fold = folds[3]
    toggle = fold.find_element(By.CSS_SELECTOR, "summary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", toggle)
    toggle.click()
    assert _wait(lambda: not fold.get_property("open"))
    assert "Show examples" in toggle.text
    row_id = fold.find_element(By.CSS_SELECTOR, "tbody tr[id]").get_attribute("id")
    _load(browser, page)  # the reader comes back: the table is still folded
    assert browser.execute_script(_STATE) == [i != 3 for i in range(len(folds))]
    # a link to one of its rows opens it and shows the row
    _load(browser, f"{page}#{row_id}")
    row = browser.find_element(By.ID, row_id)
    assert browser.execute_script(_STATE)[3] is True
    top, bottom = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom];", row)
    assert top >= 0 and bottom <= browser.execute_script("return innerHeight")
    browser.execute_script("localStorage.clear()")


def test_the_filter_shows_one_games_examples_and_says_how_many(
        browser: Any, server: str) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    page = f"{server}en/rules/index.html"
    _width(browser, 375)
    _load(browser, page)
    browser.execute_script("localStorage.clear()")
    form = browser.find_element(By.CSS_SELECTOR, "form.case-filter")
    assert form.is_displayed()
    games = Select(form.find_element(By.NAME, "game"))
    names = [o.text for o in games.options]
    assert names[0] == "All games" and "Rami 51" in names and len(names) > 2
    total = len(browser.find_elements(By.CSS_SELECTOR, "tr[data-game]"))
    games.select_by_visible_text("Rami 51")
    shown = browser.execute_script(
        "return Array.from(document.querySelectorAll('tr[data-game]'))"
        ".filter((r) => r.getClientRects().length).map((r) => r.dataset.game);")
    assert shown and set(shown) == {"rami51"} and len(shown) < total
    status = form.find_element(By.CSS_SELECTOR, "[role=status]")
    assert status.text == f"Examples shown: {len(shown)} of {total}"
    # a link to a row the filter hides clears the filter
    hidden = browser.execute_script(
        "return document.querySelector('tr[data-game]:not([data-game=rami51])').id")
    browser.execute_script("location.hash = arguments[0]", hidden)
    assert _wait(lambda: browser.find_element(By.ID, hidden).is_displayed())
    assert games.first_selected_option.text == "All games" and status.text == ""


_SHOWN_GAMES = """
return Array.from(document.querySelectorAll("tr[data-game]"))
  .filter((r) => r.getClientRects().length).map((r) => r.dataset.game);
"""


def test_the_filter_stays_chosen_on_its_page(browser: Any, server: str) -> None:  # noqa: F811
    """A reader who comes back to a page finds the filter as they left it (the rows and
    the count with it), on that page alone; a link to a row the filter hides clears
    it, and it stays cleared."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    page = f"{server}en/rules/index.html"
    _width(browser, 1280)
    _load(browser, page)
    browser.execute_script("localStorage.clear()")
    _load(browser, page)
    total = len(browser.find_elements(By.CSS_SELECTOR, "tr[data-game]"))
    Select(browser.find_element(By.NAME, "game")).select_by_visible_text("Rami 51")
    _load(browser, page)  # the reader comes back: the same choice, the same rows
    games = Select(browser.find_element(By.NAME, "game"))
    assert games.first_selected_option.text == "Rami 51"
    shown = browser.execute_script(_SHOWN_GAMES)
    assert shown and set(shown) == {"rami51"} and len(shown) < total
    status = browser.find_element(By.CSS_SELECTOR, "form.case-filter [role=status]")
    assert status.text == f"Examples shown: {len(shown)} of {total}"
    _load(browser, f"{server}cs/rules/index.html")  # another page keeps its own
    assert len(browser.execute_script(_SHOWN_GAMES)) == total
    _load(browser, page)
    hidden = browser.execute_script(
        "return document.querySelector('tr[data-game]:not([data-game=rami51])').id")
    _load(browser, f"{page}#{hidden}")  # a link to a hidden row clears the filter
    assert Select(browser.find_element(By.NAME, "game")).first_selected_option.text \
        == "All games"
    _load(browser, page)
    assert len(browser.execute_script(_SHOWN_GAMES)) == total
    browser.execute_script("localStorage.clear()")
