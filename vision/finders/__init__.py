"""Tile finders: where the tiles of a photo lie, as candidates for the classifier.

:func:`find_candidates` (:mod:`.select`) picks the learned finder (:mod:`.learned`) when its model
ships, else the classical one (:mod:`.classical`, with back probes from :mod:`.backs`); both share
the tile geometry and crops of :mod:`.geometry` and hand on :class:`Candidate` objects.
"""

from .candidate import Candidate
from .select import FINDERS, find_candidates, find_farther, finder_name

__all__ = ["Candidate", "FINDERS", "find_candidates", "find_farther", "finder_name"]
