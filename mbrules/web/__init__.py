"""Tables in the browser: ``mbrules serve`` (extra ``web``: Starlette, uvicorn, websockets).

A satellite at the top of the layers: nothing in the core imports it. The modules without the
web stack (:mod:`.store`, :mod:`.rules`, :mod:`.seats`, :mod:`.table`) import none of it; the
application (:mod:`.app`, :mod:`.lobby`, :mod:`.server`) does. See docs/web.md.
"""

EXTRA = "web"  # pip install 'mbrules[web]' (mbrules._paths.install_hint says it for a checkout too)
