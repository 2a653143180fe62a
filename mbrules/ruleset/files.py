"""Ruleset files: where a bundled id or a path leads (the bundled folder, a YAML file next to the one
that names it), and reading one file, cached on its path, modification time and size. The first two
steps of :mod:`mbrules.ruleset.loader`."""

from __future__ import annotations

import difflib
import errno
import os
import threading
from dataclasses import dataclass
from pathlib import Path


from .._paths import DEFAULT_RULESET
from .diagnostics import (
    Diagnostic,
    LocNode,
    YamlMap,
    display_path,
    printable,
    quote,
)
from .listing import is_ruleset_id
from .yamlmarks import YAML_SUFFIXES, FileSignature, parse_bytes, read_regular, real_path

REFERENCE_RULESET = DEFAULT_RULESET  # an option file is checked by applying it over this ruleset
# ----------------------------------------------------------------------------
# Bundled files


from .listing import bundled_ids as _bundled_ids, bundled_folder as _bundled_folder


def bundled_ruleset_ids() -> list[str]:
    """Ids of the bundled rulesets (``rulesets/<id>.yaml``), sorted."""
    return _bundled_ids(option=False)


def bundled_option_ids() -> list[str]:
    """Ids of the bundled options (``rulesets/options/<id>.yaml``), sorted."""
    return _bundled_ids(option=True)


class _BadRef(Exception):
    """A reference that can name no ruleset or option file (not .yaml/.yml, a character no name can hold)."""


def _not_yaml_message(ref: str, option: bool) -> str:
    what = "an option" if option else "a ruleset"
    return (
        f"{quote(ref)} is not {what} file: {what} is named by its bundled id or by a path to a .yaml or "
        ".yml file; name one"
    )


def _resolve_ref(ref: str, base: Path, option: bool) -> Path | None:
    """A bundled id (when ``ref`` looks like one) or a path to a .yaml/.yml file (relative: below ``base``).

    None: ``ref`` looks like an id but names no bundled file. Raises :class:`_BadRef` for a path that
    does not end in .yaml or .yml (``/etc/passwd``, ``/proc/self/environ`` are never read) or holds a
    character no file name can (NUL, a lone surrogate). ``~`` is not expanded: a path in a file is
    relative to the file.
    """
    if is_ruleset_id(ref):
        bundled = _bundled_folder(option) / f"{ref}.yaml"
        return bundled if bundled.is_file() else None
    if "\0" in ref or any(0xD800 <= ord(c) <= 0xDFFF for c in ref if not 0xDC80 <= ord(c) <= 0xDCFF):
        raise _BadRef(f"{quote(ref)} cannot be a file name (it holds a NUL or a lone surrogate); fix the name")
    if not ref.lower().endswith(YAML_SUFFIXES):
        raise _BadRef(_not_yaml_message(ref, option))
    p = Path(ref)
    return p if p.is_absolute() else base / p


def _unknown_id_message(ref: str, option: bool) -> str:
    ids = _bundled_ids(option)
    what = "option" if option else "ruleset"
    close = difflib.get_close_matches(ref, ids, n=1)
    guess = f"did you mean '{close[0]}'? " if close else ""
    return (
        f"unknown {what} {quote(ref)}: {guess}bundled {what}s are {', '.join(ids) or 'none'}; "
        f"or give a path to a .yaml file"
    )


def _name_for(path: Path) -> str:
    """The name an applied option is listed under: its bundled id, or the stem of its path (escaped)."""
    return printable(path.stem)


# ----------------------------------------------------------------------------
# Reading one file (cached on path, modification time and size)


@dataclass
class _FileRead:
    path: Path  # absolute
    display: str
    data: YamlMap | None
    locs: LocNode | None
    errors: list[Diagnostic]  # YAML layer and schema layer


_file_cache: dict[tuple[str, str], tuple[FileSignature, _FileRead]] = {}  # (path, display) -> ...
_file_lock = threading.Lock()


def _signature(path: Path) -> FileSignature:
    """What :func:`read_regular` gives as a file's signature, by stat (nothing is opened)."""
    st = os.stat(path)
    return st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev


def _check_suffix(path: Path, option: bool = False) -> None:
    if not path.name.lower().endswith(YAML_SUFFIXES):
        raise _BadRef(_not_yaml_message(str(path), option))


def _read(path: Path) -> tuple[_FileRead, FileSignature]:
    """Parse and schema-check one file; OSError (missing, unreadable, a folder, a pipe, a symlink
    loop, a name no file can have) goes to the caller. The file is opened once and checked on the
    open descriptor (:func:`read_regular`); a file already parsed with the same signature is not read."""
    path = real_path(path)
    if not path.name.lower().endswith(YAML_SUFFIXES):  # a .yaml link to /etc/passwd is not read either
        raise OSError(errno.EINVAL, f"it is a link to {quote(str(path))}, not to a .yaml or .yml file", str(path))
    display = printable(display_path(path))  # as every message names it
    key = (str(path), display)
    with _file_lock:
        hit = _file_cache.get(key)
    raw, sig = read_regular(path, known=hit[0] if hit is not None else None)
    if raw is None and hit is not None:
        return hit[1], sig
    parsed = parse_bytes(raw or b"", display)
    errors = list(parsed.errors)
    if parsed.data is not None and parsed.locs is not None:
        from .schema_check import schema_errors  # only once a file is read (jsonschema: only if it is invalid)

        # A value the YAML layer refused (a bad tag, a number too long) stands there as null: the
        # schema layer's word on that same place would only repeat it, wrongly ("got null").
        refused_at = {(d.line, d.col) for d in parsed.errors}
        errors.extend(d for d in schema_errors(parsed.data, parsed.locs) if (d.line, d.col) not in refused_at)
    fr = _FileRead(path, display, parsed.data, parsed.locs, errors)
    with _file_lock:
        if len(_file_cache) > 256:
            _file_cache.clear()
        _file_cache[key] = (sig, fr)
    return fr, sig


def _reason(exc: OSError) -> str:
    return (exc.strerror or str(exc)).lower() if isinstance(exc, OSError) else str(exc)
