/**
 * Files that hold secrets (keys, tokens, kubeconfigs with credentials) are written 0600 inside directories
 * made 0700, through a temporary name and a rename: a reader never sees half a key, and a file someone left
 * with wider permissions is replaced rather than written through.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writePrivateFile(file: string, data: string, mode = 0o600): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
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
