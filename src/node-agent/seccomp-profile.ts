/**
 * Localhost seccomp profiles, checked as a container runtime would load them before creating a container:
 * the file under `<root-dir>/seccomp/` must exist and be a profile (defaultAction, defaultErrnoRet, syscalls of
 * {names, action, args, errnoRet}) whose actions the runtime knows; notify cannot be the default action.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const ACTIONS = new Set([
  'SCMP_ACT_ERRNO',
  'SCMP_ACT_ALLOW',
  'SCMP_ACT_KILL_PROCESS',
  'SCMP_ACT_KILL_THREAD',
  'SCMP_ACT_KILL',
  'SCMP_ACT_TRAP',
  'SCMP_ACT_NOTIFY',
  'SECCOMP_RET_USER_NOTIF',
  'SCMP_ACT_TRACE',
  'SCMP_ACT_LOG',
]);
const NOTIFY = new Set(['SCMP_ACT_NOTIFY', 'SECCOMP_RET_USER_NOTIF']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with a profile's JSON text, or undefined when it is a valid profile. */
export function profileProblem(text: string): string | undefined {
  let profile: unknown;
  try {
    profile = JSON.parse(text);
  } catch (e) {
    return `not JSON: ${(e as Error).message}`;
  }
  if (!isObject(profile)) return 'not a JSON object';
  const { defaultAction, defaultErrnoRet, syscalls } = profile;
  if (typeof defaultAction !== 'string') return 'defaultAction is required';
  if (!ACTIONS.has(defaultAction)) return `unknown defaultAction ${JSON.stringify(defaultAction)}`;
  if (NOTIFY.has(defaultAction)) return `${defaultAction} cannot be the defaultAction`;
  if (defaultErrnoRet !== undefined && !Number.isInteger(defaultErrnoRet))
    return 'defaultErrnoRet must be an integer';
  if (syscalls === undefined) return undefined;
  if (!Array.isArray(syscalls)) return 'syscalls must be a list';
  for (const [i, s] of syscalls.entries()) {
    const at = `syscalls[${i}]`;
    if (!isObject(s)) return `${at} must be an object`;
    if (!Array.isArray(s.names) || s.names.length === 0 || !s.names.every((n) => typeof n === 'string'))
      return `${at}.names must be a non-empty list of syscall names`;
    if (typeof s.action !== 'string' || !ACTIONS.has(s.action))
      return `${at}: unknown action ${JSON.stringify(s.action)}`;
    if (s.args !== undefined && s.args !== null && !Array.isArray(s.args)) return `${at}.args must be a list`;
    if (s.errnoRet !== undefined && !Number.isInteger(s.errnoRet)) return `${at}.errnoRet must be an integer`;
  }
  return undefined;
}

/**
 * Why a container with this Localhost profile cannot be created, or undefined when it can. The profile is
 * relative to `<root-dir>/seccomp`; a name that leaves that directory is refused like a missing file.
 */
export async function localhostProfileProblem(
  rootDir: string,
  localhostProfile: string,
): Promise<string | undefined> {
  const dir = path.join(rootDir, 'seccomp');
  const file = path.resolve(dir, localhostProfile);
  const load = `cannot load seccomp profile ${JSON.stringify(file)}`;
  if (!file.startsWith(dir + path.sep)) return `${load}: outside ${dir}`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return `${load}: open ${file}: ${code === 'ENOENT' ? 'no such file or directory' : (code ?? 'unreadable')}`;
  }
  const problem = profileProblem(text);
  return problem && `${load}: ${problem}`;
}
