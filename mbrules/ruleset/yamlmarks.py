"""YAML layer: safe, bounded reading of one file into plain data plus the position of every value.

Only PyYAML's safe composer is used; the data is built here from the node graph, so that

* every key and value keeps its line and column (a :class:`LocNode` tree mirrors the data);
* a key written twice, a non-text key, a tag outside plain YAML are errors, all reported;
* aliases expand only up to ``MAX_VALUES`` values (a "billion laughs" file fails at once),
  nesting stops at ``MAX_DEPTH``, files stop at ``MAX_BYTES``;
* integer keys become strings (``2:`` and ``"2":`` are the same player count).

The ruleset loader reads one document a file (:func:`parse_file`); the scenario reader
(:mod:`mbrules.scenario.yamlio`) uses the same steps one by one: :func:`read_bytes`,
:func:`decode_text`, :func:`compose_documents`, :func:`build_document`, each problem that stops
reading a :class:`YamlError`.
"""

from __future__ import annotations

import errno
import math
import os
import re
import stat
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any, Protocol, TypeAlias

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .diagnostics import DataKey, Diagnostic, Loc, LocNode, YamlData, YamlMap, quote

MAX_BYTES = 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 20_000  # nodes written in one file (a bundled edition has about 550)
MAX_VALUES = 100_000  # values once aliases are expanded
MAX_REPORTED = 20  # per kind of repeated problem (control characters)

T_STR = "tag:yaml.org,2002:str"
T_INT = "tag:yaml.org,2002:int"
T_FLOAT = "tag:yaml.org,2002:float"
T_BOOL = "tag:yaml.org,2002:bool"
T_NULL = "tag:yaml.org,2002:null"
T_TIMESTAMP = "tag:yaml.org,2002:timestamp"
T_VALUE = "tag:yaml.org,2002:value"
T_MERGE = "tag:yaml.org,2002:merge"
T_SEQ = "tag:yaml.org,2002:seq"
T_MAP = "tag:yaml.org,2002:map"


@dataclass(frozen=True)
class FileKind:
    """What kind of file is read, for the messages: they name it (``a ruleset file is small``)."""

    noun: str  # "ruleset", "scenario"

    @property
    def a_file(self) -> str:
        return f"a {self.noun} file"

    @property
    def plain_hint(self) -> str:
        return f"{self.a_file} is plain YAML: text, numbers, true/false, null, lists and mappings"


RULESET = FileKind("ruleset")
SCENARIO = FileKind("scenario")
PLAIN_HINT = RULESET.plain_hint

# C0 controls but tab, LF, CR; DEL; C1 controls but NEL; surrogates; the two non-characters.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
_CONTROL_NAMES = {
    0: "NUL",
    7: "BEL",
    8: "BS",
    0x0B: "VT",
    0x0C: "FF",
    0x0D: "CR",
    0x1B: "ESC",
    0x7F: "DEL",
    0x85: "NEL",
    0x2028: "LINE SEPARATOR",
    0x2029: "PARAGRAPH SEPARATOR",
}
# In a value (after YAML's escapes, "\0", "\ud800", "\r", "\N", are read): the same, and every line
# break but LF (a value may span lines; a CR, NEL or line separator there only comes from an escape).
_VALUE_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\ufffe\uffff]")


class Mark(Protocol):
    """Where PyYAML says a node or an event starts (``yaml.error.Mark``, or libyaml's): 0-based."""

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


# A value YAML writes without nesting, as the builder makes it (a date stays its text).
Scalar: TypeAlias = str | int | float | bool | None
# A regular file's signature: modification time (ns), size, inode, device (see read_regular).
FileSignature: TypeAlias = tuple[int, int, int, int]


@dataclass
class ParsedYaml:
    """One file read: its data (None when unreadable as a mapping), positions, and problems."""

    data: YamlMap | None
    locs: LocNode | None
    errors: list[Diagnostic] = field(default_factory=list)


