"""Accounts: unique, look-alike-proof player names and the throttles of log-in and sign-up.

Imports none of the project's other apps (import-linter checks it): tombsite uses it.
"""
