"""Deltas: what changed between two payloads of a game, and how to apply it.

A board's socket sends the whole game once (on connect and on every sync) and
then, for each new version, only what changed since the last state it sent:
{"type": "delta", "version": N, "base": B, "game": <change>}. The client
applies it only to version B (which it holds: one socket's messages arrive in
order) and otherwise asks {"type": "sync"} for the whole state. A change only
copies values out of the new payload, so it carries nothing the full state
would not. The table (the variant's layout, fixed per variant) never changes,
so a delta never carries it.

A change is one of (applied by ``patch``, and by the board's connection.js):
- {"=": value}: the new value;
- {"+": [keep, items]}: a list: its first ``keep`` items, then ``items`` (a log
  that grew by one move sends one notation, not the whole log);
- {"{": {key: change, ...}, "-": [key, ...]}: an object: these keys changed, those
  went (only changed keys are sent: the one pile a move touched, not every pile).
"""

from __future__ import annotations

from typing import Any

Change = dict[str, Any]


def diff(before: Any, after: Any) -> Change | None:
    """The change that turns ``before`` into ``after``; None when they are equal."""
    if before == after:
        return None
    if type(before) is dict and type(after) is dict:
        changed = {}
        for key, value in after.items():
            change = diff(before[key], value) if key in before else {"=": value}
            if change is not None:
                changed[key] = change
        gone = [key for key in before if key not in after]
        return {"{": changed, "-": gone} if gone else {"{": changed}
    if type(before) is list and type(after) is list:
        keep = _common_prefix(before, after)
        if keep:
            return {"+": [keep, after[keep:]]}
    return {"=": after}


def patch(before: Any, change: Change) -> Any:
    """``before`` with ``change`` applied (a new value: ``before`` is left as it was)."""
    if "=" in change:
        return change["="]
    if "+" in change:
        keep, items = change["+"]
        return [*before[:keep], *items]
    after = dict(before)
    for key, inner in change.get("{", {}).items():
        after[key] = patch(before.get(key), inner)
    for key in change.get("-", ()):
        after.pop(key, None)
    return after


def _common_prefix(before: list[Any], after: list[Any]) -> int:
    count = 0
    for old, new in zip(before, after, strict=False):
        if old != new:
            break
        count += 1
    return count