class YamlError(Exception):
    """A problem that stops reading: where (1-based line and column), what, and in which document."""

    def __init__(self, line: int, col: int, message: str):
        super().__init__(message)
        self.line = line
        self.col = col
        self.message = message
        self.document = 1  # 1-based; set by compose_documents

    @classmethod
    def at(cls, mark: Mark, message: str) -> YamlError:
        return cls(*_pos(mark), message)

    def diagnostic(self, file: str) -> Diagnostic:
        return Diagnostic(file, self.line, self.col, self.message)


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, composing nodes only; refuses nesting deeper than MAX_DEPTH and more than
    ``max_nodes`` nodes written in the file (counted as they are composed: reading stops there)."""

    def __init__(
        self, stream: str, max_nodes: int = MAX_NODES, max_file_nodes: int | None = None, kind: FileKind = RULESET
    ) -> None:
        super().__init__(stream)
        self._kind = kind
        self._depth = 0
        self._nodes = 0  # in this document
        self._max_nodes = max_nodes
        self._file_nodes = 0  # in every document so far
        self._max_file_nodes = max_file_nodes if max_file_nodes is not None else max_nodes

    def next_mark(self) -> Mark:
        """Where the next event starts (there is one: the stream ends with an event)."""
        event: yaml.Event = self.peek_event()  # type: ignore[no-untyped-call]  # types-PyYAML leaves Parser.peek_event unannotated
        mark = event.start_mark
        assert mark is not None  # the pure-Python parser marks every event
        return mark

    def compose_document(self) -> Node | None:
        self._nodes = 0
        return super().compose_document()

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise YamlError.at(
                    self.next_mark(),
                    f"nesting deeper than {MAX_DEPTH} levels: {self._kind.a_file} is never this deep; "
                    "flatten the structure",
                )
            if not self.check_event(yaml.AliasEvent):  # an alias adds no node (it reuses one)
                self._nodes += 1
                self._file_nodes += 1
                if self._nodes > self._max_nodes or self._file_nodes > self._max_file_nodes:
                    raise YamlError.at(
                        self.next_mark(),
                        _too_many_nodes(
                            self._nodes, self._max_nodes, self._file_nodes, self._max_file_nodes, self._kind
                        ),
                    )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _pos(mark: Mark) -> tuple[int, int]:
    return mark.line + 1, mark.column + 1


def _line_col_of_offset(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


TOO_LARGE = f"the file is larger than {MAX_BYTES // 1024} KiB: a ruleset file is a few KiB; this is not a ruleset"


YAML_SUFFIXES = (".yaml", ".yml")


def read_regular(
    path: Path | str, max_bytes: int = MAX_BYTES, known: FileSignature | None = None
) -> tuple[bytes | None, FileSignature]:
    """Open ``path`` once and read at most ``max_bytes`` + 1 bytes of it, if it is a regular file.

    The file is opened without blocking (a named pipe swapped in after any earlier check opens at
    once instead of waiting for a writer), the open descriptor is checked (a folder, a pipe, a
    device or a socket is refused), and only then read. Returns the bytes and the file's signature
    (modification time, size, inode, device); with ``known`` equal to that signature, nothing is
    read and the bytes are None (the caller has this very file already). Every failure is an
    OSError (a name no file can have, a symlink loop, missing, unreadable, not a regular file).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (ValueError, UnicodeError):  # a NUL, or a lone surrogate no file system name can hold
        raise OSError(errno.EINVAL, "a file name cannot hold this character", str(path)) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
        if not stat.S_ISREG(st.st_mode):  # a pipe or a device could block or never end
            raise OSError(errno.EINVAL, "not a regular file (a pipe, a device or a socket)", str(path))
        sig = (st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev)
        if known is not None and sig == known:
            return None, sig
        chunks = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks), sig
    finally:
        os.close(fd)


def read_bytes(path: Path, max_bytes: int = MAX_BYTES) -> bytes:
    """Read at most ``max_bytes`` + 1 bytes of a regular file (:func:`read_regular`; OSError goes to the caller)."""
    return read_regular(path, max_bytes)[0] or b""  # never None: no ``known`` signature is given


def real_path(path: Path | str) -> Path:
    """The absolute path with symlinks followed as far as they go; never raises for a symlink loop
    (opening it then fails with ELOOP); a name no file can have is an OSError."""
    try:
        return Path(os.path.realpath(path))
    except (ValueError, UnicodeError):
        raise OSError(errno.EINVAL, "a file name cannot hold this character", str(path)) from None
    except RuntimeError:  # pragma: no cover - realpath(strict=False) does not raise on loops
        raise OSError(errno.ELOOP, "too many levels of symbolic links", str(path)) from None


