/** What every benchmark needs: its `--name=value` flags, and a PostgreSQL to run on. */
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../modules/storage/index.js';

/** The value of `--name=value` on the command line (values may contain `=`). */
export function arg(name: string, fallback: string): string {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : found.slice(name.length + 3);
}

/**
 * `--database-url` (or DATABASE_URL) when given; otherwise a fresh embedded PostgreSQL with `database`, stopped
 * by `stop`.
 */
export async function benchDatabase(database: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const url = arg('database-url', process.env.DATABASE_URL ?? '');
  if (url) return { url, stop: async () => undefined };
  const dir = await mkdtemp(path.join(tmpdir(), 'pgkube-bench-pg-'));
  await chmod(dir, 0o755); // PostgreSQL runs as its own OS user when we are root
  const embedded = await startEmbeddedPostgres({ dir: path.join(dir, 'pg'), database });
  return { url: embedded.url, stop: () => embedded.stop() };
}

/** CPU time (ms) a process has used so far, from /proc (Linux); NaN elsewhere */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime (fields 14 and 15 of stat, counted after the command) in clock ticks of 10 ms
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** CPU time (ms) every process on the machine has used so far: what was not ours was other load */
export function machineCpuMs(): number {
  let line = 'cpu';
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  } catch {
    // not Linux
  }
  const fields = line.trim().split(/ +/);
  // user nice system (idle iowait: not busy) irq softirq steal
  return [1, 2, 3, 6, 7, 8].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
}

/** CPU time (ns) of a process's main thread so far (schedstat: finer than stat's ticks); 0 once it exited */
export function cpuNs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

export function parentOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    return -1;
  }
}

/** CPU so far (ns) of a PostgreSQL postmaster and each of its children (every backend and helper) */
export function clusterCpuNs(postmaster: number): Map<number, number> {
  const cpu = new Map([[postmaster, cpuNs(postmaster)]]);
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (pid && parentOf(pid) === postmaster) cpu.set(pid, cpuNs(pid));
  }
  return cpu;
}

/** CPU (ns) the processes of `after` used since `before` */
export function grownNs(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ns] of after) sum += ns - (before.get(pid) ?? 0);
  return sum;
}

/** Resident memory (MB) of a process, from /proc (Linux); NaN elsewhere */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}
