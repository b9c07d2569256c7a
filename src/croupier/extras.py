"""The optional parts of croupier and the extra that installs each.

``pip install croupier`` is the core: the engine, the games, scenarios,
``croupier rules`` and the other commands that need nothing more than
typer, rich, numpy and tomli-w. The rest comes with an extra
(``pip install 'croupier[server]'``); :data:`EXTRAS` names the
distributions of each, as ``pyproject.toml`` lists them (a test checks
that the two agree). Code that needs an extra imports its libraries
where it needs them, or calls :func:`require` first, so a missing extra
is a :class:`MissingExtraError` that names it, not a bare
``ModuleNotFoundError``.

>>> extra_of("sqlalchemy.engine")
'server'
>>> extra_of("json") is None
True
>>> print(MissingExtraError("croupier serve", "server", "fastapi"))
croupier serve needs the 'server' extra (...): pip install 'croupier[server]'
"""

from __future__ import annotations

import importlib.util

from croupier.errors import CroupierError

__all__ = [
    "EXTRAS",
    "MissingExtraError",
    "extra_of",
    "import_name",
    "require",
]

EXTRAS: dict[str, tuple[str, ...]] = {
    "sim": ("numba>=0.61,<1", "scipy>=1.14,<2"),
    "cluster": ("distributed>=2025.1,<2027",),
    "server": (
        "fastapi>=0.160,<1",
        "starlette>=1.6,<2",
        "uvicorn[standard]>=0.50,<1",
        "sqlalchemy>=2.0,<3",
        "alembic>=1.16,<2",
        "psycopg[binary]>=3.2,<4",
        "limits>=5.0,<6",
        "fastapi-offline>=1.7,<2",
    ),
    "plot": ("matplotlib>=3.9,<4",),
    "report": (
        "croupier[sim,plot]",
        "jinja2>=3.1,<4",
        "weasyprint>=66,<69",
    ),
    "history": (
        "jsonschema>=4.23,<5",
        "jsonschema-rs>=0.60,<1",
        "orjson>=3.10,<4",
    ),
}
"""Extra -> its distributions (requirement strings of ``pyproject``);
``croupier[x]`` includes extra ``x``."""

_COME_WITH: dict[str, str] = {
    "dask": "cluster",
    "starlette": "server",
    "markupsafe": "report",
}
"""Modules that a listed distribution brings along, by extra."""


def import_name(requirement: str) -> str:
    """The top-level module of a requirement string.

    >>> import_name("psycopg[binary]>=3.2,<4")
    'psycopg'
    >>> import_name("fastapi-offline>=1.7,<2")
    'fastapi_offline'
    """
    name = requirement
    for stop in "[<>=!~; ":
        name = name.split(stop, 1)[0]
    return name.strip().lower().replace("-", "_")


def _included(requirement: str) -> tuple[str, ...]:
    """The extras a ``croupier[a,b]`` requirement includes (else none)."""
    if import_name(requirement) != "croupier":
        return ()
    inside = requirement.partition("[")[2].partition("]")[0]
    return tuple(part.strip() for part in inside.split(","))


_BY_MODULE: dict[str, str] = {
    **{
        import_name(requirement): extra
        for extra, requirements in EXTRAS.items()
        for requirement in requirements
        if not _included(requirement)
    },
    **_COME_WITH,
}


def extra_of(module: str) -> str | None:
    """The extra that installs ``module`` (dotted names allowed)."""
    return _BY_MODULE.get(module.partition(".")[0])


class MissingExtraError(CroupierError):
    """A feature whose extra is not installed."""

    def __init__(self, feature: str, extra: str, module: str) -> None:
        self.feature = feature
        """What was asked for (a command, a module)."""
        self.extra = extra
        """The extra that installs it."""
        self.module = module
        """The module that could not be imported."""
        super().__init__(
            f"{feature} needs the {extra!r} extra (no module {module}): "
            f"pip install 'croupier[{extra}]'"
        )


def require(extra: str, feature: str) -> None:
    """Refuse ``feature`` unless every module of ``extra`` is importable."""
    for requirement in EXTRAS[extra]:
        for included in _included(requirement):
            require(included, feature)
        module = import_name(requirement)
        if module != "croupier" and importlib.util.find_spec(module) is None:
            raise MissingExtraError(feature, extra, module)
