"""Before and after: the real-tile sets a change to the recogniser is measured on, kept as files.

``python -m training.ab build DIR`` writes the sets (each a folder of JPEGs and ``labels.json``):
the labelled real photos (``c``), their composites on held-out backgrounds (``c2``, three per
photo) and those seen 45 degrees off (``c5``) and 55 degrees off with the phone turned 5 (``c5s55``,
as the benchmark's (c5) also sees them), the labelled photos seen from four seats (``c3``:
30, 45, 55 degrees, and 50 turned 8), and two lots of 24 tables (:func:`training.real_composites.
table_composites`: ``c7``, the benchmark's seeds, and ``t2``, seeds 9500 on) as taken, 45 degrees
off (``c7s``, ``t2s``) and, for ``c7``, 55 degrees off (``c7s55``); and the photos of sets no model saw
(``u``: :data:`training.evaluate.UNSEEN_LABELS`, as they are). ``python -m training.ab read
DIR OUT.json [SET ...]`` reads them with the recogniser it imports and writes every photo's
reading; ``python -m training.ab diff A.json B.json`` says which photos two readings differ on.
``python -m training.ab again DIR AGAIN`` writes every set of ``DIR`` once more, each photo decoded
and saved again as a JPEG (:data:`AGAIN_QUALITY`), as a phone or a chat app saves a photo it was
given: the pixels differ by the JPEG's noise only, so what reads otherwise there (``diff`` of the
two readings) is a decision the code takes on the edge of a threshold, and a change measured on
both is measured on two samples of the same photos.
The benchmark (:mod:`training.evaluate`) makes the same kinds of photo; these are kept, so that
two versions of the code read the very same files, each in a process of its own. Labels have no
order: photos are scored as multisets of tiles (missed, extra, exact). The tables whose hand (the
photo pasted nearest the camera) is one row record its tiles (``hand`` in ``labels.json``, as the
benchmark's (c7) knows them), and ``read`` counts the photos whose tiles marked as the hand are
exactly those (``hand exact``), as :func:`training.evaluate.hand_scores` does; ``diff`` lists the
photos where that changed.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from pathlib import Path

#: the sets ``build`` writes, in the order ``read`` reads them by default
SETS = ("c", "c2", "c5", "c5s55", "c3", "c7", "c7s", "c7s55", "t2", "t2s", "u")
#: the first seed of each lot of tables
TABLE_SEEDS = {"c7": 14000, "t2": 9500}
#: the JPEG quality ``again`` saves the photos at once more (a phone's camera app saves at 85-95)
AGAIN_QUALITY = 85


def _save(
    folder: Path, items: list[tuple[str, bytes, list[str]]], hands: dict[str, list[str] | None] | None = None
) -> None:
    """Write ``items`` (name, JPEG, labels) as a set under ``folder``: ``000.jpg`` on and
    ``labels.json``, which also holds a photo's ``hand`` (the labels of the tiles that are the
    hand) where ``hands`` knows it."""
    folder.mkdir(parents=True, exist_ok=True)
    labels = {}
    for i, (name, jpeg, codes) in enumerate(items):
        (folder / f"{i:03d}.jpg").write_bytes(jpeg)
        labels[f"{i:03d}.jpg"] = {"name": name, "labels": list(codes)}
        hand = (hands or {}).get(name)
        if hand is not None:
            labels[f"{i:03d}.jpg"]["hand"] = list(hand)
    (folder / "labels.json").write_text(json.dumps(labels, indent=0))


def build(out: Path) -> dict[str, int]:
    """Write :data:`SETS` under ``out``; how many photos each holds (none without the labelled
    photos in ``../shared/vision-data`` and the background cache)."""
    from training import backgrounds
    from training import evaluate as ev
    from training.labelled_variants import variants
    from training.real_composites import table_composites, table_hand
    from training.viewpoint import DISTANCE, seen_from, slanted

    backgrounds.ensure_backgrounds()
    data = ev.DEFAULT_DATA
    labelled = sorted((n, p, gt) for n, gt in ev.load_labels().items() if (p := ev._photo_path(data, n)) is not None)
    seat = lambda degrees, roll=0.0: (degrees, DISTANCE, roll)
    seen = lambda made, views: list(
        variants(((c.name, c.jpeg, c.labels) for c in made), views, lambda img, v: seen_from(img, *v))
    )
    sets: dict[str, list[tuple[str, bytes, list[str]]]] = {"c": [(n, p.read_bytes(), gt) for n, p, gt in labelled]}
    composites = ev._composites(data, 3)
    sets["c2"] = [(c.name, c.jpeg, c.labels) for c in composites]
    sets["c5"] = [(n, raw, gt) for _k, n, raw, gt in seen(composites, [seat(45.0)])]
    sets["c5s55"] = [(n, raw, gt) for _k, n, raw, gt in seen(composites, [seat(55.0, 5.0)])]
    views = [seat(30.0), seat(45.0), seat(55.0), seat(50.0, 8.0)]
    sets["c3"] = [(f"{n} {k}", raw, gt) for k, n, raw, gt in slanted(sets["c"], views)]
    hands: dict[str, list[str] | None] = {}
    for lot, seed in TABLE_SEEDS.items():
        made = table_composites(iter(labelled), 24, frozenset(ev._training_photos()), seed0=seed)
        sets[lot] = [(c.name, c.jpeg, c.labels) for c in made]
        rows = {photo: ev._row_hand(data, photo) for photo in {table_hand(c.name) for c in made}}
        hands.update({c.name: rows[table_hand(c.name)] for c in made})
        views = [seat(45.0), seat(55.0)] if lot == "c7" else [seat(45.0)]
        both = seen(made, views)
        for view, suffix in zip(views, ("s", "s55")):
            sets[lot + suffix] = [(n, raw, gt) for k, n, raw, gt in both if k == view]
    unseen = ev.load_labels(ev.UNSEEN_LABELS)
    sets["u"] = [(n, p.read_bytes(), gt) for n, gt in sorted(unseen.items()) if (p := ev._photo_path(data, n))]
    for name, items in sets.items():
        _save(out / name, items, hands)
    return {name: len(items) for name, items in sets.items()}


def again(folder: Path, out: Path, quality: int = AGAIN_QUALITY) -> dict[str, int]:
    """Every set under ``folder`` (as :func:`build` writes them) written under ``out`` with each
    photo decoded and saved once more as a JPEG of ``quality``, its labels as they were; how many
    photos each set holds."""
    import cv2
    import numpy as np

    counts = {}
    for labels in sorted(folder.glob("*/labels.json")):
        photos = json.loads(labels.read_text())
        items = []
        for file, photo in photos.items():
            img = cv2.imdecode(np.frombuffer((labels.parent / file).read_bytes(), np.uint8), cv2.IMREAD_COLOR)
            if img is None:
                raise ValueError(f"{labels.parent / file} is no photo OpenCV can decode: build the sets again")
            jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
            items.append((photo["name"], jpeg.tobytes(), photo["labels"]))
        _save(out / labels.parent.name, items, {p["name"]: p.get("hand") for p in photos.values()})
        counts[labels.parent.name] = len(items)
    return counts


def score(labels: list[str], read: list[str]) -> tuple[int, int]:
    """Tiles missed and tiles extra: ``read`` against ``labels`` as multisets."""
    want, got = Counter(labels), Counter(read)
    return sum((want - got).values()), sum((got - want).values())


def summary(rows: list[dict]) -> dict:
    """A set's readings (``read``'s rows) summed up: photos, tiles, missed, extra, exact photos,
    readings shown sure (rows that record them) and those that are wrong, median ms; and of the
    photos whose hand is known (``hand``), how many had exactly the hand's tiles marked as the
    hand (``hand_read``, as multisets)."""
    scored = [score(r["labels"], r["read"]) for r in rows]
    known = [r for r in rows if r.get("hand") is not None]
    return {
        "photos": len(rows),
        "tiles": sum(len(r["labels"]) for r in rows),
        "missed": sum(m for m, _ in scored),
        "extra": sum(e for _, e in scored),
        "exact": sum(m == e == 0 for m, e in scored),
        "sure": sum(r.get("sure", 0) for r in rows),
        "sure_wrong": sum(r["sure_wrong"] for r in rows),
        "median_ms": statistics.median(r["ms"] for r in rows) if rows else 0.0,
        "hand_photos": len(known),
        "hand_exact": sum(score(r["hand"], r["hand_read"]) == (0, 0) for r in known),
    }


def read(folder: Path, sets: list[str]) -> dict[str, list[dict]]:
    """Every photo of ``sets`` under ``folder`` read by the recogniser: per set, one row per photo
    (its file, name, labels, reading, readings shown sure and those wrong at least, ms; the hand's
    labels where the set knows them, and the tiles the recognition marks as the hand)."""
    from training.evaluate import sure_wrong_unordered
    from vision.classifier import get_classifier
    from vision.recognize import recognize

    clf = get_classifier()
    out: dict[str, list[dict]] = {}
    for name in sets:
        labels = json.loads((folder / name / "labels.json").read_text())
        rows = []
        for file, photo in labels.items():
            rec = recognize((folder / name / file).read_bytes(), classifier=clf)
            rows.append(
                {
                    "file": file,
                    "name": photo["name"],
                    "labels": photo["labels"],
                    "read": [t.code for t in rec.tiles],
                    "sure": sum(t.sure for t in rec.tiles),
                    "sure_wrong": sure_wrong_unordered(photo["labels"], rec.tiles)[0],
                    "ms": rec.timings_ms["total"],
                    "hand": photo.get("hand"),
                    "hand_read": [rec.tiles[i].code for g in rec.groups if g.get("hand") for i in g["tiles"]],
                }
            )
        out[name] = rows
    return out


def differences(a: dict[str, list[dict]], b: dict[str, list[dict]]) -> list[str]:
    """The photos whose tiles missed or extra differ between two readings of the same sets, a line
    each: set, file, and the tiles missed and extra in each; and, where the hand is known in both,
    the photos whose hand's tiles marked as not the hand, or other tiles marked as the hand, differ."""
    lines = []
    for name in (n for n in a if n in b):
        for ra, rb in zip(a[name], b[name]):
            ta, tb = (_tiles_wrong(r["labels"], r["read"]) for r in (ra, rb))
            if ta != tb:
                lines.append(
                    f"{name} {ra['file']}: missed [{ta[0]}] extra [{ta[1]}] -> missed [{tb[0]}] extra [{tb[1]}]"
                )
            if ra.get("hand") is None or rb.get("hand") is None:
                continue
            ha, hb = (_tiles_wrong(r["hand"], r["hand_read"]) for r in (ra, rb))
            if ha != hb:
                lines.append(
                    f"{name} {ra['file']}: hand missed [{ha[0]}] extra [{ha[1]}] -> missed [{hb[0]}] extra [{hb[1]}]"
                )
    return lines


