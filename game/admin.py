"""Admin for games: read-only cards an admin can look through, never edit.

Only game.actions writes games (under a row lock, with live events): an edit
here would bypass both, and a changed move log would no longer replay. So the
admin may list, filter, search and open a game, deal included (admins may see
the stock order), but not add, change or delete one.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Game


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A model the admin may look at only: its writers live elsewhere."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "owner", "variant", "deal", "seeded", "ranked", "status", "home",
                    "moves", "hints", "updated_at")
    list_filter = ("variant", "status", "ranked", "seeded")
    search_fields = ("owner__username",)
    list_select_related = ("owner",)
    date_hierarchy = "created_at"
    ordering = ("-updated_at",)
    fields = ("id", "owner", "anon_token", "variant", "deal", "seeded", "ranked", "status",
              "home", "moves", "undos", "hints", "version", "created_at", "started_at",
              "updated_at", "finished_at", "closes_at", "achievements", "stock_order", "log")
    readonly_fields = fields

    @admin.display(description="deal (its cards in the game's order)")
    def stock_order(self, game: Game) -> str:
        return game.cards
