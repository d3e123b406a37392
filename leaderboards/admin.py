"""Admin for the daily challenge: dailies, attempts, statistics, and players' standing.

Dailies, attempts and statistics are written by this app's actions as games
are played, so here they are read-only (a daily is changed with the
``rescreen_day`` command, which refuses a day already played). What an admin
does change is a player's standing: the "mark unranked" action hides them
from every board and the live field, "mark ranked" brings them back.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Q, QuerySet
from django.http import HttpRequest

from game.admin import ReadOnlyAdmin

from . import actions
from .boards import clock
from .models import Attempt, Daily, PlayerStats, Standing

User = get_user_model()


@admin.register(Daily)
class DailyAdmin(ReadOnlyAdmin):
    list_display = ("date", "variant", "seed", "candidate", "line_length", "difficulty",
                    "sampling_win_rate", "created_at")
    list_filter = ("variant",)
    date_hierarchy = "date"
    fields = (*list_display, "stock_order")
    readonly_fields = fields

    @admin.display(description="deal (stock order, top first)")
    def stock_order(self, daily: Daily) -> str:
        # Admins may see a future daily's cards; players see them once its day is over.
        return " ".join(daily.deal().texts)


@admin.register(Attempt)
class AttemptAdmin(ReadOnlyAdmin):
    list_display = ("daily", "user", "ranked", "status", "home", "assisted", "time",
                    "moves", "undos", "hints")
    list_filter = ("daily__variant", "ranked", "status", "assisted", "daily__date")
    search_fields = ("user__username",)
    list_select_related = ("daily", "user")
    ordering = ("-daily__date", "-home", "assisted", "time_ms")
    fields = ("daily", "game", "user", "ranked", "status", "home", "assisted", "moves",
              "undos", "hints", "started_at", "last_move_at", "time_ms", "created_at")
    readonly_fields = fields

    @admin.display(description="time", ordering="time_ms")
    def time(self, attempt: Attempt) -> str:
        return clock(attempt.time_ms)


@admin.register(PlayerStats)
class PlayerStatsAdmin(ReadOnlyAdmin):
    list_display = ("user", "variant", "games", "wins", "win_rate", "current_streak",
                    "best_streak", "last_played")
    list_filter = ("variant",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    fields = (*list_display, "best_time_ms", "fewest_moves")
    readonly_fields = fields


class StandingInline(admin.StackedInline):  # type: ignore[type-arg]
    """Shown on the user's page; changed with the list's actions (one writer)."""

    model = Standing
    can_delete = False
    fields = readonly_fields = ("unranked", "reason", "changed_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RankedStatusFilter(admin.SimpleListFilter):
    """No Standing row means ranked, so a plain field filter would miss most players."""

    title = "ranked status"
    parameter_name = "ranked"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "ranked"), ("no", "unranked")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        unranked = Q(standing__unranked=True)
        if self.value() == "no":
            return queryset.filter(unranked)
        if self.value() == "yes":
            return queryset.exclude(unranked)
        return queryset


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):  # type: ignore[type-arg]
    inlines = (StandingInline,)
    list_display = (*UserAdmin.list_display, "ranked")
    list_filter = (*UserAdmin.list_filter, RankedStatusFilter)
    list_select_related = ("standing",)
    actions = ("mark_unranked", "mark_ranked")

    @admin.display(boolean=True, description="ranked")
    def ranked(self, user: Any) -> bool:
        standing = getattr(user, "standing", None)
        return standing is None or not standing.unranked

    @admin.action(description="Mark unranked (hide from every board and the live field)")
    def mark_unranked(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._set(request, queryset, unranked=True)

    @admin.action(description="Mark ranked (show on the boards again)")
    def mark_ranked(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._set(request, queryset, unranked=False)

    def _set(self, request: HttpRequest, queryset: QuerySet[Any], *, unranked: bool) -> None:
        reason = f"by {request.user.get_username()}"
        count = actions.do_set_unranked(list(queryset.values_list("pk", flat=True)),
                                        unranked, reason)
        word = "unranked" if unranked else "ranked"
        self.message_user(request, f"{count} player(s) marked {word}.", messages.SUCCESS)
