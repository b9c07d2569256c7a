"""A faster constructor for a frozen slots dataclass.

A frozen dataclass's ``__init__`` sets each field through
``object.__setattr__`` (its own ``__setattr__`` refuses), looking the
method up and the field's slot by name, field by field; a record read
from a log builds a few of them with some forty fields between them at
every round (:meth:`croupier.hhf.format.HandHistory.from_dict`). The
constructor made here sets each slot through the slot's own descriptor,
found once, and is otherwise the class's ``__init__``: the same
keywords, the same defaults, its ``__post_init__`` run last, and the
same errors for a keyword missing or unknown (it bears the name
``Cls.__init__``). ``tests/foundation/test_frozen_constructor.py``
holds it to the class call.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True, kw_only=True)
... class Point:
...     x: int
...     y: int = 0
>>> make = frozen_constructor(Point)
>>> make(x=1) == Point(x=1), make(x=1, y=2) == Point(x=1, y=2)
(True, True)
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

__all__ = ["constructor_source", "frozen_constructor"]

T = TypeVar("T")
P = ParamSpec("P")


def constructor_source(
    names: tuple[str, ...],
    required: tuple[str, ...],
    post_init: bool,
    keyword_only: tuple[str, ...] = (),
) -> str:
    """The Python text of the constructor of fields ``names``, in order.

    The parameters are the fields as the dataclass's ``__init__`` takes
    them: positional or keyword, then (after ``*``) those of
    ``keyword_only``; ``required`` those without a default (a default
    ``x`` is read from the name ``d_x``). Each slot is set by ``s_x``,
    in field order; with ``post_init`` the instance's ``__post_init__``
    is called once every field is set.
    """
    for name in names:
        if not name.isidentifier():
            msg = f"not a field name: {name!r}"
            raise ValueError(msg)

    def param(name: str) -> str:
        return name if name in required else f"{name}=d_{name}"

    params = [param(n) for n in names if n not in keyword_only]
    if keyword_only:
        params += ["*", *(param(n) for n in names if n in keyword_only)]
    lines = [
        f"def __init__({', '.join(params)}):",
        "    self = _new(_cls)",
        *(f"    s_{name}(self, {name})" for name in names),
    ]
    if post_init:
        lines.append("    self.__post_init__()")
    lines.append("    return self")
    return "\n".join(lines) + "\n"


def frozen_constructor(cls: Callable[P, T]) -> Callable[P, T]:
    """A function equal to ``cls(...)`` for a frozen slots dataclass.

    It takes the arguments the class's ``__init__`` takes, and is typed
    so (the class's own signature), so that a type checker checks every
    call as it checks the class call. Only for a
    class whose every field is set by its ``__init__``, with a plain
    default or none (no default factory), and held in a slot of its
    own; for any other class the class itself is returned.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in vars(cls):
        return cls
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    required: list[str] = []
    names: list[str] = []
    keyword_only: list[str] = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        slot = vars(cls).get(f.name)
        if (
            not f.init
            or f.default_factory is not dataclasses.MISSING
            or not isinstance(slot, types.MemberDescriptorType)
        ):
            return cls
        names.append(f.name)
        namespace[f"s_{f.name}"] = slot.__set__
        if f.kw_only:
            keyword_only.append(f.name)
        if f.default is dataclasses.MISSING:
            required.append(f.name)
        else:
            namespace[f"d_{f.name}"] = f.default
    source = constructor_source(
        tuple(names),
        tuple(required),
        hasattr(cls, "__post_init__"),
        tuple(keyword_only),
    )
    exec(source, namespace)  # noqa: S102
    made: Callable[P, T] = namespace["__init__"]
    # a keyword missing or unknown is named as the class call names it
    made.__qualname__ = f"{getattr(cls, '__qualname__', '')}.__init__"
    return made
