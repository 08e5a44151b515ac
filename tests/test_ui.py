"""The memory page in a real headless browser (Debian's chromium driven by Playwright) over the real app.

One store, server and browser for the module; tests run in file order (erasure last). Skipped, with
the reason, only where Playwright or a chromium binary is missing or cannot start.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api_support import ACME_KEY, ADMIN_KEY, seeded_settings, serve

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install .[ui])")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
XSS = "<script>alert('x')</script><img src=x onerror=alert(2)>\" onmouseover=\"alert(3)"
ALICE = "/ui/apps/acme/users/alice"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    if CHROMIUM is None:
        pytest.skip("no chromium binary (apt-get install chromium; make installs it when run as root)")
    settings = seeded_settings(tmp_path_factory.mktemp("ui"))
    with serve(settings) as url, playwright_api.sync_playwright() as pw:
        try:
            chromium = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        except playwright_api.Error as exc:
            pytest.skip(f"chromium cannot start here: {str(exc).splitlines()[0]}")
        context = chromium.new_context(base_url=url)
        page = context.new_page()
        dialogs: list[str] = []

        def answer(dialog: Any) -> None:
            dialogs.append(dialog.message)
            dialog.accept()

        page.on("dialog", answer)
        page.goto("/ui")
        page.fill("#key", ACME_KEY)
        page.click("button[type=submit]")
        yield {"url": url, "page": page, "context": context, "chromium": chromium, "dialogs": dialogs}
        chromium.close()


def _lines(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("li.memory .line").all_inner_texts()]


def test_login_sets_a_strict_http_only_cookie_and_lists_with_relative_dates(browser: dict[str, Any]) -> None:
    page, context = browser["page"], browser["context"]
    cookie = next(c for c in context.cookies() if c["name"] == "mp_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    page.goto(ALICE)
    assert _lines(page) == [
        "Today - User lives in Zurich",
        "Yesterday - User loves African Grey parrots",
        "3 days ago - User prefers the aisle seat when flying",
        "8 February 2026 - User works at Google as a software engineer",
        "29 January 2026 - User's sister Nora plays the violin.",
    ]
    assert page.locator("section.day h2").all_inner_texts()[:3] == ["Today", "Yesterday", "3 days ago"]
    assert set(page.locator(".speaker").all_inner_texts()) == {"user"}
    page.locator("li.memory").first.locator("summary").click()
    assert "s0" in page.locator("li.memory").first.locator("details").inner_text()
    page.locator("li.memory").first.locator(".turns li.turn").first.wait_for()
    assert page.locator("li.memory").first.locator(".turns").inner_text().count("s0-e1") == 1


def test_search_and_topic_filter_run_on_the_server(browser: dict[str, Any]) -> None:
    page = browser["page"]
    page.goto(ALICE)
    page.fill("#q", "parrot")
    page.keyboard.press("Enter")
    page.wait_for_url("**q=parrot**")
    assert _lines(page) == ["Yesterday - User loves African Grey parrots"]
    page.goto(ALICE)
    page.select_option("#topic", "user_personal_info")
    page.click("form.filters button[type=submit]")
    page.wait_for_url("**topic=user_personal_info**")
    assert len(_lines(page)) == 2


def test_inline_edit_then_history_shows_what_superseded_what(browser: dict[str, Any]) -> None:
    page = browser["page"]
    page.goto(ALICE)
    item = page.locator("li.memory", has_text="Zurich")
    item.locator("button.edit").click()
    item.locator("textarea").fill("User lives in Basel")
    with page.expect_navigation():
        item.locator("button[type=submit]").click()
    assert any(line.endswith("User lives in Basel") for line in _lines(page))
    page.locator("li.memory", has_text="Basel").locator("a", has_text="History").click()
    versions = page.locator("ol.versions li")
    assert versions.count() == 2
    assert "superseded" in versions.nth(0).inner_text() and "User lives in Zurich" in versions.nth(0).inner_text()
    assert "active" in versions.nth(1).inner_text() and "supersedes" in versions.nth(1).inner_text()
    page.fill("#as_of", "2026-03-10T11:30")
    page.click("form.filters button[type=submit]")
    assert "User lives in Zurich" in page.locator("#as-of-result").inner_text()


def test_delete_asks_first_and_bulk_delete_removes_the_selected(browser: dict[str, Any]) -> None:
    page, dialogs = browser["page"], browser["dialogs"]
    page.goto(ALICE)
    seen = len(dialogs)
    with page.expect_navigation():
        page.locator("li.memory", has_text="Nora").locator("button.delete").click()
    assert len(dialogs) == seen + 1 and "Nora" in dialogs[-1]
    assert not any("Nora" in line for line in _lines(page))
    page.locator("li.memory", has_text="Google").locator("input.pick").check()
    page.locator("li.memory", has_text="aisle").locator("input.pick").check()
    assert page.inner_text("#selected-count") == "2 selected"
    with page.expect_navigation():
        page.click("#bulk-delete")
    assert "2 selected" in dialogs[-1]
    assert [line.split(" - ")[1] for line in _lines(page)] == ["User lives in Basel", "User loves African Grey parrots"]


def test_a_hostile_memory_renders_as_inert_text(browser: dict[str, Any]) -> None:
    page, dialogs, url = browser["page"], browser["dialogs"], browser["url"]
    listing = httpx.get(url + "/v1/apps/acme/users/alice/memories", params={"q": "parrot"},
                        headers={"Authorization": f"Bearer {ACME_KEY}"}).json()  # fmt: skip
    mid = listing["items"][0]["memory_id"]
    put = httpx.put(f"{url}/v1/apps/acme/users/alice/memories/{mid}", json={"content": XSS},
                    headers={"Authorization": f"Bearer {ACME_KEY}"}, timeout=60)  # fmt: skip
    assert put.status_code == 200
    seen = len(dialogs)
    page.goto(ALICE)
    point = page.locator("li.memory .point", has_text="onmouseover")
    point.hover()
    assert point.inner_text() == XSS
    assert page.locator("li.memory img").count() == 0 and page.locator("main script").count() == 0
    page.locator("li.memory", has_text="onmouseover").locator("a", has_text="History").click()
    assert XSS in page.locator("ol.versions").inner_text()
    page.wait_for_timeout(200)
    assert len(dialogs) == seen  # no alert ran


def test_phone_width_and_keyboard_use(browser: dict[str, Any]) -> None:
    page = browser["page"]
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto(ALICE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.focus("#q")
    page.keyboard.type("Basel")
    page.keyboard.press("Enter")
    page.wait_for_url("**q=Basel**")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") in {"A", "INPUT", "SELECT", "BUTTON"}
    page.set_viewport_size({"width": 1280, "height": 800})


def test_runs_page_for_admins_and_forms_need_the_csrf_token(browser: dict[str, Any]) -> None:
    chromium, url = browser["chromium"], browser["url"]
    refused = browser["context"].request.post(url + ALICE + "/erase", form={"confirm": "alice"})
    assert refused.status == 403  # the session cookie alone does not make a form post
    admin = chromium.new_context(base_url=url)
    page = admin.new_page()
    page.goto("/ui/runs")
    page.fill("#key", ADMIN_KEY)
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert page.url.endswith("/ui/runs")
    flows = page.locator("table.runs tbody tr td:nth-child(2)").all_inner_texts()
    assert "ingest" in flows and "edit" in flows and "delete" in flows
    assert "Nothing quarantined." in page.inner_text("ul.quarantine")
    admin.close()


def test_erase_needs_the_typed_user_id(browser: dict[str, Any]) -> None:
    page = browser["page"]
    page.goto(ALICE)
    page.fill("#erase-confirm", "alic")
    assert page.is_disabled("#erase-button")
    page.fill("#erase-confirm", "alice")
    assert page.is_enabled("#erase-button")
    with page.expect_navigation():
        page.click("#erase-button")
    assert "User erased" in page.inner_text("h1")
    page.goto(ALICE)
    assert _lines(page) == [] and "No memories" in page.inner_text("main")
