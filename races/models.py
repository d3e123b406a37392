"""A race (its room), its entries (one per player) and the pool of screened deals.

Only ``races.actions`` writes these rows. A race's deal (seed and cards) is secret
like a daily's: it never leaves the server until the race is over (the replay).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from game.models import Game

MAX_PLAYERS = 8
MINUTES = (5, 10, 15)
CODE_BYTES = 8  # token_urlsafe(8): 11 characters, 64 bits: nobody guesses a room


def new_code() -> str:
    return secrets.token_urlsafe(CODE_BYTES)


class State(models.TextChoices):
    LOBBY = "lobby"
    # Running from the start button: starts_at in the future is the countdown.
    RUNNING = "running"
    FINISHED = "finished"
    # Left by everyone (or forgotten in the lobby): no race, nothing to show.
    CLOSED = "closed"


class Race(models.Model):
    code = models.CharField(max_length=16, unique=True, default=new_code)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="races_owned")
    variant = models.CharField(max_length=32, help_text="a registered variant's slug")
    state = models.CharField(max_length=8, choices=State.choices, default=State.LOBBY)
    minutes = models.PositiveSmallIntegerField(default=5)
    visitors = models.BooleanField(default=True, help_text="visitors may join with a name")
    # The deal, chosen at the start: secret (never in a payload before the race ends).
    seed = models.BigIntegerField(null=True, blank=True)
    cards = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    starts_at = models.DateTimeField(null=True, blank=True)
    ends_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rematch = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="rematch_of")

    class Meta:
        indexes = [models.Index(fields=["state", "ends_at"])]

    def __str__(self) -> str:
        return f"race {self.code} ({self.variant}, {self.state})"


class Entry(models.Model):
    """A player in a race: a user, or a visitor by the anon token of their session."""

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="race_entries")
    anon_token = models.CharField(max_length=64, blank=True, default="")
    name = models.CharField(max_length=150)
    ready = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="race_entry")
    gave_up = models.BooleanField(default=False)
    # Set when the race is over: 1 the winner; time_ms the clock at the last move.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    time_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["race", "user"], name="race_entry_user",
                                    condition=models.Q(user__isnull=False)),
            models.UniqueConstraint(fields=["race", "anon_token"], name="race_entry_visitor",
                                    condition=models.Q(user__isnull=True)),
        ]
        ordering = ["joined_at", "id"]

    def __str__(self) -> str:
        return f"{self.name} in {self.race_id}"


class PooledDeal(models.Model):
    """A seed the solver proved winnable, kept ahead so that Start never waits for it.
    Taken (deleted) by the race it deals; never shown to anyone."""

    variant = models.CharField(max_length=32, db_index=True)
    seed = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"pooled {self.variant} deal"
