"""The table server: FastAPI, SQLAlchemy storage, WebSocket pushes.

:func:`croupier.server.app.create_app` builds the application; ``croupier
serve`` runs it under uvicorn. The engine of each game drives its rounds
(:mod:`croupier.server.runtime`); every event is stored in the same
transaction as the state change it records (:mod:`croupier.server.db`),
and each client only ever receives what its seat may see
(:mod:`croupier.server.visibility`).

The server needs the ``server`` extra (``pip install 'croupier[server]'``);
this package's own module imports nothing of it, so the CLI can name
the default database without it.
"""

from __future__ import annotations

__all__ = ["DB_ENV", "DEFAULT_DB_URL"]

DEFAULT_DB_URL = "sqlite:///croupier.db"
"""The default database: ``croupier.db`` in the working directory."""
DB_ENV = "CROUPIER_DB_URL"
"""Environment variable naming the database of a server worker."""
