"""Sign-up: names are stored NFKC, unique whatever their case or look-alike letters, some are
reserved; the unique skeleton holds under a race; new accounts are throttled per address."""

from __future__ import annotations

import importlib
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client

from accounts import actions, throttle
from accounts.models import Handle

PASSWORD = "tomb-of-the-emperor-1821"
CYRILLIC_A, CYRILLIC_I, CYRILLIC_O = "\u0430", "\u0456", "\u043e"  # look like a, i, o


def fullwidth(name: str) -> str:
    return "".join(chr(ord(char) + 0xFEE0) for char in name)


def sign_up(name: str, address: str = "10.0.0.1", password2: str = PASSWORD) -> Any:
    return Client(REMOTE_ADDR=address).post("/accounts/signup/", {
        "username": name, "password1": PASSWORD, "password2": password2})


def field_error(response: Any) -> str:
    return " ".join(response.context["form"].errors.get("username", []))


def test_look_alikes_of_a_taken_name_are_refused(db: Any) -> None:
    assert sign_up("napoleon").status_code == 302

    for look_alike in ("Napoleon", "NAPOLEON", f"n{CYRILLIC_A}poleon", f"napole{CYRILLIC_O}n",
                       fullwidth("napoleon"), "nap0le0n"):
        refused = sign_up(look_alike, address="10.0.0.2")
        assert refused.status_code == 200, look_alike
        assert field_error(refused) == "That name is taken.", look_alike
        assert b"That name is taken." in refused.content
    assert list(User.objects.values_list("username", flat=True)) == ["napoleon"]


def test_reserved_names_and_their_look_alikes_are_refused(db: Any) -> None:
    for name in ("admin", "Admin", f"{CYRILLIC_A}dmin", f"adm{CYRILLIC_I}n", fullwidth("admin"),
                 "root", "r00t", "Staff", "support", "moderator", "SYSTEM"):
        refused = sign_up(name)
        assert refused.status_code == 200, name
        assert field_error(refused) == "That name is reserved.", name
    assert not User.objects.exists()


def test_names_are_stored_in_their_nfkc_form(db: Any) -> None:
    assert sign_up(fullwidth("erin")).status_code == 302
    assert sign_up("\ufb01nn", address="10.0.0.2").status_code == 302  # the fi ligature

    assert sorted(User.objects.values_list("username", flat=True)) == ["erin", "finn"]
    assert field_error(sign_up("erin", address="10.0.0.3")) == "That name is taken."


def test_any_user_claims_its_handle(db: Any) -> None:
    superuser = User.objects.create_superuser("Napoleon", password=PASSWORD)

    assert superuser.handle.skeleton == "napoleon"
    assert field_error(sign_up(f"n{CYRILLIC_A}poleon")) == "That name is taken."


def test_a_look_alike_saved_meanwhile_gets_the_form_error_not_a_500(
    db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two sign-ups at once: both pass the form's check, then the first is saved. The
    # second's insert meets the unique skeleton (the database decides, not the check).
    assert sign_up("josephine").status_code == 302
    monkeypatch.setattr(actions, "is_taken", lambda name: False)  # checked before that save

    loser = sign_up(f"j{CYRILLIC_O}sephine", address="10.0.0.2")

    assert loser.status_code == 200 and field_error(loser) == "That name is taken."
    assert User.objects.count() == 1 and Handle.objects.count() == 1
    assert actions.sign_up("JOSEPHINE", PASSWORD) is None  # the action itself, the same


def test_existing_users_get_handles_and_the_older_look_alike_keeps_it(
    db: Any, caplog: pytest.LogCaptureFixture
) -> None:
    older = User.objects.create_user("bob", password=PASSWORD)
    newer = User.objects.create_user("newer", password=PASSWORD)
    other = User.objects.create_user("carol", password=PASSWORD)
    Handle.objects.all().delete()  # as before the migration
    User.objects.filter(pk=newer.pk).update(username="b0b")  # a look-alike made back then
    migration = importlib.import_module("accounts.migrations.0002_fill_handles")

    with caplog.at_level(logging.WARNING):
        migration.fill_handles(apps, None)

    assert Handle.objects.get(skeleton="bob").user_id == older.pk
    assert Handle.objects.get(skeleton="carol").user_id == other.pk
    assert not Handle.objects.filter(user_id=newer.pk).exists()
    assert f"user {newer.pk} ('b0b') keeps no handle" in caplog.text
    # The one left without a handle still logs in (its last_login is saved).
    logged_in = Client(REMOTE_ADDR="10.0.0.5").post(
        "/accounts/login/", {"username": "b0b", "password": PASSWORD})
    assert logged_in.status_code == 302


def test_new_accounts_are_throttled_per_address(db: Any, settings: Any) -> None:
    settings.SIGNUP_RATE = "3/hour"
    for n in range(3):  # failed attempts cost nothing: only accounts made count
        assert sign_up(f"mismatch{n}", password2="something-else").status_code == 200
    for n in range(3):
        assert sign_up(f"player{n}").status_code == 302

    refused = sign_up("player3")
    elsewhere = sign_up("player4", address="10.0.0.2")

    assert refused.status_code == 429
    assert (b"Too many new accounts from your network: try again in 60 minutes."
            in refused.content)
    assert not User.objects.filter(username="player3").exists()
    assert elsewhere.status_code == 302


def test_concurrent_sign_ups_from_one_address_cannot_pass_the_limit(settings: Any) -> None:
    settings.SIGNUP_RATE = "3/hour"
    start = threading.Barrier(8, timeout=10)

    def take(n: int) -> int:
        start.wait()
        return throttle.take_signup_slot("10.0.0.1")

    with ThreadPoolExecutor(max_workers=8) as pool:
        waits = list(pool.map(take, range(8)))

    assert waits.count(0) == 3 and all(wait > 3500 for wait in waits if wait)
    assert throttle.signup_wait("10.0.0.2") == 0
