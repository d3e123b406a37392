"""URLs: the game's and the daily challenge's pages and API, accounts, the OpenAPI schema."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path
from django.views import defaults
from drf_spectacular.views import SpectacularAPIView

from . import accounts, health

# The admin's log-in is throttled like the site's.
admin.site.login_form = accounts.AdminLoginForm

urlpatterns = [
    path("", include("game.urls")),
    path("", include("leaderboards.urls")),
    path("", include("races.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("accounts/signup/", accounts.signup, name="signup"),
    # Before Django's own accounts URLs: the log-in that says when a throttled one may retry.
    path("accounts/login/", accounts.ThrottledLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    # The language menu (i18n/setlang/, kept on the account too); the browser's strings (jsi18n/).
    path("", include("accounts.urls")),
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
