"""Sign-up; log-in, log-out and password change are Django's own views."""

from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render


def signup(request: HttpRequest) -> HttpResponse:
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        # login() fires user_logged_in, which hands the visitor's games over.
        login(request, form.save(), backend="django.contrib.auth.backends.ModelBackend")
        return redirect("play")
    return render(request, "registration/signup.html", {"form": form})
