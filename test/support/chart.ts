/**
 * The Helm chart (charts/pgkube) and the sidecar example for their specs: rendering with the real helm and
 * kubectl, and validating the manifests offline against Kubernetes schemas for the kinds pgkube does not serve.
 *
 * Offline schemas come from npm: `kubernetes-models` 4.5.0 (generated from Kubernetes v1.33's OpenAPI, the
 * nearest published to v1.32: a superset, so a field new in v1.33 would pass) and
 * `@kubernetes-models/prometheus-operator` (ServiceMonitor). Their validators (ajv) check types, required
 * fields and formats but let unknown fields through, so the manifests are also type-checked as object literals
 * of the packages' TypeScript interfaces, which refuses unknown fields (excess property checks).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parseAllDocuments, stringify } from 'yaml';
import { helm, kubectl, type ToolResult } from './kubectl.js';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const chartDir = path.join(repoRoot, 'charts', 'pgkube');
export const sidecarExampleDir = path.join(repoRoot, 'examples', 'sidecar');

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: any;
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((d) => {
      if (d.errors.length > 0) throw new Error(d.errors[0].message);
      return d.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null && m !== undefined);
}

function ok(r: ToolResult, what: string): string {
  if (r.code !== 0) throw new Error(`${what} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** `helm template` of the chart; `kubeconfig` only gives helm a place for its state (no server is asked). */
export async function renderChart(
  kubeconfig: string,
  options: { release?: string; namespace?: string; valuesFiles?: string[]; set?: string[] } = {},
): Promise<Manifest[]> {
  const args = [
    'template',
    options.release ?? 'pgkube',
    chartDir,
    '--namespace',
    options.namespace ?? 'pgkube',
  ];
  for (const f of options.valuesFiles ?? []) args.push('--values', f);
  for (const s of options.set ?? []) args.push('--set', s);
  return parseManifests(ok(await helm(args, { kubeconfig }), `helm ${args.join(' ')}`));
}

export async function renderSidecarExample(kubeconfig: string): Promise<Manifest[]> {
  return parseManifests(
    ok(await kubectl(['kustomize', sidecarExampleDir], { kubeconfig }), 'kubectl kustomize'),
  );
}

/** The kinds pgkube serves, validated by a live pgkube (`kubectl apply --dry-run=server --validate=strict`). */
export const SERVED_KINDS = new Set([
  'v1/ServiceAccount',
  'v1/Service',
  'v1/ConfigMap',
  'v1/Secret',
  'v1/Namespace',
  'rbac.authorization.k8s.io/v1/ClusterRole',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding',
  'rbac.authorization.k8s.io/v1/Role',
  'rbac.authorization.k8s.io/v1/RoleBinding',
  'apiregistration.k8s.io/v1/APIService',
  'apiextensions.k8s.io/v1/CustomResourceDefinition',
]);

/** The kinds validated offline: the model class (ajv) and TypeScript interface of each. */
const OFFLINE_KINDS: Record<string, { module: string; cls: string; iface: string }> = {
  'apps/v1/Deployment': { module: 'kubernetes-models/apps/v1', cls: 'Deployment', iface: 'IDeployment' },
  'apps/v1/StatefulSet': { module: 'kubernetes-models/apps/v1', cls: 'StatefulSet', iface: 'IStatefulSet' },
  'policy/v1/PodDisruptionBudget': {
    module: 'kubernetes-models/policy/v1',
    cls: 'PodDisruptionBudget',
    iface: 'IPodDisruptionBudget',
  },
  'networking.k8s.io/v1/NetworkPolicy': {
    module: 'kubernetes-models/networking.k8s.io/v1',
    cls: 'NetworkPolicy',
    iface: 'INetworkPolicy',
  },
  'monitoring.coreos.com/v1/ServiceMonitor': {
    module: '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
    cls: 'ServiceMonitor',
    iface: 'IServiceMonitor',
  },
};

export const kindKey = (m: Manifest) => `${m.apiVersion}/${m.kind}`;
export const isServed = (m: Manifest) => SERVED_KINDS.has(kindKey(m));
export const isOfflineKind = (m: Manifest) => kindKey(m) in OFFLINE_KINDS;
const label = (m: Manifest) =>
  `${m.kind} ${m.metadata.namespace ? `${m.metadata.namespace}/` : ''}${m.metadata.name}`;

/**
 * Errors of the manifests of offline kinds, one line each (none: valid). A manifest of a kind known to neither
 * pgkube nor the offline schemas is an error too: nothing goes unvalidated.
 */
export async function validateOffline(manifests: Manifest[]): Promise<string[]> {
  const errors: string[] = [];
  const offline: Manifest[] = [];
  for (const m of manifests) {
    if (isServed(m)) continue;
    const model = OFFLINE_KINDS[kindKey(m)];
    if (!model) {
      errors.push(`${label(m)}: no schema for ${kindKey(m)}`);
      continue;
    }
    offline.push(m);
    const mod = (await import(model.module)) as Record<string, new (data: unknown) => { validate(): void }>;
    try {
      new mod[model.cls](structuredClone(m)).validate();
    } catch (e) {
      errors.push(`${label(m)}: ${(e as Error).message}`);
    }
  }
  errors.push(...(await typecheck(offline)));
  return errors;
}

/** Each manifest as an object literal of its kind's interface: unknown fields and wrong types are errors. */
async function typecheck(manifests: Manifest[]): Promise<string[]> {
  if (manifests.length === 0) return [];
  const dir = path.join(repoRoot, 'dist-test', '.chart-typecheck');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `manifests-${process.pid}.ts`);
  const modules = [...new Set(manifests.map((m) => OFFLINE_KINDS[kindKey(m)].module))];
  const header = modules.map((mod, i) => `import type * as k${i} from ${JSON.stringify(mod)};`);
  // one line per manifest: a diagnostic's line names its manifest
  const body = manifests.map((m, i) => {
    const model = OFFLINE_KINDS[kindKey(m)];
    return `export const m${i}: k${modules.indexOf(model.module)}.${model.iface} = ${JSON.stringify(m)};`;
  });
  await writeFile(file, [...header, ...body].join('\n') + '\n');
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return `typecheck: ${text}`;
    const line = d.file.getLineAndCharacterOfPosition(d.start).line;
    const m = manifests[line - header.length];
    return `${m ? label(m) : d.file.fileName}: ${text}`;
  });
}

/** `kubectl apply --dry-run=server --validate=strict` of the served kinds' manifests; the output on failure. */
export async function validateByServer(kubeconfig: string, manifests: Manifest[]): Promise<ToolResult> {
  const input = manifests
    .filter(isServed)
    .map((m) => stringify(m))
    .join('---\n');
  return kubectl(['apply', '--dry-run=server', '--validate=strict', '-f', '-'], { kubeconfig, input });
}
