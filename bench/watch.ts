/**
 * bench/watch: write → delivery latency of watch events with 1,000 concurrent watchers on the replica that
 * takes the writes and 1,000 on another replica (two servers on one PostgreSQL), and events/s delivered.
 * Latency is measured from the moment the client sends the create (the commit happens inside that request)
 * to the moment a watcher reads the event: an upper bound of commit → delivery.
 *
 *   npm run build && node dist/bench/watch.js [--watchers=1000] [--events=300] [--rate=100] [--http2[=100]]
 *     [--warmup=<events, default 2 s worth>]
 *
 * --http2[=streamsPerConnection]: the watchers share h2 connections, that many watches on each, as client-go's
 * informers share one connection per host (the servers get --http2-max-streams-per-connection to match);
 * without it every watcher has its own HTTP/1.1 connection.
 */
import { Agent, request } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { startServer, type TestServer } from '../test/support/server.js';
import { openH2Streams } from './h2-watches.js';
import { arg, benchDatabase, cpuMs, machineCpuMs } from './support.js';

const WATCHERS = Number(arg('watchers', '1000'));
const EVENTS = Number(arg('events', '300'));
const RATE = Number(arg('rate', '100'));
const THREADS = Number(arg('threads', '4'));
/**
 * Events written before the measured ones (default: two seconds' worth), as the create benchmark warms up:
 * the first events reach a fan-out path V8 has not compiled yet, and with 300 events the slowest three are
 * the p99. Warm-up events carry no send time, so watchers neither time nor count them.
 */
const WARMUP = Number(arg('warmup', String(2 * RATE)));
/** watches per h2 connection; 0: HTTP/1.1, one connection per watch */
const HTTP2 = process.argv.includes('--http2') ? 100 : Number(arg('http2', '0'));
/** Go's HTTP/2 client windows (golang.org/x/net/http2 transport): 1 GiB per connection, 4 MiB per stream */
const H2_CONNECTION_WINDOW = 1 << 30;
const H2_STREAM_WINDOW = 4 << 20;
/** --h2-windows=<bytes>: both windows this small instead, so a short run exercises the WINDOW_UPDATEs */
const H2_WINDOWS = Number(arg('h2-windows', '0'));
const base = '/api/v1/namespaces/default/configmaps';
const now = () => performance.timeOrigin + performance.now();

interface Sink {
  latencies: number[];
  delivered: number;
  /** watches the server broke during the run (reset, ended, connection lost): each one is reported */
  problems: string[];
  /** what each watcher has seen */
  seen: Seen[];
  /** watchers that did not get every event exactly once, in order */
  wrong: number;
}

/** One watcher's events: every event once and in order means `expected` rising resourceVersions. */
interface Seen {
  events: number;
  lastRv: number;
  disorder: number;
}

const MARK = Buffer.from('"t":"');
const RV = Buffer.from('"resourceVersion":"');

/** One event of a benchmark object: its latency, and its revision against the watcher's last. */
function readEvent(event: Buffer, at: number, seen: Seen, sink: Sink): void {
  const m = event.indexOf(MARK);
  if (m < 0) return;
  const from = m + MARK.length;
  sink.latencies.push(at - Number(event.subarray(from, event.indexOf(34, from)).toString('latin1')));
  sink.delivered++;
  const r = event.indexOf(RV) + RV.length;
  const rv = Number(event.subarray(r, event.indexOf(34, r)).toString('latin1'));
  if (!(rv > seen.lastRv)) seen.disorder++;
  seen.lastRv = rv;
  seen.events++;
}

/**
 * One watch over a raw TLS socket, read with a minimal chunked-body scanner: the load generator shares the two
 * cores with both servers, and every microsecond it spends per event is queueing inside the measured latency.
 */
