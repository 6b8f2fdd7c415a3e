// cel-go's string() of durations and timestamps, which cel-js lacks: seconds with their fraction (`7200s`,
// `1.5s`) and RFC 3339 with nanoseconds only as needed (`2024-01-01T00:00:00.123Z`).
import type { Environment } from '@marcbachmann/cel-js';

export function registerConversions(env: Environment): void {
  env.registerFunction('string(google.protobuf.Duration): string', (d: { toString(): string }) =>
    d.toString(),
  );
  env.registerFunction('string(google.protobuf.Timestamp): string', (t: Date) =>
    t.toISOString().replace(/\.(\d*?)0*Z$/, (_, digits: string) => (digits ? `.${digits}Z` : 'Z')),
  );
}
