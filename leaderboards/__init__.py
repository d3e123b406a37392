"""The daily challenge: secret screened deals, ranked attempts, boards, statistics, the field.

Built on ``game``: it creates and reads games through ``game.actions`` and
learns of every write through ``game.hooks.game_stored``. ``game`` never
imports this app.
"""
