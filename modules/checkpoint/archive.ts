/**
 * Where a checkpoint archive goes, named as the kubelet names it:
 * `<root-dir>/checkpoints/checkpoint-<pod>_<namespace>-<container>-<RFC 3339 time>.tar`. It holds the
 * container's memory, so secrets too: the directory is 0700 and the archive ends 0600 whoever wrote it.
 */
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';

const pad = (n: number) => String(n).padStart(2, '0');

/** Go's time.Now().Format(time.RFC3339): local time, seconds, `Z` or the zone's offset. */
export function rfc3339(now: Date): string {
  const offset = -now.getTimezoneOffset();
  const zone =
    offset === 0
      ? 'Z'
      : `${offset > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return (
    `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}` +
    `T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}${zone}`
  );
}

export function checkpointsDir(rootDir: string): string {
  return path.join(rootDir, 'checkpoints');
}

/** kube's GetPodFullName is `<pod>_<namespace>` */
export function archivePath(
  rootDir: string,
  namespace: string,
  pod: string,
  container: string,
  now: Date,
): string {
  return path.join(
    checkpointsDir(rootDir),
    `checkpoint-${pod}_${namespace}-${container}-${rfc3339(now)}.tar`,
  );
}

/** The directory, made 0700 (an existing one narrowed to it). */
export async function ensureCheckpointsDir(rootDir: string): Promise<void> {
  const dir = checkpointsDir(rootDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

/** The archive a runtime wrote, made readable by its owner (root) only; one the runtime did not write is no error. */
export async function restrictArchive(file: string): Promise<void> {
  try {
    await chmod(file, 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}
