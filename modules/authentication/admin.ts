/** The generated admin identity and its kubeconfig, written into the data dir at every start. */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { UserInfo } from '../api/index.js';
import { kubeconfigYaml } from './kubeconfig.js';

export interface AdminCredentials {
  token: string;
  user: UserInfo;
}

export async function adminCredentials(dataDir: string): Promise<AdminCredentials> {
  const file = path.join(dataDir, 'admin.token');
  let token: string;
  let uid: string;
  if (existsSync(file)) {
    [token, uid] = (await readFile(file, 'utf8')).trim().split(',');
  } else {
    token = randomBytes(32).toString('base64url');
    uid = randomUUID();
    await writeFile(file, `${token},${uid}\n`, { mode: 0o600 });
  }
  return { token, user: { name: 'pgkube-admin', uid, groups: ['system:masters'] } };
}

export function kubeconfig(server: string, caPem: string, token: string): string {
  return kubeconfigYaml({
    server,
    caPem,
    user: { name: 'pgkube-admin', credentials: { token } },
    context: 'pgkube',
    namespace: 'default',
  });
}
