"""Output paths: checked before any work, written whole or not at all.

Every file a command writes (``play --record FILE``, a future ``--out DIR``, the soak's failure
scenarios) goes through this module, so the rules live in one place (contract: an output path is
never one of the command's input files, never a device, FIFO or symlink, and is written whole or
not at all):

- :func:`check_output_file` refuses, before any work is done, a path that is a symbolic link, a
  folder, a FIFO, a socket or a device, a path whose folder does not exist or cannot be written,
  and a path that is one of the command's inputs: compared by resolved path AND by (device, inode),
  so a hard link or a second name of an input is caught too. ``inputs`` must hold every file the
  command read (for a ruleset: the file, every file its ``extends`` chain and ``options`` pulled in,
  and the options given; :func:`mbrules.ruleset.load_ruleset` fills them in with ``files_read=``).
- :func:`write_file_atomic` writes a temporary file in the target's folder, fsyncs it and renames
  it over the target. SIGINT and SIGTERM are held while it runs, so a signal cannot leave a
  temporary file behind or a half-written target: the write finishes (or fails and the temporary
  file is removed) and the signal is then delivered. It re-checks the target just before the
  rename, so a target swapped for a link or a FIFO meanwhile is refused, not replaced.
"""
from __future__ import annotations

import os
import signal
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

__all__ = ["OutputPathError", "check_output_dir", "check_output_file", "write_file_atomic"]


class OutputPathError(OSError):
    """An output path that must not be written; ``str()`` is the sentence for the user.

    An OSError, so a caller that handles a failed write handles this too."""


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words (None: a regular file)."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if not stat.S_ISREG(mode):
        return "not a regular file"
    return None


def _real(path: str | os.PathLike) -> str:
    """The path with links and '..' resolved, as far as they resolve: os.path.realpath never raises on a
    link loop (Path.resolve does, with a RuntimeError), so a hostile path is refused with a sentence."""
    return os.path.realpath(path)


def _input_ids(inputs: Iterable[str | os.PathLike]) -> tuple[set[str], set[tuple[int, int]]]:
    paths: set[str] = set()
    ids: set[tuple[int, int]] = set()
    for p in inputs:
        p = Path(p)
        paths.add(_real(p))
        try:
            st = os.stat(p)
        except OSError:
            continue
        ids.add((st.st_dev, st.st_ino))
    return paths, ids


def _stream_ids() -> dict[tuple[int, int], str]:
    """(device, inode) of the regular files standard output and standard error go to (``> file``)."""
    out = {}
    for fd, name in ((1, "standard output"), (2, "standard error")):
        try:
            st = os.fstat(fd)
        except (OSError, ValueError):
            continue
        if stat.S_ISREG(st.st_mode):
            out.setdefault((st.st_dev, st.st_ino), name)
    return out


def _refuse_existing(path: Path, st: os.stat_result, flag: str, in_paths: set[str],
                     in_ids: set[tuple[int, int]]) -> None:
    what = _kind(st.st_mode)
    if what is not None:
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): it is {what}; an output must be a new or regular file, "
                              "not a link, folder, FIFO, socket or device: give another path")
    if (st.st_dev, st.st_ino) in in_ids or _real(path) in in_paths:
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): it is one of this command's input files; writing it would "
                              "destroy it: give another path")
    stream = _stream_ids().get((st.st_dev, st.st_ino))
    if stream is not None:
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): it is the file this command's {stream} goes "
                              "to; one would replace the other: give another path")


def check_output_file(path: str | os.PathLike, inputs: Iterable[str | os.PathLike] = (),
                      flag: str = "output") -> Path:
    """Refuse (:class:`OutputPathError`) an output file that must not be written; return it as a Path.

    ``flag`` names the option in the sentence (``--record``). Call it before any work is done.
    """
    path = Path(path)
    in_paths, in_ids = _input_ids(inputs)
    if str(path).endswith(os.sep) or path.name in ("", ".", ".."):
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): it names a folder; give a file name")
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): cannot use this path: {(e.strerror or str(e)).lower()}") from None
    if st is not None:
        _refuse_existing(path, st, flag, in_paths, in_ids)
    elif _real(path) in in_paths:  # (cannot be: an input exists; kept for a path that vanished)
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): it is one of this command's input files: give another path")
    parent = path.parent
    if not parent.is_dir():
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): no such folder {parent}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): the folder {parent} is not writable")
    return path


def check_output_dir(path: str | os.PathLike, inputs: Iterable[str | os.PathLike] = (),
                     flag: str = "--out") -> Path:
    """Refuse an output folder that is a link or not a folder; the files written in it are then each
    checked with :func:`check_output_file` (against the same inputs) as they are written."""
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if not path.parent.is_dir():
            raise OutputPathError(f"mbrules: cannot write {path} ({flag}): no such folder {path.parent}") from None
        return path
    except OSError as e:
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): cannot use this path: {(e.strerror or str(e)).lower()}") from None
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): it is {_kind(st.st_mode) or 'a file'}, not a folder: "
                              "give a folder (it is created if missing)")
    return path


_HELD = {signal.SIGINT, signal.SIGTERM}


def write_file_atomic(path: str | os.PathLike, text: str | bytes, inputs: Iterable[str | os.PathLike] = (),
                      flag: str = "output") -> None:
    """Write ``text`` to ``path`` whole or not at all (temporary file in the same folder, fsync, rename).
    ``text`` may be bytes (a PNG chart), written as they are.

    Raises :class:`OutputPathError` if the target became something that must not be written, and
    OSError if the write fails; in both cases nothing is left behind and the target is unchanged.
    """
    path = Path(path)
    inputs = list(inputs)
    check_output_file(path, inputs, flag)
    held = hasattr(signal, "pthread_sigmask")
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD) if held else None
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        binary = isinstance(text, (bytes, bytearray))
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="\n")) as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        mask = os.umask(0)  # mkstemp made it 0600: give it the mode an ordinary file would have
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        check_output_file(path, inputs, flag)  # the target may have changed since the first check
        os.replace(tmp, path)
        tmp = None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        if held:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
