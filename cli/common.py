"""The Typer app shared by every command module, and the contract's exit codes."""

from __future__ import annotations

import errno
import os
import re
import signal
import sys
import threading
import warnings
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, NoReturn

import typer
from typer.core import TyperGroup

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType

    from rich.console import Console

EXIT_OK = 0
EXIT_CHECK_FAILED = 1  # invalid file, failed scenario
EXIT_USAGE = 2  # unknown ruleset, bad flag, unreadable file


def _stdout_reader_gone() -> bool:
    """Standard output is a pipe (or socket) whose reading end was closed (``| head`` has read enough)."""
    try:
        import select

        stdout = sys.__stdout__
        if stdout is None:  # no standard output at all (pythonw)
            return False
        poller = select.poll()
        poller.register(stdout.fileno(), select.POLLOUT)
        return any(ev & select.POLLERR for _, ev in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


class _Commands(TyperGroup):
    """Every command runs through :meth:`invoke`: the one place a closed pipe on stdout is handled."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as e:
            # `mbrules replay DIR | head -1`: the reader has what it wanted. End quietly with 0, as Unix tools
            # do, never as a failed check (1); an EPIPE from anything else (a worker's pipe) is not this
            if e.errno != errno.EPIPE or not _stdout_reader_gone():
                raise
            try:  # what is still buffered for stdout goes nowhere, so the exit cannot fail on it again
                devnull = os.open(os.devnull, os.O_WRONLY)
                if sys.__stdout__ is not None:
                    os.dup2(devnull, sys.__stdout__.fileno())
                os.close(devnull)
            except OSError:
                pass
            raise typer.Exit(EXIT_OK) from None


def _rich_pipe_closed(self: Console) -> None:
    """Rich's hook for a closed pipe (its default exits 1): hand the error to :class:`_Commands` instead."""
    self.quiet = True
    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def _hook_rich_consoles(rich_console: ModuleType) -> None:
    rich_console.Console.on_broken_pipe = (
        _rich_pipe_closed  # every Console of every command (Rich's documented override point)
    )


class _WhenRichLoads:
    """An import finder that finds nothing itself: when ``rich.console`` is first imported, its module is
    hooked (:func:`_hook_rich_consoles`) right after it runs. A command that prints no Rich (``--version``,
    ``rulesets``) never imports Rich; one that does gets every Console hooked, as if done at start."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if name != "rich.console":
            return None
        sys.meta_path.remove(self)
        spec = next((s for f in sys.meta_path if (s := f.find_spec(name, path, target)) is not None), None)
        loader: Any = spec.loader if spec is not None else None
        if loader is not None and hasattr(loader, "exec_module"):
            run = loader.exec_module

            def exec_module(module: ModuleType) -> None:
                run(module)
                _hook_rich_consoles(module)

            loader.exec_module = exec_module
        return spec


if "rich.console" in sys.modules:  # imported before us (a program that imports the CLI's modules)
    _hook_rich_consoles(sys.modules["rich.console"])
else:
    sys.meta_path.insert(0, _WhenRichLoads())

APP_HELP = (
    "Mille Bornes rules as data: list, show, diff and validate rulesets; play, simulate and replay games; "
    "compare two rulesets and sweep a value (what a rule does to play); rank bots with ladder and train "
    "the learned bot."
)

app = typer.Typer(
    cls=_Commands,
    name="mbrules",
    help=APP_HELP,
    no_args_is_help=True,
    add_completion=True,  # --install-completion, --show-completion (bash, zsh, fish, PowerShell)
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from mbrules._version import installed_version

        # "unknown": run from a source tree that was never installed
        print(f"mbrules {installed_version() or 'unknown (not installed)'}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _main(
    show_version: bool = typer.Option(
        False, "--version", "-V", is_eager=True, callback=_version, help="Print the version of mbrules and exit."
    ),
) -> None:
    """Mille Bornes rules as data."""


_TYPE_WORDS = {
    "int": "INTEGER",
    "str": "TEXT",
    "path": "PATH",
    "Path": "PATH",
    "float": "NUMBER",
    "int range": "INTEGER RANGE",
    "float range": "NUMBER RANGE",
    "bool": "BOOLEAN",
}


def _readable_metavars() -> None:
    """Help shows readable value names (INTEGER, TEXT, PATH, or the option's metavar), never Python
    types such as <list[str]>; a flag and an argument (named by its metavar already) show none."""
    from typer import core

    def option_type(self: Any, ctx: Any) -> Any:
        if self.is_flag or self.count:
            return None
        if self.metavar is not None:
            return self.metavar
        label = self.display_type(ctx).strip("<>")
        label = re.sub(r"^list\[(.*)\]$", r"\1", label)
        return str(_TYPE_WORDS.get(label, label.upper()))

    core.TyperOption.display_type_rich = option_type  # type: ignore[method-assign]  # Typer has no hook for the value names
    core.TyperArgument.display_type_rich = lambda self, ctx: None  # type: ignore[method-assign]  # nor for an argument's (none)


_readable_metavars()


def _escape_markup_once() -> None:
    """Help strings are shown as written: the '[cluster]' of "pip install 'mbrules[cluster]'" is text,
    never Rich markup (which would eat it). Typer's help renderer is patched on first use only, so
    a command that shows no help never imports it."""
    from typer import rich_utils

    if getattr(rich_utils, "_mbrules_plain_help", False):
        return
    from rich.markup import escape

    make = rich_utils._make_rich_text

    def make_plain(*, text: str, style: str = "", markup_mode: Any) -> Any:
        if markup_mode == rich_utils.MARKUP_MODE_RICH:
            text = escape(text)
        return make(text=text, style=style, markup_mode=markup_mode)

    rich_utils._make_rich_text = make_plain
    setattr(rich_utils, "_mbrules_plain_help", True)  # our mark on Typer's module: patched once


def _plain_help() -> None:
    from typer import core

    for cls in (core.TyperCommand, core.TyperGroup):
        shown = cls.format_help

        def format_help(self: Any, ctx: Any, formatter: Any, _shown: Any = shown) -> Any:
            _escape_markup_once()
            return _shown(self, ctx, formatter)

        cls.format_help = format_help  # type: ignore[method-assign]  # Typer has no hook for the help's markup


_plain_help()


def _complete_values() -> None:
    from .completion import install

    install()


_complete_values()


def _plain_values() -> None:
    from .values import install

    install()


_plain_values()


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    """A ruleset warning (FILE:LINE:COL: warning: ...) on stderr as it is, never with Python's source line."""
    if category.__name__ == "RulesetWarning":
        print(str(message), file=sys.stderr)
    else:
        _python_show_warning(message, category, filename, lineno, file, line)


_python_show_warning = warnings.showwarning
warnings.showwarning = _show_warning


DEFAULT_WIDTH = 80  # columns when nothing says otherwise (piped output, an unknown terminal)
MIN_WIDTH, MAX_WIDTH = 40, 240  # a width outside these is taken as its nearest bound


def output_width(stream: Any = None) -> int:
    """The columns text a person reads is laid out for: one rule for every command.

    ``$COLUMNS`` when it holds a whole number (tests pin it, so the same inputs print the same bytes at the
    same width), else the terminal's width when ``stream`` (standard output by default) is a terminal, else
    80. Always within 40..240, so a huge or tiny value cannot produce an unreadable layout.
    """
    raw = os.environ.get("COLUMNS", "").strip()
    width = int(raw) if raw.isdigit() and len(raw) < 6 else 0
    if not width:
        stream = sys.stdout if stream is None else stream
        try:
            if stream.isatty():
                width = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, OSError, ValueError):
            width = 0
    return min(MAX_WIDTH, max(MIN_WIDTH, width or DEFAULT_WIDTH))


def fold(text: str, width: int | None = None, hang: int | None = None) -> str:
    """``text`` folded between words for :func:`output_width` columns (or ``width``): see
    :func:`mbrules.engine.words.fold`."""
    from mbrules.text import fold as fold_to

    return fold_to(text, output_width() if width is None else width, hang)


def text_console(stream: Any = None) -> Console:
    """A Rich console for what a person reads on standard output (or ``stream``), laid out for
    :func:`output_width`: Rich folds a long line between words and shrinks a table to fit."""
    from rich.console import Console

    stream = sys.stdout if stream is None else stream
    return Console(file=stream, width=output_width(stream), highlight=False, soft_wrap=False)


def fail(lines: list[str] | str, code: int) -> NoReturn:
    """Print error lines ('FILE:LINE:COL: message') to stderr and exit with the contract's code."""
    if isinstance(lines, str):
        lines = [lines]
    for line in lines:
        print(line, file=sys.stderr)
    raise typer.Exit(code)


EXIT_SIGNAL_BASE = 128  # a command stopped by a signal exits 128 + its number (130 Ctrl-C, 143 SIGTERM)


def check_range(flag: str, value: int | None, low: int, high: int, words: str = "") -> None:
    """A usage error (exit 2) naming the allowed range when ``value`` is outside ``low .. high``."""
    if value is not None and not low <= value <= high:
        shown = str(value) if len(str(value)) <= 30 else str(value)[:27] + "..."
        fail(f"mbrules: {flag} must be {words or f'from {low:,} to {high:,}'} (got {shown})", EXIT_USAGE)


class Interrupted(BaseException):
    """Raised in the main thread by SIGINT or SIGTERM while :func:`signals` is active (raising mode)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return EXIT_SIGNAL_BASE + self.signum


class SignalFlag:
    """Set by SIGINT or SIGTERM while :func:`signals` is active; call it to read the signal (or None)."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def __call__(self) -> int | None:
        return self.signum

    @property
    def exit_code(self) -> int:
        return EXIT_SIGNAL_BASE + (self.signum or 0)


@contextmanager
def signals(raising: bool) -> Iterator[SignalFlag]:
    """SIGINT (Ctrl-C) and SIGTERM during a command: set a flag the work polls (``raising`` False)
    or raise :class:`Interrupted` where the main thread is (``raising`` True). Handlers are put
    back afterwards. Outside the main thread (no handlers can be set there) it does nothing."""
    flag = SignalFlag()

    def handler(signum: int, frame: object) -> None:
        first = flag.signum is None
        if first:
            flag.signum = signum
        if raising and first:
            raise Interrupted(signum)

    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield flag
    finally:
        for s, h in old.items():
            signal.signal(s, h)
