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
- :func:`check_output_folder` and :func:`write_output_folder` do the same for a report folder
  (``compare --out DIR``, ``sweep --out DIR``): every file the folder will hold is checked before any
  work by the rules above; the report is written into a new hidden folder, then its files are swapped
  into DIR with SIGINT and SIGTERM held, so DIR holds the old report or the new one, never a mix.
"""

from __future__ import annotations

import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import FrameType
from typing import Any, BinaryIO, TextIO
from contextlib import contextmanager
from pathlib import Path

__all__ = [
    "OutputInterrupted",
    "OutputPathError",
    "check_output_dir",
    "check_output_file",
    "check_output_folder",
    "open_output_atomic",
    "write_file_atomic",
    "write_output_folder",
]


class OutputPathError(OSError):
    """An output path that must not be written; ``str()`` is the sentence for the user.

    An OSError, so a caller that handles a failed write handles this too."""


class OutputInterrupted(Exception):
    """SIGINT or SIGTERM arrived while a report folder was being written: nothing of the new report was
    put in the folder (it holds what it held before). ``signum`` is the signal; its handler has run."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


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


def _real(path: str | os.PathLike[str]) -> str:
    """The path with links and '..' resolved, as far as they resolve: os.path.realpath never raises on a
    link loop (Path.resolve does, with a RuntimeError), so a hostile path is refused with a sentence."""
    return os.path.realpath(path)


def _input_ids(inputs: Iterable[str | os.PathLike[str]]) -> tuple[set[str], set[tuple[int, int]]]:
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
    out: dict[tuple[int, int], str] = {}
    for fd, name in ((1, "standard output"), (2, "standard error")):
        try:
            st = os.fstat(fd)
        except (OSError, ValueError):
            continue
        if stat.S_ISREG(st.st_mode):
            out.setdefault((st.st_dev, st.st_ino), name)
    return out


def _refuse_existing(
    path: Path, st: os.stat_result, flag: str, in_paths: set[str], in_ids: set[tuple[int, int]]
) -> None:
    what = _kind(st.st_mode)
    if what is not None:
        raise OutputPathError(
            f"mbrules: cannot write {path} ({flag}): it is {what}; an output must be a new or regular file, "
            "not a link, folder, FIFO, socket or device: give another path"
        )
    if (st.st_dev, st.st_ino) in in_ids or _real(path) in in_paths:
        raise OutputPathError(
            f"mbrules: cannot write {path} ({flag}): it is one of this command's input files; writing it would "
            "destroy it: give another path"
        )
    stream = _stream_ids().get((st.st_dev, st.st_ino))
    if stream is not None:
        raise OutputPathError(
            f"mbrules: cannot write {path} ({flag}): it is the file this command's {stream} goes "
            "to; one would replace the other: give another path"
        )


def check_output_file(
    path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = (), flag: str = "output"
) -> Path:
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
        raise OutputPathError(
            f"mbrules: cannot write {path} ({flag}): cannot use this path: {(e.strerror or str(e)).lower()}"
        ) from None
    if st is not None:
        _refuse_existing(path, st, flag, in_paths, in_ids)
    elif _real(path) in in_paths:  # (cannot be: an input exists; kept for a path that vanished)
        raise OutputPathError(
            f"mbrules: cannot write {path} ({flag}): it is one of this command's input files: give another path"
        )
    parent = path.parent
    if not parent.is_dir():
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): no such folder {parent}")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): the folder {parent} is not writable")
    return path


def check_output_dir(
    path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = (), flag: str = "--out"
) -> Path:
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
        raise OutputPathError(
            f"mbrules: cannot write {path} ({flag}): cannot use this path: {(e.strerror or str(e)).lower()}"
        ) from None
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise OutputPathError(
            f"mbrules: cannot write {path} ({flag}): it is {_kind(st.st_mode) or 'a file'}, not a folder: "
            "give a folder (it is created if missing)"
        )
    return path


_HELD = {signal.SIGINT, signal.SIGTERM}


def write_file_atomic(
    path: str | os.PathLike[str], text: str | bytes, inputs: Iterable[str | os.PathLike[str]] = (), flag: str = "output"
) -> None:
    """Write ``text`` to ``path`` whole or not at all (temporary file in the same folder, fsync, rename).
    ``text`` may be bytes (a PNG chart), written as they are.

    Raises :class:`OutputPathError` if the target became something that must not be written, and
    OSError if the write fails; in both cases nothing is left behind and the target is unchanged.
    """
    path = Path(path)
    inputs = list(inputs)
    check_output_file(path, inputs, flag)
    held = hasattr(signal, "pthread_sigmask")
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD) if held else set()
    tmp = None
    try:
        data = (
            text if isinstance(text, (bytes, bytearray)) else text.encode("utf-8")
        )  # as text mode would, newline="\n"
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
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


