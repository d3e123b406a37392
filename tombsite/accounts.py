"""Sign-up, and log-in with throttling; log-out and password change are Django's own views."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from . import throttle

THROTTLED = "throttled"


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    # Back where the visitor came from (the daily page, say), as log-in does.
    after = request.POST.get("next") or request.GET.get("next") or ""
    if request.method == "POST" and form.is_valid():
        # login() fires user_logged_in, which hands the visitor's games over.
        login(request, form.save(), backend="django.contrib.auth.backends.ModelBackend")
        safe = url_has_allowed_host_and_scheme(
            after, allowed_hosts={request.get_host()}, require_https=request.is_secure())
        return redirect(after if safe else "play")
    return render(request, "registration/signup.html", {"form": form, "next": after})


def client_address(request: HttpRequest | None) -> str:
    # The server's view of the peer; behind a proxy, uvicorn's --proxy-headers
    # (trusted hosts only) puts the real client here, so it cannot be forged.
    return "" if request is None else str(request.META.get("REMOTE_ADDR", ""))


class ThrottledLogin:
    """Refuses a throttled username or address before any password is checked."""

    request: HttpRequest | None
    cleaned_data: dict[str, Any]

    def clean(self) -> dict[str, Any]:
        username = str(self.cleaned_data.get("username") or "")
        address = client_address(self.request)
        wait = throttle.reserve_attempt(username, address)
        if wait:
            raise ValidationError(throttle.too_many_message(wait), code=THROTTLED)
        cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]  # a failure stays counted
        throttle.forgive(username, address)
        return cleaned


class LoginForm(ThrottledLogin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLogin, AdminAuthenticationForm):
    pass


class ThrottledLoginView(LoginView):
    form_class = LoginForm

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, THROTTLED):
            response.status_code = 429  # Too Many Requests, with the page saying when
        return response
