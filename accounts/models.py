"""A player's name as it looks: its skeleton is unique, so no two players look alike."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Handle(models.Model):
    """Written only by accounts.actions."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="handle")
    # accounts.skeleton.skeleton(username); the unique index is what holds under a race.
    skeleton = models.CharField(max_length=600, unique=True)

    def __str__(self) -> str:
        return self.skeleton


class Preference(models.Model):
    """What a player chose for every device: the language of the pages (accounts.language).
    Written only by accounts.language."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="preference")
    # A code of settings.LANGUAGES; no choices here, so adding a language needs no migration
    # (accounts.language refuses codes the site does not offer).
    language = models.CharField(max_length=16, blank=True, default="")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language or '-'}"
