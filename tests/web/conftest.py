"""The browser tables need the extra 'web' (Starlette, uvicorn, websockets; httpx and Selenium drive
the tests): without it every test here is skipped, saying which extra to install."""
import pytest

for _module in ("starlette", "uvicorn", "websockets", "httpx"):
    pytest.importorskip(_module, reason=f"the browser tables need {_module}: pip install 'mbrules[web]'")
