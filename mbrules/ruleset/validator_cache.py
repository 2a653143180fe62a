"""The ``Ruleset`` validator, kept between runs as Python keeps a module's compiled code (issue 46: start-up).

Reading a ruleset validates it with the validator pydantic makes for :class:`~.model.Ruleset`. Making it
is most of a ruleset command's own work: pydantic's schema of 259 fields in 85 model schemas (about 75 M
instructions), and pydantic's plugin loader, which imports ``importlib.metadata`` (55 M). The validator
itself is pydantic-core's ``SchemaValidator``, which pickles as the core schema and config it was made from;
the first run keeps that pickle in the model's ``__pycache__`` folder and later runs make the validator
from it, without pydantic's schema generation or its plugin loader.

The pickle is used only when it was made from the same sources by the same libraries: its key is the text
of the modules whose code makes the schema (:data:`KEYED`), the versions of pydantic and pydantic-core, the
files of pydantic's typing helpers and the interpreter's version; any other key, or a file that does not
read, makes the validator again through pydantic and writes the pickle anew. It is written only where
Python writes its own ``.pyc`` files (not under ``PYTHONDONTWRITEBYTECODE``), and read with the trust
Python gives those files. When a pydantic plugin is installed (pydantic then wraps each validator) or
plugins are switched off by ``PYDANTIC_DISABLE_PLUGINS``, or ``Ruleset``'s own validator is already made
in this process, pydantic's validator is used as it is.

The rule values' defaults are kept in the pickle by name (class and field) and read back as the very
objects the model's fields hold, as pydantic's own schema holds them. ``tests/test_validator_cache.py``
holds the validator read back to the one pydantic makes: the same core schema and config.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from pathlib import Path
from typing import Any

# The modules whose code makes Ruleset's schema: the model and what it imports from this package (a test
# holds the local imports of each to this list).
KEYED = ("model.py", "listing.py", "pydantic_plugins.py")
_NAME = "ruleset_validator.{tag}.pickle"
_made: Any = None


def ruleset_validator() -> Any:
    """The validator of :class:`~.model.Ruleset`: the one pydantic makes, or the same read from its pickle."""
    global _made
    if _made is None:
        _made = _validator()
    return _made


def _validator() -> Any:
    from . import model
    from .pydantic_plugins import no_plugin_declared

    if getattr(model.Ruleset, "__pydantic_complete__", False) or not no_plugin_declared():
        return pydantic_made(model)
    path = cache_file()
    key = cache_key(Path(model.__file__).parent)
    found = read_cached(path, key, model)
    if found is not None:
        return found
    made = pydantic_made(model)
    if not sys.dont_write_bytecode:
        write_cached(path, key, made, model)
    return made


def cache_file() -> Path:
    """Where the validator's pickle is kept: beside the model's compiled code."""
    from . import model

    return Path(model.__file__).parent / "__pycache__" / _NAME.format(tag=sys.implementation.cache_tag)


def pydantic_made(model: Any) -> Any:
    """pydantic's own validator of Ruleset, made as ``model_validate_json`` has it made (the model's build is
    deferred: asking the placeholder for ``validate_json`` builds the model and sets the validator)."""
    from .pydantic_plugins import skip_empty_plugin_lookup

    skip_empty_plugin_lookup()
    getattr(model.Ruleset.__pydantic_validator__, "validate_json")
    return model.Ruleset.__pydantic_validator__


def cache_key(folder: Path) -> str:
    """What the validator is made from: the keyed sources, the libraries that turn them into it, the interpreter."""
    import pydantic
    import pydantic_core

    h = hashlib.sha256()
    h.update(f"{sys.version}\0{pydantic.VERSION}\0{pydantic_core.__version__}\0".encode())
    for name in ("typing_extensions", "typing_inspection"):  # pydantic reads annotations through them
        mod = sys.modules.get(name)
        file = getattr(mod, "__file__", None)
        st = os.stat(file) if file else None
        h.update(f"{name}:{file}:{st and st.st_size}:{st and st.st_mtime_ns}\0".encode())
    for name in KEYED:
        h.update((folder / name).read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def _defaults(model: Any) -> dict[int, tuple[str, str]]:
    """Each model default that is itself a model (the rule values' defaults) -> (its class's name, field)."""
    from pydantic import BaseModel

    out: dict[int, tuple[str, str]] = {}
    for cname, cls in vars(model).items():
        if isinstance(cls, type) and issubclass(cls, BaseModel) and cls.__module__ == model.__name__:
            for fname, info in cls.model_fields.items():
                if isinstance(info.default, BaseModel):
                    out.setdefault(id(info.default), (cname, fname))
    return out


def read_cached(path: Path, key: str, model: Any) -> Any:
    try:  # the C pickler, which the pickle module exports; that module's own code is 6 M instructions to import
        import _pickle as pickle
    except ImportError:  # pragma: no cover - an interpreter without it
        import pickle  # type: ignore[no-redef]

    class _Unpickler(pickle.Unpickler):
        def persistent_load(self, pid: Any) -> Any:
            cname, fname = pid
            return getattr(model, cname).model_fields[fname].default

    try:
        with open(path, "rb") as f:
            if pickle.load(f) != key:
                return None
            return _Unpickler(f).load()
    except Exception:  # missing, unreadable, truncated, or made by other code: made again below
        return None


def write_cached(path: Path, key: str, validator: Any, model: Any) -> None:
    import pickle
    import tempfile

    by_id = _defaults(model)

    class _Pickler(pickle.Pickler):
        def persistent_id(self, obj: Any) -> Any:
            if isinstance(obj, model.BaseModel):
                return by_id[id(obj)]  # a default not held by a field: KeyError, nothing is written
            return None

    tmp: str | None = None
    try:
        path.parent.mkdir(exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=path.name, delete=False) as f:
            tmp = f.name
            pickle.dump(key, f)
            _Pickler(f).dump(validator)
        os.chmod(tmp, os.stat(model.__file__).st_mode & 0o666)  # readable as the model's .pyc is
        os.replace(tmp, path)
    except Exception:  # a read-only install, a full disk: the next run makes the validator again
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
