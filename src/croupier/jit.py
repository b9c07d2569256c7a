"""The one typed wrapper of ``numba.njit(cache=True)`` the kernels share.

Compiled kernels (the pai gow evaluator in :mod:`croupier.hands` and the
simulators in :mod:`croupier.odds`) decorate with :func:`jit`, so that
mypy keeps their signatures and every kernel is cached on disk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["jit"]

_F = TypeVar("_F", bound=Callable[..., Any])


def jit(func: _F) -> _F:
    """``numba.njit(cache=True)``, typed for mypy."""
    return cast("_F", numba.njit(cache=True)(func))
