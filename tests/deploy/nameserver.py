"""A tiny DNS server for the proxy tests: it answers A queries for the names it is given, with
the addresses they have at that moment, as a container engine's DNS answers for the containers
that are running (a stopped one's address is gone from the answer).

Only what nginx's resolver asks: one question, type A, class IN, over UDP. Every other name
gets NXDOMAIN."""

from __future__ import annotations

import socket
import struct
import threading

A, IN = 1, 1
NXDOMAIN = 3


def read_name(packet: bytes, at: int) -> tuple[str, int]:
    """The dotted name at ``at`` (no compression: a question is never compressed)."""
    labels = []
    while packet[at]:
        length = packet[at]
        labels.append(packet[at + 1:at + 1 + length].decode("ascii").lower())
        at += 1 + length
    return ".".join(labels), at + 1


class NameServer:
    """Serves ``names`` (name -> list of IPv4 addresses, changed at will) on a free UDP port of
    127.0.0.1, from a daemon thread, until ``close``."""

    def __init__(self, names: dict[str, list[str]]) -> None:
        self.names = names
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self.thread = threading.Thread(target=self.serve, name="nameserver", daemon=True)
        self.thread.start()

    def answer(self, query: bytes) -> bytes:
        ident, _flags, questions = struct.unpack(">HHH", query[:6])
        name, end = read_name(query, 12)
        qtype, qclass = struct.unpack(">HH", query[end:end + 4])
        question = query[12:end + 4]
        addresses = list(self.names.get(name, ())) if (qtype, qclass) == (A, IN) else []
        known = name in self.names
        flags = 0x8400 | (0 if known else NXDOMAIN)  # a response, authoritative
        header = struct.pack(">HHHHHH", ident, flags, questions, len(addresses), 0, 0)
        records = b"".join(struct.pack(">HHHIH", 0xC00C, A, IN, 1, 4) + socket.inet_aton(ip)
                           for ip in addresses)  # 0xC00C: the name of the question
        return header + question + records

    def serve(self) -> None:
        while True:
            try:
                query, peer = self.sock.recvfrom(512)
            except OSError:
                return  # closed
            try:
                self.sock.sendto(self.answer(query), peer)
            except (IndexError, struct.error, UnicodeDecodeError, OSError):
                continue  # not a query this server understands: no answer

    def close(self) -> None:
        self.sock.close()
