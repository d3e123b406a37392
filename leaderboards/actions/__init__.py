"""The daily challenge's actions: check_* (parse, authorise) and do_* (write).

The only writers of this app's tables, one module per table, so each table has one
place that changes it:

* ``daily``: ``Daily`` (stored, replaced, rated; chosen by ``leaderboards.dailies``)
* ``attempts``: ``Attempt`` (started, kept in step with its game, reviewed)
* ``stats``: ``PlayerStats`` (a ranked start, a win, a loss)
* ``standing``: ``Standing`` (an admin's unranked mark)
* ``bands``: ``BandCheck``

``play`` (the ranked attempt and replays) and ``checks`` (input) use them. Importing
this package connects ``attempts.record_attempt`` to ``game.hooks.game_stored``.
"""

from game.actions import ActionError, BadRequest, GameNotFound, NotAllowedNow, Player

from .attempts import do_forget_addresses, do_review
from .bands import do_compare_bands
from .checks import (
    MAX_PAGE,
    LogInFirst,
    NotYetEligible,
    check_board,
    check_day,
    check_game_variant,
    check_logged_in,
    check_month,
    check_page,
    check_past_day,
    check_variant,
    variant_slugs,
)
from .daily import (
    Played,
    do_note_line,
    do_replace_daily,
    do_store_daily,
    do_store_difficulty,
    do_store_rating,
)
from .play import (
    check_may_play,
    do_play_today,
    do_replay,
    first_ranked_day_opens,
    play_status,
)
from .standing import do_set_unranked

__all__ = [
    "MAX_PAGE", "ActionError", "BadRequest", "GameNotFound", "LogInFirst", "NotAllowedNow",
    "NotYetEligible", "Played", "Player", "check_board", "check_day", "check_game_variant",
    "check_logged_in", "check_may_play", "check_month", "check_page", "check_past_day",
    "check_variant", "do_compare_bands", "do_forget_addresses", "do_note_line",
    "do_play_today", "do_replace_daily", "do_replay", "do_review", "do_set_unranked",
    "do_store_daily", "do_store_difficulty", "do_store_rating", "first_ranked_day_opens",
    "play_status",
    "variant_slugs",
]
