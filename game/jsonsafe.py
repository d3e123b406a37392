"""JSON from clients, read with a bound on nesting.

Python's parser recurses once per level: a body such as ``[[[[...]]]]`` a few thousand
deep raises RecursionError (not ValueError), which used to surface as a 500 over REST
and a dropped socket over WebSocket. Nothing the site accepts is nested more than a
few levels, so anything deeper than MAX_DEPTH is refused as malformed.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 16
TOO_DEEP = f"JSON nested more than {MAX_DEPTH} levels deep"


class TooDeep(ValueError):
    pass


def loads(text: str | bytes) -> Any:
    """``json.loads`` that raises ValueError (TooDeep) for nesting past MAX_DEPTH."""
    try:
        value = json.loads(text)
    except RecursionError as error:
        raise TooDeep(TOO_DEEP) from error
    if depth(value) > MAX_DEPTH:
        raise TooDeep(TOO_DEEP)
    return value


def depth(value: Any) -> int:
    """Levels of arrays and objects: 0 for a scalar, 1 for [] or {}. Walked with a stack of
    its own, not recursion: json.loads accepts nesting deep enough to overflow Python's."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            level += 1
            deepest = max(deepest, level)
            stack.extend((child, level) for child in (
                item.values() if isinstance(item, dict) else item))
    return deepest
