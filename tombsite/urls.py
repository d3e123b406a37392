"""URLs: the game's and the daily challenge's pages and API, accounts, the OpenAPI schema."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path
from django.views import defaults
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView

from . import accounts, health

# The admin's log-in is throttled like the site's.
admin.site.login_form = accounts.AdminLoginForm

# The djangojs catalog lives in settings.LOCALE_PATHS, which the view always reads; naming the
# project's apps keeps other apps' catalogs (the admin's) out of every page's script.
LOCALIZED_APPS = ["tombsite", "accounts", "game", "leaderboards"]

urlpatterns = [
    path("", include("game.urls")),
    path("", include("leaderboards.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("accounts/signup/", accounts.signup, name="signup"),
    # Before Django's own accounts URLs: the log-in that says when a throttled one may retry.
    path("accounts/login/", accounts.ThrottledLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    # The language menu (Django's set_language, also saved on the account); the browser's strings.
    path("i18n/", include("accounts.urls")),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=LOCALIZED_APPS), name="javascript-catalog"),
]


def json_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"error": "not found"}, status=404)
    return defaults.page_not_found(request, exception)


def json_server_error(request: HttpRequest) -> HttpResponse:
    # Says nothing of what failed: a traceback could name a stock card.
    if request.path.startswith("/api/"):
        return JsonResponse({"error": "the server failed; try again"}, status=500)
    return defaults.server_error(request)


handler404 = "tombsite.urls.json_not_found"
handler500 = "tombsite.urls.json_server_error"
