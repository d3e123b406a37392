from django.urls import path

from . import api, views

urlpatterns = [
    path("", views.play, name="play"),
    path("rules/", views.rules, name="rules"),
    path("api/csrf/", api.CsrfView.as_view(), name="api-csrf"),
    path("api/games/", api.GamesView.as_view(), name="api-games"),
    path("api/games/resume/", api.ResumeView.as_view(), name="api-resume"),
    path("api/games/<uuid:game_id>/", api.GameView.as_view(), name="api-game"),
    path("api/games/<uuid:game_id>/moves/", api.MovesView.as_view(), name="api-moves"),
    path("api/games/<uuid:game_id>/undo/", api.UndoView.as_view(), name="api-undo"),
    path("api/games/<uuid:game_id>/finish/", api.FinishView.as_view(), name="api-finish"),
    path("api/games/<uuid:game_id>/hint/", api.HintView.as_view(), name="api-hint"),
    path("api/stats/", api.StatsView.as_view(), name="api-stats"),
]
