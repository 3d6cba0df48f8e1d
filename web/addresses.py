"""Where a page listening on `host` can be reached, for the line `serve`, `demo` and
`hall` print at start.

`0.0.0.0` means every network this machine is on: printing `http://127.0.0.1:...` for
it would hide that the page is open to the whole network, and give the phones at the
table no address they could use. So every IPv4 address of every
interface is listed, read from the kernel (SIOCGIFADDR, Linux: the Pi's system); a
named host is printed as it is.
"""
from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct

SIOCGIFADDR = 0x8915
ANY = ("0.0.0.0", "")


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses, loopback first."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _index, name in socket.if_nameindex():
            try:
                answer = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # an interface without an IPv4 address
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return sorted(set(found), key=lambda a: (not ipaddress.ip_address(a).is_loopback, ipaddress.ip_address(a)))


def page_urls(host: str, port: int) -> list[str]:
    """Every http:// address of a page listening on `host`:`port`."""
    hosts = interface_addresses() if host in ANY else [host]
    return [f"http://[{h}]:{port}/" if ":" in h else f"http://{h}:{port}/" for h in hosts or ["127.0.0.1"]]


def listening_line(what: str, host: str, port: int, _) -> str:
    """`what: URL  URL ...`, saying so when the page is open to every network; `what` (the
    page's name) and the words in the language of the translator `_` (controller/i18n.py)."""
    where = "  " + _("(listening on every network of this machine)") if host in ANY else ""
    return _("{page}: {urls}", page=what, urls="  ".join(page_urls(host, port))) + where
