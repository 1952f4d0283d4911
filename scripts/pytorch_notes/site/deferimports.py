"""Modules imported by name but executed only when first used: the ``defer_imports`` option of the
``pytorch-notes`` plugin (``plugin.py``), which runs it before MkDocs imports the plugins listed after it.

mkdocs-jupyter's plugin module imports its converter stack (``mkdocs_jupyter.convert``: nbconvert,
mistune, bs4; and ``jupytext``: nbformat, jsonschema) although a build whose notebooks are all in its
cache never converts one. A cold build, and any notebook page that needs converting, still import them,
on first use.

The standard library's ``importlib.util.LazyLoader`` does not do here: on Python 3.11 the import
system reads ``__spec__`` of a module found in ``sys.modules``, and that read executes a lazy
module at once (``import jupytext`` in mkdocs-jupyter would load it immediately). ``_Deferred``
answers ``__spec__`` without loading.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types


class _Deferred(types.ModuleType):
    """Stands in ``sys.modules`` for a module that has not been executed yet.

    Reading any attribute it does not hold (everything but the name and the spec) imports the real
    module, puts it in ``sys.modules`` and copies its namespace here, so that names bound to this
    object (``import jupytext`` in another module) keep working.
    """

    def __init__(self, name: str, spec) -> None:
        super().__init__(name)
        self.__spec__ = spec

    def __getattr__(self, attr: str):
        name = self.__name__
        if sys.modules.get(name) is self:
            del sys.modules[name]
        real = importlib.import_module(name)
        vars(self).update({k: v for k, v in vars(real).items() if k != "__spec__"})
        self.__spec__ = real.__spec__
        return getattr(real, attr)


def defer_import(name: str) -> bool:
    """Put a stand-in for module ``name`` in ``sys.modules`` until it is used.

    Returns False, doing nothing, when ``name`` is imported already or cannot be found. The parent
    package of a dotted ``name`` is imported (``importlib.util.find_spec`` needs it) but not changed:
    ``from package import module`` finds the stand-in in ``sys.modules`` (the import system's fallback
    for a submodule its package does not hold yet), and the real module, once loaded, is set on the
    package by the import system itself.
    """
    if name in sys.modules:
        return False
    spec = importlib.util.find_spec(name)
    if spec is None:
        return False
    sys.modules[name] = _Deferred(name, spec)
    return True
