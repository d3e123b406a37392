"""Sign-up (unique, look-alike-proof names; throttled per address) and log-in (throttled by
django-axes, see accounts.throttle); log-out and password change are Django's own views."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _

from accounts import actions, throttle

THROTTLED = "throttled"
TAKEN = _("That name is taken.")
RESERVED = _("That name is reserved.")


class SignupForm(UserCreationForm):
    def clean_username(self) -> str:
        # The field has already NFKC-normalised it; names that merely look alike clash too.
        username = str(self.cleaned_data.get("username") or "")
        if actions.is_reserved(username):
            raise ValidationError(RESERVED, code="reserved")
        if actions.is_taken(username) or User.objects.filter(
                username__iexact=username).exists():
            raise ValidationError(TAKEN, code="taken")
        return username


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    # Back where the visitor came from (the daily page, say), as log-in does.
    after = request.POST.get("next") or request.GET.get("next") or ""
    address = throttle.client_address(request)
    if request.method == "POST":
        wait = throttle.signup_wait(address)
        if not wait and form.is_valid():
            wait = throttle.take_signup_slot(address)
            if not wait:
                user = actions.sign_up(form.cleaned_data["username"],
                                       form.cleaned_data["password1"])
                if user is not None:
                    return logged_in(request, user, after)
                throttle.give_back_signup_slot(address)
                form.add_error("username", ValidationError(TAKEN, code="taken"))
        if wait:
            return render(request, "registration/signup_throttled.html",
                          {"message": throttle.too_many_signups_message(wait)}, status=429)
    return render(request, "registration/signup.html", {"form": form, "next": after})


def logged_in(request: HttpRequest, user: User, after: str) -> HttpResponse:
    # login() fires user_logged_in, which hands the visitor's games over.
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    safe = url_has_allowed_host_and_scheme(
        after, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return redirect(after if safe else "play")


class ThrottledLogin:
    """Says when to try again once axes has locked the attempt out (its status, 429, is set
    by accounts.throttle.LockoutMiddleware); a locked-out password is never checked."""

    request: HttpRequest | None

    def clean(self) -> dict[str, Any]:
        try:
            cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        except ValidationError:
            if getattr(self.request, "axes_locked_out", False):
                # Every refused attempt restarts the cool-off: the whole window is left.
                raise ValidationError(throttle.too_many_message(
                    settings.LOGIN_THROTTLE_WINDOW_SECONDS), code=THROTTLED) from None
            raise
        return cleaned


class LoginForm(ThrottledLogin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLogin, AdminAuthenticationForm):
    pass


class ThrottledLoginView(LoginView):
    form_class = LoginForm
