"""The full-screen game's tests look at what they check, and Textual draws only what a test looks at.

Textual's pilot (``App.run_test``) draws every screen it refreshes, headless too: the compositor renders each
changed widget's lines to hand them to a driver that throws them away. Most tests here look at the app's state
(the screen shown, the driver's state, a widget's ``render()``, a widget's region in the layout) and never at the
drawn lines: the drawing was half their CPU (tests/human/test_tui_app.py 6.7 -> 3.5 CPU-s in the fast set;
issue 46 point 7, docs/performance.md "The fast set, round 13"). So the compositor's refreshes are not drawn
here; the layout still is (regions, mouse clicks, scrolling), and so is a whole screen asked for
(``export_screenshot``: the snapshots of tests/human/test_tui_snapshots.py). A test that asks for the
``drawn_screens`` fixture draws every refresh as the terminal would: test_tui_app's whole hand played with the
number keys does, so a screen that fails to draw at any point of a hand still fails a fast test.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def drawn_screens() -> None:
    """Every refresh of the screen drawn, as in a terminal (see the module's docstring)."""


@pytest.fixture(autouse=True)
def _refreshes_not_drawn(request: pytest.FixtureRequest) -> Iterator[None]:
    """The compositor's refreshes throw away what changed without drawing it; a full render is drawn."""
    if "drawn_screens" in request.fixturenames:
        yield
        return
    try:
        from textual._compositor import Compositor
    except ImportError:  # the extra 'tui' is not installed: its tests skip
        yield
        return
    drawn = Compositor.render_update

    def render_update(self, full=False, screen_stack=None, simplify=False):  # type: ignore[no-untyped-def]
        if full:
            return drawn(self, full=True, screen_stack=screen_stack, simplify=simplify)
        self._dirty_regions.clear()
        return None

    mp = pytest.MonkeyPatch()
    mp.setattr(Compositor, "render_update", render_update)
    try:
        yield
    finally:
        mp.undo()
