"""A real SMTP server for the API tests (Debian's python3-aiosmtpd), started by common/smtp.rs.

    /usr/bin/python3 smtp_server.py --port PORT --dir DIR [--cert PEM --key PEM] [--auth USER:PASS]
                                    [--implicit-tls] [--ids-only]

Keeps every message it accepts as DIR/messages/NNNNNN.json: the envelope, the raw bytes as
received, the headers and text/HTML parts as Python's e-mail parser reads them (so the tests check
what really went over the wire), and when it was accepted. The reply to DATA is whatever DIR/reply holds (for example
"451 4.3.0 Try again later" or "550 5.7.1 Not accepted here"); without that file, 250. DIR/stats.json
counts the connections: in total and most open at once. With --cert and --key, STARTTLS is
offered and required, or with --implicit-tls TLS is spoken from the first byte (smtps); with
--auth, AUTH is required (over TLS). Prints "ready" once it
accepts connections and runs until SIGTERM.

With --ids-only (scripts/bench-email.sh), it keeps only each message's Message-ID and acceptance
time, a line each in DIR/accepted.tsv: parsing and writing a file per message would make this
server, not the sender, what a benchmark on the same cores measures.
"""

import argparse
import email
import email.policy
import json
import os
import signal
import ssl
import sys
import threading
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Store:
    def __init__(self, directory):
        self.directory = directory
        self.messages = os.path.join(directory, "messages")
        os.makedirs(self.messages, exist_ok=True)
        self.lock = threading.Lock()
        # Started again on the same directory (after a simulated outage), it numbers on.
        self.count = len([n for n in os.listdir(self.messages) if n.endswith(".json")])
        self.open = 0
        self.most_open = 0
        self.connections = 0

    def reply(self):
        try:
            with open(os.path.join(self.directory, "reply")) as f:
                text = f.read().strip()
                return text or None
        except FileNotFoundError:
            return None

    def write_json(self, path, value):
        # Written whole, then renamed, so a reader never sees half a file.
        temporary = path + ".tmp"
        with open(temporary, "w") as f:
            json.dump(value, f)
        os.replace(temporary, path)

    def connection(self, change):
        with self.lock:
            self.open += change
            if change > 0:
                self.connections += 1
            self.most_open = max(self.most_open, self.open)
            stats = {"connections": self.connections, "most_open": self.most_open}
            self.write_json(os.path.join(self.directory, "stats.json"), stats)

    def keep(self, envelope):
        accepted_at = time.time()
        raw = envelope.original_content or envelope.content
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        parts = {}
        calendars = []
        for part in parsed.walk():
            kind = part.get_content_type()
            if kind == "text/calendar":
                calendars.append(
                    {
                        "method": part.get_param("method"),
                        "filename": part.get_filename(),
                        "content": part.get_content(),
                    }
                )
            elif kind in ("text/plain", "text/html") and kind not in parts:
                parts[kind] = part.get_content()
        with self.lock:
            self.count += 1
            name = os.path.join(self.messages, "%06d.json" % self.count)
            self.write_json(
                name,
                {
                    "mail_from": envelope.mail_from,
                    "rcpt_tos": envelope.rcpt_tos,
                    "raw": raw.decode("utf-8", "replace"),
                    "headers": [[k, str(v)] for k, v in parsed.items()],
                    "text": parts.get("text/plain"),
                    "html": parts.get("text/html"),
                    "calendars": calendars,
                    # Wall-clock seconds, for scripts/bench-email.sh's latency.
                    "accepted_at": accepted_at,
                },
            )


class IdsOnly:
    """Keeps a line per accepted message: its Message-ID and the wall-clock time it was accepted."""

    def __init__(self, directory):
        self.file = open(os.path.join(directory, "accepted.tsv"), "a", buffering=1)

    def reply(self):
        return None

    def keep(self, envelope):
        accepted_at = time.time()
        raw = envelope.original_content or envelope.content
        head = b"\r\n" + raw.split(b"\r\n\r\n", 1)[0]
        start = head.lower().find(b"\nmessage-id:")
        message_id = head[start + 12 :].split(b"\r\n", 1)[0].strip() if start >= 0 else b""
        self.file.write("%s\t%f\n" % (message_id.decode("ascii", "replace"), accepted_at))

    def connection(self, change):
        pass


class Handler:
    def __init__(self, store):
        self.store = store

    async def handle_DATA(self, server, session, envelope):
        reply = self.store.reply()
        if reply:
            return reply
        self.store.keep(envelope)
        return "250 2.0.0 Accepted"


def counting_smtp(store):
    class CountingSMTP(SMTP):
        def connection_made(self, transport):
            store.connection(+1)
            super().connection_made(transport)

        def connection_lost(self, error):
            store.connection(-1)
            super().connection_lost(error)

    return CountingSMTP


class TestController(Controller):
    def __init__(self, store, smtp_class, **kwargs):
        self.smtp_class = smtp_class
        super().__init__(Handler(store), **kwargs)

    def factory(self):
        return self.smtp_class(self.handler, **self.SMTP_kwargs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--auth")
    parser.add_argument("--implicit-tls", action="store_true")
    parser.add_argument("--ids-only", action="store_true")
    args = parser.parse_args()

    os.makedirs(args.dir, exist_ok=True)
    store = IdsOnly(args.dir) if args.ids_only else Store(args.dir)
    kwargs = {}
    if args.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
        if args.implicit_tls:
            kwargs.update(ssl_context=context)
        else:
            kwargs.update(tls_context=context, require_starttls=True)
    if args.auth:
        user, password = args.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = (
                isinstance(auth_data, LoginPassword)
                and auth_data.login.decode() == user
                and auth_data.password.decode() == password
            )
            # handled=False: aiosmtpd answers a failure with 535 itself.
            return AuthResult(success=ok, handled=False)

        kwargs.update(
            authenticator=authenticator,
            auth_required=True,
            # aiosmtpd counts only a STARTTLS session as encrypted; an implicit one is too.
            auth_require_tls=bool(args.cert) and not args.implicit_tls,
        )
    controller = TestController(
        store,
        counting_smtp(store),
        hostname="127.0.0.1",
        port=args.port,
        server_hostname="smtp.test",
        ready_timeout=10,
        **kwargs,
    )
    controller.start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    print("ready", flush=True)
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    sys.exit(main())
