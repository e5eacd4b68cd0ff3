"""The artwork cache is keyed by the renderers it was built with, so a cache a bare machine made
(no ``rsvg-convert``, no Pillow, no CJK fonts) is never reused where they are installed."""

from __future__ import annotations

import shutil

from training import artwork


def test_the_cache_key_changes_with_the_renderers_at_hand(monkeypatch) -> None:
    real_which = shutil.which
    full = artwork._tools_fingerprint()
    monkeypatch.setattr(artwork.shutil, "which", lambda name: None if name == "rsvg-convert" else real_which(name))
    without_rsvg = artwork._tools_fingerprint()
    assert without_rsvg[0] == "0" and without_rsvg[1:] == full[1:]
    assert len(full) == 2 + len(artwork.CJK_FONTS)
