#!/usr/bin/env node
// The load test of `cardtable loadtest` in Node.js: many rooms of scripted players
// against one table server, cheaper per move than the server itself, so that one core
// of it can drive a node of 2,000 rooms (the Python client costs about as much CPU a
// move as the server; this one about half). Run it through `cardtable loadtest --client node`, or
// alone: `node tools/loadclient/loadtest.mjs --help`.
//
// It speaks the protocol of docs/protocol.md as the Python client does
// (src/cardtable/bench/loadtest_room.py, loadtest_seat.py): each room is created over
// HTTP with every seat human (no Origin header: not a browser), one WebSocket a seat
// says `hello` with its token, the host starts the game, and the room then makes one
// move every 1/rate seconds: the seat whose view lists `legal_actions` sends one of
// them at random (it never knows a rule, it only picks among what the server offers).
// A finished game is followed by a rematch and a new start. A move's latency runs from
// its send to the mover receiving its `move` event, and to the last seat receiving it.
// At the end every acknowledged move is looked up in the game's stored log and against
// a final `resync`. What it does not do: reconnect after a close (a cluster's
// hand-over); use the Python client for that. The report's JSON has the Python
// client's keys, so `cardtable loadtest` prints both the same way.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import WebSocket from "ws";

import {
  Stats,
  cpuSeconds,
  formatReport,
  latencySummary,
  round,
  rssBytes,
  schedDelta,
  schedSeconds,
  threadsCpuSeconds,
  timeline,
} from "./measures.mjs";

/** Seconds a move may wait for its broadcast before it counts as unanswered. */
const MOVE_TIMEOUT_MS = 10_000;
/** Rooms set up at the same time (HTTP requests and WebSocket handshakes). */
const SETUP_CONCURRENCY = 16;

const HELP = `usage: node loadtest.mjs [--url URL] [--rooms N] [--seats N] [--duration S]
       [--rate R] [--game skyjo|skipbo] [--options JSON] [--server-pid PID]
       [--no-compression] [--seed N] [--json FILE] [--quiet]

The flags mean what they mean to \`cardtable loadtest\` (its --help); --quiet prints
no table (the JSON report is then the output, in --json FILE).`;

function options() {
  const { values } = parseArgs({
    options: {
      url: { type: "string", default: "http://127.0.0.1:8000" },
      rooms: { type: "string", default: "10" },
      seats: { type: "string", default: "4" },
      duration: { type: "string", default: "30" },
      rate: { type: "string", default: "1" },
      game: { type: "string", default: "skyjo" },
      options: { type: "string", default: "{}" },
      "server-pid": { type: "string" },
      "no-compression": { type: "boolean", default: false },
      seed: { type: "string", default: "0" },
      json: { type: "string" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const positive = (name, integer) => {
    const value = Number(values[name]);
    if (!(value > 0) || (integer && !Number.isInteger(value))) {
      throw new Error(`--${name} must be a positive ${integer ? "integer" : "number"}`);
    }
    return value;
  };
  const rules = JSON.parse(values.options);
  if (rules === null || typeof rules !== "object" || Array.isArray(rules)) {
    throw new Error("--options must be a JSON object");
  }
  if (!["skyjo", "skipbo"].includes(values.game)) throw new Error("--game: skyjo or skipbo");
  return {
    url: values.url.replace(/\/+$/, ""),
    rooms: positive("rooms", true),
    seats: positive("seats", true),
    duration: positive("duration", false),
    rate: positive("rate", false),
    game: values.game,
    options: rules,
    serverPid: values["server-pid"] === undefined ? null : Number(values["server-pid"]),
    compression: !values["no-compression"],
    seed: Number(values.seed),
    json: values.json ?? null,
    quiet: values.quiet,
  };
}

// --- HTTP -------------------------------------------------------------------------

const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: SETUP_CONCURRENCY }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: SETUP_CONCURRENCY }),
};

class HttpError extends Error {
  constructor(status, detail) {
    super(`HTTP ${status} ${detail}`);
    this.kind = `http_${status}`;
  }
}

