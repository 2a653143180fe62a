"""Draws docs/img/play.svg, the README's screenshot: the start and the end of a hand of `mbrules play`.

.venv/bin/python docs/img/screenshot.py          # writes docs/img/play.svg
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

HERE = Path(__file__).resolve().parent
COMMAND = ["play", "--seed", "7", "--hands", "1"]
HEAD, TAIL = 14, 21  # the header and the first plays; the end of the hand and its score sheet


def main() -> None:
    exe = Path(sys.executable).with_name("mbrules")
    env = dict(os.environ, FORCE_COLOR="1", COLUMNS="100")
    out = subprocess.run([str(exe), *COMMAND], capture_output=True, text=True, env=env, check=True).stdout
    lines = out.splitlines()
    shown = lines[:HEAD] + ["\x1b[2m…\x1b[0m"] + lines[-TAIL:]
    console = Console(record=True, width=100, force_terminal=True, file=open(os.devnull, "w"))
    console.print(Text.from_ansi("$ mbrules " + " ".join(COMMAND) + "\n" + "\n".join(shown)))
    console.save_svg(str(HERE / "play.svg"), title="mbrules play")


if __name__ == "__main__":
    main()
