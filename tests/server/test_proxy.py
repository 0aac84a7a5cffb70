"""Behind a reverse proxy: `cardtable serve` counts rooms per client by X-Forwarded-For
when the proxy's address is trusted (--forwarded-allow-ips), and ignores it otherwise."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from cardtable.bench.loadtest_server import spawned_server


def _create(base: str, forwarded_for: str) -> int:
    request = urllib.request.Request(
        f"{base}/api/rooms",
        json.dumps({"game": "skyjo", "options": {"players": 2}}).encode(),
        {"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


@pytest.mark.parametrize(
    ("options", "other_client"),
    [
        (["--forwarded-allow-ips", "127.0.0.1"], 201),  # the proxy on loopback is trusted
        (["--forwarded-allow-ips", "192.0.2.7"], 429),  # loopback is not the proxy
        (["--no-proxy-headers"], 429),
    ],
)
def test_rooms_per_client_count_the_forwarded_address_only_from_a_trusted_proxy(
    options, other_client
):
    with spawned_server(0, ["--rooms-per-client", "1", *options]) as (base, _pid):
        assert _create(base, "203.0.113.1") == 201
        assert _create(base, "203.0.113.1") == 429
        assert _create(base, "203.0.113.2") == other_client
