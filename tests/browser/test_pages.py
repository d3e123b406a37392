"""The pages beside the board in real Chromium: accounts with their errors, my statistics
and the dailies calendar, the archive and its replay, the all-time boards, and keyboard
reach across the pages.

Players sign up through the real form; their daily moves go through the site's own API
from inside the page (the CSRF cookie as the page's script sends it).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from playwright.sync_api import expect

from .conftest import Site

PASSWORD = "tomb-of-the-emperor-1821"


def sign_up(page: Any, name: str | None = None, *, days_ago: int = 30) -> str:
    """A player, signed up through the form ``days_ago`` days ago (0: just now, too new for
    today's daily); returns the name."""
    name = name or f"p{uuid.uuid4().hex[:10]}"
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(name)
    page.locator("[name=password1]").fill(PASSWORD)
    page.locator("[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(re.compile(r"/(\?.*)?$"))
    if days_ago and Site.running is not None:
        Site.running.backdate_account(name, days_ago)
    return name


# Plays through the API from the page: a card home when one fits, else park, else
# turn; stops once `target` cards are home or the game is over. Returns the game.
PLAY = """async ({game, target}) => {
  const token = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).slice(10);
  const post = async (url, body) => {
    const response = await fetch(url, {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": token},
      body: body ? JSON.stringify(body) : undefined});
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  let state = await (await fetch(`/api/games/${game}/`, {credentials: "same-origin"})).json();
  for (let turn = 0; turn < 600 && state.status === "playing" && state.home < target; turn++) {
    const legal = state.state.legal;
    const move = legal.find((m) => m.startsWith("F")) || legal.find((m) => m === "D")
      || legal.find((m) => m === "R") || legal.find((m) => m.startsWith("C"));
    state = await post(`/api/games/${game}/moves/`, {move});
  }
  return state;
}"""


def start_daily(page: Any, variant: str = "three-card") -> str:
    """Press the daily page's Play button; returns the game id the board opens."""
    page.goto(f"/daily/{variant}/")
    page.get_by_role("button", name="Play today's daily").click()
    page.wait_for_url(re.compile(r"/\?game=[0-9a-f-]{36}$"))
    return str(page.url.rsplit("=", 1)[1])


def play(page: Any, game: str, target: int = 52) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(PLAY, {"game": game, "target": target})
    return result


def make_past_daily(site: Any, days_ago: int) -> str:
    """A past 3-card daily, made (and screened by the real solver) on the site's database."""
    return site.manage("shell", "-c", (
        "from datetime import timedelta; from leaderboards import dailies;"
        "from leaderboards.days import today;"
        f"print(dailies.make_daily(today() - timedelta(days={days_ago}), 'three-card').date)"
    )).strip().splitlines()[-1]


# -- accounts ---------------------------------------------------------------------

def test_sign_up_errors_are_shown_and_nothing_is_made(page: Any) -> None:
    taken = sign_up(page)
    page.get_by_role("button", name="Log out").click()

    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(taken)
    page.locator("[name=password1]").fill(PASSWORD)
    page.locator("[name=password2]").fill(PASSWORD + "x")
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_role("alert")).to_contain_text("correct the marked fields")
    expect(page.locator(".field.invalid")).to_have_count(2)
    expect(page.get_by_text("That name is taken.")).to_be_visible()
    expect(page.get_by_label("Username")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_role("link", name="Log in")).to_have_count(2)  # still a visitor


def test_log_in_errors_then_log_in_and_out(page: Any) -> None:
    name = sign_up(page)
    page.get_by_role("button", name="Log out").click()

    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("correct username and password")

    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("header")).to_contain_text(name)
    page.get_by_role("button", name="Log out").click()
    expect(page.locator("header")).not_to_contain_text(name)


def test_a_password_change_keeps_the_player_logged_in(page: Any) -> None:
    sign_up(page)
    page.goto("/accounts/password_change/")
    page.locator("[name=old_password]").fill("wrong-one-here")
    page.locator("[name=new_password1]").fill(PASSWORD + "-2")
    page.locator("[name=new_password2]").fill(PASSWORD + "-2")
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("alert")).to_be_visible()
    expect(page.get_by_text("Your old password was entered incorrectly")).to_be_visible()

    page.locator("[name=old_password]").fill(PASSWORD)
    page.locator("[name=new_password1]").fill(PASSWORD + "-2")
    page.locator("[name=new_password2]").fill(PASSWORD + "-2")
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_role("heading", name="Password changed")).to_be_visible()


