"""The races' pages (/race/, /race/<code>/, /race/<code>/replay/<entry_id>/): written
with the front end; the API is races.api."""
