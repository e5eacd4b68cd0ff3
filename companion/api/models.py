"""Request and response models of the HTTP API (pydantic).

Request models validate the JSON bodies: unknown fields are refused, types are checked strictly
(no ``"1"`` for ``1``, no ``true`` for a number), and a validation error answers 400 naming the
field as a JSON path (``players[1]``, ``winners[0].context``, ``from``). The same models give the
OpenAPI document its schemas (:mod:`companion.api.openapi`). Response models document the answers;
the test suite checks real answers against them.

What a winner's ``win``, ``hand`` and ``indicators`` hold is the engine's scoring contract
(:mod:`engine.contract`, ``README.md``): the models keep them as objects and the contract checks
them, naming the field within the request (``winners[0].hand.concealed``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, model_validator

from engine.errors import MahjongError
from engine.rules import VARIANT_NAMES

from ..settings import duplicate_of


class BodyError(MahjongError):
    """A request body whose fields contradict each other (raised by a model's own checks)."""

    code = "bad_input"


def _upper(value: object) -> object:
    return value.upper() if isinstance(value, str) else value


#: a wind of the current hand, ``E S W N`` (East deals); lower case is read too
Seat = Annotated[
    Literal["E", "S", "W", "N"],
    BeforeValidator(_upper),
    Field(description="a wind of the current hand: E S W N (East deals)"),
]
PlayerName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


class Request(BaseModel):
    """A JSON request body: strict types, unknown fields refused."""

    model_config = ConfigDict(strict=True, extra="forbid")


class Versioned(Request):
    """A write made on the ledger at ``base_version``: refused with 409 ``stale`` when events
    recorded since then change it (docs/companion.md, "Two devices at one table")."""

    base_version: int | None = Field(
        None,
        ge=0,
        le=2**53 - 1,
        description="the ledger version the page showed when the write was made (`version` of the ledger); "
        "409 `stale` when something recorded since changes it; left out: no check",
    )


# ---------------------------------------------------------------------------- requests


class NotationBody(Request):
    """Typed tiles to read the way the engine does."""

    tiles: str = Field(description="tiles in notation (`123m 5z`), Chinese names (`一萬 東`) or Unicode glyphs")


class NewTable(Request):
    """A new table: its rule set, house rules, the four players in seat order."""

    variant: str = Field(
        description="a rule set name from /api/variants", json_schema_extra={"enum": list(VARIANT_NAMES)}
    )
    options: dict[str, Any] | None = Field(None, description="house rules (the rule set's documented options)")
    players: list[PlayerName] = Field(
        min_length=4, max_length=4, description="the four players' names in physical seat order (play order)"
    )
    first_dealer: int = Field(0, ge=0, le=3, description="the seat number 0-3 of the player who deals first")
    start_points: int = Field(0, ge=0, le=1_000_000_000, description="each player's points at the start")
    name: str = Field("", max_length=80, description="the table's display name")

    @model_validator(mode="after")
    def _names_differ(self) -> NewTable:
        for i, name in enumerate(self.players):
            twin = duplicate_of(self.players, i)
            if twin is not None:
                raise DuplicateName(
                    f"seats {twin + 1} and {i + 1} are both called {name!r}: every player needs a different name",
                    field=f"players[{i}]",
                )
        return self


class DuplicateName(BodyError):
    """Two players with the same name (trimmed, case-insensitive)."""

    code = "duplicate_name"


PlayerIndex = Annotated[int, Field(ge=0, le=3, description="a player: their index 0-3 in the table's players")]


class Rename(Request):
    """A player's new name (shown everywhere at once; the player stays the same in every event)."""

    player: PlayerIndex
    name: PlayerName


class Swap(Request):
    """Two players exchange seats (and so the winds they would have had) from the next hand on."""

    players: list[PlayerIndex] = Field(min_length=2, max_length=2)


class SettingsBody(Versioned):
    """One change to a table after creation: ``rename``, ``renames`` (several players at once,
    checked on the names they end with: two players may exchange names), ``swap`` or ``options``
    (house rules from the next hand on: only the options that change, the others stay as they are)."""

    rename: Rename | None = None
    renames: list[Rename] | None = Field(
        None, min_length=1, max_length=4, description="several players renamed at once (one event)"
    )
    swap: Swap | None = None
    options: dict[str, Any] | None = Field(None, description="house rules to change (the rule set's options)")

    @model_validator(mode="after")
    def _one_change(self) -> SettingsBody:
        given = [k for k in ("rename", "renames", "swap", "options") if getattr(self, k) is not None]
        if len(given) != 1:
            raise BodyError(
                "send exactly one change: 'rename', 'renames', 'swap' or 'options'",
                field=given[-1] if given else None,
            )
        return self


class ClaimBody(Versioned):
    """A pung or kong one player claimed from another this hand."""

    claimer: Seat
    from_: Seat = Field(alias="from", description="the seat the tile was claimed from")
    meld: Literal["pung", "kong"] = Field("pung", description="record a kong with its payments at /kongs")

    @model_validator(mode="after")
    def _another_seat(self) -> ClaimBody:
        if self.claimer == self.from_:
            raise BodyError("a player cannot claim from themself: 'from' must be another seat", field="from")
        return self


class KongBody(Versioned):
    """A kong as it is declared; its immediate payments follow the table's rule set."""

    type: Literal["kong", "concealed_kong", "added_kong"] = Field(
        description="kong: exposed, from a discard; concealed_kong; added_kong: a claimed pung made a kong"
    )
    declarer: Seat
    from_: Seat | None = Field(None, alias="from", description="the discarder (exposed kong)")

    @model_validator(mode="after")
    def _from_fits_the_type(self) -> KongBody:
        if self.type == "kong" and self.from_ is None:
            raise BodyError("missing field 'from': the seat whose discard made the kong", field="from")
        if self.type == "concealed_kong" and self.from_ is not None:
            raise BodyError("a concealed kong is not claimed from anyone: leave 'from' out", field="from")
        if self.from_ == self.declarer:
            raise BodyError("'from' must be another player's seat", field="from")
        return self


class DrawBody(Versioned):
    """A drawn hand (no winner)."""

    last_drawer: Seat | None = Field(
        None, description="who drew the last tile (rule sets whose deal goes to them: Nanning)"
    )


class DrawnHand(DrawBody):
    """A drawn hand recorded through /hands (or as a correction)."""

    drawn: Literal[True] = Field(description="record a drawn hand instead of a win")


class Winner(Request):
    """One winner's hand as the table saw it (the engine's contract without the table's facts)."""

    winner: Seat
    win: dict[str, Any] | None = Field(None, description="the contract's `win`: by, from, after_kong, …")
    hand: dict[str, Any] = Field(description="the contract's `hand`: concealed, winning_tile, melds, flowers")
    indicators: dict[str, Any] | None = Field(None, description="the contract's `indicators`: baida, bloom, fish")


class WonHand(Versioned):
    """A won hand: one to three winners (several only on one discard)."""

    winners: list[Winner] = Field(min_length=1, max_length=3)
    photo_id: int | None = Field(None, description="the table photo the hand was read from")
    tiles: Any = Field(None, description="the confirmed tile reading, kept with the hand")


class PreviewBody(WonHand):
    """A won hand to score without recording; ``correct`` scores it as a correction of that hand."""

    correct: int | None = Field(None, description="score as a correction of this hand event (its state and claims)")


class UndoBody(Versioned):
    """What to undo: the latest effective event."""

    event_id: int | None = Field(None, description="the event you mean to undo; 409 when it is no longer the latest")


# ---------------------------------------------------------------------------- responses


class Answer(BaseModel):
    """A response body of known shape."""

    model_config = ConfigDict(extra="forbid")


class OpenAnswer(BaseModel):
    """A response body whose documented fields may be joined by others (the engine's, the recogniser's)."""

    model_config = ConfigDict(extra="allow")


class ErrorDetail(Answer):
    code: str
    message: str
    field: str | None = None
    kind: Literal["refused", "invalid"] | None = Field(None, description="an engine error: refused or malformed")


class ErrorBody(Answer):
    """Every error: a stable code, a message saying what to do, the field concerned."""

    ok: Literal[False]
    error: ErrorDetail


class Health(Answer):
    """Liveness and the data file's integrity (503 when damaged: writes are refused)."""

    ok: bool
    schema_version: int
    integrity: Literal["ok", "damaged"]
    message: str | None = Field(None, description="a damaged file: what was found and what to do")


class OptionInfo(OpenAnswer):
    name: str
    default: Any
    description: str
    choices: list[Any] | None = None
    minimum: int | None = Field(None, description="a number option: the smallest value allowed")
    maximum: int | None = Field(None, description="a number option: the largest value allowed")
    label: str | None = Field(None, description="the house rule's name in players' words (English)")
    label_zh: str | None = Field(None, description="the house rule's name in players' words (Chinese)")
    help: str | None = Field(None, description="what the house rule means, for players (English)")
    help_zh: str | None = Field(None, description="what the house rule means, for players (Chinese)")
    choice_labels: list[dict[str, Any]] | None = Field(
        None, description="each value in words: {value, label, label_zh}"
    )


class VariantInfo(OpenAnswer):
    """An installed rule set, with its documented options and what the page asks about."""

    name: str
    title: str
    title_zh: str
    tiles: int
    options: list[OptionInfo]
    indicator: str | None = Field(None, description="the face-up table tiles this rule set reads besides the hand")
    win_flags: list[str] = Field(default_factory=list, description="the `win` facts a photo cannot show")
    roles: list[str] = Field(default_factory=list, description="what a group of tiles in a photo can be")
    tile_codes: list[str] = Field(default_factory=list, description="the tile kinds in the rule set's tile set")
    draw_needs: list[str] | None = Field(None, description="facts a drawn hand must carry (in a table's view)")


class Variants(Answer):
    ok: bool
    variants: list[VariantInfo]


class TileInfo(Answer):
    code: str
    suit: str
    en: str
    zh: str


class Tiles(Answer):
    ok: bool
    tiles: list[TileInfo]


class Notation(Answer):
    ok: bool
    tiles: list[str]
    notation: str


class RecognizedTile(OpenAnswer):
    code: str
    quad: list[list[float]]
    confidence: float
    sure: bool = Field(
        False, description="calibrated: readings this confident are right >= 99.5 % of the time on held-out real crops"
    )
    alternatives: list[list[Any]]
    rotated: bool
    row: int
    group: int


class RecognizedGroup(OpenAnswer):
    """A group of tiles (touching, or nearly) in reading order, and whether it is the hand."""

    index: int
    row: int
    tiles: list[int] = Field(description="indexes into `tiles`")
    codes: str
    hand: bool = Field(
        description="part of the winner's hand (its row, the melds beside it, its second row, its flowers); "
        "the page leaves the others out by default"
    )
    reason: Literal[
        "hand_row",
        "beside_hand",
        "second_row",
        "flowers",
        "indicator",
        "wall",
        "discards",
        "smaller_tiles",
        "far_from_hand",
        "lone_tile",
        "off_row",
    ] = Field(description="why: `indicator` marks a face-up tile or two near the hand, a candidate indicator tile")
    note: str = Field(description="the reason as an English sentence")


class Recognition(OpenAnswer):
    """The `mjc recognize --json` reading of a photo."""

    ok: bool
    width: int
    height: int
    tiles: list[RecognizedTile]
    groups: list[RecognizedGroup]
    timings_ms: dict[str, float]
    reason: str | None = Field(
        None,
        description="why no tile could be read, or what is wrong with the photo (an overexposed one: which tiles "
        "to check, how to take it again); the page offers to take it again",
    )
    rejected: int = Field(0, description="places the tile finder proposed that the classifier read as not a tile")
    photo: str | None = Field(None, description="/api/recognize: the uploaded file's name")
    photo_id: int | None = Field(None, description="a table photo: its id, for the recorded hand")
    seq: int | None = Field(None, description="the table camera's reading: the number of the frame read")


class CameraState(Answer):
    """The table camera (`mjc serve --camera`): whether the server has one giving frames, and their size."""

    ok: bool
    available: bool
    width: int | None = None
    height: int | None = None
    seq: int | None = Field(None, description="the number of the latest frame")


class Waits(OpenAnswer):
    ok: bool
    waits: list[str]
    notation: str


class WinnerResult(OpenAnswer):
    winner: str
    value: float
    items: list[dict[str, Any]]
    multipliers: list[dict[str, Any]]
    payments: dict[str, int]


class ScoreAnswer(OpenAnswer):
    """The scoring contract's answer (`mjc score`): each winner's value, items, multipliers and
    payments in `results`, and the `payments` by wind summed over the winners."""

    ok: bool
    results: list[WinnerResult] | None = None
    payments: dict[str, int]


class HandResult(Answer):
    """A table hand's result: one entry per winner, the payments by wind summed."""

    ok: bool
    results: list[WinnerResult]
    payments: dict[str, int]


class HandStateView(Answer):
    """The state a hand is played under."""

    hand_no: int
    dealer: int = Field(description="the dealer: a player index 0-3 (their seat is `seating.index(dealer)`)")
    round_wind: str
    dealer_streak: int
    steps: int = Field(description="seats the deal has moved on this round")
    winds: list[str] = Field(description="each physical seat's wind this hand")
    seats: dict[str, int] = Field(description="each wind's player (index 0-3) this hand")
    seating: list[int] = Field(description="the players in physical seat order (play order); seat swaps change it")
    rules: int | None = Field(description="the settings event whose house rules are in force (null: as created)")


class LogItem(Answer):
    id: int
    seq: int
    kind: str
    target: int | None
    status: Literal["active", "corrected", "undone", "undo"]
    created_at: str
    hand_no: int | None


class TimelinePoint(Answer):
    seq: int
    id: int | None = None
    label: str
    balances: list[int]


class Ledger(Answer):
    """The ledger: next hand's state and claims, balances by seat, effective entries, every event."""

    state: HandStateView
    claims: dict[str, dict[str, int]]
    balances: list[int]
    entries: list[dict[str, Any]] = Field(description="effective events in the evening's order, with balances")
    log: list[LogItem]
    timeline: list[TimelinePoint]
    version: int
    last_undoable: int | None


class LedgerPoll(Answer):
    """`changed: false` and the version when nothing happened since `?since=`, else the ledger."""

    ok: bool
    changed: bool
    version: int
    state: HandStateView | None = None
    claims: dict[str, dict[str, int]] | None = None
    balances: list[int] | None = None
    entries: list[dict[str, Any]] | None = None
    log: list[LogItem] | None = None
    timeline: list[TimelinePoint] | None = None
    last_undoable: int | None = None


class TableInfo(Answer):
    name: str
    variant: VariantInfo
    options: dict[str, Any]
    players: list[str] = Field(description="the players' names now (renames applied)")
    next_options: dict[str, Any] | None = Field(
        None, description="house rules already changed from the next hand on (null when none is waiting)"
    )
    first_dealer: int
    start_points: int
    created_at: str
    read_only: bool
    watch_token: str
    links: dict[str, str]
    token: str | None = Field(None, description="the control token (only through the control link)")


class EventInfo(Answer):
    id: int
    seq: int
    kind: str
    target: int | None
    data: dict[str, Any]
    created_at: str


class TableView(Answer):
    """The table and its ledger."""

    ok: bool
    table: TableInfo
    ledger: Ledger


class LedgerChanges(Answer):
    """What a write changed in the ledger the page held at `from_version` (at another version,
    reload the table): entries from index `entries_from` on, the chart points after the start
    point's `entries_from` likewise, log rows added or changed (by id)."""

    from_version: int
    version: int
    state: HandStateView
    claims: dict[str, dict[str, int]]
    balances: list[int]
    last_undoable: int | None
    entries_from: int
    entries: list[dict[str, Any]]
    timeline: list[TimelinePoint]
    log: list[LogItem]


class Recorded(Answer):
    """A write's answer: the event it recorded and what that changed in the ledger. A write whose
    `Idempotency-Key` was recorded before answers 200 with `replayed: true`, that earlier event and
    no change (`changes.from_version` is the current version: a page at another one reloads)."""

    ok: bool
    event: EventInfo
    changes: LedgerChanges
    replayed: bool = Field(False, description="true: this key's write was recorded before; nothing new was recorded")


class StaleInfo(Answer):
    """What was recorded since the write's `base_version`: the current version and those events
    (the latest 20 of them, `STALE_EVENTS`; `omitted` counts the others)."""

    base_version: int
    version: int
    events: list[EventInfo]
    omitted: int = Field(0, description="older events since `base_version` left out of `events`")


class Conflict(ErrorBody):
    """409: the ledger changed since the write's `base_version` (`stale`, with what changed), or
    there is nothing to undo."""

    stale: StaleInfo | None = None


class TableExport(TableView):
    """The table view with every recorded event, undone and corrected ones included."""

    events: list[EventInfo]


class MeldSeen(Answer):
    """A meld as the table entered it (compared as pung, kong or concealed_kong)."""

    tiles: str | None
    meld: str
    from_: str | None = Field(alias="from")


class RecordedMeld(Answer):
    """A meld as the ledger recorded it this hand: its kind, whose discard, the event."""

    meld: str
    from_: str | None = Field(alias="from")
    event: int | None


class MeldWarning(Answer):
    """A disagreement between a winner's melds and the claims and kongs recorded this hand."""

    code: Literal["meld_source", "meld_kind", "meld_missing"]
    winner: str
    field: str = Field(description="the meld in the request (`winners[0].hand.melds[1]`), or the winner's melds")
    meld: MeldSeen | None = Field(description="the meld entered (null: a recorded meld the hand lacks)")
    recorded: RecordedMeld
    message: str


class HandPreview(Answer):
    """A hand scored under the table's rules, not recorded."""

    ok: bool
    state: HandStateView
    claims: dict[str, dict[str, int]]
    result: HandResult
    payments_by_player: list[int]
    warnings: list[MeldWarning] = Field(
        default_factory=list, description="melds that disagree with the claims and kongs recorded this hand"
    )
