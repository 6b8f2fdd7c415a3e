// kube's quantity library (since 1.28): quantity(), isQuantity() and Quantity's arithmetic and comparisons.
// A quantity is held exactly as a scaled BigInt: value = units / 10^scale.
import type { Environment } from '@marcbachmann/cel-js';
import { quantityError } from '../../schema/index.js';
import { CelRuntimeError } from '../values.js';

const binary: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const decimal: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const maxInt64 = (1n << 63n) - 1n;
const minInt64 = -(1n << 63n);

export class Quantity {
  constructor(
    readonly units: bigint,
    readonly scale: number,
  ) {}
  static parse(text: string): Quantity {
    const problem = quantityError(text);
    if (problem) throw new CelRuntimeError(problem);
    const m = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(text.trim())!;
    let units = BigInt((m[2] || '0') + (m[3] ?? '')) * (m[1] === '-' ? -1n : 1n);
    let scale = (m[3] ?? '').length;
    const suffix = m[4];
    if (suffix in binary) units *= binary[suffix];
    else {
      const exp = suffix in decimal ? decimal[suffix] : Number(suffix.slice(1));
      if (exp >= 0) {
        units *= 10n ** BigInt(Math.max(0, exp - scale));
        scale = Math.max(0, scale - exp);
      } else scale -= exp;
    }
    return new Quantity(units, scale);
  }
  private aligned(o: Quantity): [bigint, bigint, number] {
    const s = Math.max(this.scale, o.scale);
    return [this.units * 10n ** BigInt(s - this.scale), o.units * 10n ** BigInt(s - o.scale), s];
  }
  compare(o: Quantity): number {
    const [a, b] = this.aligned(o);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  add(o: Quantity, sign = 1n): Quantity {
    const [a, b, s] = this.aligned(o);
    return new Quantity(a + sign * b, s);
  }
  get isInteger(): boolean {
    const d = 10n ** BigInt(this.scale);
    return this.units % d === 0n && this.units / d <= maxInt64 && this.units / d >= minInt64;
  }
  equals(o: unknown): boolean {
    return o instanceof Quantity && this.compare(o) === 0;
  }
}

const fromInt = (n: bigint) => new Quantity(n, 0);

export function registerQuantity(env: Environment): void {
  env.registerType('kubernetes.Quantity', Quantity);
  env.registerFunction('quantity(string): kubernetes.Quantity', (s: string) => Quantity.parse(s));
  env.registerFunction('isQuantity(string): bool', (s: string) => quantityError(s) === undefined);
  const Q = 'kubernetes.Quantity';
  env.registerFunction(`${Q}.sign(): int`, (q: Quantity) => BigInt(Math.sign(Number(q.units))));
  env.registerFunction(`${Q}.isInteger(): bool`, (q: Quantity) => q.isInteger);
  env.registerFunction(`${Q}.asInteger(): int`, (q: Quantity) => {
    if (!q.isInteger) throw new CelRuntimeError('cannot convert value to integer');
    return q.units / 10n ** BigInt(q.scale);
  });
  env.registerFunction(`${Q}.asApproximateFloat(): double`, (q: Quantity) => Number(q.units) / 10 ** q.scale);
  env.registerFunction(`${Q}.add(${Q}): ${Q}`, (a: Quantity, b: Quantity) => a.add(b));
  env.registerFunction(`${Q}.add(int): ${Q}`, (a: Quantity, b: bigint) => a.add(fromInt(b)));
  env.registerFunction(`${Q}.sub(${Q}): ${Q}`, (a: Quantity, b: Quantity) => a.add(b, -1n));
  env.registerFunction(`${Q}.sub(int): ${Q}`, (a: Quantity, b: bigint) => a.add(fromInt(b), -1n));
  env.registerFunction(`${Q}.isLessThan(${Q}): bool`, (a: Quantity, b: Quantity) => a.compare(b) < 0);
  env.registerFunction(`${Q}.isGreaterThan(${Q}): bool`, (a: Quantity, b: Quantity) => a.compare(b) > 0);
  env.registerFunction(`${Q}.compareTo(${Q}): int`, (a: Quantity, b: Quantity) => BigInt(a.compare(b)));
  env.registerOperator(`${Q} == ${Q}`, (a: Quantity, b: Quantity) => a.equals(b));
}
