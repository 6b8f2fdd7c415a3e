/**
 * The Helm chart (charts/pgkube) and the sidecar example for their specs: rendering with the real helm and
 * kubectl, and validating the manifests offline against Kubernetes schemas for the kinds pgkube does not serve.
 *
 * Offline, every manifest is validated against Kubernetes v1.32's OpenAPI definitions (test/support/kube-schema.ts)
 * and the ServiceMonitor against `@kubernetes-models/prometheus-operator` (its ajv validator checks types,
 * required fields and formats but lets unknown fields through, so it is also type-checked as an object literal
 * of the package's TypeScript interface, which refuses unknown fields).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parseAllDocuments, stringify } from 'yaml';
import { helm, kubectl, type ToolResult } from './kubectl.js';
import { hasKubeSchema, validateKube } from './kube-schema.js';

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

/** Kinds outside Kubernetes' own API, validated by their model class (ajv) and TypeScript interface. */
const MODEL_KINDS: Record<string, { module: string; cls: string; iface: string }> = {
  'monitoring.coreos.com/v1/ServiceMonitor': {
    module: '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
    cls: 'ServiceMonitor',
    iface: 'IServiceMonitor',
  },
};

export const kindKey = (m: Manifest) => `${m.apiVersion}/${m.kind}`;
export const isServed = (m: Manifest) => SERVED_KINDS.has(kindKey(m));
export const isOfflineKind = (m: Manifest) =>
  hasKubeSchema(m.apiVersion, m.kind) || kindKey(m) in MODEL_KINDS;
const label = (m: Manifest) =>
  `${m.kind} ${m.metadata.namespace ? `${m.metadata.namespace}/` : ''}${m.metadata.name}`;

/**
 * Errors of the manifests, one line each (none: valid): Kubernetes kinds against v1.32's definitions, the others
 * against their models. A manifest of a kind known to neither is an error too: nothing goes unvalidated.
 */
export async function validateOffline(manifests: Manifest[]): Promise<string[]> {
  const errors: string[] = [];
  const modelled: Manifest[] = [];
  for (const m of manifests) {
    const model = MODEL_KINDS[kindKey(m)];
    if (!model) {
      errors.push(...validateKube(m).map((e) => `${label(m)}: ${e}`));
      continue;
    }
    modelled.push(m);
    const mod = (await import(model.module)) as Record<string, new (data: unknown) => { validate(): void }>;
    try {
      new mod[model.cls](structuredClone(m)).validate();
    } catch (e) {
      errors.push(`${label(m)}: ${(e as Error).message}`);
    }
  }
  errors.push(...(await typecheck(modelled)));
  return errors;
}

/** Each manifest as an object literal of its kind's interface: unknown fields and wrong types are errors. */
async function typecheck(manifests: Manifest[]): Promise<string[]> {
  if (manifests.length === 0) return [];
  const dir = path.join(repoRoot, 'dist-test', '.chart-typecheck');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `manifests-${process.pid}.ts`);
  const modules = [...new Set(manifests.map((m) => MODEL_KINDS[kindKey(m)].module))];
  const header = modules.map((mod, i) => `import type * as k${i} from ${JSON.stringify(mod)};`);
  // one line per manifest: a diagnostic's line names its manifest
  const body = manifests.map((m, i) => {
    const model = MODEL_KINDS[kindKey(m)];
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
