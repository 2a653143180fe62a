"""Imported first by every test module here: without the extra 'web' (Starlette, uvicorn, websockets;
httpx drives the tests) the module is skipped, saying which extra to install."""

import pytest

for _module in ("starlette", "uvicorn", "websockets", "httpx"):
    pytest.importorskip(
        _module, reason=f"the browser tables need {_module}: pip install 'mbrules[web]'", exc_type=ImportError
    )