@contextmanager
def open_output_atomic(
    path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = (), flag: str = "output"
) -> Iterator[TextIO]:
    """A text file streamed as it is made and still written whole: ``with open_output_atomic(p) as fh``.

    What is written goes to a temporary file in the target's folder (so memory does not hold it); when
    the block ends normally the file is fsynced, the target re-checked and the file renamed over it,
    SIGINT and SIGTERM held meanwhile. When the block raises, the temporary file is removed and the
    target is left as it was.
    """
    path = Path(path)
    inputs = list(inputs)
    check_output_file(path, inputs, flag)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    fh = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
    done = False
    try:
        yield fh
        held = hasattr(signal, "pthread_sigmask")
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD) if held else set()
        try:
            fh.flush()
            os.fsync(fh.fileno())
            fh.close()
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
            check_output_file(path, inputs, flag)
            os.replace(tmp, path)
            done = True
        finally:
            if not done:
                _unlink_quietly(tmp)
            if held:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)
    finally:
        if not done:
            try:
                fh.close()
            except OSError:
                pass
            _unlink_quietly(tmp)


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


# -- report folders ---------------------------------------------------------------------------------

_TMP_PREFIX = ".mbrules-report-"

# the file that marks each command's report folder: a folder holding one command's report is never
# written by another (their files would mix: both write index.html, each has files the other has not)
REPORT_MARKERS = {"compare.json": "mbrules compare", "sweep.json": "mbrules sweep"}


def _folder_name_error(path: str | os.PathLike[str], flag: str) -> str | None:
    text = os.fspath(path)
    if text.strip() == "":
        return f"mbrules: {flag} needs a folder name (got an empty one); give a folder, e.g. {flag} report/"
    return None


def check_output_folder(
    path: str | os.PathLike[str],
    names: Iterable[str],
    inputs: Iterable[str | os.PathLike[str]] = (),
    flag: str = "--out",
    marker: str | None = None,
) -> Path:
    """Refuse (:class:`OutputPathError`) a report folder, or any file it will hold, that must not be written.

    Call it before any work. ``path`` may be missing (it is created; its parent must be a writable folder);
    if it exists it must be a folder, not a link to one. ``names`` are the file names the report writes in
    it and the names of files an earlier report wrote that this one removes: each existing one is checked
    by the rules of :func:`check_output_file` (an input or a hard link to one, a link, a FIFO, a device, a
    folder where a file goes, the file standard output goes to). An empty name is refused. ``marker`` (a
    name of :data:`REPORT_MARKERS`) is the file that marks this command's report: a folder holding another
    command's marker holds another command's report and is refused, never mixed with this one.
    """
    bad = _folder_name_error(path, flag)
    if bad:
        raise OutputPathError(bad)
    path = Path(path)
    check_output_dir(path, (), flag)
    in_paths, in_ids = _input_ids(inputs)
    if path.exists():
        if not os.access(path, os.W_OK | os.X_OK):
            raise OutputPathError(f"mbrules: cannot write {path} ({flag}): the folder is not writable")
        for name in names:
            target = path / name
            try:
                st = os.lstat(target)
            except FileNotFoundError:
                continue
            except OSError as e:
                raise OutputPathError(
                    f"mbrules: cannot write {target} ({flag}): cannot use this path: {(e.strerror or str(e)).lower()}"
                ) from None
            _refuse_existing(target, st, flag, in_paths, in_ids)
        if marker is not None:
            for other, command in REPORT_MARKERS.items():
                if other != marker and os.path.lexists(path / other):
                    raise OutputPathError(
                        f"mbrules: cannot write {path} ({flag}): it holds a report of {command} ({other}); this "
                        f"report's files would mix with it: give another folder (or remove that report)"
                    )
    elif not os.access(path.parent, os.W_OK | os.X_OK):
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): the folder {path.parent} is not writable")
    return path


def _pending(caught: list[int]) -> int | None:
    """The first SIGINT or SIGTERM that came during the write: held in this thread's mask, or caught by
    the write's own handler (a signal the kernel gave to another thread, where it is not held: a
    progress bar's refresh thread, a worker pool's feeder)."""
    if caught:
        return caught[0]
    if not hasattr(signal, "sigpending"):
        return None
    waiting = signal.sigpending() & _HELD
    return min(waiting) if waiting else None


_Handler = Callable[[int, FrameType | None], Any] | int | None  # what signal.signal returns and takes


