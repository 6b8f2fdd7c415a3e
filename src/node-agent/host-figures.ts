/**
 * What the node agent reports about its host: CPUs, memory, the disk under --root-dir and process ids, read from
 * the machine (/proc and statfs) each time the status is computed.
 */
import { readFile, statfs } from 'node:fs/promises';
import os from 'node:os';

export interface HostFigures {
  cpus: number;
  memoryBytes: number;
  memoryAvailableBytes: number;
  diskBytes: number;
  diskAvailableBytes: number;
  inodes: number;
  inodesFree: number;
  pidMax: number;
  pids: number;
}

async function readOr(file: string, fallback: string): Promise<string> {
  return readFile(file, 'utf8').catch(() => fallback);
}

export async function readHostFigures(rootDir: string): Promise<HostFigures> {
  const meminfo = await readOr('/proc/meminfo', '');
  const available = /^MemAvailable:\s+(\d+) kB/m.exec(meminfo);
  const disk = await statfs(rootDir).catch(() => statfs('/'));
  // /proc/loadavg's fourth field: runnable/total scheduling entities (threads), what kube counts as pids
  const loadavg = (await readOr('/proc/loadavg', '')).split(' ')[3] ?? '';
  return {
    cpus: os.availableParallelism(),
    memoryBytes: os.totalmem(),
    memoryAvailableBytes: available ? Number(available[1]) * 1024 : os.freemem(),
    diskBytes: disk.blocks * disk.bsize,
    diskAvailableBytes: disk.bavail * disk.bsize,
    inodes: disk.files,
    inodesFree: disk.ffree,
    pidMax: Number((await readOr('/proc/sys/kernel/pid_max', '32768')).trim()) || 32768,
    pids: Number(loadavg.split('/')[1]) || 0,
  };
}

/** A fixed, roomy host for simulated nodes: no pressure, the same figures on every node. */
export const simulatedHost: HostFigures = {
  cpus: 8,
  memoryBytes: 32 * 2 ** 30,
  memoryAvailableBytes: 30 * 2 ** 30,
  diskBytes: 200 * 2 ** 30,
  diskAvailableBytes: 180 * 2 ** 30,
  inodes: 10_000_000,
  inodesFree: 9_000_000,
  pidMax: 4_194_304,
  pids: 200,
};