function watch(s: { url: string; token: string; ca: string }, rv: string, sink: Sink): Promise<() => void> {
  const url = new URL(s.url);
  const seen: Seen = { events: 0, lastRv: 0, disorder: 0 };
  sink.seen.push(seen);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      host: url.hostname,
      port: Number(url.port),
      ca: s.ca,
      servername: 'localhost',
    });
    let head = true;
    /** bytes of the current chunk still to come; -1: a chunk-size line is next */
    let left = -1;
    let pending: Buffer = Buffer.alloc(0);
    let closing = false;
    socket.on('close', () => {
      if (!head && !closing) sink.problems.push('a watch connection closed');
    });
    socket.on('secureConnect', () => {
      socket.write(
        `GET ${base}?watch=1&resourceVersion=${rv} HTTP/1.1\r\nHost: ${url.host}\r\n` +
          `Authorization: Bearer ${s.token}\r\n\r\n`,
      );
    });
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      const at = now();
      let buf: Buffer = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      pending = Buffer.alloc(0);
      if (head) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) {
          pending = buf;
          return;
        }
        if (!buf.subarray(0, 12).toString('latin1').startsWith('HTTP/1.1 200')) {
          reject(new Error(buf.subarray(0, end).toString()));
          return;
        }
        head = false;
        resolve(() => {
          closing = true;
          socket.destroy();
        });
        buf = buf.subarray(end + 4);
      }
      // a chunk split over reads is put back together in `pending`
      while (buf.length > 0) {
        if (left < 0) {
          const eol = buf.indexOf('\r\n');
          if (eol < 0) break;
          left = parseInt(buf.subarray(0, eol).toString('latin1'), 16);
          buf = buf.subarray(eol + 2);
          if (left === 0) sink.problems.push('the server ended a watch');
          continue;
        }
        if (buf.length < left + 2) break;
        // a chunk holds one or more whole events (the server writes a batch of changes as one chunk)
        readLines(buf.subarray(0, left), at, seen, sink);
        buf = buf.subarray(left + 2);
        left = -1;
      }
      if (buf.length > 0) pending = Buffer.from(buf);
    });
  });
}

/** Every event in these whole lines (newline-delimited JSON, as h2 carries a JSON watch). */
function readLines(lines: Buffer, at: number, seen: Seen, sink: Sink): void {
  for (let from = 0; from < lines.length;) {
    const end = lines.indexOf(10, from);
    readEvent(lines.subarray(from, end), at, seen, sink);
    from = end + 1;
  }
}

/** `count` watches multiplexed on one h2 connection, with Go's client windows. */
function watchH2(
  s: { url: string; token: string; ca: string },
  rv: string,
  count: number,
  sink: Sink,
): Promise<() => void> {
  const seen = Array.from({ length: count }, () => ({ events: 0, lastRv: 0, disorder: 0 }));
  sink.seen.push(...seen);
  return openH2Streams(
    s,
    `${base}?watch=1&resourceVersion=${rv}`,
    count,
    H2_WINDOWS
      ? { connection: H2_WINDOWS, stream: H2_WINDOWS }
      : { connection: H2_CONNECTION_WINDOW, stream: H2_STREAM_WINDOW },
    {
      onLines: (stream, lines, at) => readLines(lines, at, seen[stream], sink),
      onProblem: (m) => sink.problems.push(m),
    },
  );
}

