"""The page's server: waitress over the Flask app, and the `referee serve` and `referee
demo` commands that run a Service behind it. The controller never imports web; this
module (the top of the picture) wires the two together.
"""
from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time

from waitress import create_server

from controller.config import ConfigError, load
from controller.service import Service

from . import close_streams, create_app


def serve(service: Service, host: str, port: int, threads: int,
          until: threading.Event | None = None) -> None:
    """Serve the page with waitress until Ctrl-C, SIGTERM or `until` is set, then shut
    down in order: open event streams first (each holds a server thread), then the
    server, then the service (whose journal closes after the last event is written)."""
    app = create_app(service)
    server = create_server(app, host=host, port=port, threads=threads)

    def stop(*_):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    if until is not None:
        threading.Thread(target=lambda: (until.wait(), time.sleep(1.0), os.kill(os.getpid(), signal.SIGTERM)),
                         daemon=True).start()
    service.start()
    print(f"status page: http://{host if host != '0.0.0.0' else '127.0.0.1'}:{server.effective_port}/  "
          f"(admin token: {service.admin_token})", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        close_streams(app)
        server.task_dispatcher.shutdown(timeout=2)
        server.close()
        service.stop()


def cmd_serve(args) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"referee serve: {exc}", file=sys.stderr)
        return 2
    try:
        service = Service(config)
    except Exception as exc:  # start-up faults (camera, pins) are reported, not dumped
        print(f"referee serve: cannot start: {exc}", file=sys.stderr)
        return 1
    serve(service, config.web.host, config.web.port, config.web.threads)
    return 0


def cmd_demo(args) -> int:
    from controller.demo import run_demo

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    return run_demo(args, serve)
