"""Race a friend: a room of up to 8 players on one secret deal the solver proved winnable.

Each player plays their own game (the game app's, with ``Game.race`` set); the room
sees everyone's progress live, never a card. ``actions`` is the only writer of this
app's tables; ``payloads`` says what a client may see of a room.
"""