def _catch_signals(caught: list[int]) -> dict[int, _Handler]:
    """While a report folder is written, SIGINT and SIGTERM are recorded in ``caught`` instead of running
    their handlers (which may raise in the middle of the swap); the handlers they replace are returned,
    to be put back and given the signal afterwards. Only the main thread may set handlers: elsewhere
    nothing is replaced and the signal mask alone holds them."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    previous: dict[int, _Handler] = {}
    for signum in sorted(_HELD):
        previous[signum] = signal.signal(signum, lambda s, f: caught.append(s))
    return previous


def _open_dir(path: Path, flag: str) -> int:
    """DIR opened without following a link: a folder replaced by a link during the run is refused."""
    try:
        return os.open(path, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as e:
        try:
            st = os.lstat(path)
            what = _kind(st.st_mode) or "a file"
        except OSError:
            what = None
        if what is not None and what != "a folder":
            raise OutputPathError(
                f"mbrules: cannot write {path} ({flag}): it became {what} during the run; "
                "nothing was written through it: give a folder"
            ) from None
        raise OutputPathError(f"mbrules: cannot write {path} ({flag}): {(e.strerror or str(e)).lower()}") from None


# A report file's content: its text or bytes, or a callable that writes its bytes into the file it is given
FileContent = str | bytes | Callable[[BinaryIO], object]


def _write_into(dir_fd: int, name: str, content: FileContent) -> None:
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666, dir_fd=dir_fd)
    with os.fdopen(fd, "wb") as fh:
        if callable(content):  # a large file (a report's records) written as it is read, never held whole
            content(fh)
        else:
            fh.write(content if isinstance(content, (bytes, bytearray)) else content.encode("utf-8"))
        fh.flush()
        os.fsync(fh.fileno())


def _fill(tmp_fd: int, files: Mapping[str, FileContent], mask: int) -> None:
    """Every file of the report into the new hidden folder, with an ordinary file's mode, then the
    folder fsynced: what both ways of writing a report folder (new DIR, existing DIR) start with."""
    for name, content in files.items():
        _write_into(tmp_fd, name, content)
        os.chmod(name, 0o666 & ~mask, dir_fd=tmp_fd)
    os.fsync(tmp_fd)


def _remove_tree(parent_fd: int, name: str) -> None:
    """Remove the temporary folder ``name`` (flat: files only) under ``parent_fd``; never raises."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0), dir_fd=parent_fd)
    except OSError:
        return
    try:
        for entry in os.listdir(fd):
            try:
                os.unlink(entry, dir_fd=fd)
            except OSError:
                pass
    finally:
        os.close(fd)
    try:
        os.rmdir(name, dir_fd=parent_fd)
    except OSError:
        pass


def write_output_folder(
    path: str | os.PathLike[str],
    files: Mapping[str, FileContent],
    *,
    owned: Iterable[str] = (),
    inputs: Iterable[str | os.PathLike[str]] = (),
    flag: str = "--out",
    marker: str | None = None,
) -> None:
    """Write a report folder whole: DIR ends holding the old report or the new one, never a mix.

    ``files`` maps each file name (no folders) to its text or bytes, or to a callable that writes the
    file's bytes into the binary file it is given (a large file streamed, never held whole). ``owned`` names files an earlier
    report may have written that this one does not (the charts under ``--no-charts``): they are removed,
    so no stale file is left beside the new report. The user's other files in DIR are kept. ``marker``:
    as :func:`check_output_folder` (a folder holding another command's report is refused).

    How: every file is written (and fsynced) into a new hidden folder, in DIR when DIR exists (the same
    file system as the targets) or beside it when it does not; SIGINT and SIGTERM are held from the start.
    Then, if a signal came meanwhile, the new folder is removed, DIR is left as it was and
    :class:`OutputInterrupted` is raised once the signal's handler has run. Otherwise the files are
    re-checked and renamed into DIR one by one, through a descriptor of DIR opened without following
    links (a DIR replaced by a link during the run is refused, never written through); a rename that
    fails puts the old files back. Held signals are delivered when the swap is over.
    """
    path = Path(path)
    owned = [n for n in owned if n not in files]
    inputs = list(inputs)
    for name in list(files) + owned:
        if not name or os.sep in name or name in (".", ".."):
            raise ValueError(f"a report file name is a plain file name, not {name!r}")
    check_output_folder(path, list(files) + owned, inputs, flag, marker)
    caught: list[int] = []
    previous = _catch_signals(caught)
    held = hasattr(signal, "pthread_sigmask")
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD) if held else set()
    interrupted = None
    try:
        mask = os.umask(0)
        os.umask(mask)
        if not os.path.lexists(path):  # a new folder beside DIR, renamed to DIR: it appears whole
            interrupted = _write_fresh(path, files, mask, caught, flag)
        else:
            interrupted = _write_over(path, files, mask, caught, owned, inputs, flag, marker)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if held:
            signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)  # a held signal's handler runs here
        for signum in dict.fromkeys(caught):  # a caught one is given to its handler now, once
            signal.raise_signal(signum)
    if interrupted is not None:
        raise OutputInterrupted(interrupted)