def decode_text(
    raw: bytes, file: str, max_bytes: int = MAX_BYTES, too_large: str = TOO_LARGE, kind: FileKind = RULESET
) -> tuple[str | None, list[Diagnostic]]:
    """UTF-8 text without control characters, or the problems (size, encoding, controls)."""
    if len(raw) > max_bytes:
        return None, [Diagnostic(file, 1, 1, too_large)]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, [Diagnostic(file, 1, 1, "the file is UTF-16 encoded: save it as UTF-8")]
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        prefix = raw[: exc.start].decode("utf-8", errors="replace")
        line, col = _line_col_of_offset(prefix, len(prefix))
        bad = raw[exc.start]
        return None, [
            Diagnostic(
                file,
                line,
                col,
                f"not UTF-8 text: byte 0x{bad:02x} cannot be decoded "
                "(is this a binary file?); save the file as UTF-8 text",
            )
        ]
    errors = []
    matches = list(_CONTROL.finditer(text))
    for m in matches[:MAX_REPORTED]:
        code = ord(m.group())
        name = _CONTROL_NAMES.get(code)
        label = f"U+{code:04X}" + (f" ({name})" if name else "")
        line, col = _line_col_of_offset(text, m.start())
        errors.append(
            Diagnostic(file, line, col, f"control character {label} is not allowed in {kind.a_file}; remove it")
        )
    if len(matches) > MAX_REPORTED:
        last = matches[MAX_REPORTED]
        line, col = _line_col_of_offset(text, last.start())
        errors.append(
            Diagnostic(
                file,
                line,
                col,
                f"... and {len(matches) - MAX_REPORTED} more control characters (is this a binary file?)",
            )
        )
    return (None if errors else text), errors


def _syntax_message(exc: yaml.MarkedYAMLError) -> str:
    problem = (exc.problem or "not valid YAML").strip()
    msg = f"YAML syntax error: {problem}"
    if exc.context and exc.context_mark is not None and exc.context_mark is not exc.problem_mark:
        cl, cc = _pos(exc.context_mark)
        msg += f" ({exc.context.strip()} at line {cl}, column {cc})"
    return msg + "; fix the YAML syntax here"


def _too_many_nodes(nodes: int, max_nodes: int, file_nodes: int, max_file_nodes: int, kind: FileKind) -> str:
    """What both readers say when a document (checked first) or the file holds more nodes than allowed."""
    if nodes > max_nodes:
        return f"too many YAML nodes: {nodes:,}, the most is {max_nodes:,} ({kind.a_file} is small); shorten the lists"
    return f"too many YAML nodes: {file_nodes:,}, the most is {max_file_nodes:,} in one file; split the file"


_CLoader: type[yaml.CSafeLoader] | None = getattr(yaml, "CSafeLoader", None)  # libyaml, when PyYAML was built with it
_SCALAR, _ALIAS = yaml.ScalarEvent, yaml.AliasEvent
_MAP_START, _SEQ_START = yaml.MappingStartEvent, yaml.SequenceStartEvent
_MAP_END, _SEQ_END = yaml.MappingEndEvent, yaml.SequenceEndEvent
_DOC_START = yaml.DocumentStartEvent

# The documents libyaml composed from a text without one alias: every node is written once, so the values
# are the nodes, no more than the node bound (below MAX_VALUES), and no alias can contain itself;
# build_document leaves out _check_expansion's walk over every node for them (a fifth of a scenario's read).
_ALIAS_FREE: weakref.WeakSet[Node] = weakref.WeakSet()


