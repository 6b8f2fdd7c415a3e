/**
 * An in-process controller, as kube-controller-manager runs them: started once the server is up, stopped at
 * shutdown. `--controllers` picks which run, with kube's syntax.
 */
export interface Controller {
  /** the name `--controllers` knows it by (kube's: `serviceaccount`, `tokencleaner`, ...) */
  readonly name: string;
  /** runs on the replica holding the controllers' Lease only (leader-election.ts); others run on every replica */
  readonly leaderElected?: boolean;
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

export interface ControllerName {
  name: string;
  /** kube leaves some off unless named (`tokencleaner`, `bootstrapsigner`) */
  enabledByDefault: boolean;
}

/** Every controller pgkube has: `--controllers` is checked against this list. */
export const knownControllers: readonly ControllerName[] = [
  { name: 'namespace', enabledByDefault: true },
  { name: 'serviceaccount', enabledByDefault: true },
  { name: 'serviceaccount-token', enabledByDefault: true },
  { name: 'root-ca-cert-publisher', enabledByDefault: true },
  { name: 'clusterrole-aggregation', enabledByDefault: true },
  { name: 'garbagecollector', enabledByDefault: true },
  { name: 'nodelifecycle', enabledByDefault: true },
  { name: 'taint-eviction-controller', enabledByDefault: true },
  // kube-scheduler is its own program; here it runs in-process like the controllers
  { name: 'scheduler', enabledByDefault: true },
  { name: 'tokencleaner', enabledByDefault: false },
  { name: 'bootstrapsigner', enabledByDefault: false },
];

/**
 * kube's `--controllers` list: `*` turns on the controllers on by default, `name` turns one on, `-name` off;
 * a name without `*` in the list means only the names listed. Unknown names are an error naming them.
 */
export function enabledControllers(
  values: readonly string[],
  known: readonly ControllerName[] = knownControllers,
): Set<string> {
  const items = values.flatMap((v) => v.split(',')).map((v) => v.trim());
  const names = new Set(known.map((c) => c.name));
  const unknown = items.filter((i) => i !== '*' && !names.has(i.replace(/^-/, '')));
  if (unknown.length > 0) {
    throw new Error(
      `--controllers: unknown controller ${unknown.map((u) => `"${u}"`).join(', ')}; known: ${[...names].join(', ')}`,
    );
  }
  const enabled = new Set<string>();
  const star = items.length === 0 || items.includes('*');
  for (const c of known) {
    if (items.includes(`-${c.name}`)) continue;
    if (items.includes(c.name) || (star && c.enabledByDefault)) enabled.add(c.name);
  }
  return enabled;
}
