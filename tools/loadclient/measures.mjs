/**
 * What the Node.js load client counts and reports: its players' latencies and errors,
 * the server process's CPU and memory read from /proc, and the report's text table.
 * The same measures, keys and percentiles as cardtable's Python load test
 * (cardtable.bench.loadtest_stats and loadtest_report).
 */

import fs from "node:fs";

/** Failures told on stderr as they happen; the report counts them all. */
const NOTES_SHOWN = 5;

// --- what is counted --------------------------------------------------------------

export class Stats {
  constructor() {
    this.moverLatency = []; // ms
    this.moverTimes = []; // [sent (ms since play began), latency ms]
    this.allLatency = [];
    this.errors = new Map();
    this.movesSent = 0;
    this.movesAcked = 0;
    this.gamesFinished = 0;
    this.rssSamples = [];
    this.notes = 0;
  }

  error(kind) {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
  }

  note(text) {
    this.notes += 1;
    if (this.notes <= NOTES_SHOWN) console.error(`cardtable loadtest: ${text}`);
    else if (this.notes === NOTES_SHOWN + 1) {
      console.error("cardtable loadtest: more failures follow; see the report");
    }
  }
}

/** The nearest-rank percentile of ascending `sorted` (null when empty), as in Python. */
export function percentile(sorted, fraction) {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.min(sorted.length, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1];
}

export const round = (value, places) => (value === null ? null : Number(value.toFixed(places)));

export function latencySummary(millis) {
  const sorted = Float64Array.from(millis).sort();
  return {
    count: sorted.length,
    p50_ms: round(percentile(sorted, 0.5), 2),
    p95_ms: round(percentile(sorted, 0.95), 2),
    p99_ms: round(percentile(sorted, 0.99), 2),
    max_ms: sorted.length ? round(sorted[sorted.length - 1], 2) : null,
  };
}

/** Per second of play: moves sent that second, their p50/p99/max mover latency. */
export function timeline(times) {
  const seconds = new Map();
  for (const [sent, latency] of times) {
    const second = Math.floor(sent / 1000);
    if (!seconds.has(second)) seconds.set(second, []);
    seconds.get(second).push(latency);
  }
  return [...seconds.keys()]
    .sort((a, b) => a - b)
    .map((second) => {
      const summary = latencySummary(seconds.get(second));
      return {
        second,
        moves: summary.count,
        p50_ms: summary.p50_ms,
        p99_ms: summary.p99_ms,
        max_ms: summary.max_ms,
      };
    });
}

// --- the server's process, from /proc ---------------------------------------------

export function readText(path) {
  try {
    return fs.readFileSync(path, "ascii");
  } catch {
    return null;
  }
}

export function rssBytes(pid) {
  const match = /^VmRSS:\s+(\d+)/m.exec(readText(`/proc/${pid}/status`) ?? "");
  return match ? Number(match[1]) * 1024 : null;
}

/** User plus system CPU seconds from /proc/PID/stat (clock ticks, assumed 100 a second). */
export function cpuSeconds(pid) {
  const text = readText(`/proc/${pid}/stat`);
  if (text === null) return null;
  const fields = text.slice(text.lastIndexOf(")") + 1).trim().split(/\s+/);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Seconds the main thread of `pid` ran on a CPU and waited for one. */
export function schedSeconds(pid) {
  const text = readText(`/proc/${pid}/schedstat`);
  if (text === null) return null;
  const [onCpu, waiting] = text.split(/\s+/).map(Number);
  return [onCpu / 1e9, waiting / 1e9];
}

/** Seconds every thread of `pid` alive now has run, to the nanosecond. */
export function threadsCpuSeconds(pid) {
  let tasks;
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  let total = 0;
  for (const task of tasks) {
    const text = readText(`/proc/${pid}/task/${task}/schedstat`);
    if (text !== null) total += Number(text.split(/\s+/)[0]); // else the thread ended
  }
  return total / 1e9;
}

export function schedDelta(before, after) {
  if (before === null || after === null) return null;
  return { on_cpu_s: round(after[0] - before[0], 2), waiting_s: round(after[1] - before[1], 2) };
}

export function formatReport(report) {
  const text = (value) => (value === null || value === undefined ? "n/a" : String(value));
  const latency = (data) =>
    `${["p50", "p95", "p99", "max"].map((name) => `${name} ${text(data[`${name}_ms`])}`).join(", ")} ms (${data.count} moves)`;
  const rss = report.server_rss_mib;
  const rows = [
    ["client", report.client],
    ["server", report.url],
    ["rooms ready", `${report.rooms_ready} of ${report.rooms} (${report.game})`],
    ["connections", text(report.connections)],
    ["setup", `${report.setup_s} s`],
    ["duration", `${report.duration_s} s at ${report.rate_per_room} move/s per room`],
    ["moves sent / acked", `${report.moves_sent} / ${report.moves_acked}`],
    ["moves per second", text(report.moves_per_s)],
    ["games finished", text(report.games_finished)],
    ["latency (mover)", latency(report.latency_mover)],
    ["latency (all seats)", latency(report.latency_all_seats)],
    ["errors", text(report.errors)],
    ["lost moves", text(report.lost_moves)],
    ["server RSS (MiB)", `idle ${text(rss.idle)}, rooms ready ${text(rss.rooms_ready)}, peak ${text(rss.peak)}, end ${text(rss.end)}`],
    ["CPU during play", `server ${text(report.cpu_s_during_play.server)} s, load test ${report.cpu_s_during_play.loadtest} s`],
    ["server CPU per move", `${text(report.server_cpu_ms_per_move)} ms (all its threads, ${text(report.server_threads_cpu_s)} s)`],
    ...Object.entries(report.error_kinds).map(([kind, count]) => [`  ${kind}`, String(count)]),
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join("\n");
}