def _fast_compose(
    text: str, one: bool, max_nodes: int, max_file_nodes: int | None, kind: FileKind = RULESET
) -> list[Node] | None:
    """The documents of ``text`` composed by libyaml (``CSafeLoader``: the same nodes, tags and line
    marks, several times faster), or None to take the pure-Python path, which gives the messages:
    libyaml missing, a syntax error, a second document where one is allowed, nesting too deep.

    The bounds are checked first on libyaml's events (its parser is iterative), so the recursive
    composer never sees nesting deeper than MAX_DEPTH or more nodes than allowed. Too many nodes is
    refused here, at the event that crosses the bound, with :class:`_BoundedLoader`'s words and place:
    the pure-Python composer would read the whole 20,001 nodes again to say the same (a second of CPU,
    where libyaml's events take a tenth of it). The events are told apart by their class (libyaml makes
    exactly PyYAML's event classes), the commonest first: the loop runs once an event of every file read."""
    if _CLoader is None:
        return None
    limit_file = max_file_nodes if max_file_nodes is not None else max_nodes
    depth = nodes = file_nodes = docs = 0
    anchors: set[str] = set()  # this document's: the composer's own errors come before a bound
    aliased: list[bool] = []  # a document's: whether it holds an alias
    try:
        parser = _CLoader(text)
        try:
            get_event: Callable[[], Any] = parser.get_event  # an event of the class told below
            while (event := get_event()) is not None:
                cls = event.__class__
                if cls is _SCALAR or cls is _MAP_START or cls is _SEQ_START:
                    anchor = event.anchor
                    if anchor is not None:
                        if anchor in anchors:  # a duplicate anchor
                            return None
                        anchors.add(anchor)
                    nodes += 1
                    file_nodes += 1
                    if nodes > max_nodes or file_nodes > limit_file:
                        # depth < MAX_DEPTH here (deeper went to the Python path), so _BoundedLoader's depth
                        # check would pass at this node and its count check speaks, in this order
                        assert event.start_mark is not None  # libyaml marks every event
                        message = _too_many_nodes(nodes, max_nodes, file_nodes, limit_file, kind)
                        error = YamlError.at(event.start_mark, message)
                        error.document = docs
                        raise error
                    if cls is not _SCALAR:
                        depth += 1
                        if depth >= MAX_DEPTH:
                            return None
                elif cls is _MAP_END or cls is _SEQ_END:
                    depth -= 1
                elif cls is _ALIAS:
                    if event.anchor not in anchors:  # an undefined alias
                        return None
                    aliased[-1] = True
                elif cls is _DOC_START:
                    nodes = 0
                    docs += 1
                    anchors.clear()
                    aliased.append(False)
                    if one and docs > 1:
                        return None
        finally:
            parser.dispose()
        loader = _CLoader(text)
        try:
            roots: list[Node] = []
            while loader.check_node():
                root = loader.get_node()
                assert root is not None  # check_node() said a document follows
                roots.append(root)
        finally:
            loader.dispose()
        if len(roots) == len(aliased) and max_nodes <= MAX_VALUES:
            _ALIAS_FREE.update(root for root, has in zip(roots, aliased) if not has)
        return roots
    except YamlError:
        raise
    except Exception:  # noqa: BLE001 - whatever libyaml makes of it, the Python path says it properly
        return None


def compose_documents(
    text: str,
    one: bool = False,
    max_nodes: int = MAX_NODES,
    max_file_nodes: int | None = None,
    kind: FileKind = RULESET,
) -> list[Node]:
    """The documents of ``text``, composed safely with nesting and node count bounded (not yet
    built into data).

    With ``one``, a second document is an error where it starts. Raises :class:`YamlError`
    (syntax, nesting, too many nodes) with ``document`` set to the document it stopped in.
    ``max_nodes`` bounds each document, ``max_file_nodes`` (default: ``max_nodes``) all of them.
    """
    fast = _fast_compose(text, one, max_nodes, max_file_nodes, kind)
    if fast is not None:
        return fast
    loader = _BoundedLoader(text, max_nodes, max_file_nodes, kind)
    roots: list[Node] = []
    try:
        while loader.check_node():
            root = loader.get_node()
            assert root is not None  # check_node() said a document follows
            roots.append(root)
            if one and not loader.check_event(yaml.StreamEndEvent):
                raise YamlError.at(
                    loader.next_mark(),
                    f"a second YAML document starts here: {kind.a_file} holds one document; "
                    "remove the '---' and what follows, or put it in its own file",
                )
        return roots
    except YamlError as exc:
        error = exc
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = _pos(mark) if mark is not None else (1, 1)
        error = YamlError(line, col, _syntax_message(exc))
    except yaml.reader.ReaderError as exc:  # pragma: no cover - decode_text catches these first
        error = YamlError(*_line_col_of_offset(text, exc.position), f"unreadable character: {exc.reason}")
    except RecursionError:  # pragma: no cover - _BoundedLoader bounds the depth
        error = YamlError(1, 1, f"nesting too deep to read: {kind.a_file} is never deeper than {MAX_DEPTH} levels")
    finally:
        loader.dispose()
    error.document = len(roots) + 1
    raise error