def _tiles_wrong(labels: list[str], read: list[str]) -> tuple[str, str]:
    want, got = Counter(labels), Counter(read)
    return " ".join(sorted((want - got).elements())), " ".join(sorted((got - want).elements()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write the sets")
    b.add_argument("folder", type=Path)
    g = sub.add_parser("again", help="write the sets once more, each photo saved again as a JPEG")
    g.add_argument("folder", type=Path)
    g.add_argument("out", type=Path)
    g.add_argument("--quality", type=int, default=AGAIN_QUALITY)
    r = sub.add_parser("read", help="read the sets, write every photo's reading")
    r.add_argument("folder", type=Path)
    r.add_argument("out", type=Path)
    r.add_argument("sets", nargs="*", default=list(SETS))
    d = sub.add_parser("diff", help="the photos two readings differ on")
    d.add_argument("a", type=Path)
    d.add_argument("b", type=Path)
    args = ap.parse_args(argv)
    if args.command == "build":
        for name, n in build(args.folder).items():
            print(f"{name}: {n} photos")
    elif args.command == "again":
        counts = again(args.folder, args.out, args.quality)
        if not counts:
            print(f"no sets under {args.folder}: run 'python -m training.ab build {args.folder}' first")
            return 2
        for name, n in counts.items():
            print(f"{name}: {n} photos")
    elif args.command == "read":
        missing = [s for s in args.sets if not (args.folder / s / "labels.json").exists()]
        if missing:
            print(
                f"no set {', '.join(missing)} under {args.folder}: run 'python -m training.ab build {args.folder}' first"
            )
            return 2
        readings = read(args.folder, args.sets)
        args.out.write_text(json.dumps(readings))
        for name, rows in readings.items():
            s = summary(rows)
            print(
                f"{name:6s} {s['photos']:3d} photos {s['tiles']:5d} tiles: missed {s['missed']:4d} extra {s['extra']:4d} "
                f"exact {s['exact']:3d} sure {s['sure']:4d}, wrong {s['sure_wrong']} median {s['median_ms']:.0f} ms"
                + (f"; hand exact {s['hand_exact']} of {s['hand_photos']}" if s["hand_photos"] else "")
            )
    else:
        a, b_ = (json.loads(p.read_text()) for p in (args.a, args.b))
        print("\n".join(differences(a, b_)) or "no photo differs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
