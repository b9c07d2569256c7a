"""The table server: FastAPI, SQLAlchemy storage, WebSocket pushes.

:func:`croupier.server.app.create_app` builds the application; ``croupier
serve`` runs it under uvicorn. The engine of each game drives its rounds
(:mod:`croupier.server.runtime`); every event is stored in the same
transaction as the state change it records (:mod:`croupier.server.db`),
and each client only ever receives what its seat may see
(:mod:`croupier.server.visibility`).
"""

from __future__ import annotations
