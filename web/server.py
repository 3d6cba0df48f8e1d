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
import threading
import time

from waitress import create_server

from controller.allocator import settle
from controller.cli import failed
from controller.config import ConfigError, load
from controller.i18n import N_, Said, said, translator
from controller.service import Service

from . import close_streams, create_app
from .addresses import listening_line
from .connections import GuardedChannel, server_options


class ServeError(Said):
    """The page cannot be served (the port is taken, the address is not this machine's):
    one line, what is wrong and what to try (`said(_)` in a language)."""


def listen_problem(exc: OSError, host: str, port: int) -> ServeError:
    """The error of a failed listen."""
    why = exc.strerror or exc
    if exc.errno == errno.EADDRINUSE:
        return (ServeError(N_("port {port} is in use: try --port {next}"), port=port, next=port + 1) if port
                else ServeError(N_("no free port ({why})"), why=why))
    if exc.errno == errno.EADDRNOTAVAIL or isinstance(exc, socket.gaierror):
        return ServeError(N_("host {host!r} is not an address of this machine ({why}): use 0.0.0.0 for every "
                             "network or 127.0.0.1 for this machine only"), host=host, why=why)
    if exc.errno == errno.EACCES:
        return ServeError(N_("port {port} needs root: use a port above 1023 (the default is 8000)"), port=port)
    return ServeError(N_("cannot listen on {host}:{port}: {why}"), host=host, port=port, why=why)


def open_server(app, host: str, port: int, threads: int):
    """A waitress server for `app` (the page's or the hall's), listening, with the limits
    of web/connections.py; ServeError with one line when it cannot listen."""
    try:
        # the look-ahead lets waitress notice a client that went away while its event
        # stream waits (web/stream.py), so its thread and slot come back at once
        server = create_server(app, host=host, port=port, threads=threads, channel_request_lookahead=1,
                               **server_options())
    except OSError as exc:
        raise listen_problem(exc, host, port) from None
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
    _ = translator(service.config.table.language)
    token = "  " + _("(admin token: {token})", token=service.admin_token) if service.token_generated else ""
    print(listening_line(_("status page"), host, server.effective_port, _) + token, flush=True)
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
        return failed(args, exc)
    if getattr(args, "port", None) is not None:
        config.web.port = args.port
    if getattr(args, "lang", None):
        config.table.language = args.lang
    _ = translator(config.table.language)
    if config.camera.source == "synthetic":
        return failed(args, _("{path}: [camera] source is \"synthetic\" (the default), the demo's drawn table, "
                              "which only `referee demo` shows; set it to \"picamera2\", a device number such as "
                              "\"0\", a video file or a folder of images", path=config.path))
    die_module = None
    if config.die_module.port == "sim":  # the firmware simulator stands in for the module
        from controller.demo_rig.module import SimulatedModule

        die_module = SimulatedModule(roll_ms=400)
    try:
        service = Service(config, die_module=die_module)
    except Exception as exc:  # start-up faults (camera, pins) are reported, not dumped
        failed(args, _("cannot start: {error}", error=said(exc, _)))
        return 1
    try:
        serve(service, config.web.host, config.web.port, config.web.threads)
    except ServeError as exc:
        failed(args, exc)
        return 1
    return 0


def cmd_demo(args) -> int:
    from controller.demo import run_demo

    settle()  # runs for a season, as serve does
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        return run_demo(args, serve)
    except ServeError as exc:  # the port is taken: one line, not a traceback
        return failed(args, exc)
