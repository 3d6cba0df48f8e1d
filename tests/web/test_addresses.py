"""The line `serve`, `demo` and `hall` print at start (web/addresses.py): on every network
(0.0.0.0) it lists every IPv4 address of this machine, each one a phone on that network
could open, and says the page is open to every network; a named host is printed as it
is. The commands themselves print it in tests/web/test_listening.py."""
import ipaddress
import socket

from controller.i18n import translator
from web.addresses import interface_addresses, listening_line, page_urls


def test_this_machine_s_addresses_are_its_own_loopback_first():
    found = interface_addresses()
    assert found[0] == "127.0.0.1" and len(found) == len(set(found))
    for address in found:  # each is an address of this machine: a socket can listen on it
        assert ipaddress.ip_address(address).version == 4
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind((address, 0))


def test_every_network_lists_every_address_and_says_so():
    line = listening_line("status page", "0.0.0.0", 8080, translator())
    urls = [f"http://{a}:8080/" for a in interface_addresses()]
    assert line == "status page: " + "  ".join(urls) + "  (listening on every network of this machine)"
    assert page_urls("", 8080) == urls  # waitress's empty host is every network too


def test_a_named_host_is_printed_as_it_is_and_an_ipv6_one_in_brackets():
    assert listening_line("hall page", "192.168.1.20", 8090, translator()) == "hall page: http://192.168.1.20:8090/"
    assert page_urls("referee.local", 80) == ["http://referee.local:80/"]
    assert page_urls("::1", 8080) == ["http://[::1]:8080/"]
    assert "every network" not in listening_line("hall page", "127.0.0.1", 1, translator())
