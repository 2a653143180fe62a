"""``mbrules serve``: tables in the browser (extra ``web``; mbrules/web, docs/web.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .common import EXIT_USAGE, app, check_range, fail


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on (127.0.0.1: this machine only)."),
    port: int = typer.Option(8000, "--port", help="The port to listen on (0: any free port, printed at start)."),
    db: Optional[Path] = typer.Option(
        None,
        "--db",
        metavar="FILE",
        help="The SQLite file the tables live in (default: printed at start, ~/.local/share/mbrules/tables.sqlite3).",
    ),
    bot_workers: Optional[int] = typer.Option(
        None,
        "--bot-workers",
        metavar="N",
        help="Worker processes the bots think in (default: one a core but one, at most 4; 1 on 2 cores).",
    ),
) -> None:
    """Host tables in the browser: a host opens a table, friends join by link, bots fill seats.

    Prints its URL and database on start; GET /health answers 200 while it serves. Every step is saved before anyone sees it: a restarted server resumes every table at its last step. SIGINT or SIGTERM saves every table and exits 130 or 143.

    Example: mbrules serve --port 8000 --db tables.sqlite3 (then open http://127.0.0.1:8000/; docs/web.md).
    """
    check_range("--port", port, 0, 65535)
    if bot_workers is not None:
        from mbrules.web.thinking import MAX_WORKERS

        check_range("--bot-workers", bot_workers, 1, MAX_WORKERS)
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
        import websockets  # noqa: F401
    except ImportError:
        from mbrules._paths import install_hint
        from mbrules.web import EXTRA

        fail(f"mbrules: serve needs Starlette, uvicorn and websockets: {install_hint(EXTRA)}", EXIT_USAGE)
    from mbrules.web.server import serve as run
    from mbrules.web.store import StoreError, default_db_path

    path = db if db is not None else default_db_path()
    try:
        code = run(host, port, path, workers=bot_workers)
    except StoreError as e:
        fail(f"mbrules: {e}", EXIT_USAGE)
    except OSError as e:
        fail(f"mbrules: cannot listen on {host}:{port}: {e.strerror or e}", EXIT_USAGE)
    raise typer.Exit(code)
