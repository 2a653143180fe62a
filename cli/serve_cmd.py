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
    forwarded_allow_ips: Optional[str] = typer.Option(
        None,
        "--forwarded-allow-ips",
        metavar="IPS",
        help="Trust X-Forwarded-For/-Proto from these proxy addresses or networks (comma-separated, '*': any). "
        "Default: trusted from nobody, so a client's address is its own.",
    ),
    bot_workers: Optional[int] = typer.Option(
        None,
        "--bot-workers",
        metavar="N",
        help="Worker processes the slow bots (expert) think in (default: one a core but one, at most 4; 1 on 2 cores).",
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
    proxies = _proxies(forwarded_allow_ips)
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
        code = run(host, port, path, proxies=proxies, workers=bot_workers)
    except StoreError as e:
        fail(f"mbrules: {e}", EXIT_USAGE)
    except OSError as e:
        fail(f"mbrules: cannot listen on {host}:{port}: {e.strerror or e}", EXIT_USAGE)
    raise typer.Exit(code)


def _proxies(value: Optional[str]) -> Optional[list[str]]:
    """The proxy addresses ``--forwarded-allow-ips`` names (uvicorn's syntax), each checked; None: no flag."""
    if value is None:
        return None
    import ipaddress

    items = [v.strip() for v in value.split(",") if v.strip()]
    for item in items:
        try:
            if item != "*":
                ipaddress.ip_network(item, strict=False)
        except ValueError:
            fail(
                f"mbrules: --forwarded-allow-ips: {item!r:.60} is not an IP address or network "
                "(e.g. 127.0.0.1,10.0.0.0/8, or '*')",
                EXIT_USAGE,
            )
    if not items:
        fail("mbrules: --forwarded-allow-ips names no address (e.g. 127.0.0.1)", EXIT_USAGE)
    return items
