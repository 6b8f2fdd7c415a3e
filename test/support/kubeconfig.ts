/** Kubeconfigs for other users of a test server, made from its admin kubeconfig. */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';

/**
 * A copy of `adminKubeconfig` whose user is `user` (the kubeconfig `user:` entry: token, as, as-groups,
 * as-uid, as-user-extra, ...), written to a new temp file; resolves with its path.
 */
export async function kubeconfigFor(adminKubeconfig: string, user: Record<string, unknown>): Promise<string> {
  const config = parse(await readFile(adminKubeconfig, 'utf8'));
  config.users[0].user = user;
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'pgkube-kubeconfig-')), 'config');
  await writeFile(file, stringify(config), { mode: 0o600 });
  return file;
}
