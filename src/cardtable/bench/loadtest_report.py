"""The load test's report as a plain two-column table (``cardtable loadtest``'s output)."""

from __future__ import annotations

from typing import Any


def _sched_text(sched: dict[str, float] | None) -> str:
    if sched is None:
        return "n/a"
    return f"{sched['on_cpu_s']} s on CPU, {sched['waiting_s']} s waiting for a CPU"


def _handover_text(report: dict[str, Any]) -> str:
    def counts(counter: dict[str, int]) -> str:
        return ", ".join(f"{key} {value}" for key, value in counter.items()) or "none"

    return (
        f"reconnects {sum(report['reconnects'].values())} (by close code: "
        f"{counts(report['reconnects'])}); notices: {counts(report['handover_notices'])}; "
        f"moves not played in a hand-over {report['moves_dropped_in_handover']}"
    )


def format_report(report: dict[str, Any]) -> str:
    """The report as a plain two-column table."""

    def text(value: Any) -> str:
        return "n/a" if value is None else str(value)

    def latency(key: str) -> str:
        data = report[key]
        parts = [f"{name} {text(data[f'{name}_ms'])}" for name in ("p50", "p95", "p99", "max")]
        return f"{', '.join(parts)} ms ({data['count']} moves)"

    rss = report["server_rss_mib"]
    rows = [
        ("client", report.get("client", "python")),
        ("server", report["url"]),
        ("rooms ready", f"{report['rooms_ready']} of {report['rooms']} ({report['game']})"),
        ("connections", text(report["connections"])),
        ("setup", f"{report['setup_s']} s"),
        ("duration", f"{report['duration_s']} s at {report['rate_per_room']} move/s per room"),
        ("moves sent / acked", f"{report['moves_sent']} / {report['moves_acked']}"),
        ("moves per second", text(report["moves_per_s"])),
        ("games finished", text(report["games_finished"])),
        ("latency (mover)", latency("latency_mover")),
        ("latency (all seats)", latency("latency_all_seats")),
        ("errors", text(report["errors"])),
        ("lost moves", text(report["lost_moves"])),
    ]
    if report.get("reconnects") or report.get("handover_notices"):
        rows.append(("hand-overs", _handover_text(report)))
    rows += [
        (
            "server RSS (MiB)",
            f"idle {text(rss['idle'])}, rooms ready {text(rss['rooms_ready'])}, "
            f"peak {text(rss['peak'])}, end {text(rss['end'])}",
        ),
        (
            "CPU during play",
            f"server {text(report['cpu_s_during_play']['server'])} s, "
            f"load test {text(report['cpu_s_during_play']['loadtest'])} s",
        ),
        (
            "server CPU per move",
            f"{text(report.get('server_cpu_ms_per_move'))} ms (all its threads, "
            f"{text(report.get('server_threads_cpu_s'))} s)",
        ),
        (
            "event loop threads",
            f"server {_sched_text(report['main_thread_sched']['server'])}; "
            f"load test {_sched_text(report['main_thread_sched']['loadtest'])}",
        ),
        (
            "load average",
            f"before {' '.join(map(str, report['loadavg_before']))}, "
            f"after {' '.join(map(str, report['loadavg_after']))} ({report['cpus']} CPUs)",
        ),
    ]
    if report.get("bot_rooms"):
        rows.insert(
            3,
            (
                "bot rooms",
                f"{report['bot_rooms_ready']} of {report['bot_rooms']} ({report['bot']}), "
                f"{text(report['bot_moves_during_play'])} bot moves during play",
            ),
        )
    for kind, count in report["error_kinds"].items():
        rows.append((f"  {kind}", str(count)))
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)
