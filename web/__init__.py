"""The tablet page (HTML, CSS, JavaScript modules), as package data served by :mod:`companion`.

Nothing here is Python: the companion opens these files through :func:`importlib.resources.files`,
so an installed wheel serves the page as well as a checkout.
"""
