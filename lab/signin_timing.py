"""Sign-in answer time for names nobody has and for wrong passwords (issue 47, finding 7):
medians and p90 of each, to see that an answer tells nothing of which names exist.

    python -m lab signin_timing --each 100

The server's app runs in this process (Starlette's TestClient, its lifespan and all) on
a temporary SQLite file, with the real Argon2 cost (64 MiB, 3 passes) and the sign-in
limits raised through its config (``signin_per_address`` and the others) so that no
attempt is refused with 429: the defaults stop one address after 30 failures. One
account is registered; then unknown names and wrong passwords for that account
alternate, ``--each`` of each, each timed from the request to its 401 answer.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from starlette.testclient import TestClient

from cardtable.online import create_app
from cardtable.server.ops.config import ServerConfig

ORIGIN = "http://testserver"
PASSWORD = "correct horse battery"
#: Far over what the run asks: every attempt is answered, never limited.
UNLIMITED = 1_000_000


def _config(data_dir: Path) -> ServerConfig:
    return ServerConfig(
        data_dir=data_dir,
        allowed_hosts=("testserver",),
        signin_per_address=UNLIMITED,
        signin_per_name=UNLIMITED,
        signins_per_address=UNLIMITED,
        signins_per_account=UNLIMITED,
        register_per_address=UNLIMITED,
        session_reads_burst=UNLIMITED,
        rate_burst=UNLIMITED,
        rate_per_second=float(UNLIMITED),
    )


def _timed(http: TestClient, name: str, password: str) -> float:
    began = time.perf_counter()
    answer = http.post("/api/account/signin", json={"name": name, "password": password})
    elapsed = time.perf_counter() - began
    if answer.status_code != 401:
        raise SystemExit(f"expected 401, got {answer.status_code}: {answer.text}")
    return elapsed


def _p90(values: Sequence[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def measure(each: int) -> dict[str, list[float]]:
    """Seconds of each answer: ``unknown`` names and ``wrong`` passwords, alternated."""
    times: dict[str, list[float]] = {"unknown": [], "wrong": []}
    with tempfile.TemporaryDirectory(prefix="signin-timing-") as folder:
        app = create_app(_config(Path(folder)))
        with TestClient(app, headers={"Origin": ORIGIN}) as http:
            body = {"name": "Bench", "password": PASSWORD}
            registered = http.post("/api/account/register", json=body)
            if registered.status_code != 201:
                raise SystemExit(f"could not register: {registered.text}")
            http.cookies.clear()
            _timed(http, "Warm Up", PASSWORD)  # the first hash pays the thread's start
            for index in range(each):
                times["unknown"].append(_timed(http, f"Nobody {index}", PASSWORD))
                times["wrong"].append(_timed(http, "Bench", f"not it {index}"))
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--each", type=int, default=100, help="attempts of each kind")
    args = parser.parse_args(argv)
    if args.each < 2:
        parser.error("--each is at least 2 (a p90 needs two values)")
    times = measure(args.each)
    print(f"{'answer':<16} {'n':>4} {'median ms':>10} {'p90 ms':>8} {'min ms':>7} {'max ms':>7}")
    for kind, label in (("unknown", "unknown name"), ("wrong", "wrong password")):
        values = times[kind]
        print(
            f"{label:<16} {len(values):>4} {statistics.median(values) * 1000:>10.1f}"
            f" {_p90(values) * 1000:>8.1f} {min(values) * 1000:>7.1f} {max(values) * 1000:>7.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
