"""The typed wrappers of ``numba.njit(cache=True)`` the kernels share.

Compiled kernels (the pai gow evaluator in :mod:`croupier.hands` and the
simulators in :mod:`croupier.odds`) decorate with :func:`jit`, so that
mypy keeps their signatures and every kernel is cached on disk
(:func:`jit_inline` for small kernels inlined into their callers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["jit", "jit_inline"]

_F = TypeVar("_F", bound=Callable[..., Any])


def jit(func: _F) -> _F:
    """``numba.njit(cache=True)``, typed for mypy."""
    return cast("_F", numba.njit(cache=True)(func))


def jit_inline(func: _F) -> _F:
    """:func:`jit` inlined into its callers (``inline="always"``).

    For a small kernel called in a hot loop: numba passes each array
    argument of a call as several words and counts its references, which
    can cost more than the kernel's own work. Fewer than 30 arguments
    (a call with more is not inlined by numba).
    """
    return cast("_F", numba.njit(cache=True, inline="always")(func))
