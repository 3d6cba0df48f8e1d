"""`referee hall`: serve the hall page from a broker, mark a round, export a round."""
from __future__ import annotations

import hashlib
import logging
import os
import secrets
import signal
import sys
import threading
from pathlib import Path

from .store import HallStore


def cmd_hall(args) -> int:
    if args.action == "round":
        return _mark_round(args)
    if args.action == "export":
        return _export(args)
    if not args.broker:
        print("referee hall: --broker HOST is needed to serve the hall", file=sys.stderr)
        return 2
    return serve_hall(args)


def _store(args, must_exist: bool) -> HallStore | None:
    path = Path(args.data) / "hall.sqlite"
    if must_exist and not path.exists():
        print(f"referee hall: {path}: no hall journal here (run `referee hall --broker HOST "
              f"--data {args.data}` first)", file=sys.stderr)
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    return HallStore(path)


def _mark_round(args) -> int:
    if args.number is None or args.number < 1:
        print("referee hall round N: give the round's number (1 or more)", file=sys.stderr)
        return 2
    store = _store(args, must_exist=False)
    store.mark_round(args.number)
    store.close()
    print(f"round {args.number} starts now: games started from now on belong to it")
    return 0


def _export(args) -> int:
    from .export import write_round

    store = _store(args, must_exist=True)
    if store is None:
        return 1
    try:
        files, problems = write_round(store, args.round, args.out)
    except KeyError as exc:
        print(f"referee hall export: {exc.args[0]}", file=sys.stderr)
        return 1
    finally:
        store.close()
    for problem in problems:
        print(f"referee hall export: {problem}", file=sys.stderr)
    print("\n".join(files))
    return 0


def serve_hall(args) -> int:
    """The hall's MQTT client and its page under waitress, until Ctrl-C or SIGTERM."""
    from waitress import create_server

    from web import close_streams
    from web.hall import create_hall_app

    from .receiver import Hall

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    # the broker keeps the hall's session (what arrives while it restarts) under this id: the
    # same for the same data folder, another for a second hall beside it
    client_id = "referee-hall-" + hashlib.sha1(str(Path(args.data).resolve()).encode()).hexdigest()[:8]
    hall = Hall(args.data, args.broker, args.port, username=args.username, client_id=client_id,
                password=os.environ.get("REFEREE_HALL_PASSWORD", ""), tls=args.tls, ca_file=args.ca_file).start()
    token = args.token or secrets.token_urlsafe(12)
    app = create_hall_app(hall, token)
    server = create_server(app, host=args.host, port=args.http_port, threads=8)

    def stop(*_):
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop)
    host = args.host if args.host != "0.0.0.0" else "127.0.0.1"
    print(f"hall page: http://{host}:{server.effective_port}/  (admin: "
          f"http://{host}:{server.effective_port}/?token={token})", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        close_streams(app)
        server.task_dispatcher.shutdown(timeout=2)
        server.close()
        hall.close()
    return 0
