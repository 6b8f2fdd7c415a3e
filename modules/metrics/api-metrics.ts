/**
 * The server's Prometheus metrics (prom-client), under kube-apiserver's names, labels and stability classes,
 * plus process metrics. `/metrics` renders `render()`.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { PlainHistogram, type HistogramCell } from './plain-histogram.js';
import type { RequestLabels } from './request-labels.js';
import { annotatedHelp, validateShowHidden, visibility, type MetricSpec } from './stability.js';

export interface MetricsOptions {
  /** `major.minor` of the API server, e.g. `1.32` */
  currentVersion: string;
  /** `--show-hidden-metrics-for-version` */
  showHiddenForVersion?: string;
  warn: (message: string) => void;
  /** objects per resource (`configmaps`, `leases.coordination.k8s.io`), read when scraped */
  storageObjects?: () => Map<string, number>;
  /** the deprecated APIs requested so far, read when scraped */
  deprecatedApis?: () => DeprecatedApi[];
}

export interface DeprecatedApi {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  removed_release: string;
}

export interface WatchLabels {
  group: string;
  version: string;
  kind: string;
}

/** One label set of the request metrics, counted in plain numbers (prom-client hashes labels per call) */
interface RequestSeries {
  labels: Record<string, string>;
  /** requests answered, and how many of them the counter has been told of (at its last scrape) */
  n: number;
  reported: number;
  durations?: HistogramCell;
}

interface WatchCell {
  labels: WatchLabels;
  n: number;
  reported: number;
}

interface CountCell {
  labels: Record<string, string>;
  n: number;
  reported: number;
}

interface CountCell {
  labels: Record<string, string>;
  n: number;
  reported: number;
}

const REQUEST_LABELS = [
  'verb',
  'dry_run',
  'group',
  'version',
  'resource',
  'subresource',
  'scope',
  'component',
];
const DURATION_BUCKETS = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

export class ApiMetrics {
  readonly registry = new Registry();
  private readonly showHidden: boolean;
  private readonly durations?: PlainHistogram;
  private readonly longRunning?: Gauge;
  private readonly series = new Map<string, RequestSeries>();
  private readonly durationCells = new Map<string, HistogramCell>();
  /** watch events sent, counted by the watchers in plain numbers (a fan-out to thousands stays cheap) */
  private readonly watchCells = new Map<string, WatchCell>();
  /** the modes' allows and denies, counted in plain numbers (one per request) and told at scrape */
  private readonly decisions = new Map<string, CountCell>();
  /** the authorization webhook's calls (kube's apiserver_authorization_webhook_* metrics) */
  private readonly webhook: {
    evaluations?: Counter;
    failOpen?: Counter;
    durations?: PlainHistogram;
    cells: Map<string, HistogramCell>;
  } = { cells: new Map() };
  /** --authorization-config: reloads and match conditions, registered when first used */
  private readonly authzConfig: {
    reloads?: Counter;
    reloadTime?: Gauge;
    exclusions?: Counter;
    matchErrors?: Counter;
  } = {};
  /** in-flight requests by kind now, and the most seen since the last scrape (kube reports the peak) */
  private readonly current = { readOnly: 0, mutating: 0 };
  private readonly peak = { readOnly: 0, mutating: 0 };