def build_document(
    root: Node, file: str, bool_keys_as_text: bool = False, kind: FileKind = RULESET
) -> tuple[YamlData, LocNode, list[Diagnostic]]:
    """Plain data and positions for one composed document, and every problem found on the way.

    ``bool_keys_as_text``: a key YAML 1.1 reads as a boolean (``on``, ``yes``) stays the text
    written instead of being an error. Raises :class:`YamlError` when the document cannot be
    built at all (aliases expanding past ``MAX_VALUES`` values, an alias that contains itself).
    """
    if root not in _ALIAS_FREE:
        _check_expansion(root, kind)
    builder = _Builder(file, bool_keys_as_text, kind)
    try:
        data, locs = builder.build(root, None, 1)
    except RecursionError:  # pragma: no cover - depth is bounded by the builder
        raise YamlError(1, 1, "nesting too deep to read") from None
    return data, locs, builder.errors


def position(node: Node) -> tuple[int, int]:
    """Where a node starts: 1-based line and column."""
    return _pos(node.start_mark)


def parse_text(text: str, file: str) -> ParsedYaml:
    """Compose ``text`` safely and build plain data with positions (never raises for bad input)."""
    try:
        roots = compose_documents(text, one=True)
        if not roots:
            return ParsedYaml(
                None,
                None,
                [Diagnostic(file, 1, 1, "the file is empty: a ruleset file is a mapping that starts with 'id: ...'")],
            )
        data, locs, errors = build_document(roots[0], file)
    except YamlError as exc:
        return ParsedYaml(None, None, [exc.diagnostic(file)])
    if not isinstance(data, dict):
        line, col = position(roots[0])
        what = {list: "a list"}.get(type(data), "a single value" if data is not None else "null")
        errors.append(
            Diagnostic(
                file,
                line,
                col,
                f"the document is {what}, not a mapping: a ruleset file is a "
                "mapping of keys such as 'id:', 'name:', 'cards:'",
            )
        )
        return ParsedYaml(None, None, errors)
    return ParsedYaml(data, locs, errors)


def parse_bytes(raw: bytes, file: str) -> ParsedYaml:
    text, errors = decode_text(raw, file)
    if text is None:
        return ParsedYaml(None, None, errors)
    return parse_text(text, file)


def _check_expansion(root: Node, kind: FileKind = RULESET) -> None:
    """Refuse a document whose aliases expand past MAX_VALUES values, before building anything.

    Sizes are computed once per distinct node (aliases share nodes), so this is fast however
    large the expansion would be; the error points at the smallest value that is too large.
    """
    size: dict[int, int] = {}
    active: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        nid = id(node)
        if done:
            active.discard(nid)
            kids = _kids(node)
            size[nid] = min(1 + sum(size[id(k)] for k in kids), MAX_VALUES + 1)
            continue
        if nid in size:
            continue
        if nid in active:
            raise YamlError.at(
                node.start_mark,
                "a YAML alias that contains itself: the value would be infinite; write the values out instead",
            )
        active.add(nid)
        stack.append((node, True))
        for kid in _kids(node):
            if id(kid) not in size:
                stack.append((kid, False))
    if size[id(root)] <= MAX_VALUES:
        return
    if len(size) > MAX_VALUES:  # the values are written out: no alias made them many
        raise YamlError.at(
            root.start_mark,
            f"too many YAML nodes: {len(size):,}, the most is {MAX_VALUES:,} "
            "in one document; shorten the lists or split the file",
        )
    node = root
    while True:
        big = next((k for k in _kids(node) if size[id(k)] > MAX_VALUES), None)
        if big is None:
            break
        node = big
    raise YamlError.at(
        node.start_mark,
        f"this value expands past {MAX_VALUES:,} values through YAML aliases (a \"billion laughs\" "
        f"file?); {kind.a_file} is small: write the values out instead",
    )


