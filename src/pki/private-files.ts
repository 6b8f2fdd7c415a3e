/**
 * Files that hold secrets (keys, tokens, kubeconfigs with credentials) are written 0600 inside directories
 * made 0700, through a temporary name and a rename: a reader never sees half a key, and a file someone left
 * with wider permissions is replaced rather than written through.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A directory for secrets, made 0700 (an existing one is left as it is). `traversable` adds others' x, not
 * r: another OS user (the embedded PostgreSQL, run as `postgres` when we are root) reaches its own
 * subdirectory without seeing the rest.
 */
export async function makePrivateDir(dir: string, traversable = false): Promise<void> {
  await mkdir(dir, { recursive: true, mode: traversable ? 0o711 : 0o700 });
}

export async function writePrivateFile(file: string, data: string, mode = 0o600): Promise<void> {
  await makePrivateDir(path.dirname(file));
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, data, { mode, flag: 'wx' });
    // the umask may have narrowed or (for public files) kept the mode: say it exactly
    await chmod(temp, mode);
    await rename(temp, file);
  } catch (e) {
    await unlink(temp).catch(() => undefined);
    throw e;
  }
}

/** Certificates are public; they sit beside their keys and are replaced the same way. */
export function writePublicFile(file: string, data: string): Promise<void> {
  return writePrivateFile(file, data, 0o644);
}
