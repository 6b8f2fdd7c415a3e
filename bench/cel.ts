/**
 * bench/cel: evaluations per second of compiled CEL programs (kube's libraries and cost tracking on) against
 * the same rule as a bare JavaScript function, in the same run. Each expression compiles once, then
 * evaluates N times.
 *
 *   npm run build && node dist/bench/cel.js [--n=200000]
 */
import { celEnvironment } from '../modules/cel/index.js';
import { arg } from './support.js';

const N = Number(arg('n', '200000'));

const env = celEnvironment({ variables: { self: 'map<string, dyn>', oldSelf: 'map<string, dyn>' } });
const self = {
  metadata: { name: 'web', labels: { app: 'web', tier: 'frontend' } },
  spec: { replicas: 3n, ports: [{ port: 80n }, { port: 443n }], image: 'registry.example/web:1.2.3' },
};
const oldSelf = { spec: { replicas: 2n } };

const cases: [string, string, (s: typeof self, o: typeof oldSelf) => unknown][] = [
  [
    'field compare',
    'self.spec.replicas >= oldSelf.spec.replicas',
    (s, o) => s.spec.replicas >= o.spec.replicas,
  ],
  [
    'list macro',
    'self.spec.ports.all(p, p.port > 0 && p.port < 65536)',
    (s) => s.spec.ports.every((p) => p.port > 0n && p.port < 65536n),
  ],
  [
    'strings + regex',
    "self.metadata.name.matches('^[a-z0-9-]+$') && self.spec.image.contains(':')",
    (s) => /^[a-z0-9-]+$/.test(s.metadata.name) && s.spec.image.includes(':'),
  ],
  ['quantity', "quantity('500m').isLessThan(quantity('1'))", () => 500 < 1000],
];

function rate(fn: () => unknown): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) fn();
  return N / (Number(process.hrtime.bigint() - started) / 1e9);
}

for (const [name, expression, bare] of cases) {
  const compiled = env.compile(expression);
  if (!compiled.ok) throw new Error(compiled.error);
  const program = compiled.program;
  const activation = { self, oldSelf };
  const cel = rate(() => program.evaluate(activation));
  const js = rate(() => bare(self, oldSelf));
  console.log(
    `${name.padEnd(16)} cel ${Math.round(cel).toLocaleString('en-US').padStart(10)} evals/s   bare JS ${Math.round(js).toLocaleString('en-US').padStart(13)} /s   ratio ${(cel / js).toFixed(4)}`,
  );
}
