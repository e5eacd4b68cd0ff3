"""Win check and hand decomposition, wild tiles included.

Three winning forms:

* ``standard`` — four sets (chow / pung / kong) and a pair; declared melds count as sets.
* ``seven_pairs`` — seven pairs from a fully concealed 14-tile hand; four of a kind counts as two
  pairs (the rule texts' 'dragon' / 'luxury' seven pairs; :attr:`Decomposition.quads` says how many).
* ``thirteen_orphans`` — one each of the 13 terminals and honours plus a pair of one of them.

Wild tiles (Ningbo's Baida) are given as a :class:`WildSpec`: the kinds that are wild. Every copy
of a wild kind among the concealed tiles is a wild. A wild stands for any suited or honour kind
(never a flower), its own face included (还搭). By default a wild cannot make a fifth copy of a kind
(natural copies in the hand and in declared melds plus wilds standing for it stay within four);
``WildSpec(allow_fifth_copy=True)`` lifts that. Every :class:`Decomposition` lists what each wild
stands for in :attr:`Decomposition.substitutions`.

The win check (:func:`is_winning_counts`) runs on per-suit lookup tables (see
:mod:`engine.suit_tables`) and never enumerates; :func:`decompose` lists every arrangement.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement, product
from operator import itemgetter
from typing import Literal, cast

from .melds import Meld
from .suit_tables import INF, SuitGroup, suit_arrangements, suit_complete, suit_need
from .tiles import NUM_KINDS, ORPHANS, Tile, format_tiles, tile_str

Form = Literal["standard", "seven_pairs", "thirteen_orphans"]
GroupKind = Literal["chow", "pung", "kong", "pair", "orphans"]
ALL_FORMS: tuple[Form, ...] = ("standard", "seven_pairs", "thirteen_orphans")

_SUIT_SLICES = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))


@dataclass(frozen=True)
class WildSpec:
    """Which kinds are wild, and whether a wild may become a fifth copy of a kind."""

    kinds: frozenset[Tile] = frozenset()
    allow_fifth_copy: bool = False
    visible: tuple[Tile, ...] = ()
    """Copies shown face up outside the hand (an indicator): they count toward the four-copy cap."""

    def split(self, concealed: Iterable[Tile]) -> tuple[list[int], list[Tile]]:
        """Split concealed tiles into natural counts (34 kinds) and the list of wild tiles."""
        counts = [0] * NUM_KINDS
        wild_faces: list[Tile] = []
        kinds = self.kinds
        for tile in concealed:
            if tile in kinds:
                wild_faces.append(tile)
            elif tile < NUM_KINDS:
                counts[tile] += 1
        return counts, wild_faces


NO_WILDS = WildSpec()


@dataclass(frozen=True)
class Group:
    """One set or pair of a decomposition.

    ``tiles`` are the kinds the group stands for (sorted); ``wilds`` the kinds among them that are
    filled by wild tiles; ``meld`` the declared meld when the group is one.
    """

    kind: GroupKind
    tiles: tuple[Tile, ...]
    wilds: tuple[Tile, ...] = ()
    meld: Meld | None = None

    @property
    def first(self) -> Tile:
        return self.tiles[0]

    @property
    def is_declared(self) -> bool:
        return self.meld is not None

    @property
    def is_concealed(self) -> bool:
        """Formed in hand (a concealed kong also counts as concealed)."""
        return self.meld is None or self.meld.is_concealed

    @property
    def is_pung_like(self) -> bool:
        return self.kind in ("pung", "kong")

    def __str__(self) -> str:
        wild = f"[wild:{format_tiles(self.wilds)}]" if self.wilds else ""
        declared = f"({self.meld.kind.value})" if self.meld else ""
        return f"{self.kind}:{format_tiles(self.tiles)}{wild}{declared}"


@dataclass(frozen=True)
class Decomposition:
    """One arrangement of a complete hand.

    ``groups``: for ``standard`` the sets (declared melds included) and the pair; for
    ``seven_pairs`` seven pairs (a quad appears as two equal pairs); for ``thirteen_orphans`` one
    group. ``substitutions``: (wild tile's face, kind it stands for), one per wild tile.
    """

    form: Form
    groups: tuple[Group, ...]
    substitutions: tuple[tuple[Tile, Tile], ...] = ()

    @property
    def pair(self) -> Group | None:
        if self.form != "standard":
            return None
        return next(g for g in self.groups if g.kind == "pair")

    @property
    def sets(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind in ("chow", "pung", "kong"))

    @property
    def quads(self) -> int:
        """Seven pairs only: how many kinds appear as two pairs (four of a kind)."""
        if self.form != "seven_pairs":
            return 0
        kinds = [g.first for g in self.groups]
        return sum(1 for k in set(kinds) if kinds.count(k) >= 2)

    @property
    def wilds_as_self(self) -> int:
        """How many wild tiles stand for their own face (还搭)."""
        return sum(1 for face, kind in self.substitutions if face == kind)

    @property
    def stands_for(self) -> list[Tile]:
        """All 14 (plus kong extras) kinds the hand stands for, wilds replaced."""
        out: list[Tile] = []
        for g in self.groups:
            out.extend(g.tiles)
        return out

    def __str__(self) -> str:
        subs = " ".join(f"{tile_str(f)}={tile_str(k)}" for f, k in self.substitutions)
        return f"{self.form} " + " ".join(str(g) for g in self.groups) + (f" wilds {subs}" if subs else "")


# --------------------------------------------------------------------------- win check


def _caps(melds: Sequence[Meld], allow_fifth_copy: bool, visible: Sequence[Tile] = ()) -> list[int]:
    """How many copies of each kind the hand may hold (naturals plus wilds standing for it)."""
    if allow_fifth_copy:
        return [16] * NUM_KINDS
    caps = [4] * NUM_KINDS
    for meld in melds:
        for tile in meld.tiles:
            caps[tile] -= 1
    for tile in visible:
        if tile < NUM_KINDS:
            caps[tile] -= 1
    return caps


def standard_need(counts: Sequence[int], caps: Sequence[int] | None = None) -> int:
    """Fewest wilds that complete the natural ``counts`` into sets and one pair (``INF`` if none)."""
    needs = []
    for lo, hi, chows in _SUIT_SLICES:
        key = bytes(counts[lo:hi])
        needs.append(suit_need(key, chows) if caps is None else suit_need(key, chows, bytes(caps[lo:hi])))
    best = INF
    for j, (_no_pair, with_pair) in enumerate(needs):
        total = with_pair + sum(n[0] for i, n in enumerate(needs) if i != j)
        if total < best:
            best = total
    return best


def _standard_complete(counts: Sequence[int]) -> bool:
    """No-wild standard form: each suit's count is 0 or 2 mod 3 (one suit holds the pair) and
    each suit splits into sets (and the pair)."""
    pair_suits = 0
    for lo, hi, chows in _SUIT_SLICES:
        key = bytes(counts[lo:hi])
        rest = sum(key) % 3
        if rest == 1:
            return False
        if rest == 2:
            pair_suits += 1
            if pair_suits > 1:
                return False
        if not suit_complete(key, chows, rest == 2):
            return False
    return pair_suits == 1


def is_winning_counts(
    counts: Sequence[int],
    wilds: int = 0,
    *,
    melds: Sequence[Meld] = (),
    allow_fifth_copy: bool = False,
    forms: Sequence[Form] = ALL_FORMS,
    visible: Sequence[Tile] = (),
) -> bool:
    """The fast win check on natural counts (34 kinds) plus ``wilds`` wild tiles.

    ``sum(counts) + wilds + 3 * len(melds)`` must be 14. Seven pairs and thirteen orphans need a
    hand with no declared melds.
    """
    if "standard" in forms:
        if wilds == 0:
            if _standard_complete(counts):
                return True
        else:
            caps = _caps(melds, allow_fifth_copy, visible) if (melds or allow_fifth_copy or visible) else None
            need = standard_need(counts, caps)
            if need <= wilds and (wilds - need) % 3 == 0:
                return True
    if melds:
        return False
    if "seven_pairs" in forms and _seven_pairs_ok(counts, wilds):
        return True
    if "thirteen_orphans" in forms and _orphans_ok(counts, wilds):
        return True
    return False


def _seven_pairs_ok(counts: Sequence[int], wilds: int) -> bool:
    if sum(counts) + wilds != 14:
        return False
    return counts.count(1) + counts.count(3) <= wilds


_ORPHAN_COUNTS = itemgetter(*ORPHANS)


def _orphans_ok(counts: Sequence[int], wilds: int) -> bool:
    if sum(counts) + wilds != 14:
        return False
    if sum(_ORPHAN_COUNTS(counts)) != sum(counts):
        return False
    if any(counts[k] > 2 for k in ORPHANS) or sum(1 for k in ORPHANS if counts[k] == 2) > 1:
        return False
    missing = sum(1 for k in ORPHANS if counts[k] == 0)
    has_pair = any(counts[k] == 2 for k in ORPHANS)
    return missing + (0 if has_pair else 1) <= wilds


def is_winning(
    concealed: Sequence[Tile],
    melds: Sequence[Meld] = (),
    *,
    wilds: WildSpec = NO_WILDS,
    forms: Sequence[Form] = ALL_FORMS,
) -> bool:
    """Does ``concealed`` (winning tile included) with ``melds`` form a winning hand?"""
    counts, faces = wilds.split(concealed)
    return is_winning_counts(
        counts, len(faces), melds=melds, allow_fifth_copy=wilds.allow_fifth_copy, forms=forms, visible=wilds.visible
    )


# --------------------------------------------------------------------------- decomposition


def _substitutions(faces: Sequence[Tile], stands: Sequence[Tile]) -> tuple[tuple[Tile, Tile], ...]:
    """Pair each wild face with a kind it stands for, matching a face to itself where possible."""
    faces_left = sorted(faces)
    stands_left = sorted(stands)
    pairs: list[tuple[Tile, Tile]] = []
    for kind in list(stands_left):
        if kind in faces_left:
            faces_left.remove(kind)
            stands_left.remove(kind)
            pairs.append((kind, kind))
    pairs.extend(zip(faces_left, stands_left))
    return tuple(sorted(pairs))


def _suit_group_to_group(group: SuitGroup, lo: int) -> Group:
    """A suit table's group (kind, first rank, wild ranks) as a :class:`Group` of suit ``lo``."""
    kind, first, wild_idx = group
    base = lo + first
    tiles: tuple[Tile, ...]
    if kind == "chow":
        tiles = (base, base + 1, base + 2)
    elif kind == "pung":
        tiles = (base,) * 3
    else:
        tiles = (base,) * 2
    return Group(cast(GroupKind, kind), tiles, tuple(lo + w for w in wild_idx))


def _meld_group(meld: Meld) -> Group:
    kind: GroupKind = "chow" if meld.kind.value == "chow" else ("kong" if meld.is_kong else "pung")
    return Group(kind, meld.tiles, (), meld)


def decompose(
    concealed: Sequence[Tile],
    melds: Sequence[Meld] = (),
    *,
    wilds: WildSpec = NO_WILDS,
    forms: Sequence[Form] = ALL_FORMS,
    free_kinds: Sequence[Tile] | None = None,
) -> list[Decomposition]:
    """Every arrangement of a complete hand (``concealed`` includes the winning tile).

    ``free_kinds``: the kinds a group made only of wilds may stand for (default: all 34). Rule
    sets that only care about some properties of such a group may pass representatives to keep
    the list short. Returns ``[]`` when the hand does not win.
    """
    counts, faces = wilds.split(concealed)
    n_wild = len(faces)
    caps = _caps(melds, wilds.allow_fifth_copy, wilds.visible)
    kinds_free = list(range(NUM_KINDS)) if free_kinds is None else sorted(set(free_kinds))
    out: list[Decomposition] = []
    seen: set = set()

    def emit(form: Form, groups: list[Group]) -> None:
        if not n_wild:
            out.append(Decomposition(form, tuple(groups)))
            return
        stands = [k for g in groups for k in g.wilds]
        key = (form, tuple(sorted((g.kind, g.tiles, g.wilds, g.meld is not None) for g in groups)))
        if key in seen:
            return
        seen.add(key)
        out.append(Decomposition(form, tuple(groups), _substitutions(faces, stands)))

    if "standard" in forms and is_winning_counts(
        counts, n_wild, melds=melds, allow_fifth_copy=wilds.allow_fifth_copy, forms=("standard",), visible=wilds.visible
    ):
        _standard(counts, n_wild, melds, caps, kinds_free, emit)
    if not melds:
        if "seven_pairs" in forms and _seven_pairs_ok(counts, n_wild):
            _seven_pairs(counts, n_wild, caps, kinds_free, emit)
        if "thirteen_orphans" in forms and _orphans_ok(counts, n_wild):
            _orphans(counts, n_wild, emit)
    return out


def _free_groups(
    n_pungs: int, with_pair: bool, used: list[int], caps: Sequence[int], kinds: Sequence[Tile]
) -> list[list[Group]]:
    """Groups made only of wilds: ``n_pungs`` pungs and maybe a pair, over ``kinds`` within caps."""
    results: list[list[Group]] = []
    pair_choices: Iterable = kinds if with_pair else [None]
    for pair_kind in pair_choices:
        for pung_kinds in combinations_with_replacement(kinds, n_pungs):
            extra: dict[Tile, int] = {}
            for k in pung_kinds:
                extra[k] = extra.get(k, 0) + 3
            if pair_kind is not None:
                extra[pair_kind] = extra.get(pair_kind, 0) + 2
            if any(used[k] + e > caps[k] for k, e in extra.items()):
                continue
            groups = [Group("pung", (k,) * 3, (k,) * 3) for k in pung_kinds]
            if pair_kind is not None:
                groups.append(Group("pair", (pair_kind,) * 2, (pair_kind,) * 2))
            results.append(groups)
    return results


@lru_cache(maxsize=65536)
def _suit_groups(key: bytes, chows: bool, caps: bytes, max_wilds: int, lo: int) -> tuple:
    """The suit's arrangements as (wilds used, has pair, groups as :class:`Group`), cached."""
    return tuple(
        (used, has_pair, tuple(_suit_group_to_group(g, lo) for g in groups))
        for used, has_pair, groups in suit_arrangements(key, chows, caps, max_wilds)
    )


_FULL_CAPS = bytes([4]) * 9
_FOUR = [4] * NUM_KINDS


def _standard(counts, n_wild, melds, caps, kinds_free, emit) -> None:
    plain_caps = caps == _FOUR
    per_suit = []
    for lo, hi, chows in _SUIT_SLICES:
        key = bytes(counts[lo:hi])
        cap = _FULL_CAPS[: hi - lo] if plain_caps else bytes(max(c, 0) for c in caps[lo:hi])
        per_suit.append(_suit_groups(key, chows, cap, n_wild, lo))
    meld_groups = [_meld_group(m) for m in melds]
    for combo in product(*per_suit):
        used = 0
        pairs = 0
        for arr in combo:
            used += arr[0]
            pairs += arr[1]
        if used > n_wild or pairs > 1:
            continue
        left = n_wild - used
        if pairs == 1:
            if left % 3:
                continue
            n_pungs, free_pair = left // 3, False
        else:
            if left < 2 or (left - 2) % 3:
                continue
            n_pungs, free_pair = (left - 2) // 3, True
        groups = [g for arr in combo for g in arr[2]]
        if not n_pungs and not free_pair:
            emit("standard", meld_groups + groups)
            continue
        used_counts = list(counts)
        for g in groups:
            for k in g.wilds:
                used_counts[k] += 1
        for free in _free_groups(n_pungs, free_pair, used_counts, caps, kinds_free):
            emit("standard", meld_groups + groups + free)


def _seven_pairs(counts, n_wild, caps, kinds_free, emit) -> None:
    groups: list[Group] = []
    used = list(counts)
    for kind, c in enumerate(counts):
        for _ in range(c // 2):
            groups.append(Group("pair", (kind, kind)))
        if c & 1:
            groups.append(Group("pair", (kind, kind), (kind,)))
            used[kind] += 1
    free_pairs = (n_wild - sum(c & 1 for c in counts)) // 2
    if free_pairs == 0:
        emit("seven_pairs", sorted(groups, key=lambda g: g.tiles))
        return
    for kinds in combinations_with_replacement(kinds_free, free_pairs):
        extra: dict[int, int] = {}
        for k in kinds:
            extra[k] = extra.get(k, 0) + 2
        if any(used[k] + e > caps[k] for k, e in extra.items()):
            continue
        free = [Group("pair", (k, k), (k, k)) for k in kinds]
        emit("seven_pairs", sorted(groups + free, key=lambda g: g.tiles))


def _orphans(counts, n_wild, emit) -> None:
    stands: list[Tile] = []
    tiles: list[Tile] = []
    for k in ORPHANS:
        tiles.extend([k] * counts[k])
        if counts[k] == 0:
            tiles.append(k)
            stands.append(k)
    if len(tiles) == 13:
        # the pair is a wild copy of any orphan: one decomposition per choice
        for k in ORPHANS:
            emit("thirteen_orphans", [Group("orphans", tuple(sorted(tiles + [k])), tuple(sorted(stands + [k])))])
    else:
        emit("thirteen_orphans", [Group("orphans", tuple(sorted(tiles)), tuple(sorted(stands)))])
