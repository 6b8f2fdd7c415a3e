/** Who a node is: its name, addresses and the versions it reports (nodeInfo). */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { servedRelease } from '../../modules/api/index.js';
import type { NodeIdentity } from './node-status.js';

export const agentVersion = `v${servedRelease.major}.${servedRelease.minor}.${servedRelease.patch}`;
export const SIMULATED_RUNTIME = 'pgkube-sim://0.1.0';

const arch = () =>
  ({ x64: 'amd64', arm64: 'arm64', arm: 'arm', s390x: 's390x', ppc64: 'ppc64le' })[process.arch as string] ??
  process.arch;
const bootID = randomUUID();

function osImage(): string {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(release)?.[1] ?? os.type();
  } catch {
    return os.type();
  }
}

export function nodeIdentity(o: {
  name: string;
  hostname?: string;
  internalIP: string;
  port: number;
  maxPods: number;
  runtimeVersion?: string;
  simulated?: boolean;
}): NodeIdentity {
  const machineID = createHash('sha256')
    .update(o.simulated ? o.name : os.hostname())
    .digest('hex')
    .slice(0, 32);
  return {
    name: o.name,
    hostname: o.hostname ?? o.name,
    internalIP: o.internalIP,
    port: o.port,
    maxPods: o.maxPods,
    kubeletVersion: agentVersion,
    runtimeVersion: o.runtimeVersion ?? SIMULATED_RUNTIME,
    os: {
      kernelVersion: os.release(),
      osImage: o.simulated ? 'pgkube simulated node' : osImage(),
      machineID,
      bootID,
      arch: arch(),
    },
  };
}

/** The first non-internal IPv4 address of the host, else loopback. */
export function hostAddress(): string {
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return '127.0.0.1';
}