/** A JSON request (no Origin: the server lets clients that are not browsers in). */
function requestJson(method, url, body = undefined, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const headers = data ? { "Content-Type": "application/json", "Content-Length": data.length } : {};
    const module = target.protocol === "https:" ? https : http;
    const request = module.request(
      target,
      { method, headers, agent: agents[target.protocol], timeout: timeoutMs },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          if (response.statusCode >= 400) {
            reject(new HttpError(response.statusCode, text.slice(0, 200)));
            return;
          }
          try {
            resolve(JSON.parse(text));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer from ${url}`)));
    request.on("error", reject);
    if (data) request.write(data);
    request.end();
  });
}

// --- a room of scripted players ---------------------------------------------------

class RoomTimeout extends Error {
  constructor(message) {
    super(message);
    this.kind = "timeout";
  }
}

/** A small seeded generator (mulberry32): each room's choices repeat with --seed. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Whole milliseconds, rounded up: Node's timers count in them, and a room's pace is
// then never early.
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.ceil(ms)));

class Seat {
  constructor(room, seat, token) {
    this.room = room;
    this.seat = seat;
    this.token = token;
    this.version = 0;
    this.view = null;
    this.gameNo = 1;
    this.synced = false;
    this.lastSync = null;
    this.closing = false;
    this.ws = null;
  }

  /** Open the seat's WebSocket and say hello; resolves once it is open. */
  connect(wsUrl, compression) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl, {
        perMessageDeflate: compression,
        maxPayload: 2 ** 20,
        handshakeTimeout: 60_000,
      });
      this.ws = ws;
      let open = false;
      ws.on("open", () => {
        open = true;
        this.send({ type: "hello", token: this.token });
        resolve();
      });
      ws.on("message", (data) => {
        const now = performance.now();
        this.room.received(this, JSON.parse(data.toString()), now);
      });
      ws.on("error", (error) => {
        if (!open) reject(error);
        else if (!this.closing) this.room.stats.error(`socket_${error.code ?? "error"}`);
      });
      ws.on("close", (code) => {
        if (!this.closing && open) {
          // No reconnection here (see the header): the room stops.
          this.room.stats.error(`closed_${code}`);
          this.room.broken = true;
          this.room.changed();
        }
      });
    });
  }

  send(message) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  myTurn() {
    const view = this.view;
    return Boolean(view && view.legal_actions && view.legal_actions.length && view.result == null);
  }

  close() {
    this.closing = true;
    if (this.ws === null || this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.ws.terminate();
        resolve();
      }, 10_000);
      this.ws.once("close", () => {
        clearTimeout(timer);
        resolve();
      });
      this.ws.close(1000);
    });
  }
}

class Room {
  constructor(index, config, stats) {
    this.index = index;
    this.config = config;
    this.stats = stats;
    this.code = "";
    this.hostToken = "";
    this.seats = [];
    this.pending = new Map(); // version -> the move that will carry it
    this.acked = []; // [gameNo, version, seat, action]
    this.random = generator(config.seed * 100_003 + index);
    this.waiter = null;
    this.broken = false;
  }

  async setup() {
    const { url, game, seats, options, compression } = this.config;
    const created = await requestJson("POST", `${url}/api/rooms`, {
      game,
      options: { players: seats, ...options },
      name: "p0",
    });
    this.code = created.code;
    this.hostToken = created.host_token;
    const tokens = new Map([[created.seat, created.token]]);
    for (let i = 1; i < seats; i++) {
      const joined = await requestJson("POST", `${url}/api/rooms/${this.code}/join`, {
        name: `p${tokens.size}`,
      });
      tokens.set(joined.seat, joined.token);
    }
    const order = [...tokens.keys()].sort((a, b) => a - b);
    this.seats = order.map((seat) => new Seat(this, seat, tokens.get(seat)));
    for (const seat of this.seats) await seat.connect(created.ws_url, compression);
    await this.waitFor(() => this.seats.every((s) => s.synced), "hello");
    this.seats[0].send({ type: "start", host_token: this.hostToken });
    await this.waitFor(() => this.seats.every((s) => s.view !== null) && this.sameVersion(), "start");
  }

  sameVersion() {
    const first = this.seats[0].version;
    return this.seats.every((s) => s.version === first);
  }

  /** Resolves once `ready()` holds (checked at every message); rejects after the timeout. */
  waitFor(ready, what, timeoutMs = MOVE_TIMEOUT_MS) {
    if (ready()) return Promise.resolve();
    const failure = () => new RoomTimeout(`room ${this.code}: no ${what} within ${timeoutMs / 1000} s`);
    if (this.broken) return Promise.reject(failure());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(failure());
      }, timeoutMs);
      this.waiter = {
        ready,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: () => {
          clearTimeout(timer);
          reject(failure());
        },
      };
    });
  }

  changed() {
    const waiter = this.waiter;
    if (waiter === null) return;
    if (waiter.ready()) {
      this.waiter = null;
      waiter.resolve();
    } else if (this.broken) {
      this.waiter = null;
      waiter.reject();
    }
  }

  received(seat, message, now) {
    switch (message.type) {
      case "event":
        seat.version = message.version;
        if (message.kind === "start" || message.kind === "move") {
          seat.view = message.view ?? null;
          seat.gameNo = message.game_no ?? seat.gameNo;
        }
        if (message.kind === "move") this.moveSeen(seat, message, now);
        break;
      case "sync":
        seat.version = message.version;
        seat.view = message.view ?? null;
        seat.gameNo = message.game_no ?? seat.gameNo;
        seat.lastSync = message;
        seat.synced = true;
        for (const pending of [...this.pending.values()]) {
          if (pending.version <= message.version) this.seenBy(pending, seat.seat, null);
        }
        break;
      case "welcome":
        seat.version = message.version;
        break;
      case "error":
        this.stats.error(`error_${message.code}`);
        break;
      default:
        break; // presence, chat_history, rated...: nothing a scripted player needs
    }
    this.changed();
  }

  moveSeen(seat, message, now) {
    const pending = this.pending.get(message.version);
    if (pending === undefined) {
      this.stats.error("unexpected_move");
      return;
    }
    const outcome = message.outcome ?? {};
    if (seat.seat === pending.seat) {
      if (outcome.seat === pending.seat && outcome.action === pending.action) {
        const latency = now - pending.sent;
        this.stats.movesAcked += 1;
        this.stats.moverLatency.push(latency);
        this.stats.moverTimes.push([pending.sent - this.config.started, latency]);
        this.acked.push([pending.gameNo, pending.version, pending.seat, pending.action]);
      } else {
        this.stats.error("wrong_move_broadcast");
      }
    }
    this.seenBy(pending, seat.seat, now);
  }

  seenBy(pending, seat, now) {
    pending.waiting.delete(seat);
    if (pending.waiting.size === 0) {
      if (now !== null) this.stats.allLatency.push(now - pending.sent);
      pending.done = true;
      this.pending.delete(pending.version);
    }
  }

  /** Move at the room's rate until `stopAt` (performance.now()), then let moves land. */
  async run(stopAt) {
    const period = 1000 / this.config.rate;
    let nextAt = performance.now() + this.random() * period;
    try {
      for (;;) {
        const delay = nextAt - performance.now();
        if (delay > 0) await sleep(delay);
        if (performance.now() >= stopAt || this.broken) return;
        await this.step();
        nextAt = Math.max(nextAt + period, performance.now());
      }
    } catch (error) {
      this.broken = true;
      this.stats.error(error.kind ?? `run_${error.name}`);
      this.stats.note(String(error.message));
    }
  }

  /** One move of the seat to move, or a rematch after the end; waits for its echo. */
  async step() {
    await this.waitFor(() => this.sameVersion(), "common version");
    const mover = this.seats.find((seat) => seat.myTurn());
    if (mover === undefined) {
      const view = this.seats[0].view;
      if (view !== null && view.result != null) {
        await this.rematch();
        return;
      }
      this.stats.error("no_mover");
      throw new RoomTimeout(`room ${this.code}: no seat has a legal action`);
    }
    const legal = mover.view.legal_actions;
    const action = legal[Math.floor(this.random() * legal.length)];
    const pending = {
      seat: mover.seat,
      action,
      version: mover.version + 1,
      gameNo: mover.gameNo,
      sent: performance.now(),
      waiting: new Set(this.seats.map((seat) => seat.seat)),
      done: false,
    };
    this.pending.set(pending.version, pending);
    this.stats.movesSent += 1;
    mover.send({ type: "move", token: mover.token, version: mover.version, action });
    try {
      await this.waitFor(() => pending.done, `answer to move ${pending.version}`);
    } catch (error) {
      this.stats.error("unanswered_move");
      throw error;
    }
  }

  async rematch() {
    this.stats.gamesFinished += 1;
    const host = this.seats[0];
    const target = host.version + 1;
    host.send({ type: "rematch", host_token: this.hostToken });
    await this.waitFor(() => this.seats.every((s) => s.version >= target), "rematch");
    host.send({ type: "start", host_token: this.hostToken });
    await this.waitFor(
      () => this.seats.every((s) => s.version >= target + 1 && s.view),
      "restart",
    );
  }

  /** Lost moves: acknowledged moves missing from the stored log or the final resync. */
  async check() {
    if (this.seats.length === 0) return 0;
    let lost = 0;
    const stored = new Map();
    for (const gameNo of new Set(this.acked.map(([game]) => game))) {
      let log = { moves: [] };
      try {
        log = await requestJson("GET", `${this.config.url}/api/rooms/${this.code}/games/${gameNo}`);
      } catch {
        this.stats.error("log_unreadable");
      }
      stored.set(gameNo, new Set(log.moves.map((m) => `${m.version}/${m.seat}/${m.action}`)));
    }
    for (const [gameNo, version, seat, action] of this.acked) {
      if (!stored.get(gameNo)?.has(`${version}/${seat}/${action}`)) lost += 1;
    }
    const host = this.seats[0];
    host.synced = false;
    const newest = Math.max(0, ...this.acked.map(([, version]) => version));
    try {
      this.broken = false; // a room that stopped on a timeout is still checked
      host.send({ type: "resync" });
      await this.waitFor(() => host.synced, "final resync");
    } catch {
      this.stats.error("final_resync");
      return lost;
    }
    const synced = host.lastSync?.version ?? 0;
    if (synced < newest) lost += this.acked.filter(([, version]) => version > synced).length;
    return lost;
  }

  close() {
    return Promise.all(this.seats.map((seat) => seat.close()));
  }
}

/** `task` for each item, at most `limit` at a time; the results in order. */
async function gathered(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// --- the run ----------------------------------------------------------------------

async function runLoadtest(config) {
  const stats = new Stats();
  const pid = config.serverPid;
  const loadBefore = os.loadavg();
  const rssIdle = pid === null ? null : rssBytes(pid);
  const sampler =
    pid === null
      ? null
      : setInterval(() => {
          const rss = rssBytes(pid);
          if (rss !== null) stats.rssSamples.push(rss);
        }, 1000);
  const rooms = Array.from({ length: config.rooms }, (_, index) => new Room(index, config, stats));
  const setupStarted = performance.now();
  const ok = await gathered(rooms, SETUP_CONCURRENCY, async (room) => {
    try {
      await room.setup();
      return true;
    } catch (error) {
      stats.error(error.kind ?? `setup_${error.code ?? error.name}`);
      stats.note(`setup: ${error.message}`);
      room.broken = true;
      return false;
    }
  });
  const ready = rooms.filter((_, index) => ok[index]);
  const setupSeconds = (performance.now() - setupStarted) / 1000;
  const rssReady = pid === null ? null : rssBytes(pid);
  const serverCpuBefore = pid === null ? null : cpuSeconds(pid);
  const serverThreadsBefore = pid === null ? null : threadsCpuSeconds(pid);
  const serverSchedBefore = pid === null ? null : schedSeconds(pid);
  const ownSchedBefore = schedSeconds(process.pid);
  const ownCpuBefore = process.cpuUsage();

  const started = performance.now();
  const startedUnix = Date.now() / 1000;
  config.started = started;
  await Promise.all(ready.map((room) => room.run(started + config.duration * 1000)));
  const played = (performance.now() - started) / 1000;

  const ownCpu = process.cpuUsage(ownCpuBefore);
  const ownSched = schedDelta(ownSchedBefore, schedSeconds(process.pid));
  const serverSched = pid === null ? null : schedDelta(serverSchedBefore, schedSeconds(pid));
  const serverCpuAfter = pid === null ? null : cpuSeconds(pid);
  const serverThreadsAfter = pid === null ? null : threadsCpuSeconds(pid);
  const serverThreads =
    serverThreadsBefore === null || serverThreadsAfter === null
      ? null
      : serverThreadsAfter - serverThreadsBefore;
  const serverCpu =
    serverCpuBefore === null || serverCpuAfter === null ? null : serverCpuAfter - serverCpuBefore;
  const lost = (await gathered(ready, SETUP_CONCURRENCY, (room) => room.check())).reduce(
    (a, b) => a + b,
    0,
  );
  const loadAfter = os.loadavg();
  if (sampler !== null) clearInterval(sampler);
  const rssEnd = pid === null ? null : rssBytes(pid);
  await Promise.all(rooms.map((room) => room.close()));
  for (const agent of Object.values(agents)) agent.destroy();

  const mib = (value) => (value === null ? null : round(value / 2 ** 20, 1));
  const errorKinds = Object.fromEntries([...stats.errors.entries()].sort());
  return {
    client: `node ${process.version}`,
    url: config.url,
    game: config.game,
    rooms: config.rooms,
    rooms_ready: ready.length,
    seats: config.seats,
    connections: rooms.reduce((sum, room) => sum + room.seats.length, 0),
    bot_rooms: 0,
    bot_rooms_ready: 0,
    bot: null,
    bot_moves_during_play: null,
    rate_per_room: config.rate,
    duration_s: round(played, 2),
    setup_s: round(setupSeconds, 2),
    moves_sent: stats.movesSent,
    moves_acked: stats.movesAcked,
    moves_per_s: played > 0 ? round(stats.movesAcked / played, 1) : null,
    games_finished: stats.gamesFinished,
    latency_mover: latencySummary(stats.moverLatency),
    latency_all_seats: latencySummary(stats.allLatency),
    errors: [...stats.errors.values()].reduce((a, b) => a + b, 0),
    error_kinds: errorKinds,
    reconnects: {},
    handover_notices: {},
    moves_dropped_in_handover: 0,
    lost_moves: lost,
    server_pid: pid,
    server_rss_mib: {
      idle: mib(rssIdle),
      rooms_ready: mib(rssReady),
      peak: mib(stats.rssSamples.length ? Math.max(...stats.rssSamples) : null),
      end: mib(rssEnd),
    },
    cpu_s_during_play: {
      server: serverCpu === null ? null : round(serverCpu, 2),
      loadtest: round((ownCpu.user + ownCpu.system) / 1e6, 2),
    },
    // Every thread of the server, to the nanosecond, per move played: what a move
    // costs the server.
    server_threads_cpu_s: serverThreads === null ? null : round(serverThreads, 3),
    server_cpu_ms_per_move:
      serverThreads === null || stats.movesAcked === 0
        ? null
        : round((1000 * serverThreads) / stats.movesAcked, 4),
    main_thread_sched: { server: serverSched, loadtest: ownSched },
    loadavg_before: loadBefore.map((value) => round(value, 2)),
    loadavg_after: loadAfter.map((value) => round(value, 2)),
    cpus: os.cpus().length,
    compression: config.compression,
    event_loop: "node",
    timeline: timeline(stats.moverTimes),
    // When the timeline's second 0 began (Unix time), to set it beside server logs.
    play_started_unix: round(startedUnix, 3),
  };
}

/** V8 without helper threads: see `main`. */
const SINGLE_THREADED = "--single-threaded";

async function main() {
  if (!process.execArgv.includes(SINGLE_THREADED)) {
    // Run again without V8's background threads. At real-time priority on one core
    // (`chrt -f 10 taskset -c 1`, how it is measured) a helper thread never runs while
    // the main thread has work, and the main thread, waiting for the helpers' garbage
    // collection, posts itself a task again and again: the client used a whole core
    // for 750 moves a second (a quarter of a core without the helpers). The child
    // inherits the priority and the core.
    const child = spawnSync(
      process.execPath,
      [SINGLE_THREADED, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
      { stdio: "inherit" },
    );
    process.exit(child.status ?? 1);
  }
  let config;
  try {
    config = options();
  } catch (error) {
    console.error(`loadtest.mjs: ${error.message}\n\n${HELP}`);
    process.exit(2);
  }
  const report = await runLoadtest(config);
  if (!config.quiet) console.log(formatReport(report));
  if (config.json !== null) fs.writeFileSync(config.json, `${JSON.stringify(report, null, 2)}\n`);
}

await main();
