"""The races in Django's admin: read-only (only races.actions writes them). The deal
(seed, cards) stays out of the lists; a game's own admin page shows its cards."""

from django.contrib import admin

from game.admin import ReadOnlyAdmin

from .models import Entry, Race


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    fields = ("name", "user", "ready", "joined_at", "left_at", "gave_up", "game", "place",
              "time_ms")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


@admin.register(Race)
class RaceAdmin(ReadOnlyAdmin):
    list_display = ("code", "variant", "state", "owner", "created_at", "finished_at")
    list_filter = ("state", "variant")
    search_fields = ("code", "owner__username")
    fields = ("code", "owner", "variant", "state", "minutes", "visitors", "created_at",
              "starts_at", "ends_at", "finished_at", "rematch")
    readonly_fields = fields
    inlines = [EntryInline]
