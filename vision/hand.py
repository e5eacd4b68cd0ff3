"""Which groups of a photo are the winner's hand, and why the others are not.

A photo of a table shows more than the hand: discards, the wall, other players' melds, the room.
From geometry and readings alone (no photo needed), every group of :func:`vision.grouping.arrange`
gets a :class:`Verdict`: a reason code, which says whether it is part of the hand
(:data:`HAND_REASONS`), and its English sentence (:data:`NOTES`).

The rules, in the frame of the rows (:func:`vision.grouping.arrange` lays them out; tile size is
the square root of a tile's area, so upright and lying tiles compare). A row is measured along its
own direction while the hand is looked for, and every group along the hand's row after: tiles on a
table lie several ways (another player's melds along their edge of the table, discards turned
every way), and the hand is what the rest is placed against.

* **The hand** is the best *run* of a row: groups one after another along a row line, each of
  tiles about the size of the run's (within :data:`SIZE_RATIO`), none more than :data:`REACH`
  tile sizes after the last. Runs are ranked by their face-up tiles (at most :data:`HAND_MAX`
  count), weighed by the square of their tile size against the largest (nearer the camera is
  larger), then by how large their tiles are and how low in the photo they lie. The run's largest
  group is ``hand_row``; the others are ``beside_hand`` (claimed melds, kongs, the winning tile set
  apart) or ``flowers``.
* A row just next to the hand's (within :data:`ROW_REACH` tile sizes, overlapping it along the row,
  running along it within :data:`PARALLEL`) holds the hand's **second row** (``second_row``) when
  its groups have three or more tiles of the hand's size and no further row of such tiles follows
  it (then it is a pile of discards).
* Not the hand, in this order: tile backs only (``wall``); groups in rows stacked on each other
  away from the hand, six tiles or more together (``discards``); tiles smaller than the hand's (``smaller_tiles``:
  farther away, another player's); one or two face-up tiles near the hand (``indicator``: a
  candidate Baida / bloom / fish tile; flowers there are the hand's); in the hand's row line but
  apart from it (``lone_tile`` for one or two tiles, ``far_from_hand``); anything else
  (``lone_tile`` or ``off_row``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

#: tiles are the same size (same distance from the camera) within this ratio either way
SIZE_RATIO = 1.33
#: a group belongs to the hand's run when it starts within this many tile sizes after the run
REACH = 3.5
#: a row's line within this many tile sizes of the hand's line is next to it
ROW_REACH = 2.2
#: an indicator candidate lies within this many tile sizes of the hand (across and along its row)
INDICATOR_REACH = 4.0
#: face-up tiles counted for a run at most (a hand with melds and flowers)
HAND_MAX = 22
#: a pile of discards: stacked rows holding at least this many tiles
DISCARD_MIN = 6
#: a row runs along the hand's when their directions lie within this (radians): the hand's second
#: row lies parallel to it, where tiles laid out another way (another player's, turned 25 degrees
#: and beside the hand's end) can lie as near
PARALLEL = math.radians(10)

#: every reason code and its sentence; the first four are the hand's
NOTES: dict[str, str] = {
    "hand_row": "the hand: the longest aligned row of same-sized tiles nearest the camera",
    "beside_hand": "beside the hand in its row: a claimed meld, a kong or the winning tile",
    "second_row": "the hand's second row",
    "flowers": "flower tiles beside the hand",
    "indicator": "a face-up tile near the hand: maybe the rule set's indicator (Baida, bloom or fish tile)",
    "wall": "tile backs only: the wall or face-down tiles, not the hand",
    "discards": "a discard pile: many tiles in a loose grid",
    "smaller_tiles": "smaller tiles than the hand: farther from the camera, another player's",
    "far_from_hand": "in the hand's row line but far from the hand",
    "lone_tile": "a lone tile far from the hand",
    "off_row": "far from the hand's row",
}
HAND_REASONS = frozenset({"hand_row", "beside_hand", "second_row", "flowers"})


@dataclass(frozen=True)
class Verdict:
    """Why a group is or is not part of the hand: a reason code (a key of :data:`NOTES`)."""

    reason: str

    @property
    def hand(self) -> bool:
        """Part of the hand: the reason is one of :data:`HAND_REASONS`."""
        return self.reason in HAND_REASONS

    @property
    def note(self) -> str:
        return NOTES[self.reason]

    def to_dict(self) -> dict:
        return {"hand": self.hand, "reason": self.reason, "note": self.note}


@dataclass
class _Group:
    """A group in a frame (:func:`_groups`): its tiles, row, extent along the frame, line across
    it, size, and the direction its row runs (radians; ``None`` for a row of one tile)."""

    index: int
    row: int
    tiles: list[int]
    faces: int
    flowers: bool
    x0: float
    x1: float
    y: float
    image_y: float
    size: float
    turn: float | None


def _quad_area(q: np.ndarray) -> float:
    d1, d2 = q[2] - q[0], q[3] - q[1]
    return abs(float(d1[0] * d2[1] - d1[1] * d2[0])) / 2


def _principal_axis(pts: np.ndarray) -> float | None:
    """The direction (radians, -90 to 90 degrees) of the principal axis of the points ``pts``;
    ``None`` for fewer than two."""
    if len(pts) < 2:
        return None
    d = pts - pts.mean(0)
    w, v = np.linalg.eigh(d.T @ d)
    axis = v[:, int(w.argmax())]
    theta = math.atan2(axis[1], axis[0])
    return theta - math.pi if theta > math.pi / 2 else theta + math.pi if theta <= -math.pi / 2 else theta


def _turned(a: float, b: float) -> float:
    """The angle (radians, 0 to 90 degrees) between two directions taken modulo 180 degrees."""
    d = abs(a - b) % math.pi
    return min(d, math.pi - d)


@dataclass(frozen=True)
class _Layout:
    """The tiles' centres and sizes, and each row's direction (:func:`_principal_axis`; ``longest``
    the longest row's), measured once for both frames :func:`judge` measures the groups in."""

    centres: np.ndarray
    sizes: np.ndarray
    turns: dict[int, float | None]
    longest: float | None


def _layout(quads: Sequence, groups: Sequence[Mapping]) -> _Layout:
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    centres = q.mean(1)
    row_of = np.zeros(len(q), int)
    for g in groups:
        row_of[list(g["tiles"])] = int(g["row"])
    turns = {int(r): _principal_axis(centres[row_of == r]) for r in np.unique(row_of)}
    sizes = np.sqrt([_quad_area(x) for x in q])
    return _Layout(centres, sizes, turns, turns[int(np.bincount(row_of).argmax())])


def _groups(codes: Sequence[str], lay: _Layout, groups: Sequence[Mapping], frame: int | None = None) -> list[_Group]:
    """The groups, each measured along its own row's direction (a row of one tile, along the
    longest row's), or every one along the row ``frame``'s."""
    centres, sizes, turns, longest = lay.centres, lay.sizes, lay.turns, lay.longest
    out = []
    for k, g in enumerate(groups):
        t = list(g["tiles"])
        turn = turns[int(g["row"])]
        theta = turns[frame] if frame is not None else turn
        if theta is None:  # (a row of one tile)
            theta = longest if longest is not None else 0.0
        along = centres[t] @ np.array([math.cos(theta), math.sin(theta)])
        across = centres[t] @ np.array([-math.sin(theta), math.cos(theta)])
        half = sizes[t] / 2
        out.append(
            _Group(
                index=k,
                row=int(g["row"]),
                tiles=t,
                faces=sum(codes[i] != "back" for i in t),
                flowers=all(codes[i].endswith("f") for i in t),
                x0=float((along - half).min()),
                x1=float((along + half).max()),
                y=float(np.median(across)),
                image_y=float(centres[t, 1].mean()),
                size=float(np.median(sizes[t])),
                turn=turn,
            )
        )
    return out


def _same_size(a: float, b: float) -> bool:
    return max(a, b) <= SIZE_RATIO * min(a, b)


def _runs(gs: list[_Group]) -> list[list[_Group]]:
    """Each row split into runs: groups one after another along the row, of one tile size, each
    starting within :data:`REACH` tile sizes of the run's end."""
    runs: list[list[_Group]] = []
    for row in sorted({g.row for g in gs}):
        run: list[_Group] = []
        for g in sorted((g for g in gs if g.row == row), key=lambda g: g.x0):
            if run:
                size = float(np.median([x.size for x in run]))
                end = max(x.x1 for x in run)
                if g.x0 - end <= REACH * size and _same_size(g.size, size):
                    run.append(g)
                    continue
                runs.append(run)
            run = [g]
        runs.append(run)
    return runs


def _hand_run(runs: list[list[_Group]]) -> list[_Group]:
    """The run most likely the hand: most face-up tiles (weighed by tile size squared against the
    largest), then larger tiles, then lower in the photo; on a tie (two lone tiles of one size on
    one line) the first in reading order, whatever the photo's scale (scores are compared rounded,
    since scaling a photo changes their last digits)."""
    sizes = {id(r): float(np.median([g.size for g in r])) for r in runs}
    biggest = max(max(sizes.values()), 1e-9)  # degenerate quads (a finder's zero-area box) have size 0
    ys = [g.image_y for r in runs for g in r]
    lo, hi = min(ys), max(ys)

    def score(run: list[_Group]) -> float:
        rel = sizes[id(run)] / biggest
        low = (float(np.mean([g.image_y for g in run])) - lo) / (hi - lo + 1e-9)
        return min(HAND_MAX, sum(g.faces for g in run)) * rel**2 + rel + 0.5 * low

    return max(runs, key=lambda run: round(score(run), 9))


def _overlaps(g: _Group, x0: float, x1: float) -> bool:
    return g.x1 > x0 and g.x0 < x1


def _stacks(gs: list[_Group], size: float) -> list[set[int]]:
    """Groups of face-up tiles lying together: linked when on one row within :data:`REACH` tile
    sizes of each other, or on rows whose lines lie within :data:`ROW_REACH` tile sizes and
    overlapping along the row; each stack as its group indexes (backs only are left out: the wall)."""
    faces = [g for g in gs if g.faces]
    parent = {g.index: g.index for g in faces}

    def root(k: int) -> int:
        while parent[k] != k:
            k = parent[k]
        return k

    for a in faces:
        for b in faces:
            if a.index >= b.index:
                continue
            if a.row == b.row:
                linked = max(a.x0, b.x0) - min(a.x1, b.x1) <= REACH * size
            else:
                linked = abs(a.y - b.y) <= ROW_REACH * size and _overlaps(a, b.x0, b.x1)
            if linked:
                parent[root(a.index)] = root(b.index)
    stacks: dict[int, set[int]] = {}
    for g in faces:
        stacks.setdefault(root(g.index), set()).add(g.index)
    return list(stacks.values())


def _second_rows(gs: list[_Group], run: list[_Group], size: float) -> set[int]:
    """The rows next to the hand's that hold its second row: groups of three or more tiles of the
    hand's size, overlapping it along the row and running along it (:data:`PARALLEL`), with no
    such row stacked beyond them."""
    x0, x1 = min(g.x0 for g in run) - 2 * size, max(g.x1 for g in run) + 2 * size
    line = float(np.median([g.y for g in run]))
    hand_rows = {g.row for g in run}
    turn = run[0].turn

    def full(g: _Group) -> bool:
        parallel = g.turn is None or turn is None or _turned(g.turn, turn) <= PARALLEL
        return len(g.tiles) >= 3 and g.faces > 0 and _same_size(g.size, size) and _overlaps(g, x0, x1) and parallel

    out = set()
    for g in gs:
        if g.row in hand_rows or not full(g) or abs(g.y - line) > ROW_REACH * size:
            continue
        side = math.copysign(1.0, g.y - line)
        beyond = [
            h
            for h in gs
            if full(h) and 0 < (h.y - g.y) * side <= ROW_REACH * size and h.row != g.row and h.row not in hand_rows
        ]
        if not beyond:
            out.add(g.row)
    return out


def _other(g: _Group, run: list[_Group], size: float, discards: set[int]) -> Verdict:
    """Why a group outside the hand's run and rows is not the hand (or, flowers, that it is)."""
    if g.faces == 0:
        return Verdict("wall")
    if g.index in discards:
        return Verdict("discards")
    if g.size * SIZE_RATIO < size:
        return Verdict("smaller_tiles")
    line = float(np.median([h.y for h in run]))
    x0, x1 = min(h.x0 for h in run), max(h.x1 for h in run)
    reach = INDICATOR_REACH * size
    near = abs(g.y - line) <= reach and g.x1 > x0 - reach and g.x0 < x1 + reach
    few = len(g.tiles) <= 2
    if near and few and _same_size(g.size, size):
        return Verdict("flowers") if g.flowers else Verdict("indicator")
    if g.row == run[0].row:
        return Verdict("lone_tile" if few else "far_from_hand")
    return Verdict("lone_tile" if few else "off_row")


def judge(codes: Sequence[str], quads: Sequence, groups: Sequence[Mapping]) -> list[Verdict]:
    """A :class:`Verdict` per group (``groups``: mappings with ``row`` and ``tiles``, indexes into
    ``codes`` and ``quads``, as :func:`vision.grouping.arrange` numbers them)."""
    if not groups:
        return []
    lay = _layout(quads, groups)
    found = _hand_run(_runs(_groups(codes, lay, groups)))
    gs = _groups(codes, lay, groups, frame=found[0].row)  # (everything measured against the hand)
    run = [gs[g.index] for g in found]
    size = float(np.median([g.size for g in run]))
    main = max(run, key=lambda g: (g.faces, len(g.tiles)))
    second = _second_rows(gs, run, size)
    verdicts: dict[int, Verdict] = {}
    for g in run:
        verdicts[g.index] = Verdict("hand_row" if g is main else "flowers" if g.flowers and g.faces else "beside_hand")
    for g in gs:
        if g.row in second and g.index not in verdicts and _same_size(g.size, size) and len(g.tiles) >= 3:
            verdicts[g.index] = Verdict("second_row")
    rest = [g for g in gs if g.index not in verdicts and g.row not in {h.row for h in run} | second]
    discards = set()
    for stack in _stacks(rest, size):
        members = [g for g in rest if g.index in stack]
        if len({g.row for g in members}) >= 2 and sum(len(g.tiles) for g in members) >= DISCARD_MIN:
            discards |= stack
    for g in gs:
        if g.index not in verdicts:
            verdicts[g.index] = _other(g, run, size, discards)
    return [verdicts[g.index] for g in gs]


__all__ = ["HAND_REASONS", "NOTES", "Verdict", "judge"]
