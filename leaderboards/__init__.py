"""The daily challenge for every registered game: secret screened deals, ranked attempts,
boards, statistics, the field.

Built on ``game``: it creates and reads games through ``game.actions`` and learns of
every write through ``game.hooks.game_stored``. ``game`` never imports this app, and
nothing here names a game: games and variants come from the ``patience`` registry.

Its modules stand in layers (an import-linter contract), each importing only those
below, so no import runs back up: entry points (views, api, consumers, admin, urls,
commands) > preparing, rescreening > tasks > dailies (choosing a day's deal) >
actions (the only writers, one module per table) > events > chart_data > boards
(reading) > charts, fairplay, device, days, serializers > models.
"""
