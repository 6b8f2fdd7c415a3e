// kube's lists library: isSorted, sum, min, max, indexOf, lastIndexOf on lists of comparable values.
import { evaluate, type Environment } from '@marcbachmann/cel-js';
import { CelRuntimeError, celEquals, compareValues } from '../values.js';

type Ctor = new (v: unknown) => unknown;
const UnsignedInt = (evaluate('1u') as object).constructor as Ctor;
const zeroDuration = evaluate('duration("0s")') as { addDuration(o: unknown): unknown };

const comparable = [
  'int',
  'uint',
  'double',
  'bool',
  'string',
  'bytes',
  'google.protobuf.Duration',
  'google.protobuf.Timestamp',
];
const summable: Record<string, (xs: unknown[]) => unknown> = {
  int: (xs) => (xs as bigint[]).reduce((a, b) => a + b, 0n),
  uint: (xs) => new UnsignedInt(xs.reduce<bigint>((a, b) => a + (b as { valueOf(): bigint }).valueOf(), 0n)),
  double: (xs) => (xs as number[]).reduce((a, b) => a + b, 0),
  'google.protobuf.Duration': (xs) =>
    xs.reduce((a, b) => (a as { addDuration(o: unknown): unknown }).addDuration(b), zeroDuration),
};

function extreme(name: 'min' | 'max', xs: unknown[]): unknown {
  if (xs.length === 0) throw new CelRuntimeError(`${name} called on empty list`);
  let best = xs[0];
  for (const x of xs) {
    const c = compareValues(x, best);
    if (name === 'min' ? c < 0 : c > 0) best = x;
  }
  return best;
}

export function registerLists(env: Environment): void {
  for (const t of comparable) {
    env.registerFunction(`list<${t}>.isSorted(): bool`, (xs: unknown[]) =>
      xs.every((x, i) => i === 0 || compareValues(xs[i - 1], x) <= 0),
    );
    env.registerFunction(`list<${t}>.min(): ${t}`, (xs: unknown[]) => extreme('min', xs));
    env.registerFunction(`list<${t}>.max(): ${t}`, (xs: unknown[]) => extreme('max', xs));
  }
  for (const [t, sum] of Object.entries(summable)) env.registerFunction(`list<${t}>.sum(): ${t}`, sum);
  env.registerFunction('list<A>.indexOf(A): int', (xs: unknown[], v: unknown) =>
    BigInt(xs.findIndex((x) => celEquals(x, v))),
  );
  env.registerFunction('list<A>.lastIndexOf(A): int', (xs: unknown[], v: unknown) => {
    for (let i = xs.length - 1; i >= 0; i--) if (celEquals(xs[i], v)) return BigInt(i);
    return -1n;
  });
}