def test_a_visitor_sees_free_play_and_is_offered_a_log_in_for_dailies(page: Any) -> None:
    page.goto("/me/stats/")  # nothing played yet: a welcome to a first game
    expect(page.get_by_role("link", name="Play a first game")).to_be_visible()
    expect(page.locator("#calendars")).to_have_count(0)
    page.locator(".page").get_by_role("link", name="log in", exact=True).click()
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/me/stats/"))
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()


# -- statistics and the calendar -----------------------------------------------------

def test_statistics_and_the_calendar_of_a_player_with_a_daily(page: Any) -> None:
    sign_up(page)
    game = start_daily(page)
    played = play(page, game, target=1)
    today = page.evaluate("new Date().toISOString().slice(0, 10)")

    page.goto("/me/stats/")
    three = page.locator("section", has=page.get_by_role("heading", name="3-card deal"))
    expect(three.locator("dt:text-is('Dailies played (ranked)') + dd")).to_have_text("1")
    cell = three.locator("table.calendar td.played")
    expect(cell).to_have_count(1)
    expect(cell).to_contain_text(str(int(today[-2:])))
    expect(cell).to_contain_text(f"{played['home']} home")

    # The month turns in place (and by keyboard), focus on the new month's title.
    title = page.locator("#month-title")
    shown = title.inner_text()
    page.get_by_role("link", name=re.compile("←")).click()
    expect(title).not_to_have_text(shown)
    expect(title).to_be_focused()
    expect(page.locator("table.calendar td.played")).to_have_count(0)
    assert "month=" in page.url
    page.keyboard.press("PageDown")
    expect(title).to_have_text(shown)
    expect(page.locator("table.calendar td.played")).to_have_count(1)

    page.locator("table.calendar td.played a").click()
    expect(page).to_have_url(re.compile(rf"/napoleons-tomb/three-card/daily/{today}/$"))


# -- the archive ------------------------------------------------------------------------

def test_the_archive_lists_a_past_daily_and_replays_it_unranked(page: Any, site: Any) -> None:
    past = make_past_daily(site, 2)
    sign_up(page)

    page.goto("/daily/three-card/archive/")
    # The page writes the day in the reader's language; its address and data keep ISO.
    expect(page.locator(f'a[href$="/{past}/"] time[datetime="{past}"]')).to_be_visible()
    page.locator(f'button[data-replay$="/{past}/replay/"]').click()
    page.wait_for_url(re.compile(r"/\?game=[0-9a-f-]{36}$"))
    game = page.url.rsplit("=", 1)[1]

    replayed = page.evaluate("async (id) => (await fetch(`/api/games/${id}/`)).json()", game)
    assert replayed["ranked"] is False and replayed["seeded"] is True
    assert replayed["state"]["stock_count"] == 52

    page.goto(f"/daily/three-card/{past}/")
    expect(page.get_by_role("button", name="Replay this deal")).to_be_visible()
    page.get_by_text("The stock, top card first").click()
    assert len(page.locator(".order").inner_text().split()) == 52


# -- all-time boards ------------------------------------------------------------------------

def test_the_all_time_boards_highlight_my_row(page: Any, site: Any) -> None:
    name = sign_up(page)
    start_daily(page)
    # The streak board ranks days won in a row (tests/service/test_streaks.py makes them):
    # this player has won a day before.
    site.manage("shell", "-c", (
        "from leaderboards.models import PlayerStats;"
        f"PlayerStats.objects.filter(user__username='{name}').update(best_streak=1)"))

    page.goto("/boards/three-card/")
    mine = page.locator("#streak tr.me")
    expect(mine).to_have_count(1)
    expect(mine.get_by_role("rowheader")).to_contain_text(name)
    expect(page.locator("#wins").get_by_role("table")).to_be_visible()
    page.goto("/boards/three-card/?board=streak&page=2")
    expect(page.locator("#streak")).to_contain_text("Nobody yet on this page")
    expect(page.locator("#streak").get_by_role("link", name=re.compile("Previous"))).to_be_visible()


# -- keyboard -------------------------------------------------------------------------------

# Every control a pointer could use, by a stable description.
CONTROLS = """() => [...document.querySelectorAll(
  "a[href], button:not([disabled]), input:not([type=hidden]), summary, [tabindex='0']")]
  .filter((el) => el.offsetParent !== null)
  .map((el) => el.id || el.getAttribute("href") || el.getAttribute("aria-label")
               || el.textContent.trim())"""
FOCUSED = """() => { const el = document.activeElement;
  return el.id || el.getAttribute("href") || el.getAttribute("aria-label")
         || el.textContent.trim(); }"""