def _write_fresh(path: Path, files: Mapping[str, FileContent], mask: int, caught: list[int], flag: str) -> int | None:
    """A report folder that does not exist yet: the files are written into a new folder beside it, renamed to
    DIR once whole. Returns the signal that came meanwhile (nothing renamed then), else None."""
    parent_fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)  # (a link to a folder is fine here)
    try:
        tmp_name = _mkdtemp_at(parent_fd)
        try:
            tmp_fd = os.open(tmp_name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=parent_fd)
            try:
                _fill(tmp_fd, files, mask)
            finally:
                os.close(tmp_fd)
            interrupted = _pending(caught)
            if interrupted is None:
                os.chmod(tmp_name, 0o777 & ~mask, dir_fd=parent_fd)
                if os.path.lexists(path):
                    raise OutputPathError(
                        f"mbrules: cannot write {path} ({flag}): it was created by "
                        "something else during the run; nothing was written: run again"
                    )
                os.rename(tmp_name, path.name, src_dir_fd=parent_fd, dst_dir_fd=parent_fd)
                os.fsync(parent_fd)
            return interrupted
        finally:
            _remove_tree(parent_fd, tmp_name)
    finally:
        os.close(parent_fd)


def _write_over(
    path: Path,
    files: Mapping[str, FileContent],
    mask: int,
    caught: list[int],
    owned: list[str],
    inputs: list[str | os.PathLike[str]],
    flag: str,
    marker: str | None,
) -> int | None:
    """A report folder that exists: the files are written into a new hidden folder inside it, then (DIR
    re-checked, still the same folder) swapped in one by one. Returns the signal that came meanwhile (nothing
    swapped then), else None."""
    dir_fd = _open_dir(path, flag)
    try:
        tmp_name = _mkdtemp_at(dir_fd)
        try:
            tmp_fd = os.open(tmp_name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dir_fd)
            try:
                _fill(tmp_fd, files, mask)
                interrupted = _pending(caught)
                if interrupted is None:
                    check_output_folder(path, list(files) + owned, inputs, flag, marker)  # changed meanwhile?
                    here, there = os.fstat(dir_fd), os.lstat(path)
                    if (here.st_dev, here.st_ino) != (there.st_dev, there.st_ino):
                        raise OutputPathError(
                            f"mbrules: cannot write {path} ({flag}): the folder was "
                            "replaced during the run; nothing was written: run again"
                        )
                    _swap(dir_fd, tmp_fd, list(files), owned)
                    os.fsync(dir_fd)
                return interrupted
            finally:
                os.close(tmp_fd)
        finally:
            _remove_tree(dir_fd, tmp_name)
    finally:
        os.close(dir_fd)


def _swap(dir_fd: int, tmp_fd: int, names: list[str], owned: list[str]) -> None:
    """Rename the new files from the temporary folder into DIR and remove the owned stale ones; on a
    failure, put back what was there (each old file is kept as a hard link in the temporary folder)."""
    backups: dict[str, str | None] = {}  # name in DIR -> its backup name in tmp (None: there was none)
    try:
        for name in names + owned:
            backup = None
            if _exists_at(dir_fd, name):
                backup = ".old." + name
                os.link(name, backup, src_dir_fd=dir_fd, dst_dir_fd=tmp_fd, follow_symlinks=False)
            backups[name] = backup
            if name in owned:
                if backup is not None:
                    os.unlink(name, dir_fd=dir_fd)
            else:
                os.replace(name, name, src_dir_fd=tmp_fd, dst_dir_fd=dir_fd)
    except BaseException:
        for name, backup in backups.items():
            try:
                if backup is not None:
                    os.replace(backup, name, src_dir_fd=tmp_fd, dst_dir_fd=dir_fd)
                elif name not in owned:
                    os.unlink(name, dir_fd=dir_fd)
            except OSError:
                pass
        raise


def _mkdtemp_at(dir_fd: int) -> str:
    """A new private folder under ``dir_fd`` (a random hidden name); its name."""
    for _ in range(100):
        name = _TMP_PREFIX + os.urandom(6).hex()
        try:
            os.mkdir(name, 0o700, dir_fd=dir_fd)
            return name
        except FileExistsError:
            continue
    raise FileExistsError("no free name for a temporary folder")


def _exists_at(dir_fd: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        return True
    except FileNotFoundError:
        return False
