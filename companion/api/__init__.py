"""The HTTP API's blueprints, one per resource, and the page.

| module | routes |
|---|---|
| :mod:`.public` | health, OpenAPI, rule sets, tiles, notation, recognize, score, waits |
| :mod:`.tables` | create a table, read it, poll its ledger, export it |
| :mod:`.hands` | claims, kongs, draws, hand preview and record, corrections, undo |
| :mod:`.photos` | a table's hand photos: upload, get |
| :mod:`.page` | the tablet page and its static files |
| :mod:`.secure` | HTTPS set-up: the local authority (``/ca.crt``), the set-up page, QR codes |
| :mod:`.camera` | the table camera (``mjc serve --camera``): its frames, a frame's reading, a capture |
"""

from __future__ import annotations

from flask import Blueprint

from . import camera, hands, page, photos, public, secure, tables

BLUEPRINTS: tuple[Blueprint, ...] = (public.bp, tables.bp, hands.bp, photos.bp, page.bp, secure.bp, camera.bp)