  constructor(private readonly options: MetricsOptions) {
    validateShowHidden(options.showHiddenForVersion, options.currentVersion);
    this.showHidden = !!options.showHiddenForVersion;
    collectDefaultMetrics({ register: this.registry });
    const { current, peak, options: opts, series } = this;
    this.define(
      {
        name: 'apiserver_request_total',
        help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
        stability: 'STABLE',
      },
      (help) =>
        new Counter({
          name: 'apiserver_request_total',
          help,
          labelNames: [...REQUEST_LABELS, 'code'],
          registers: [this.registry],
          collect() {
            for (const s of series.values()) {
              if (s.n > s.reported) this.inc(s.labels, s.n - s.reported);
              s.reported = s.n;
            }
          },
        }),
    );
    this.durations = this.define(
      {
        name: 'apiserver_request_duration_seconds',
        help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
        stability: 'STABLE',
      },
      (help) =>
        new PlainHistogram('apiserver_request_duration_seconds', help, DURATION_BUCKETS, this.registry),
    );
    this.define(
      {
        name: 'apiserver_current_inflight_requests',
        help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
        stability: 'STABLE',
      },
      (help) =>
        new Gauge({
          name: 'apiserver_current_inflight_requests',
          help,
          labelNames: ['request_kind'],
          registers: [this.registry],
          collect() {
            for (const kind of ['readOnly', 'mutating'] as const) {
              this.set({ request_kind: kind }, peak[kind]);
              peak[kind] = current[kind];
            }
          },
        }),
    );
    this.longRunning = this.gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      stability: 'STABLE',
      labelNames: REQUEST_LABELS.filter((l) => l !== 'dry_run'),
    });
    this.define(
      {
        name: 'apiserver_storage_objects',
        help: 'Number of stored objects at the time of last check split by kind.',
        stability: 'STABLE',
      },
      (help) =>
        new Gauge({
          name: 'apiserver_storage_objects',
          help,
          labelNames: ['resource'],
          registers: [this.registry],
          collect() {
            this.reset();
            for (const [resource, n] of opts.storageObjects?.() ?? []) this.set({ resource }, n);
          },
        }),
    );
    this.define(
      {
        name: 'apiserver_requested_deprecated_apis',
        help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
        stability: 'STABLE',
      },
      (help) =>
        new Gauge({
          name: 'apiserver_requested_deprecated_apis',
          help,
          labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
          registers: [this.registry],
          collect() {
            for (const api of opts.deprecatedApis?.() ?? []) this.set({ ...api }, 1);
          },
        }),
    );
    const cells = this.watchCells;
    this.define(
      {
        name: 'apiserver_watch_events_total',
        help: 'Number of events sent in watch clients',
        stability: 'ALPHA',
      },
      (help) =>
        new Counter({
          name: 'apiserver_watch_events_total',
          help,
          labelNames: ['group', 'version', 'kind'],
          registers: [this.registry],
          collect() {
            for (const cell of cells.values()) {
              if (cell.n > cell.reported) this.inc(cell.labels, cell.n - cell.reported);
              cell.reported = cell.n;
            }
          },
        }),
    );
    const decisions = this.decisions;
    this.define(
      {
        name: 'apiserver_authorization_decisions_total',
        help: 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
        stability: 'ALPHA',
      },
      (help) =>
        new Counter({
          name: 'apiserver_authorization_decisions_total',
          help,
          labelNames: ['type', 'name', 'decision'],
          registers: [this.registry],
          collect() {
            for (const cell of decisions.values()) {
              if (cell.n > cell.reported) this.inc(cell.labels, cell.n - cell.reported);
              cell.reported = cell.n;
            }
          },
        }),
    );
  }

  /**
   * Registers a metric by the stability rules: its help carries its class (and deprecation); a deprecated
   * metric warns; a hidden one is registered only with --show-hidden-metrics-for-version; a deleted one never.
   */
  define<T>(spec: MetricSpec, make: (help: string) => T): T | undefined {
    const shown = visibility(spec, this.options.currentVersion);
    if (shown === 'deleted' || (shown === 'hidden' && !this.showHidden)) return undefined;
    if (spec.deprecatedVersion) {
      this.options.warn(`metric ${spec.name} is deprecated from ${spec.deprecatedVersion}`);
    }
    return make(annotatedHelp(spec));
  }

  gauge(spec: MetricSpec & { labelNames: string[] }): Gauge | undefined {
    return this.define(
      spec,
      (help) => new Gauge({ name: spec.name, help, labelNames: spec.labelNames, registers: [this.registry] }),
    );
  }

  /** A terminal decision (allowed, denied) of an authorizer of --authorization-mode, by its type and name. */
  authorizationDecision(type: string, name: string, decision: 'allowed' | 'denied'): void {
    const key = `${type}\0${name}\0${decision}`;
    let cell = this.decisions.get(key);
    if (!cell) {
      cell = { labels: { type, name, decision }, n: 0, reported: 0 };
      this.decisions.set(key, cell);
    }
    cell.n++;
  }

  /**
   * One call to an authorization webhook: its result (success, timeout, error, canceled) and how long it
   * took; a call that failed counts as failing open too (the webhook then has no opinion).
   */
  authorizationWebhook(
    name: string,
    result: 'success' | 'timeout' | 'error' | 'canceled',
    seconds: number,
    failOpen = result === 'timeout' || result === 'error',
  ): void {
    const w = this.webhook;
    if (!w.evaluations) this.defineWebhookMetrics();
    const labels = { name, result };
    w.evaluations?.inc(labels);
    if (failOpen) w.failOpen?.inc(labels);
    const key = `${name}\0${result}`;
    let cell = w.cells.get(key);
    if (!cell && w.durations) w.cells.set(key, (cell = w.durations.cell(labels)));
    cell?.observe(seconds);
  }

  /** An automatic reload of --authorization-config, by its outcome and this server's identity (hashed). */
  authorizationConfigReload(status: 'success' | 'failure', apiserverIdHash: string): void {
    const m = this.authzConfig;
    m.reloads ??= this.define(
      {
        name: 'apiserver_authorization_config_controller_automatic_reloads_total',
        help: 'Total number of automatic reloads of authorization configuration split by status and apiserver identity.',
        stability: 'ALPHA',
      },
      (help) =>
        new Counter({
          name: 'apiserver_authorization_config_controller_automatic_reloads_total',
          help,
          labelNames: ['apiserver_id_hash', 'status'],
          registers: [this.registry],
        }),
    );
    m.reloadTime ??= this.gauge({
      name: 'apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds',
      help: 'Timestamp of the last automatic reload of authorization configuration split by status and apiserver identity.',
      stability: 'ALPHA',
      labelNames: ['apiserver_id_hash', 'status'],
    });
    const labels = { apiserver_id_hash: apiserverIdHash, status };
    m.reloads?.inc(labels);
    m.reloadTime?.set(labels, Date.now() / 1000);
  }

  /** A webhook's match conditions skipped a request (excluded) or could not be evaluated (error). */
  authorizationMatchCondition(type: string, name: string, outcome: 'excluded' | 'error'): void {
    const m = this.authzConfig;
    const counter = (metric: string, help: string) =>
      this.define(
        { name: metric, help, stability: 'ALPHA' },
        (h) =>
          new Counter({ name: metric, help: h, labelNames: ['type', 'name'], registers: [this.registry] }),
      );
    if (outcome === 'excluded') {
      m.exclusions ??= counter(
        'apiserver_authorization_match_condition_exclusions_total',
        'Total number of exclusions when an authorization webhook is skipped because match conditions exclude it.',
      );
      m.exclusions?.inc({ type, name });
    } else {
      m.matchErrors ??= counter(
        'apiserver_authorization_match_condition_evaluation_errors_total',
        'Total number of errors when an authorization webhook encounters a match condition error split by authorizer type and name.',
      );
      m.matchErrors?.inc({ type, name });
    }
  }

  /** registered at the first webhook call: a server without one shows none, as kube's */
  private defineWebhookMetrics(): void {
    const counter = (name: string, help: string) =>
      this.define(
        { name, help, stability: 'ALPHA' },
        (h) => new Counter({ name, help: h, labelNames: ['name', 'result'], registers: [this.registry] }),
      );
    this.webhook.evaluations = counter(
      'apiserver_authorization_webhook_evaluations_total',
      'Round-trips to authorization webhooks.',
    );
    this.webhook.failOpen = counter(
      'apiserver_authorization_webhook_evaluations_fail_open_total',
      'NoOpinion results due to webhook timeout or error.',
    );
    this.webhook.durations = this.define(
      {
        name: 'apiserver_authorization_webhook_duration_seconds',
        help: 'Request latency in seconds.',
        stability: 'ALPHA',
      },
      (help) =>
        new PlainHistogram(
          'apiserver_authorization_webhook_duration_seconds',
          help,
          [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5, 10],
          this.registry,
        ),
    );
  }

  /** A request began; call the result with its status code when its response is over. */
  begin(labels: RequestLabels, kind: 'readOnly' | 'mutating' | 'longRunning'): (code: number) => void {
    const started = performance.now();
    const { dry_run: _dryRun, ...longRunningLabels } = labels;
    if (kind === 'longRunning') this.longRunning?.inc(longRunningLabels);
    else {
      this.current[kind]++;
      this.peak[kind] = Math.max(this.peak[kind], this.current[kind]);
    }
    let ended = false;
    return (code) => {
      if (ended) return;
      ended = true;
      if (kind === 'longRunning') this.longRunning?.dec(longRunningLabels);
      else this.current[kind]--;
      const series = this.seriesOf(labels, code);
      series.n++;
      series.durations?.observe((performance.now() - started) / 1000);
    };
  }

  /** The counts of a label set and status code (the duration histogram's cell is per label set). */
  private seriesOf(labels: RequestLabels, code: number): RequestSeries {
    const key = `${labelKey(labels)}\0${code}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: { ...labels, code: String(code) },
        n: 0,
        reported: 0,
        durations: this.durationCell(labels),
      };
      this.series.set(key, series);
    }
    return series;
  }

  private durationCell(labels: RequestLabels): HistogramCell | undefined {
    if (!this.durations) return undefined;
    const key = labelKey(labels);
    let cell = this.durationCells.get(key);
    if (!cell) this.durationCells.set(key, (cell = this.durations.cell({ ...labels })));
    return cell;
  }

  /** The counter a watch of this kind adds its sent events to. */
  watchEventCounter(labels: WatchLabels): { n: number } {
    const key = `${labels.group}/${labels.version}/${labels.kind}`;
    let cell = this.watchCells.get(key);
    if (!cell) {
      cell = { labels: { ...labels }, n: 0, reported: 0 };
      this.watchCells.set(key, cell);
    }
    return cell;
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** A map key for a set of request labels (those that vary: component is always the same) */
function labelKey(labels: RequestLabels): string {
  return `${labels.verb}\0${labels.dry_run}\0${labels.group}\0${labels.version}\0${labels.resource}\0${labels.subresource}\0${labels.scope}`;
}