function post(s: TestServer, agent: Agent, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      new URL(base, s.url),
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${s.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

interface WorkerJob {
  servers: { url: string; token: string; ca: string; watchers: number }[];
  rv: string;
  expected: number;
  /** watches per h2 session; 0: HTTP/1.1 */
  http2: number;
}

/** A share of the watchers in a worker thread: reading 2,000 TLS streams is more than one event loop can
 * do without adding its own queueing to the latencies it measures. */
async function watchWorker(job: WorkerJob): Promise<Sink[]> {
  const sinks: Sink[] = [];
  const closers: (() => void)[] = [];
  for (const server of job.servers) {
    const sink: Sink = { latencies: [], delivered: 0, problems: [], seen: [], wrong: 0 };
    sinks.push(sink);
    for (let i = 0; i < server.watchers; i += job.http2 || 1) {
      if (!job.http2) closers.push(await watch(server, job.rv, sink));
      else closers.push(await watchH2(server, job.rv, Math.min(job.http2, server.watchers - i), sink));
    }
  }
  parentPort!.postMessage({ ready: true });
  const deadline = Date.now() + 120_000;
  while (
    sinks.some((k, i) => k.delivered < job.expected * job.servers[i].watchers) &&
    Date.now() < deadline
  ) {
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const close of closers) close();
  for (const sink of sinks) {
    sink.wrong = sink.seen.filter((w) => w.events !== job.expected || w.disorder > 0).length;
    sink.seen = [];
  }
  return sinks;
}

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main() {
  const pg = await benchDatabase('bench');
  const args = HTTP2 ? [`--http2-max-streams-per-connection=${HTTP2}`] : [];
  const a = await startServer({ databaseUrl: pg.url, args });
  const b = await startServer({ databaseUrl: pg.url, args });
  const writer = new Agent({ keepAlive: true, maxSockets: 1, ca: a.ca });
  const rv = await new Promise<string>((resolve, reject) => {
    request(
      new URL(base, a.url),
      { agent: writer, headers: { authorization: `Bearer ${a.token}` } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve(JSON.parse(text).metadata.resourceVersion));
      },
    )
      .on('error', reject)
      .end();
  });
  const t0 = Date.now();
  const per = Math.ceil(WATCHERS / THREADS);
  const workers = Array.from({ length: THREADS }, (_, w) => {
    const share = Math.min(per, WATCHERS - w * per);
    const job: WorkerJob = {
      rv,
      expected: EVENTS,
      http2: HTTP2,
      servers: [a, b].map((s) => ({ url: s.url, token: s.token, ca: s.ca, watchers: share })),
    };
    return new Worker(new URL(import.meta.url), { workerData: job });
  });
  const done = workers.map(
    (worker) =>
      new Promise<Sink[]>((resolve, reject) => {
        worker.on('message', (m) => m.sinks && resolve(m.sinks));
        worker.on('error', reject);
      }),
  );
  await Promise.all(workers.map((worker) => new Promise((r) => worker.once('message', r))));
  const transport = HTTP2 ? `HTTP/2, ${HTTP2} watches per connection` : 'HTTP/1.1, one connection each';
  console.log(
    `${2 * WATCHERS} watchers connected in ${((Date.now() - t0) / 1000).toFixed(1)} s (${THREADS} client threads, ${transport})`,
  );
  for (let i = 0; i < WARMUP; i++) {
    await new Promise((r) => setTimeout(r, 1000 / RATE));
    const status = await post(a, writer, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `warmup-${i}` },
      data: { warmup: 'true' },
    });
    if (status !== 201) throw new Error(`create answered ${status}`);
  }
  const started = now();
  const cpuBefore = [cpuMs(a.pid), cpuMs(b.pid), cpuMs(process.pid), machineCpuMs()];
  for (let i = 0; i < EVENTS; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const status = await post(a, writer, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `w-${i}` },
      data: { t: String(now()) },
    });
    if (status !== 201) throw new Error(`create answered ${status}`);
  }
  const expected = EVENTS * WATCHERS;
  const results = await Promise.all(done);
  const seconds = (now() - started) / 1000;
  const cpu = [cpuMs(a.pid), cpuMs(b.pid), cpuMs(process.pid), machineCpuMs()].map(
    (ms, i) => ms - cpuBefore[i],
  );
  const merge = (i: number): Sink => ({
    latencies: results.flatMap((r) => r[i].latencies),
    delivered: results.reduce((n, r) => n + r[i].delivered, 0),
    problems: results.flatMap((r) => r[i].problems),
    seen: [],
    wrong: results.reduce((n, r) => n + r[i].wrong, 0),
  });
  const same = merge(0);
  const other = merge(1);
  for (const agent of [writer]) agent.destroy();
  await a.stop();
  await b.stop();
  await pg.stop();
  const line = (label: string, sink: Sink) =>
    console.log(
      `${label}: ${sink.delivered}/${expected} events (${WATCHERS - sink.wrong} watchers got each once, in order), p50 ${pct(sink.latencies, 50).toFixed(1)} ms, p99 ${pct(sink.latencies, 99).toFixed(1)} ms (target p99 < 50 ms)`,
    );
  for (const p of [...same.problems, ...other.problems].slice(0, 10)) console.log(`PROBLEM: ${p}`);
  line(`${WATCHERS} watchers on the writing replica`, same);
  line(`${WATCHERS} watchers on another replica`, other);
  console.log(
    `events delivered: ${((same.delivered + other.delivered) / seconds).toFixed(0)}/s over ${seconds.toFixed(1)} s (${EVENTS} creates at ${RATE}/s, after ${WARMUP} warm-up creates not measured)`,
  );
  // where the two cores went: busy share of one core, and CPU per event delivered by each server
  const share = (ms: number) => `${((ms / 10 / seconds) | 0).toString()} %`;
  const perEvent = (ms: number) => `${((ms * 1000) / expected).toFixed(1)} µs/event delivered`;
  console.log(
    `CPU: writing replica ${share(cpu[0])} (${perEvent(cpu[0])}), other replica ${share(cpu[1])} (${perEvent(cpu[1])}), load generator ${share(cpu[2])}; everything else on the machine ${share(cpu[3] - cpu[0] - cpu[1] - cpu[2])} (PostgreSQL and other users)`,
  );
}

if (isMainThread) await main();
else parentPort!.postMessage({ sinks: await watchWorker(workerData as WorkerJob) });