def _kids(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        items: list[Node] = node.value
        return items
    if isinstance(node, MappingNode):
        return [n for pair in node.value for n in pair]
    return []


_KIND_WORDS = {MappingNode: "a mapping", SequenceNode: "a list", ScalarNode: "a value"}


class _Builder:
    """Builds plain data from composed nodes, counting every value an alias expands to."""

    def __init__(self, file: str, bool_keys_as_text: bool = False, kind: FileKind = RULESET):
        self.file = file
        self.kind = kind
        self.bool_keys_as_text = bool_keys_as_text
        self.count = 0
        self.errors: list[Diagnostic] = []
        self._constructor = SafeConstructor()

    def _err(self, mark: Mark, message: str) -> None:
        line, col = _pos(mark)
        self.errors.append(Diagnostic(self.file, line, col, message))

    def build(self, node: Node, key_mark: Mark | None, depth: int) -> tuple[YamlData, LocNode]:
        self.count += 1
        if self.count > MAX_VALUES:
            raise YamlError.at(
                node.start_mark,
                f"the document expands past {MAX_VALUES:,} values (YAML aliases that repeat aliases); "
                f"{self.kind.a_file} is small: write the values out instead",
            )
        if depth > MAX_DEPTH:
            raise YamlError.at(
                node.start_mark,
                f"nesting deeper than {MAX_DEPTH} levels (a YAML alias that contains itself?); flatten the structure",
            )
        line, col = _pos(node.start_mark)
        kl, kc = _pos(key_mark) if key_mark is not None else (None, None)
        loc = Loc(self.file, line, col, kl, kc)
        if isinstance(node, ScalarNode):
            value = self._scalar(node)
            if isinstance(value, str) and _VALUE_CONTROL.search(value):
                self._control_in_value(node, value)
                value = None  # refused: it stands as null, as other refused values do
            return value, LocNode(loc)
        if isinstance(node, SequenceNode):
            if node.tag != T_SEQ:
                self._bad_tag(node)
            items: list[YamlData] = []
            children: dict[DataKey, LocNode] = {}
            for i, item in enumerate(node.value):
                value, child = self.build(item, None, depth + 1)
                items.append(value)
                children[i] = child
            return items, LocNode(loc, children)
        if isinstance(node, MappingNode):
            if node.tag != T_MAP:
                self._bad_tag(node)
            return self._mapping(node, loc, depth)
        raise YamlError.at(node.start_mark, "unexpected YAML node")  # pragma: no cover

    def _control_in_value(self, node: Node, text: str) -> None:
        found = _VALUE_CONTROL.search(text)
        assert found is not None  # called only for a text that holds one
        code = ord(found.group())
        name = _CONTROL_NAMES.get(code)
        label = f"U+{code:04X}" + (f" ({name})" if name else "")
        what = "a lone surrogate" if 0xD800 <= code <= 0xDFFF else f"control character {label}"
        self._err(
            node.start_mark,
            f"this text holds {what}: {quote(text)}; names, ids, paths and citations are "
            "plain text: remove it (or the escape, such as \\0 or \\ud800, that wrote it)",
        )

    def _bad_tag(self, node: Node) -> None:
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        self._err(node.start_mark, f"tag {quote(tag)} is not allowed: {self.kind.plain_hint}; remove the tag")

    def _scalar(self, node: ScalarNode) -> Scalar:
        tag = node.tag
        c = self._constructor
        try:
            if tag in (T_STR, T_VALUE, T_TIMESTAMP):
                text: str = node.value  # a date stays the text it was written as
                return text
            if tag == T_INT:
                return c.construct_yaml_int(node)
            if tag == T_FLOAT:
                value = c.construct_yaml_float(node)
                if not math.isfinite(value):
                    self._err(node.start_mark, f"{quote(node.value)} is not a finite number; write a number")
                    return None
                return value
            if tag == T_BOOL:
                return c.construct_yaml_bool(node)
            if tag == T_NULL:
                return None
        except (ValueError, KeyError):
            # An explicit tag on a value that is not of its type (!!bool maybe, !!int x), or a
            # number too long for Python to read.
            text = str(node.value)
            if tag in (T_INT, T_FLOAT) and len(text) > 100 and text.lstrip("+-").replace("_", "").isdigit():
                self._err(node.start_mark, "this number is too long to read; write a number of at most a few digits")
            else:
                what = {T_INT: "a whole number", T_FLOAT: "a number", T_BOOL: "true or false"}[tag]
                shown = text if len(text) <= 40 else text[:40] + "…"
                self._err(
                    node.start_mark,
                    f"'{shown}' is not {what}, as its tag "
                    f"'{tag.replace('tag:yaml.org,2002:', '!!')}' says; write {what} "
                    "or remove the tag",
                )
            return None
        self._bad_tag(node)
        return None

    def _key(self, key_node: Node) -> str | None:
        if self.bool_keys_as_text and isinstance(key_node, ScalarNode) and key_node.tag == T_BOOL:
            written: str = key_node.value  # a scalar node's value is the text written
            return written
        if not isinstance(key_node, ScalarNode):
            self._err(
                key_node.start_mark,
                f"a key must be plain text, not {_KIND_WORDS[type(key_node)]}; write the key as text",
            )
            return None
        value = self._scalar(key_node)
        if isinstance(value, str) and _VALUE_CONTROL.search(value):
            self._control_in_value(key_node, value)
            return None
        if isinstance(value, bool):
            self._err(
                key_node.start_mark,
                f"key '{key_node.value}' is read as {str(value).lower()}: "
                f"write it in quotes (\"{key_node.value}\":) to use it as text",
            )
            return None
        if value is None:
            if key_node.tag == T_NULL:
                self._err(key_node.start_mark, "empty or null key: every key must be text; write a name before ':'")
            return None
        if isinstance(value, float):
            self._err(
                key_node.start_mark,
                f"key '{key_node.value}' is a number with a fraction: keys are text or whole numbers",
            )
            return None
        return str(value)

    def _mapping(self, node: MappingNode, loc: Loc, depth: int) -> tuple[YamlMap, LocNode]:
        out: YamlMap = {}
        children: dict[DataKey, LocNode] = {}
        first_seen: dict[str, Mark] = {}
        merges: list[Node] = []
        merge_marks: list[Mark] = []
        for key_node, value_node in node.value:
            if key_node.tag == T_MERGE:
                if merges:
                    fl, _ = _pos(merge_marks[0])
                    self._err(
                        key_node.start_mark,
                        f"duplicate key '<<' (first written at line {fl}): a key may "
                        "appear once in a mapping; merge several mappings with one "
                        "'<<: [*a, *b]'",
                    )
                    continue
                merges.append(value_node)
                merge_marks.append(key_node.start_mark)
                continue
            key = self._key(key_node)
            if key is None:
                continue
            if key in first_seen:
                fl, _ = _pos(first_seen[key])
                self._err(
                    key_node.start_mark,
                    f"duplicate key {quote(key)} (first written at line {fl}): "
                    "a key may appear once in a mapping; keep one of them",
                )
                continue
            first_seen[key] = key_node.start_mark
            value, child = self.build(value_node, key_node.start_mark, depth + 1)
            out[key] = value
            children[key] = child
        # YAML merge keys ("<<: *defaults"): the mapping's own keys win; earlier merges win.
        for merge in merges:
            sources = merge.value if isinstance(merge, SequenceNode) else [merge]
            for src in sources:
                if not isinstance(src, MappingNode):
                    self._err(src.start_mark, "'<<' merges only mappings (an alias of a mapping); fix its value")
                    continue
                value, child = self.build(src, None, depth + 1)
                for k, v in value.items():
                    if k not in out:
                        out[k] = v
                        children[k] = (child.children or {})[k]  # a mapping's node has children
        return out, LocNode(loc, children)


def parse_file(path: Path, file: str) -> ParsedYaml:
    """Read and parse one file. OSError (missing, unreadable) goes to the caller."""
    return parse_bytes(read_bytes(path), file)
