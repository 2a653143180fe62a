"""The rules a host chooses for a table: a bundled edition with bundled options, or an uploaded file.

An upload is checked as ``mbrules validate`` checks a file (the same ``FILE:LINE:COL: message``
lines, named after the uploaded file), with two limits of its own, since the file comes from a
browser and is read on the server: it is at most :data:`MAX_UPLOAD` bytes, and every other file it
names (``extends:`` and its own ``options:``) must be a bundled id: a path would read a file of the
server's. YAML bombs, deep nesting and oversized values are refused by the loader's YAML layer
(:mod:`mbrules.ruleset.yamlmarks`) before anything is built.

The rule changes the host sees before opening the table are :func:`mbrules.ruleset.diff.diff_rulesets`
sentences (as ``mbrules diff``), from the edition the choice starts from to the rules in play.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .jsontypes import Setup

if TYPE_CHECKING:
    from mbrules.ruleset import Ruleset
    from mbrules.ruleset.diagnostics import DataKey

MAX_UPLOAD = 64 * 1024  # bytes of an uploaded ruleset (a bundled edition is about 20 KiB)
MAX_OPTIONS = 16  # options on one table
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


class RulesChoiceError(Exception):
    """The host's choice cannot make a table; ``lines`` say why (``FILE:LINE:COL: message`` for a file)."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


@dataclass(frozen=True)
class Rules:
    """A checked choice: the ruleset in play, what it starts from, and how to name it again."""

    ruleset: Ruleset
    base: Ruleset  # the bundled edition the diff starts from
    ruleset_id: str | None  # a bundled id, or None for an upload
    upload_name: str | None
    upload_text: str | None
    options: tuple[str, ...]

    def changes(self) -> list[str]:
        """The rule changes from the base edition, in words (``mbrules diff``'s sentences)."""
        from mbrules.ruleset.diff import diff_rulesets

        return [str(c) for c in diff_rulesets(self.base, self.ruleset)]

    def rules_text(self, players: int | None) -> str:
        """The rules in words (``mbrules show``), then each rule of play with its citation: the
        rulebook section it comes from (``source``) or the ruling that decided it (``decided``)."""
        from mbrules.ruleset.model import Rule
        from mbrules.ruleset.render import show_text
        from mbrules.ruleset.words import CITATION_FIELDS, phrase, value_words

        rs = self.ruleset
        lines = ["", "Where each rule comes from"]
        for section in ("play", "coup_fourre", "scoring", "match"):
            model = getattr(rs, section)
            for name in type(model).model_fields:
                value = getattr(model, name)
                if name in CITATION_FIELDS or not isinstance(value, Rule):
                    continue
                pattern = f"{section}.{name}"
                raw = list(value.value) if isinstance(value.value, tuple) else value.value
                cite = (
                    f"source: {value.source}"
                    if value.source
                    else f"decided: {value.decided}"
                    if value.decided
                    else "uncited"
                )
                lines.append(f"  {phrase(pattern)}: {value_words(pattern, raw, rs)}  [{cite}]")
        return show_text(rs, players) + "\n".join(lines) + "\n"


_upload_dir: tempfile.TemporaryDirectory[str] | None = None
_upload_lock = threading.Lock()
_upload_count = 0


def _scratch_file(name: str) -> Path:
    """A new file path for an upload in this process's private scratch folder (removed at exit)."""
    global _upload_dir, _upload_count
    with _upload_lock:
        if _upload_dir is None:
            _upload_dir = tempfile.TemporaryDirectory(prefix="mbrules-web-")
        _upload_count += 1
        folder = Path(_upload_dir.name) / str(_upload_count)
    folder.mkdir()
    return folder / name


def upload_name(name: str | None) -> str:
    """A file name for messages: the uploaded name's last part, plain characters, ending in .yaml."""
    base = _SAFE_NAME.sub("_", (name or "").replace("\\", "/").rsplit("/", 1)[-1])[:60].strip("._") or "upload"
    return base if base.lower().endswith((".yaml", ".yml")) else base + ".yaml"


def bundled_choice(ruleset_id: str, options: list[str] | tuple[str, ...]) -> Rules:
    """A bundled edition with bundled options (ids only: a path is refused)."""
    from mbrules.ruleset import RulesetError, bundled_option_ids, bundled_ruleset_ids, load_ruleset

    if ruleset_id not in bundled_ruleset_ids():
        raise RulesChoiceError(
            [f"unknown edition {ruleset_id!r:.80}: choose one of {', '.join(bundled_ruleset_ids())}"]
        )
    opts = _option_ids(options, bundled_option_ids())
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rs = load_ruleset(ruleset_id, opts)
            base = load_ruleset(ruleset_id)
    except RulesetError as e:
        raise RulesChoiceError(list(e.lines)) from None
    return Rules(rs, base, ruleset_id, None, None, tuple(opts))


