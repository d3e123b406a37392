"""The player's language: chosen in the menu (Django's set_language, here also saved on the
account), brought back at log-in, and found for a WebSocket from its scope.

Order, the same over HTTP and the socket: the django_language cookie (the menu, or the
account's at log-in), then the account's saved language, then the browser's Accept-Language,
then settings.LANGUAGE_CODE. URLs never carry the language.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.decorators.http import etag, require_POST
from django.views.i18n import JavaScriptCatalog, set_language

from .models import Preference

# The request attribute through which log-in asks the middleware to set the cookie.
_COOKIE_TO_SET = "_account_language"


def offered(code: str | None) -> bool:
    return bool(code) and code in dict(settings.LANGUAGES)


def saved_language(user: Any) -> str:
    """The account's language, "" when it has none (or none the site still offers)."""
    if user is None or not user.is_authenticated:
        return ""
    code = Preference.objects.filter(user=user).values_list("language", flat=True).first()
    return code if code and offered(code) else ""


def save_language(user: Any, code: str) -> None:
    if user is not None and user.is_authenticated and offered(code):
        Preference.objects.update_or_create(user=user, defaults={"language": code})


def set_language_cookie(response: HttpResponse, code: str) -> None:
    """As Django's set_language sets it, so the two never disagree."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME, code,
        max_age=settings.LANGUAGE_COOKIE_AGE, path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN, secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY, samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


# -- choosing ---------------------------------------------------------------------

@require_POST
def choose_language(request: HttpRequest) -> HttpResponse:
    """The language menu's target: Django's set_language (the cookie, then back to `next` or
    else the Referer), and for a logged-in player the account's language too, so every
    device of theirs follows. A language the site does not offer is a 400, not a no-op."""
    code = request.POST.get("language", "")
    if not offered(code):
        return HttpResponseBadRequest(
            "Unknown language: choose one of " + ", ".join(dict(settings.LANGUAGES)) + ".",
            content_type="text/plain; charset=utf-8")
    response = set_language(request)
    save_language(request.user, code)
    return response


# -- the browser's strings ----------------------------------------------------------

# The djangojs catalogs live in settings.LOCALE_PATHS, which JavaScriptCatalog always reads;
# naming the project's apps (none has a locale folder of its own today) keeps other apps'
# catalogs, the admin's, out of the board's script.
LOCALIZED_APPS = ["tombsite", "accounts", "game", "leaderboards"]


def _compiled_catalogs_digest() -> str:
    """Changes with any compiled catalog; a process reads its catalogs once, at start too."""
    digest = hashlib.sha256()
    for folder in settings.LOCALE_PATHS:
        for compiled in sorted(Path(folder).glob("*/LC_MESSAGES/*.mo")):
            digest.update(compiled.as_posix().encode() + compiled.read_bytes())
    return digest.hexdigest()[:16]


_CATALOGS_DIGEST = _compiled_catalogs_digest()


def _catalog_tag(request: HttpRequest, *args: Any, **kwargs: Any) -> str:
    # The language is part of the tag: after the menu changes it, a cached copy in another
    # language no longer matches, though the URL is the same.
    return f"{translation.get_language()}-{_CATALOGS_DIGEST}"


# Revalidated on every page (a 304 when unchanged), private as it follows the cookie.
javascript_catalog = cache_control(no_cache=True, private=True)(
    etag(_catalog_tag)(JavaScriptCatalog.as_view(packages=LOCALIZED_APPS)))


# -- log-in ---------------------------------------------------------------------

@receiver(user_logged_in)
def bring_back_language(sender: Any, request: HttpRequest | None, user: Any,
                        **kwargs: Any) -> None:
    """At log-in the account's language wins (the middleware sets the cookie); an account
    without one keeps what this browser chose in the menu."""
    if request is None:
        return
    code = saved_language(user)
    if code:
        translation.activate(code)
        request.LANGUAGE_CODE = code
        setattr(request, _COOKIE_TO_SET, code)
        return
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if offered(chosen):
        save_language(user, chosen)


class AccountLanguageMiddleware:
    """After AuthenticationMiddleware. A logged-in player whose browser has no language cookie
    (a session older than the menu, a cleared cookie) gets the account's language, once per
    session; and a log-in's response carries the account's language as the cookie."""

    _CHECKED = "account_language_checked"

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = self._missing_cookie_language(request)
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = code
        response = self.get_response(request)
        code = getattr(request, _COOKIE_TO_SET, "") or code
        if code:
            set_language_cookie(response, code)
        return response

    def _missing_cookie_language(self, request: HttpRequest) -> str:
        # Cheapest first: most requests carry the cookie, or no session (so no player).
        if (settings.LANGUAGE_COOKIE_NAME in request.COOKIES
                or settings.SESSION_COOKIE_NAME not in request.COOKIES):
            return ""
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or request.session.get(self._CHECKED):
            return ""
        request.session[self._CHECKED] = True
        return saved_language(user)


# -- WebSockets -------------------------------------------------------------------

def _header(scope: Mapping[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return ""


def _cookie(scope: Mapping[str, Any], name: str) -> str:
    cookies = scope.get("cookies")  # set by Channels' CookieMiddleware (AuthMiddlewareStack)
    if isinstance(cookies, Mapping):
        return str(cookies.get(name, ""))
    morsel = SimpleCookie(_header(scope, b"cookie")).get(name)
    return morsel.value if morsel else ""


def language_of_scope(scope: Mapping[str, Any]) -> str:
    """The language a consumer speaks to this socket's player, in the order HTTP uses:
    cookie, account, Accept-Language, LANGUAGE_CODE. Reads the database (the account), so
    an async consumer asks alanguage_of_scope, once, at connect:

        self.language = await alanguage_of_scope(self.scope)
        ...
        with translation.override(self.language):
            await self.send_json(...)  # every text made in here is in the player's language
    """
    chosen = _cookie(scope, settings.LANGUAGE_COOKIE_NAME)
    if offered(chosen):
        return chosen
    code = saved_language(scope.get("user"))
    if code:
        return code
    browser = HttpRequest()  # Django's own negotiation of the header, on a bare request
    browser.META["HTTP_ACCEPT_LANGUAGE"] = _header(scope, b"accept-language")
    return str(translation.get_language_from_request(browser))


async def alanguage_of_scope(scope: Mapping[str, Any]) -> str:
    """language_of_scope for an async consumer's connect():
    ``self.language = await alanguage_of_scope(self.scope)``."""
    return str(await database_sync_to_async(language_of_scope)(scope))
