"""The games, one module (or package) per game; importing this registers all.

Every module in this package registers its :class:`~croupier.registry.
GameSpec` at import time; this file imports them all, so adding a game
is adding a module.
"""

from __future__ import annotations

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    if not _module.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_module.name}")
