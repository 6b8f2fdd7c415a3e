/**
 * bench/watch: write → delivery latency of watch events with 1,000 concurrent watchers on the replica that
 * takes the writes and 1,000 on another replica (two servers on one PostgreSQL), and events/s delivered.
 * Latency is measured from the moment the client sends the create (the commit happens inside that request)
 * to the moment a watcher reads the event: an upper bound of commit → delivery.
 *
 *   npm run build && node dist/bench/watch.js [--watchers=1000] [--events=300] [--rate=100] [--http2[=100]]
 *
 * --http2[=streamsPerConnection]: the watchers share h2 connections, that many watches on each, as client-go's
 * informers share one connection per host (the servers get --http2-max-streams-per-connection to match);
 * without it every watcher has its own HTTP/1.1 connection.
 */
import { chmod, mkdtemp } from 'node:fs/promises';
import { connect as h2Connect, type ClientHttp2Session } from 'node:http2';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { startEmbeddedPostgres } from '../modules/storage/index.js';
import { startServer, type TestServer } from '../test/support/server.js';

const arg = (name: string, fallback: string) =>
  process.argv
    .find((a) => a.startsWith(`--${name}=`))
    ?.split('=')
    .slice(1)
    .join('=') ?? fallback;
const WATCHERS = Number(arg('watchers', '1000'));
const EVENTS = Number(arg('events', '300'));
const RATE = Number(arg('rate', '100'));
const THREADS = Number(arg('threads', '4'));
/** watches per h2 connection; 0: HTTP/1.1, one connection per watch */
const HTTP2 = process.argv.includes('--http2') ? 100 : Number(arg('http2', '0'));
/** Go's HTTP/2 client windows (golang.org/x/net/http2 transport): 1 GiB per connection, 4 MiB per stream */
const H2_CONNECTION_WINDOW = 1 << 30;
const H2_STREAM_WINDOW = 4 << 20;
const base = '/api/v1/namespaces/default/configmaps';
const now = () => performance.timeOrigin + performance.now();

interface Sink {
  latencies: number[];
  delivered: number;
}

const MARK = Buffer.from('"t":"');

/**
 * One watch over a raw TLS socket, read with a minimal chunked-body scanner: the load generator shares the two
 * cores with both servers, and every microsecond it spends per event is queueing inside the measured latency.
 */
function watch(s: { url: string; token: string; ca: string }, rv: string, sink: Sink): Promise<() => void> {
  const url = new URL(s.url);
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
        resolve(() => socket.destroy());
        buf = buf.subarray(end + 4);
      }
      // each event is one chunk (one line); an event split over reads is put back together in `pending`
      while (buf.length > 0) {
        if (left < 0) {
          const eol = buf.indexOf('\r\n');
          if (eol < 0) break;
          left = parseInt(buf.subarray(0, eol).toString('latin1'), 16);
          buf = buf.subarray(eol + 2);
          continue;
        }
        if (buf.length < left + 2) break;
        const event = buf.subarray(0, left);
        const m = event.indexOf(MARK);
        if (m >= 0) {
          const from = m + MARK.length;
          sink.latencies.push(at - Number(event.subarray(from, event.indexOf(34, from)).toString('latin1')));
          sink.delivered++;
        }
        buf = buf.subarray(left + 2);
        left = -1;
      }
      if (buf.length > 0) pending = Buffer.from(buf);
    });
  });
}

/** Latency of every event in these whole lines (newline-delimited JSON, as h2 carries a JSON watch). */
function readLines(lines: Buffer, at: number, sink: Sink): void {
  for (let m = lines.indexOf(MARK); m >= 0; m = lines.indexOf(MARK, m + 1)) {
    const from = m + MARK.length;
    sink.latencies.push(at - Number(lines.subarray(from, lines.indexOf(34, from)).toString('latin1')));
    sink.delivered++;
  }
}

function h2Session(s: { url: string; ca: string }): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = h2Connect(s.url, { ca: s.ca, settings: { initialWindowSize: H2_STREAM_WINDOW } });
    session.once('error', reject);
    session.once('connect', () => {
      session.setLocalWindowSize(H2_CONNECTION_WINDOW);
      resolve(session);
    });
  });
}

/** One watch as a stream of a shared h2 session; its DATA frames hold whole or partial lines. */
function h2Watch(session: ClientHttp2Session, token: string, rv: string, sink: Sink): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ':path': `${base}?watch=1&resourceVersion=${rv}`,
      authorization: `Bearer ${token}`,
    });
    let pending: Buffer = Buffer.alloc(0);
    stream.once('response', (headers) => {
      if (headers[':status'] !== 200) reject(new Error(`watch answered ${headers[':status']}`));
      else resolve(() => stream.close());
    });
    stream.once('error', reject);
    stream.on('data', (chunk: Buffer) => {
      const at = now();
      const buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const end = buf.lastIndexOf(10) + 1;
      readLines(buf.subarray(0, end), at, sink);
      pending = Buffer.from(buf.subarray(end));
    });
  });
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
  const sessions: ClientHttp2Session[] = [];
  for (const server of job.servers) {
    const sink: Sink = { latencies: [], delivered: 0 };
    sinks.push(sink);
    for (let i = 0; i < server.watchers; i++) {
      if (!job.http2) closers.push(await watch(server, job.rv, sink));
      else {
        if (i % job.http2 === 0) sessions.push(await h2Session(server));
        closers.push(await h2Watch(sessions.at(-1)!, server.token, job.rv, sink));
      }
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
  for (const session of sessions) session.close();
  return sinks;
}

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-bench-watch-'));
  await chmod(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), database: 'bench' });
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
  const started = now();
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
  const merge = (i: number): Sink => ({
    latencies: results.flatMap((r) => r[i].latencies),
    delivered: results.reduce((n, r) => n + r[i].delivered, 0),
  });
  const same = merge(0);
  const other = merge(1);
  for (const agent of [writer]) agent.destroy();
  await a.stop();
  await b.stop();
  await pg.stop();
  const line = (label: string, sink: Sink) =>
    console.log(
      `${label}: ${sink.delivered}/${expected} events, p50 ${pct(sink.latencies, 50).toFixed(1)} ms, p99 ${pct(sink.latencies, 99).toFixed(1)} ms (target p99 < 50 ms)`,
    );
  line(`${WATCHERS} watchers on the writing replica`, same);
  line(`${WATCHERS} watchers on another replica`, other);
  console.log(
    `events delivered: ${((same.delivered + other.delivered) / seconds).toFixed(0)}/s over ${seconds.toFixed(1)} s (${EVENTS} creates at ${RATE}/s)`,
  );
}

if (isMainThread) await main();
else parentPort!.postMessage({ sinks: await watchWorker(workerData as WorkerJob) });
