// cel-go's sets extension (enabled by kube since 1.29): contains, equivalent, intersects.
import type { Environment } from '@marcbachmann/cel-js';
import { celEquals } from '../values.js';

const has = (xs: unknown[], v: unknown) => xs.some((x) => celEquals(x, v));
const contains = (a: unknown[], b: unknown[]) => b.every((v) => has(a, v));

class SetsNamespace {}

export function registerSets(env: Environment): void {
  env.registerType('SetsNamespace', SetsNamespace);
  env.registerConstant('sets', 'SetsNamespace', new SetsNamespace());
  env.registerFunction(
    'SetsNamespace.contains(list<A>, list<A>): bool',
    (_: unknown, a: unknown[], b: unknown[]) => contains(a, b),
  );
  env.registerFunction(
    'SetsNamespace.equivalent(list<A>, list<A>): bool',
    (_: unknown, a: unknown[], b: unknown[]) => contains(a, b) && contains(b, a),
  );
  env.registerFunction(
    'SetsNamespace.intersects(list<A>, list<A>): bool',
    (_: unknown, a: unknown[], b: unknown[]) => b.some((v) => has(a, v)),
  );
}
