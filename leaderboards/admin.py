"""Admin for the daily challenge: dailies, attempts, statistics, and players' standing.

Dailies, attempts and statistics are written by this app's actions as games
are played, so here they are read-only (a daily is changed with the
``rescreen_day`` command, which refuses a day already played). What an admin
does change is a player's standing: the "mark unranked" action hides them
from every board and the live field, "mark ranked" brings them back; and the
fair-play review queue (flagged results: "clear" or "mark player unranked").
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from game.admin import ReadOnlyAdmin

from . import actions, fairplay
from .boards import clock
from .models import (
    Attempt,
    BandCheck,
    Daily,
    FlaggedAttempt,
    PlayerStats,
    Review,
    Standing,
)

User = get_user_model()


@admin.register(Daily)
class DailyAdmin(ReadOnlyAdmin):
    list_display = ("date", "variant", "seed", "candidate", "line_length", "band",
                    "wanted_bands", "rating", "rating_games", "difficulty",
                    "sampling_win_rate", "created_at")
    list_filter = ("variant", "band")
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


class ReviewFilter(admin.SimpleListFilter):
    """The queue opens on the results awaiting review."""

    title = "review"
    parameter_name = "review"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(Review.PENDING, "awaiting review"), (Review.CLEARED, "cleared"),
                (Review.UNRANKED, "player marked unranked"), ("all", "all flagged")]

    def choices(self, changelist: Any) -> Any:
        current = self.value() or Review.PENDING
        for value, title in self.lookup_choices:
            yield {"selected": current == value, "display": title,
                   "query_string": changelist.get_query_string({self.parameter_name: value})}

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value() or Review.PENDING
        return queryset if value == "all" else queryset.filter(review=value)


@admin.register(FlaggedAttempt)
class ReviewQueueAdmin(ReadOnlyAdmin):
    """Flagged ranked results with their evidence; decided by the actions below, which
    go through leaderboards.actions.do_review (the one writer)."""

    list_display = ("daily", "user", "flags", "review", "status", "home", "time", "moves",
                    "median_interval", "bits")
    list_filter = (ReviewFilter, "daily__variant", "daily__date")
    search_fields = ("user__username",)
    list_select_related = ("daily", "user")
    ordering = ("-daily__date", "-home", "time_ms")
    actions = ("clear", "mark_player_unranked")
    fields = ("daily", "user", "game", "flags", "review", "status", "home", "assisted",
              "hints", "undos", "time", "moves", "pace", "choices", "stock", "scouts",
              "other_accounts", "started_at", "last_move_at", "created_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).exclude(flags="")

    @admin.display(description="time", ordering="time_ms")
    def time(self, attempt: Attempt) -> str:
        return clock(attempt.time_ms)

    @admin.display(description="median ms before a placement")
    def median_interval(self, attempt: Attempt) -> Any:
        return fairplay.pace_figures(fairplay.parse_intervals(attempt.intervals),
                                     attempt.daily.variant)["median_ms"]

    @admin.display(description="clairvoyance (bits)", ordering="clairvoyance")
    def bits(self, attempt: Attempt) -> Any:
        return attempt.clairvoyance

    @admin.display(description="pace (server-timed, before each placement)")
    def pace(self, attempt: Attempt) -> str:
        figures = fairplay.pace_figures(fairplay.parse_intervals(attempt.intervals),
                                        attempt.daily.variant)
        return format_html(
            "{} placements timed; median {} ms; fastest {} ms; {} under the human floor of "
            "{} ms; whole game {} for {} moves (a person's floor for a win: {})",
            figures["placements"], figures["median_ms"],
            ", ".join(map(str, figures["fastest_ms"])) or "none", figures["under_floor"],
            figures["floor_ms"], clock(attempt.time_ms), attempt.moves,
            clock(figures["win_floor_ms"]),
        )

    @admin.display(description="choices that depended on unseen cards")
    def choices(self, attempt: Attempt) -> str:
        """The judge's figures and its strongest choices (solver_worker.clairvoyance)."""
        found = attempt.evidence or {}
        if attempt.clairvoyance is None:
            return "not judged yet"
        rows = [(choice["ply"] + 1, choice["move"], "kept" if choice["kept"] else "threw",
                 f"{choice['p_keep']:.0%}", choice["bits"],
                 ", ".join(f"{name} {move}" for name, move in choice["panel"].items()))
                for choice in found.get("choices", [])]
        running = found.get("running") or {}
        return format_html(
            "<p>{} bits (one win alone is held from {} bits) over {} real choices: {} kept "
            "a won position won, {} threw it; {} agreed with every blind player{}. "
            "The player's last {} wins of the variant: {} bits together.</p>"
            "<table><tr><th>move</th><th>played</th><th>the win</th><th>blind players "
            "keep it</th><th>bits</th><th>blind players' moves</th></tr>{}</table>",
            attempt.clairvoyance, found.get("limits", {}).get("bits", "?"),
            found.get("counted", 0), found.get("kept", 0), found.get("thrown", 0),
            found.get("agreed", 0), "; cut short by its time bound" if found.get("cut_short")
            else "", running.get("wins", "-"), running.get("bits", "-"),
            format_html_join("", "<tr>" + "<td>{}</td>" * 6 + "</tr>", rows),
        )

    @admin.display(description="the stock")
    def stock(self, attempt: Attempt) -> str:
        facts = (attempt.evidence or {}).get("stock")
        if not facts:
            return "not judged yet"
        return format_html(
            "{} of the stock turned at most; {} placements; the whole stock turned "
            "before the first placement: {}", f"{facts['turned_share']:.0%}", facts["placements"],
            "yes" if facts["whole_stock_first"] else "no")

    @admin.display(description="scouts linked (turned most of the stock, gave up)")
    def scouts(self, attempt: Attempt) -> str:
        links = (attempt.evidence or {}).get("scouts") or []
        if not links:
            return "none"
        rows = [(link["player"], link["status"], f"{link['turned_share']:.0%}",
                 link["placements"], ", ".join(
                     name for name in ("device", "address", "timing") if link[name]),
                 _gap(link["seconds_before"]))
                for link in links]
        return format_html(
            "<table><tr><th>player</th><th>status</th><th>stock turned</th><th>placements"
            "</th><th>linked by</th><th>stopped before this game began</th></tr>{}</table>",
            format_html_join("", "<tr>" + "<td>{}</td>" * 6 + "</tr>", rows))

    @admin.display(description="other accounts on this device or address that day")
    def other_accounts(self, attempt: Attempt) -> str:
        same = fairplay.same_client(attempt.device_hash, attempt.address_hash)
        if same is None:
            return "none (no device or address kept)"
        others = (Attempt.objects.filter(same, daily_id=attempt.daily_id, ranked=True)
                  .exclude(user_id=attempt.user_id).select_related("user")
                  .order_by("created_at"))
        rows = [(other.user.get_username() if other.user else "?",
                 _shared(attempt, other), other.status, other.home, clock(other.time_ms),
                 other.moves, other.created_at.strftime("%H:%M:%S"),
                 other.get_review_display()) for other in others]
        if not rows:
            return "none"
        return format_html(
            "<table><tr><th>player</th><th>same</th><th>status</th><th>home</th>"
            "<th>time</th><th>moves</th><th>started (UTC)</th><th>review</th></tr>{}</table>",
            format_html_join("", "<tr>" + "<td>{}</td>" * 8 + "</tr>", rows),
        )

    def has_review_permission(self, request: HttpRequest) -> bool:
        """Deciding a review writes attempts and standings: staff who may only view
        the queue (or hold a result of their own in it) may not decide."""
        return bool(request.user.has_perm("leaderboards.change_attempt"))

    @admin.action(description="Clear (show on the boards and the live field)",
                  permissions=["review"])
    def clear(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        count = actions.do_review(list(queryset.values_list("pk", flat=True)), Review.CLEARED,
                                  f"by {request.user.get_username()}")
        self.message_user(request, f"{count} result(s) cleared.", messages.SUCCESS)

    @admin.action(description="Mark player unranked (off every board)",
                  permissions=["review"])
    def mark_player_unranked(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        count = actions.do_review(list(queryset.values_list("pk", flat=True)),
                                  Review.UNRANKED, f"by {request.user.get_username()}")
        self.message_user(request, f"{count} result(s) decided: player(s) marked unranked.",
                          messages.SUCCESS)


def _shared(attempt: Attempt, other: Attempt) -> str:
    return " and ".join(word for word, mine, theirs in (
        ("device", attempt.device_hash, other.device_hash),
        ("address", attempt.address_hash, other.address_hash)) if mine and mine == theirs)


@admin.register(PlayerStats)
class PlayerStatsAdmin(ReadOnlyAdmin):
    list_display = ("user", "variant", "games", "wins", "win_rate", "current_streak",
                    "best_streak", "played_streak", "last_played")
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

    @admin.action(description="Mark unranked (hide from every board and the live field)",
                  permissions=["change"])
    def mark_unranked(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._set(request, queryset, unranked=True)

    @admin.action(description="Mark ranked (show on the boards again)",
                  permissions=["change"])
    def mark_ranked(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._set(request, queryset, unranked=False)

    def _set(self, request: HttpRequest, queryset: QuerySet[Any], *, unranked: bool) -> None:
        reason = f"by {request.user.get_username()}"
        count = actions.do_set_unranked(list(queryset.values_list("pk", flat=True)),
                                        unranked, reason)
        word = "unranked" if unranked else "ranked"
        self.message_user(request, f"{count} player(s) marked {word}.", messages.SUCCESS)


@admin.register(BandCheck)
class BandCheckAdmin(ReadOnlyAdmin):
    """Does a band mean something to real players? Each band's rating (the graded
    blind players' win rate) beside the real players' win rate on the dailies of
    that band. Recomputed and stored each time the page is opened (two grouped
    queries, leaderboards.actions.do_compare_bands)."""

    list_display = ("variant", "band", "dailies", "rating_percent", "played", "won",
                    "players_percent", "computed_at")
    list_filter = ("variant",)

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        actions.do_compare_bands()
        return super().changelist_view(request, extra_context)

    @admin.display(description="blind players won")
    def rating_percent(self, check: BandCheck) -> str:
        return "not rated" if check.rating is None else f"{100 * check.rating:.1f}%"

    @admin.display(description="real players won")
    def players_percent(self, check: BandCheck) -> str:
        rate = check.players_rate
        return "no finished ranked game" if rate is None else f"{100 * rate:.1f}%"


def _gap(seconds: int | None) -> str:
    """How long before this game began the scout stopped ("-": it stopped after)."""
    if seconds is None:
        return ""
    return ("-" if seconds < 0 else "") + clock(1000 * abs(seconds))
