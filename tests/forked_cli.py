"""The `mbrules` command in a real child process forked from the test's own, not started anew.

A server or a long command the test signals must be a process of its own (its own signals, its own locks, its
own GIL), but ``python -m mbrules.cli serve`` spent about 0.9 CPU-s starting Python and importing the web
stack, the engine and the bots before it served anything (issue 46 point 7): the test process has imported
them already. :class:`ForkedCommand` is a :class:`subprocess.Popen` whose child is a fork of this process that
runs the command's app on the arguments (what ``mbrules.cli.app.main`` does: Ctrl-C is Python's
KeyboardInterrupt, SIGTERM the app's quiet exit 143) and exits with the app's exit code; its pipes, ``wait``,
``communicate``, ``send_signal`` and ``returncode`` are Popen's. What only a started process shows (the start
path of ``python -m mbrules.cli``, the modules a fresh process imports for a command) stays with the tests that
start one: tests/test_startup_signals.py, test_hostile_cli's first rows, the real ``Server`` of
test_web_safety's lock test and the slow web tests. The child keeps the test process's open files (as a fork
does; none of them is one the command or the test waits on to close). Linux (or any POSIX with fork) only."""

from __future__ import annotations

import gc
import io
import os
import signal
import subprocess
import sys
import traceback
from collections.abc import Sequence


def _forget_the_parents_processes() -> None:
    """In the child: multiprocessing's state names the test process's children (its forkserver, its pool
    workers), which are not this process's to wait for (os.waitpid: ECHILD); the child starts its own, as a
    process multiprocessing forks for itself does (``multiprocessing.process._children`` reset, the
    after-fork hooks run)."""
    import multiprocessing.forkserver
    import multiprocessing.process
    import multiprocessing.util

    multiprocessing.process._children = set()  # type: ignore[attr-defined]
    multiprocessing.util._run_after_forkers()  # type: ignore[attr-defined]
    server = multiprocessing.forkserver._forkserver  # type: ignore[attr-defined]
    server._forkserver_address = server._forkserver_alive_fd = server._forkserver_pid = None
    server._inherited_fds = None


def _run_app(argv: Sequence[str]) -> int:
    """In the child: the command's app on ARGV, as ``main()`` runs it; its exit code."""
    from mbrules.cli import app as app_module

    app_module._MAIN_PID = os.getpid()  # this process is the command's main process (a pool worker's is not)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, app_module._terminated)
    sys.argv = ["mbrules", *argv]
    try:
        app_module.app(args=list(argv), prog_name="mbrules")
    except SystemExit as e:
        if e.code is None:
            return 0
        if isinstance(e.code, int):
            return e.code
        print(e.code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


class ForkedCommand(subprocess.Popen):
    """``ForkedCommand(["serve", "--port", "0", ...], stdout=PIPE, ...)``: Popen's arguments, ARGS being the
    command's arguments (no program name); ``env`` is the child's whole environment, as for Popen."""

    def _execute_child(  # type: ignore[override]
        self,
        args,
        executable,
        preexec_fn,
        close_fds,
        pass_fds,
        cwd,
        env,
        startupinfo,
        creationflags,
        shell,
        p2cread,
        p2cwrite,
        c2pread,
        c2pwrite,
        errread,
        errwrite,
        restore_signals,
        gid,
        gids,
        uid,
        umask,
        start_new_session,
        process_group,
    ):
        for stream in (sys.stdout, sys.stderr):
            stream.flush()  # nothing the parent buffered is written twice
        pid = os.fork()
        if pid == 0:  # the child: never returns into the test's code
            code = 1
            try:
                gc.freeze()  # the test process's garbage is never collected here: no finalizer of its objects runs
                _forget_the_parents_processes()
                null = os.open(os.devnull, os.O_RDWR)
                for fd, target in ((p2cread, 0), (c2pwrite, 1), (errwrite, 2)):
                    # a stream not given is /dev/null, not the test process's: under xdist a worker's standard
                    # streams are its channel to the controller
                    os.dup2(null if fd == -1 else fd, target)
                os.close(null)
                for fd in {p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite} - {-1, 0, 1, 2}:
                    os.close(fd)
                if cwd is not None:
                    os.chdir(cwd)
                if env is not None:
                    os.environ.clear()
                    os.environ.update(env)
                if preexec_fn is not None:
                    preexec_fn()
                sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
                sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
                sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8", line_buffering=True)
                code = _run_app(args)
            except BaseException:
                traceback.print_exc()
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code if 0 <= code < 256 else 1)
        self.pid = pid
        self._child_created = True
        self._close_pipe_fds(p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite)
