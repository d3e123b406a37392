"""The engine's errors: each is a ValueError whose message a player can read."""


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class InvalidNotation(EngineError):
    """Text that is not a move, card, variant or deal in RULES.md notation."""


class InvalidDeal(EngineError):
    """A deal number out of range, a malformed card order or a bad seed."""


class IllegalMove(EngineError):
    """A well-formed move that the rules do not allow in this position."""


ECHO_LIMIT = 16


def echo(value: object) -> str:
    """How a message quotes bad input: short, so a huge input stays out of it."""
    text = repr(value)
    return text if len(text) <= ECHO_LIMIT else text[:ECHO_LIMIT] + "..."