def _option_ids(options: Iterable[object] | None, known: list[str]) -> list[str]:
    opts = list(options or ())
    if len(opts) > MAX_OPTIONS:
        raise RulesChoiceError([f"at most {MAX_OPTIONS} options on one table (got {len(opts)})"])
    bad = [o for o in opts if not isinstance(o, str) or o not in known]
    if bad:
        raise RulesChoiceError(
            [f"unknown option {str(b)!r:.80}: options are bundled ids ({', '.join(known)})" for b in bad[:5]]
        )
    return [o for o in opts if isinstance(o, str)]  # every one, checked above


def uploaded_choice(name: str | None, raw: bytes, options: list[str] | tuple[str, ...] = ()) -> Rules:
    """An uploaded ruleset file (bytes as sent), checked as ``mbrules validate`` would, plus the limits above."""
    from mbrules.ruleset import RulesetError, bundled_option_ids, bundled_ruleset_ids, load_ruleset
    from mbrules.ruleset.yamlmarks import parse_bytes

    shown = upload_name(name)
    if len(raw) > MAX_UPLOAD:
        raise RulesChoiceError(
            [
                f"{shown}:1:1: the file is {len(raw):,} bytes; an uploaded ruleset is at most "
                f"{MAX_UPLOAD // 1024} KiB (a bundled edition is about 20 KiB)"
            ]
        )
    parsed = parse_bytes(raw, shown)
    if parsed.errors or not isinstance(parsed.data, dict):
        lines = [str(d) for d in sorted(set(parsed.errors))] or [f"{shown}:1:1: a ruleset file is a YAML mapping"]
        raise RulesChoiceError(lines)
    data, locs = parsed.data, parsed.locs
    problems = []

    def at(key: DataKey, index: DataKey | None = None) -> str:
        node = locs.child(key) if locs is not None else None
        if node is not None and index is not None:
            node = node.child(index) or node
        if node is None:
            return f"{shown}:1:1"
        f, line, col = node.loc.at_value()
        return f"{shown}:{line}:{col}"

    if data.get("kind") == "option":
        problems.append(
            f"{at('kind')}: this is an option file: upload a ruleset (a file with 'extends:' or "
            "every section), or choose bundled options"
        )
    ext = data.get("extends")
    if ext is not None and ext not in bundled_ruleset_ids():
        problems.append(
            f"{at('extends')}: 'extends' may only name a bundled edition here "
            f"({', '.join(bundled_ruleset_ids())}), never a file (got {str(ext)!r:.80})"
        )
    file_opts = data.get("options")
    if isinstance(file_opts, list):
        for i, o in enumerate(file_opts):
            if o not in bundled_option_ids():
                problems.append(
                    f"{at('options', i)}: an uploaded file's 'options' may only name bundled options "
                    f"({', '.join(bundled_option_ids())}), never a file (got {str(o)!r:.80})"
                )
    if problems:
        raise RulesChoiceError(problems)
    opts = _option_ids(options, bundled_option_ids())
    path = _scratch_file(shown)
    path.write_bytes(raw)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rs = load_ruleset(path, opts)
            base = load_ruleset(ext if isinstance(ext, str) else "winning-moves")
    except RulesetError as e:
        raise RulesChoiceError([_rename(line, path, shown) for line in e.lines]) from None
    finally:  # the resolved ruleset is in memory: the scratch copy goes (a stream of uploads fills no disk)
        shutil.rmtree(path.parent, ignore_errors=True)
    text = raw.decode("utf-8")  # parse_bytes accepted it: UTF-8
    return Rules(rs, base, None, shown, text, tuple(opts))


def _rename(line: str, path: Path, shown: str) -> str:
    """A loader message about the scratch copy, naming the uploaded file instead."""
    from mbrules.ruleset.diagnostics import display_path

    for form in (display_path(path), str(path), str(path.resolve())):
        line = line.replace(form, shown)
    return line


def choice_from_setup(setup: Setup) -> Rules:
    """The rules a stored table's setup names (a restarted server rebuilds each table with this)."""
    if setup.get("upload_text") is not None:
        return uploaded_choice(
            setup.get("upload_name"), setup["upload_text"].encode("utf-8"), setup.get("options") or ()
        )
    return bundled_choice(setup["ruleset"], setup.get("options") or ())


__all__ = [
    "MAX_UPLOAD",
    "Rules",
    "RulesChoiceError",
    "bundled_choice",
    "choice_from_setup",
    "upload_name",
    "uploaded_choice",
]
