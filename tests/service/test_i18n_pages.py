"""The site in English, Russian and Finnish: the language from Accept-Language or the
cookie, the menu on every page, and the choice kept on the account (issue 16)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts import throttle
from accounts.language import alanguage_of_scope, language_of_scope
from accounts.models import Preference

PAGES = ["/accounts/login/", "/accounts/signup/", "/rules/", "/"]
NAV = {  # the header's words in each language
    "en": ["Napoleon's Tomb", ">Play<", ">Rules<", ">Log in<", "Change language"],
    "ru": ["Гробница Наполеона", ">Играть<", ">Правила<", ">Войти<", "Сменить язык"],
    "fi": ["Napoleonin hauta", ">Pelaa<", ">Säännöt<", ">Kirjaudu sisään<", "Vaihda kieli"],
}


def page(client: Client, url: str = "/accounts/login/", **headers: str) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, url
    return response.content.decode().replace("&#x27;", "'")


def lang_of(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, "no <html lang>"
    return found.group(1)


def csrf_of(client: Client) -> str:
    client.get("/accounts/login/")
    return client.cookies["csrftoken"].value


def choose(client: Client, language: str, next_url: str = "/rules/") -> Any:
    return client.post("/i18n/setlang/", {"language": language, "next": next_url,
                                          "csrfmiddlewaretoken": csrf_of(client)})


@pytest.mark.parametrize("code", ["en", "ru", "fi"])
def test_the_browser_s_accept_language_picks_the_language(db: Any, code: str) -> None:
    html = page(Client(), HTTP_ACCEPT_LANGUAGE=f"{code};q=1, de;q=0.5")
    assert lang_of(html) == code
    for words in NAV[code]:
        assert words in html, (code, words)
    if code != "en":
        assert ">Play<" not in html and "Change language" not in html


@pytest.mark.parametrize("code", ["ru", "fi"])
def test_the_cookie_wins_over_accept_language(db: Any, code: str) -> None:
    client = Client()
    client.cookies["django_language"] = code
    html = page(client, HTTP_ACCEPT_LANGUAGE="en")
    assert lang_of(html) == code and NAV[code][0] in html


def test_a_language_the_site_does_not_offer_falls_back_to_english(db: Any) -> None:
    html = page(Client(), HTTP_ACCEPT_LANGUAGE="de-DE, de;q=0.9")
    assert lang_of(html) == "en" and "Napoleon's Tomb" in html


@pytest.mark.parametrize("url", PAGES)
def test_every_page_has_the_language_menu_in_each_language(db: Any, url: str) -> None:
    for code in ("en", "ru", "fi"):
        html = page(Client(), url, HTTP_ACCEPT_LANGUAGE=code)
        menu = html[html.index('id="language-menu"'):]
        menu = menu[:menu.index("</form>")]
        assert 'action="/i18n/setlang/"' in html
        # Each language is named in its own language, whatever the page's is.
        assert '<option value="ru" lang="ru"' in menu and ">Русский<" in menu
        assert ">Suomi<" in menu and ">English<" in menu
        assert re.search(rf'<option value="{code}" lang="{code}" selected>', menu), (url, code)


def test_urls_do_not_change_with_the_language(db: Any) -> None:
    client = Client()
    client.cookies["django_language"] = "fi"
    assert client.get("/rules/").status_code == 200
    assert client.get("/fi/rules/").status_code == 404


def test_the_menu_sets_the_cookie_and_goes_back(db: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    response = choose(client, "ru", "/rules/")
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert client.cookies["django_language"].value == "ru"
    assert lang_of(page(client, "/rules/", HTTP_ACCEPT_LANGUAGE="fi")) == "ru"


def test_the_menu_goes_back_to_the_page_as_the_player_had_it(db: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    where = "http://testserver/daily/three-card/archive/?before=2026-11-29"
    response = client.post("/i18n/setlang/", {"language": "fi",
                                              "csrfmiddlewaretoken": csrf_of(client)},
                           HTTP_REFERER=where)
    assert response.status_code == 302 and response["Location"] == where
    elsewhere = client.post("/i18n/setlang/", {"language": "fi",
                                               "csrfmiddlewaretoken": csrf_of(client)},
                            HTTP_REFERER="https://elsewhere.example/")
    assert elsewhere["Location"] == "/"


def test_the_menu_refuses_a_language_the_site_does_not_offer(db: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    response = choose(client, "de")
    assert response.status_code == 400 and b"en, ru, fi" in response.content
    assert "django_language" not in client.cookies
    assert client.get("/i18n/setlang/").status_code == 405


def test_the_menu_saves_the_choice_on_the_account(db: Any) -> None:
    user = User.objects.create_user("anna", password="tomb-of-the-emperor-1821")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert choose(client, "fi").status_code == 302
    assert Preference.objects.get(user=user).language == "fi"
    assert choose(client, "ru").status_code == 302
    assert Preference.objects.get(user=user).language == "ru"


def log_in(client: Client, name: str) -> Any:
    return client.post("/accounts/login/", {
        "username": name, "password": "tomb-of-the-emperor-1821",
        "csrfmiddlewaretoken": csrf_of(client)})


def test_logging_in_on_another_device_brings_the_account_s_language(db: Any) -> None:
    user = User.objects.create_user("boris", password="tomb-of-the-emperor-1821")
    Preference.objects.create(user=user, language="ru")
    phone = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    phone.cookies["django_language"] = "fi"  # chosen there before logging in
    assert log_in(phone, "boris").status_code == 302
    assert phone.cookies["django_language"].value == "ru"
    assert lang_of(page(phone, "/rules/")) == "ru"


def test_an_account_without_a_language_keeps_the_one_chosen_before_log_in(db: Any) -> None:
    user = User.objects.create_user("carl", password="tomb-of-the-emperor-1821")
    client = Client(enforce_csrf_checks=True)
    assert choose(client, "fi").status_code == 302
    assert log_in(client, "carl").status_code == 302
    assert Preference.objects.get(user=user).language == "fi"


def test_a_session_without_the_cookie_gets_the_account_s_language(db: Any) -> None:
    user = User.objects.create_user("dora", password="tomb-of-the-emperor-1821")
    Preference.objects.create(user=user, language="fi")
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(user)  # a session from before the menu: no language cookie
    assert lang_of(page(client, "/rules/")) == "fi"
    assert client.cookies["django_language"].value == "fi"


def test_django_s_own_form_messages_follow_the_language(db: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    html = page(client, "/accounts/signup/")
    assert "Имя пользователя" in html  # Django's own label, from Django's catalog
    assert ">Зарегистрироваться</button>" in html and "<h1>Регистрация</h1>" in html


@pytest.mark.parametrize(("code", "minutes", "words"), [
    ("en", 1, "in 1 minute."), ("en", 5, "in 5 minutes."),
    ("ru", 1, "через 1 минуту."), ("ru", 3, "через 3 минуты."), ("ru", 5, "через 5 минут."),
    ("ru", 21, "через 21 минуту."), ("ru", 12, "через 12 минут."),
    ("fi", 1, "1 minuutin kuluttua."), ("fi", 15, "15 minuutin kuluttua."),
])
def test_throttle_messages_have_the_language_s_plural_forms(
        code: str, minutes: int, words: str) -> None:
    with translation.override(code):
        assert throttle.too_many_message(minutes * 60).endswith(words)
        assert throttle.too_many_signups_message(minutes * 60).endswith(words)


# -- the WebSocket consumers' language ---------------------------------------------

def scope(cookie: str = "", accept: str = "", user: Any = None) -> dict[str, Any]:
    headers = [(b"accept-language", accept.encode())] if accept else []
    if cookie:
        headers.append((b"cookie", f"csrftoken=x; django_language={cookie}".encode()))
    return {"type": "websocket", "headers": headers, "user": user}


def test_a_socket_speaks_the_cookie_s_then_the_account_s_then_the_browser_s_language(
        db: Any) -> None:
    user = User.objects.create_user("ema", password="tomb-of-the-emperor-1821")
    Preference.objects.create(user=user, language="fi")
    assert language_of_scope(scope(cookie="ru", accept="fi", user=user)) == "ru"
    assert language_of_scope(scope(accept="ru", user=user)) == "fi"
    assert language_of_scope(scope(accept="ru-RU,ru;q=0.9,en;q=0.5")) == "ru"
    assert language_of_scope(scope(cookie="xx", accept="fi")) == "fi"
    assert language_of_scope(scope()) == "en"
    # Channels' CookieMiddleware leaves the cookies parsed in the scope.
    assert language_of_scope({"cookies": {"django_language": "fi"}, "headers": []}) == "fi"


# -- the browser's strings: Django's JavaScriptCatalog ---------------------------------

def catalog(client: Client, **headers: str) -> Any:
    response = client.get("/jsi18n/", **headers)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    return response


def test_every_page_names_the_catalog_and_pages_without_modules_stay_script_free(
        db: Any) -> None:
    html = page(Client(), "/rules/")
    assert 'data-catalog="/jsi18n/"' in html and "<script" not in html


def test_the_catalog_brings_the_language_s_formats(db: Any) -> None:
    # The calendar's week starts on Monday in Russian and Finnish (Django's formats).
    for code, first_day in (("en", 0), ("ru", 1), ("fi", 1)):
        text = catalog(Client(), HTTP_ACCEPT_LANGUAGE=code).content.decode()
        assert f'"FIRST_DAY_OF_WEEK": {first_day}' in text, code
        assert "django.gettext = function" in text and "globals.interpolate" in text


def test_the_catalog_holds_the_project_s_strings_only(db: Any) -> None:
    text = catalog(Client(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Сейчас" not in text  # the admin's calendar ("Now"), not the board's


def test_the_catalog_is_revalidated_and_follows_the_language(db: Any) -> None:
    client = Client()
    russian = catalog(client, HTTP_ACCEPT_LANGUAGE="ru")
    assert "no-cache" in russian["Cache-Control"] and "private" in russian["Cache-Control"]
    tag = russian["ETag"]
    again = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ru", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304
    # The menu changed the language: the same URL, a copy in Russian no longer matches.
    client.cookies["django_language"] = "fi"
    finnish = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ru", HTTP_IF_NONE_MATCH=tag)
    assert finnish.status_code == 200 and finnish["ETag"] != tag


RUSSIAN_JS = '''\
msgid ""
msgstr ""
"Language: ru\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=4; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
"(n%100<12 || n%100>14) ? 1 : n%10==0 || (n%10>=5 && n%10<=9) || "
"(n%100>=11 && n%100<=14)? 2 : 3);\\n"

msgid "%(count)s card"
msgid_plural "%(count)s cards"
msgstr[0] "%(count)s карта"
msgstr[1] "%(count)s карты"
msgstr[2] "%(count)s карт"
msgstr[3] "%(count)s карты"
'''


def test_the_catalog_serves_the_djangojs_domain_of_locale_paths(
        db: Any, tmp_path: Any, settings: Any) -> None:
    """What round 2's catalogs will do: the project's djangojs strings, with the plural
    formula of the catalog's header (1 карта, 2 карты, 5 карт)."""
    import polib

    folder = tmp_path / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "djangojs.po").write_text(RUSSIAN_JS, encoding="utf-8")
    polib.pofile(str(folder / "djangojs.po")).save_as_mofile(str(folder / "djangojs.mo"))
    settings.LOCALE_PATHS = [tmp_path]
    text = catalog(Client(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '"%(count)s \\u043a\\u0430\\u0440\\u0442\\u0430"' in text or "%(count)s карта" in text
    assert "n%10==1&&n%100!=11" in text.replace(" ", "")


# -- error pages and the accounts' own messages ------------------------------------------

def test_the_not_found_page_speaks_the_language(db: Any) -> None:
    for code, words in (("en", "Page not found"), ("ru", "Страница не найдена"),
                        ("fi", "Sivua ei löydy")):
        response = Client().get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=code)
        html = response.content.decode()
        assert response.status_code == 404 and words in html and lang_of(html) == code
    assert Client().get("/api/no-such-thing/").json() == {"error": "not found"}


def test_the_server_error_page_renders_with_no_context_in_each_language() -> None:
    from django.template import loader

    for code, words in (("en", "Server error"), ("ru", "Ошибка сервера"),
                        ("fi", "Palvelinvirhe")):
        with translation.override(code):
            html = loader.get_template("500.html").render()
        assert words in html and f'<html lang="{code}">' in html


@pytest.mark.parametrize(("code", "words"), [
    ("en", "That name is taken."), ("ru", "Это имя уже занято."), ("fi", "Nimi on jo käytössä."),
])
def test_sign_up_refusals_speak_the_language(db: Any, code: str, words: str) -> None:
    User.objects.create_user("fedor", password="tomb-of-the-emperor-1821")
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=code)
    response = client.post("/accounts/signup/", {
        "username": "Fedor", "password1": "tomb-of-the-emperor-1821",
        "password2": "tomb-of-the-emperor-1821", "csrfmiddlewaretoken": csrf_of(client)})
    html = response.content.decode()
    assert response.status_code == 200 and words in html
    if code == "ru":
        assert "Исправьте отмеченное поле." in html  # one field marked: the singular


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_async_consumer_asks_once_at_connect() -> None:
    assert await alanguage_of_scope(scope(cookie="fi")) == "fi"
    assert await alanguage_of_scope(scope(accept="ru")) == "ru"


# -- every page in every language ------------------------------------------------------

TOMB = ("napoleons-tomb", "three-card")
SITE_PAGES = [("play", ()), ("rules", ()), ("daily-home", ()), ("daily", TOMB),
              ("daily-archive", TOMB), ("boards", TOMB), ("my-stats", ()),
              ("login", ()), ("signup", ()), ("password_change", ())]


@pytest.mark.parametrize("code", ["ru", "fi"])
def test_every_page_renders_in_each_language(
        todays_daily: Any, carol_browser: Any, code: str) -> None:
    """Localized formats (a comma for the decimal point, month names) must not break a page:
    dates and numbers that scripts read are ISO strings, not localized values."""
    for name, args in SITE_PAGES:
        url = reverse(name, args=args)
        response = carol_browser.client.get(url, HTTP_ACCEPT_LANGUAGE=code)
        assert response.status_code == 200, (url, code)
        html = response.content.decode()
        assert lang_of(html) == code and NAV[code][0] in html, url
        closes = re.search(r'data-closes="([^"]*)"', html)
        assert closes is None or re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:+]+", closes.group(1)), url
