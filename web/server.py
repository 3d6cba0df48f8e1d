"""The page's server: waitress over the Flask app, and the `referee serve` and `referee
demo` commands that run a Service behind it. The controller never imports web; this
module (the top of the picture) wires the two together.
"""
from __future__ import annotations

import errno
import logging
import os
import signal
import socket
import sys
import threading
import time

from waitress import create_server

from controller.allocator import settle
from controller.config import ConfigError, load
from controller.service import Service

from . import close_streams, create_app
from .addresses import listening_line
from .connections import GuardedChannel, server_options


class ServeError(Exception):
    """The page cannot be served (the port is taken, the address is not this machine's)."""


def listen_problem(exc: OSError, host: str, port: int) -> str:
    """One line for a failed listen: what is wrong and what to try."""
    if exc.errno == errno.EADDRINUSE:
        return f"port {port} is in use: try --port {port + 1}" if port else f"no free port ({exc.strerror})"
    if exc.errno == errno.EADDRNOTAVAIL or isinstance(exc, socket.gaierror):
        return (f"host {host!r} is not an address of this machine ({exc.strerror or exc}): "
                "use 0.0.0.0 for every network or 127.0.0.1 for this machine only")
    if exc.errno == errno.EACCES:
        return f"port {port} needs root: use a port above 1023 (the default is 8000)"
    return f"cannot listen on {host}:{port}: {exc.strerror or exc}"


def open_server(app, host: str, port: int, threads: int):
    """A waitress server for `app` (the page's or the hall's), listening, with the limits
    of web/connections.py; ServeError with one line when it cannot listen."""
    try:
        # the look-ahead lets waitress notice a client that went away while its event
        # stream waits (web/stream.py), so its thread and slot come back at once
        server = create_server(app, host=host, port=port, threads=threads, channel_request_lookahead=1,
                               **server_options())
    except OSError as exc:
        raise ServeError(listen_problem(exc, host, port)) from None
    server.channel_class = GuardedChannel
    return server


def run_server(server, app, until: threading.Event | None = None) -> None:
    """Run until Ctrl-C, SIGTERM or `until` is set; then end the open event streams
    first (each holds a server thread), then the server. The caller closes what the
    page showed (the service, the hall) after this returns."""
    def stop(*_):
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop)
    if until is not None:
        threading.Thread(target=lambda: (until.wait(), time.sleep(1.0), os.kill(os.getpid(), signal.SIGTERM)),
                         daemon=True).start()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        close_streams(app)
        server.task_dispatcher.shutdown(timeout=2)
        server.close()


def serve(service: Service, host: str, port: int, threads: int,
          until: threading.Event | None = None) -> None:
    """Serve the page until Ctrl-C, SIGTERM or `until` is set, then shut down in order:
    the server (run_server), then the service (whose journal closes after the last event
    is written)."""
    app = create_app(service)
    try:
        server = open_server(app, host, port, threads)
    except ServeError:
        service.stop()
        raise
    service.start()
    # a token from the config is not printed: the output ends up in the system log
    token = f"  (admin token: {service.admin_token})" if service.token_generated else ""
    print(listening_line("status page", host, server.effective_port) + token, flush=True)
    service.systemd.ready(f"serving on port {server.effective_port}")
    try:
        run_server(server, app, until)
    finally:
        service.systemd.stopping()
        service.stop()


def cmd_serve(args) -> int:
    settle()  # runs for a season: before any thread starts (controller/allocator.py)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"referee serve: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "port", None) is not None:
        config.web.port = args.port
    if getattr(args, "lang", None):
        config.table.language = args.lang
    if config.camera.source == "synthetic":
        print(f"referee serve: {config.path}: [camera] source is \"synthetic\" (the default), the demo's "
              "drawn table, which only `referee demo` shows; set it to \"picamera2\", a device number "
              "such as \"0\", a video file or a folder of images", file=sys.stderr)
        return 2
    die_module = None
    if config.die_module.port == "sim":  # the firmware simulator stands in for the module
        from controller.demo_rig.module import SimulatedModule

        die_module = SimulatedModule(roll_ms=400)
    try:
        service = Service(config, die_module=die_module)
    except Exception as exc:  # start-up faults (camera, pins) are reported, not dumped
        print(f"referee serve: cannot start: {exc}", file=sys.stderr)
        return 1
    try:
        serve(service, config.web.host, config.web.port, config.web.threads)
    except ServeError as exc:
        print(f"referee serve: {exc}", file=sys.stderr)
        return 1
    return 0


def cmd_demo(args) -> int:
    from controller.demo import run_demo

    settle()  # runs for a season, as serve does
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        return run_demo(args, serve)
    except ServeError as exc:  # the port is taken: one line, not a traceback
        print(f"referee demo: {exc}", file=sys.stderr)
        return 2
