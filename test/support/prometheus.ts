/**
 * Prometheus text format: the document is parsed (and so validated) by an independent parser
 * (parse-prometheus-text-format); it folds labelled histograms together, so their series are read line by
 * line here.
 */
import { createRequire } from 'node:module';

export interface Sample {
  labels?: Record<string, string>;
  value?: string;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: string;
  metrics: Sample[];
}

const parse = createRequire(import.meta.url)('parse-prometheus-text-format') as (
  text: string,
) => MetricFamily[];

export function parsePrometheus(text: string): Map<string, MetricFamily> {
  return new Map(parse(text).map((f) => [f.name, f]));
}

/** the sample of a family whose labels include `labels` (undefined when none) */
export function sample(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Record<string, string>,
): Sample | undefined {
  return families
    .get(name)
    ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => (m.labels ?? {})[k] === v));
}

/** the value of the series `name{labels}` whose labels include `labels` (e.g. `x_bucket` with `le`) */
export function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}
