/**
 * A histogram kept as plain bucket counts per label set and rendered by prom-client's registry when scraped.
 * prom-client's own `observe` validates and hashes the labels on every call, which cost ~1.5 µs of every API
 * request; here a request finds its label set's counts once and adds to them.
 */
import type { Registry } from 'prom-client';

export interface HistogramCell {
  observe(value: number): void;
}

interface Cell extends HistogramCell {
  labels: Record<string, string>;
  /** observations per bucket (not cumulative); the last one counts those above every bound */
  counts: number[];
  sum: number;
  count: number;
}

export class PlainHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly cells: Cell[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /** The counts of one label set; keep it, and observe through it. */
  cell(labels: Record<string, string>): HistogramCell {
    const cell: Cell = {
      labels: { ...labels },
      counts: new Array<number>(this.buckets.length + 1).fill(0),
      sum: 0,
      count: 0,
      observe: (value) => {
        let i = 0;
        while (i < this.buckets.length && value > this.buckets[i]) i++;
        cell.counts[i]++;
        cell.sum += value;
        cell.count++;
      },
    };
    this.cells.push(cell);
    return cell;
  }

  /** prom-client's form of a histogram: cumulative `_bucket` samples by `le`, then `_sum` and `_count` */
  get() {
    const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
    for (const cell of this.cells) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += cell.counts[i];
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...cell.labels }, value: cumulative });
      });
      values.push({
        metricName: `${this.name}_bucket`,
        labels: { le: '+Inf', ...cell.labels },
        value: cell.count,
      });
      values.push({ metricName: `${this.name}_sum`, labels: cell.labels, value: cell.sum });
      values.push({ metricName: `${this.name}_count`, labels: cell.labels, value: cell.count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** zeroes every label set's counts (cells are held by their users, so they stay) */
  reset(): void {
    for (const cell of this.cells) {
      cell.counts.fill(0);
      cell.sum = 0;
      cell.count = 0;
    }
  }
}
