"""The game app's pages and API. Pages name the game and the variant
(``/<game>/<variant>/``); the old addresses still work (``/`` plays the default
game, ``/rules/`` redirects to its rules). The API takes the game and variant in
its bodies and queries (a variant's slug alone names its game too)."""

from django.urls import path

from . import api, converters, views

converters.register()

urlpatterns = [
    path("", views.play, name="play"),
    path("rules/", views.default_rules, name="rules"),
    path("api/csrf/", api.CsrfView.as_view(), name="api-csrf"),
    path("api/games/", api.GamesView.as_view(), name="api-games"),
    path("api/games/resume/", api.ResumeView.as_view(), name="api-resume"),
    path("api/games/<uuid:game_id>/", api.GameView.as_view(), name="api-game"),
    path("api/games/<uuid:game_id>/moves/", api.MovesView.as_view(), name="api-moves"),
    path("api/games/<uuid:game_id>/undo/", api.UndoView.as_view(), name="api-undo"),
    path("api/games/<uuid:game_id>/finish/", api.FinishView.as_view(), name="api-finish"),
    path("api/games/<uuid:game_id>/hint/", api.HintView.as_view(), name="api-hint"),
    path("api/stats/", api.StatsView.as_view(), name="api-stats"),
    path("api/catalog/", api.CatalogView.as_view(), name="api-catalog"),
    # Only registered slugs match these: other addresses fall through to later patterns.
    path("<game:game>/", views.game_home, name="play-game"),
    path("<game:game>/rules/", views.rules, name="game-rules"),
    path("<game:game>/<variant:variant>/", views.play_variant, name="play-variant"),
]
