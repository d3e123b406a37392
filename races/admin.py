"""The races in Django's admin: read-only (only races.actions writes them)."""

from django.contrib import admin

from .models import Entry, Race


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Entry
    fields = ("name", "user", "ready", "left_at", "gave_up", "place", "time_ms")
    readonly_fields = fields
    can_delete = False
    extra = 0


@admin.register(Race)
class RaceAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("code", "variant", "state", "owner", "created_at", "finished_at")
    list_filter = ("state", "variant")
    # The deal (seed, cards) is left out: secret while the race runs.
    fields = ("code", "owner", "variant", "state", "minutes", "visitors", "created_at",
              "starts_at", "ends_at", "finished_at", "rematch")
    readonly_fields = fields
    inlines = [EntryInline]

    def has_add_permission(self, request: object) -> bool:
        return False
