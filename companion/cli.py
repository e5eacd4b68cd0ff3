"""The ``mjc`` command line: ``score``, ``waits``, ``recognize``, ``serve``, ``check``, ``backup``,
``restore``.

``mjc score [FILE]`` and ``mjc waits [FILE]`` read the JSON contract (see :mod:`engine.contract`)
from FILE or standard input and print JSON; exit status 0 on success, 1 when the rules refuse the
hand, 2 on malformed input. ``mjc recognize PHOTO… [--json] [--finder learned|classical]``
reads tiles from photos.
``mjc serve`` starts the companion server. ``mjc check`` reports the data folder's integrity,
``mjc backup DEST`` copies it while the server may run, ``mjc restore SRC`` puts a checked backup
back (see :mod:`companion.care`): exit status 0 done, 1 the ledger or backup is damaged, 2 it
cannot be done as asked (an unusable folder, a server running); problems are one line on stderr.
``--database-url`` (or ``MJC_DATABASE_URL``) puts the ledger in PostgreSQL for ``serve`` and
``check``; ``backup`` and ``restore`` then refuse, naming ``pg_dump`` (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from engine import contract

from . import jsonlimits
from .storage import ENV_URL

DATABASE_URL_HELP = (
    "keep the ledger and photos in this PostgreSQL database (postgresql://USER:PASSWORD@HOST:PORT/DBNAME) "
    f"instead of SQLite under --data-dir; several servers may share it (also {ENV_URL}; docs/deploy.md)"
)


def _read_json(path: str | None) -> tuple[object, dict | None]:
    """The contract document in ``path`` (or standard input), read within the API's limits
    (:mod:`companion.jsonlimits`): at most ``CONTRACT_BYTES``, no NaN, no lone surrogates, …"""
    try:
        if path in (None, "-"):
            data = sys.stdin.buffer.read(jsonlimits.CONTRACT_BYTES + 1)
        else:
            with open(path, "rb") as fh:
                data = fh.read(jsonlimits.CONTRACT_BYTES + 1)
    except OSError as err:
        return None, _problem("cannot_read", f"cannot read {path}: {err.strerror}")
    if len(data) > jsonlimits.CONTRACT_BYTES:
        return None, _problem(
            "too_large", f"the input is over {jsonlimits.CONTRACT_BYTES} bytes; a hand takes far less"
        )
    try:
        return jsonlimits.loads(data), None
    except jsonlimits.JsonLimitError as err:
        problem = _problem("bad_json", err.message)
        if err.field:
            problem["error"]["field"] = err.field
        return None, problem


def _problem(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


def _run_contract(fn, path: str | None) -> int:
    payload, problem = _read_json(path)
    result = problem or fn(payload)
    code = 2 if problem else contract.exit_code(result)
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return code


def _recognize(paths: Sequence[str], as_json: bool, finder: str | None = None) -> int:
    from vision import recognize
    from vision.errors import ImageError

    outputs: list[dict[str, Any]] = []
    status = 0
    for path in paths:
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as err:
            outputs.append(
                {
                    "photo": path,
                    "ok": False,
                    "error": {"code": "cannot_read", "message": f"cannot read {path}: {err.strerror}"},
                }
            )
            status = 2
            continue
        try:
            rec = recognize(data, finder=finder)
        except ImageError as err:
            outputs.append({"photo": path, "ok": False, "error": err.to_dict()})
            status = 2
            continue
        outputs.append(
            {"photo": path, "ok": True, **rec.to_dict()} if as_json else {"photo": path, "text": rec.to_text()}
        )
    if as_json:
        print(json.dumps(outputs if len(outputs) != 1 else outputs[0], ensure_ascii=False, indent=2))
    else:
        for out in outputs:
            print(f"== {out['photo']}")
            print(out.get("text") or f"error: {out['error']['message']}")
    return status


def _care(args: argparse.Namespace) -> int:
    """``mjc check``, ``backup`` or ``restore``: the report on stdout, a problem as one line on stderr."""
    from . import care

    try:
        if args.database_url:
            lines = care.database_care(args.command, args.database_url)
        elif args.command == "check":
            lines = care.check(args.data_dir)
        elif args.command == "backup":
            lines = care.backup(args.data_dir, args.dest)
        else:
            lines = care.restore(args.data_dir, args.src)
    except care.CareError as err:
        print(f"mjc {args.command}: {err}", file=sys.stderr)
        return err.status
    print("\n".join(lines))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mjc", description="Mahjong table companion")
    sub = parser.add_subparsers(dest="command", required=True)
    p_score = sub.add_parser("score", help="score a won hand (JSON in, JSON out)")
    p_score.add_argument("file", nargs="?", help="JSON file (default: standard input)")
    p_waits = sub.add_parser("waits", help="list the tiles that complete a hand one tile short")
    p_waits.add_argument("file", nargs="?", help="JSON file (default: standard input)")
    p_rec = sub.add_parser("recognize", help="read the tiles in photos")
    p_rec.add_argument("photos", nargs="+")
    p_rec.add_argument("--json", action="store_true", help="print JSON")
    p_rec.add_argument(
        "--finder",
        choices=["learned", "classical"],
        default=None,
        help="tile finder (default: the learned one when its model ships)",
    )
    p_serve = sub.add_parser("serve", help="start the companion server")
    p_serve.add_argument("--host", default="0.0.0.0")
    p_serve.add_argument("--port", type=int, default=8080)
    p_serve.add_argument("--data-dir", default="data")
    p_serve.add_argument("--database-url", default=os.environ.get(ENV_URL), help=DATABASE_URL_HELP)
    p_serve.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers to besides localhost, IP addresses and this machine's name "
        "(repeat for several; also MJC_ALLOWED_HOSTS=a,b)",
    )
    p_serve.add_argument(
        "--https",
        action="store_true",
        help="also serve HTTPS (for the tablet's live camera) with a local certificate authority kept in the "
        "data folder; the page /https explains how to trust it",
    )
    p_serve.add_argument("--https-port", type=int, default=8443, help="the HTTPS port (default 8443)")
    p_serve.add_argument(
        "--camera",
        metavar="SOURCE",
        help="a camera above the table for the page: an OpenCV device number (0), a video file or a stream URL",
    )
    p_check = sub.add_parser("check", help="check the data folder's ledger (exit 0 sound, 1 damaged)")
    p_backup = sub.add_parser("backup", help="copy the ledger and its photos into a new folder (server may run)")
    p_backup.add_argument("dest", help="a new or empty folder")
    p_restore = sub.add_parser("restore", help="put a backup back (checked first; the server must be stopped)")
    p_restore.add_argument("src", help="a folder made by `mjc backup`, or a ledger file")
    for p in (p_check, p_backup, p_restore):
        p.add_argument("--data-dir", default="data")
        p.add_argument("--database-url", default=os.environ.get(ENV_URL), help=DATABASE_URL_HELP)
    args = parser.parse_args(argv)
    if args.command in ("check", "backup", "restore"):
        return _care(args)
    if args.command == "score":
        return _run_contract(contract.score, args.file)
    if args.command == "waits":
        return _run_contract(contract.waits, args.file)
    if args.command == "recognize":
        return _recognize(args.photos, args.json, args.finder)
    from .server import serve

    return serve(
        host=args.host,
        port=args.port,
        data_dir=args.data_dir,
        hosts=args.allow_host,
        https_port=args.https_port if args.https else None,
        camera=args.camera,
        database_url=args.database_url,
    )