def reached_by_tab(page: Any) -> set[str]:
    seen: list[str] = []
    for _ in range(400):  # an archive page holds up to 60 days of two controls each
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if seen and focused == seen[0]:
            break
        seen.append(focused)
    return set(seen)


def test_the_keyboard_reaches_every_control_with_a_visible_focus(page: Any, site: Any) -> None:
    past = make_past_daily(site, 1)
    sign_up(page)
    start_daily(page)
    for url in ("/daily/three-card/", "/boards/three-card/", "/me/stats/",
                "/daily/three-card/archive/", f"/daily/three-card/{past}/",
                "/accounts/password_change/"):
        page.goto(url)
        controls = set(page.evaluate(CONTROLS))
        assert controls - reached_by_tab(page) == set(), url
        page.keyboard.press("Tab")
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none", url


def tab_to(page: Any, selector: str) -> None:
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("(selector) => document.activeElement.matches(selector)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_the_daily_and_the_calendar_work_from_the_keyboard(page: Any) -> None:
    sign_up(page)
    page.goto("/daily/three-card/")
    tab_to(page, "#play-daily")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/\?game=[0-9a-f-]{36}$"))

    page.goto("/me/stats/")
    shown = page.locator("#month-title").inner_text()
    tab_to(page, "a[data-month][rel=prev]")
    page.keyboard.press("Enter")
    expect(page.locator("#month-title")).to_be_focused()
    expect(page.locator("#month-title")).not_to_have_text(shown)
    tab_to(page, "a[data-month][rel=next]")
    page.keyboard.press("Enter")
    expect(page.locator("#month-title")).to_have_text(shown)
    tab_to(page, "table.calendar td.played a")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/napoleons-tomb/three-card/daily/\d{4}-\d\d-\d\d/$"))


# -- without the script ------------------------------------------------------------------

def test_the_pages_work_without_javascript(chromium: Any, site: Any, page: Any) -> None:
    name = sign_up(page)
    start_daily(page)
    context = chromium.new_context(base_url=site.base_url, java_script_enabled=False)
    plain = context.new_page()
    plain.goto("/accounts/login/?next=/me/stats/")
    plain.get_by_label("Username").fill(name)
    plain.get_by_label("Password").fill(PASSWORD)
    plain.get_by_role("button", name="Log in").click()
    expect(plain).to_have_url(re.compile(r"/me/stats/$"))
    expect(plain.locator("table.calendar td.played")).to_have_count(1)
    plain.get_by_role("link", name=re.compile("←")).click()
    expect(plain).to_have_url(re.compile(r"/me/stats/\?month=\d{4}-\d\d$"))
    plain.goto("/daily/three-card/")
    expect(plain.locator(f"#field-rows tr[data-player='{name}']")).to_have_class("me")
    context.close()


# -- contrast ---------------------------------------------------------------------------

# The lowest contrast ratio (WCAG 2) of any visible text in the page's sheet, against the
# first opaque background behind it; large or bold-large text may go to 3:1.
CONTRAST = """() => {
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const behind = (el) => { for (; el; el = el.parentElement) {
    const c = rgb(getComputedStyle(el).backgroundColor); if (c.length < 4 || c[3] > 0.9) return c;
  } return [255, 255, 255]; };
  let worst = {ratio: 99, text: ""};
  for (const el of document.querySelectorAll(".page *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.offsetParent) continue;
    const style = getComputedStyle(el);
    const [a, b] = [lum(rgb(style.color)), lum(behind(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const large = parseFloat(style.fontSize) >= 24
      || (parseFloat(style.fontSize) >= 18.66 && Number(style.fontWeight) >= 700);
    const needed = large ? 3 : 4.5;
    if (ratio / needed < worst.ratio) worst = {ratio: ratio / needed, text: el.textContent.trim()};
  }
  return worst;
}"""


def test_text_on_the_pages_is_readable(page: Any, site: Any) -> None:
    past = make_past_daily(site, 1)
    sign_up(page)
    game = start_daily(page)
    play(page, game)
    for url in ("/daily/three-card/", "/boards/three-card/", "/me/stats/",
                "/daily/three-card/archive/", f"/daily/three-card/{past}/"):
        page.goto(url)
        worst = page.evaluate(CONTRAST)
        assert worst["ratio"] >= 1, (url, worst)  # the ratio over the level it needs
    page.goto("/accounts/password_change/")
    page.get_by_role("button", name="Change password").click()
    worst = page.evaluate(CONTRAST)
    assert worst["ratio"] >= 1, worst
