#!/usr/bin/env python3
"""operator-courier 2.1.11 pointed at a loopback app registry (operator-framework/operator-courier).

courier hard-codes its push URL (https://quay.io/cnr/api/v1/packages/<ns>/<repo>, no flag or
environment variable). This wrapper replaces the `requests` name inside operatorcourier.push
with an object whose post() rewrites the exact prefix https://quay.io to $APPR_LOCAL (default
http://127.0.0.1:5056) and refuses, before any socket is opened, any URL without that prefix and
any base whose host is not loopback (127.0.0.0/8, ::1, localhost). Then it runs courier's CLI.

    "$COURIER_PYTHON" scripts/courier_local.py --verbose push DIR NAMESPACE REPOSITORY RELEASE TOKEN
    "$COURIER_PYTHON" scripts/courier_local.py verify DIR

Nothing here prints the token.
"""
import ipaddress
import os
import sys
from urllib.parse import urlsplit

QUAY = "https://quay.io"


def loopback_base():
    base = os.environ.get("APPR_LOCAL", "http://127.0.0.1:5056").rstrip("/")
    parts = urlsplit(base)
    host = parts.hostname or ""
    ok = host == "localhost"
    try:
        ok = ok or ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    if parts.scheme not in ("http", "https") or not ok:
        sys.exit(f"courier_local: refusing APPR_LOCAL={base!r}: only loopback hosts (127.0.0.0/8, ::1, localhost) are allowed")
    return base


def main():
    base = loopback_base()
    # cli before push: the reverse order hits a circular import (manifest_parser <-> identify).
    import operatorcourier.cli as cli
    import operatorcourier.push as push
    import requests

    class LoopbackRequests:
        RequestException = requests.RequestException

        @staticmethod
        def post(url, *args, **kwargs):
            if not (url == QUAY or url.startswith(QUAY + "/")):
                raise requests.RequestException(f"courier_local: refusing a request to {url!r} (not under {QUAY})")
            return requests.post(base + url[len(QUAY):], *args, **kwargs)

    push.requests = LoopbackRequests
    cli.main()


if __name__ == "__main__":
    main()
