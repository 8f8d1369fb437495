/**
 * The figures an operator watches, in Prometheus's exposition format, kept by
 * prom-client in a registry of this app's own (tests build several apps in one
 * process). docs/deployment.md lists each metric and the alert to set on it.
 *
 * Counters are declared here with their labels, so a typo in a name or a label
 * is a type error. Gauges that read the database (pool, leases, journal head,
 * rounds, fairness alerts) are read when scraped, not kept up to date.
 */
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type LabelValues,
} from 'prom-client';

const COUNTERS = {
  cussec_http_requests_total: {
    help: 'HTTP requests answered, by route and status',
    labels: ['route', 'status'],
  },
  cussec_bets_total: {
    help: 'bets asked for, by result (placed or refused) and transport (http or ws)',
    labels: ['result', 'via'],
  },
  cussec_commands_total: {
    help: 'table commands asked for over HTTP, by type and result',
    labels: ['type', 'result'],
  },
  cussec_events_published_total: {
    help: 'round events published to this node’s sockets',
    labels: [],
  },
  cussec_cage_movements_total: { help: 'cage deposits and withdrawals', labels: ['kind'] },
  cussec_logins_total: { help: 'logins, by result (ok, refused, throttled)', labels: ['result'] },
  cussec_fairness_alerts_total: {
    help: 'fairness alerts raised (Art. 1.1): a chi-square p-value under the threshold',
    labels: ['table', 'span', 'test'],
  },
} as const;

type CounterName = keyof typeof COUNTERS;
type LabelsOf<N extends CounterName> = (typeof COUNTERS)[N]['labels'][number];

/** Seconds; bets and commits are a few ms, a settlement of thousands of bets can take a second. */
const LATENCY_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Fan-out of one commit to a node's sockets: from microseconds to tens of ms for thousands. */
const FANOUT_BUCKETS_S = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1];

/** What the scrape-time gauges read; each may reach the database. */
export interface MetricsSources {
  /** The database's connections: open, busy in a transaction or query, and callers waiting for one. */
  readonly connections: () => { open: number; inUse: number; waiting: number };
  /** Tables whose lease this node holds. */
  readonly leasesHeld: () => Promise<number>;
  /** The newest seq in the journal, and the newest this node has delivered to its sockets. */
  readonly journal: () => Promise<{ headSeq: number; deliveredSeq: number }>;
  /** Tables by the phase of their current round. */
  readonly roundsByPhase: () => Promise<ReadonlyMap<string, number>>;
  /** WebSocket clients connected to this node. */
  readonly sockets: () => number;
  /** How full the database's queue of journal notices is (0–1); a floor's nodes only. */
  readonly noticeQueueUsage?: () => Promise<number>;
}

export class Metrics {
  readonly registry = new Registry();
  /** From a command's arrival at the table service to its answer, after the commit (group commit included). */
  readonly betAckSeconds = new Histogram({
    name: 'cussec_bet_ack_seconds',
    help: 'time from a bet reaching the table service to its acknowledgement after the commit',
    buckets: LATENCY_BUCKETS_S,
    registers: [this.registry],
  });
  /** One batch's transaction, from BEGIN to COMMIT. */
  readonly commitSeconds = new Histogram({
    name: 'cussec_commit_seconds',
    help: 'duration of one group commit (a batch of a table’s commands in one transaction)',
    buckets: LATENCY_BUCKETS_S,
    registers: [this.registry],
  });
  /** The pay-all command (Art. 4), from its arrival to its answer. */
  readonly settlementSeconds = new Histogram({
    name: 'cussec_settlement_seconds',
    help: 'time to settle a round (pay-all, Art. 4), from the command to its commit',
    buckets: LATENCY_BUCKETS_S,
    registers: [this.registry],
  });
  /** Writing one commit's events to this node's sockets. */
  readonly fanoutSeconds = new Histogram({
    name: 'cussec_socket_fanout_seconds',
    help: 'time to write one commit’s events to every socket of the table on this node',
    buckets: FANOUT_BUCKETS_S,
    registers: [this.registry],
  });
  private readonly counters = new Map<CounterName, Counter<string>>();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    for (const [name, spec] of Object.entries(COUNTERS))
      this.counters.set(
        name as CounterName,
        new Counter({ name, help: spec.help, labelNames: spec.labels, registers: [this.registry] }),
      );
  }

  count<N extends CounterName>(name: N, labels: LabelValues<LabelsOf<N>> = {}, by = 1): void {
    this.counters.get(name)!.inc(labels, by);
  }

  /** The gauges read at each scrape. */
  watch(sources: MetricsSources): void {
    const registers = [this.registry];
    new Gauge({
      name: 'cussec_db_connections',
      help: 'database connections by state: open, in_use, and callers waiting for one',
      labelNames: ['state'],
      registers,
      collect() {
        const c = sources.connections();
        this.set({ state: 'open' }, c.open);
        this.set({ state: 'in_use' }, c.inUse);
        this.set({ state: 'waiting' }, c.waiting);
      },
    });
    new Gauge({
      name: 'cussec_leases_held',
      help: 'tables whose lease (betting timer) this node holds',
      registers,
      async collect() {
        this.set(await sources.leasesHeld());
      },
    });
    new Gauge({
      name: 'cussec_journal_seq',
      help: 'the journal’s newest seq (head) and the newest this node delivered to its sockets',
      labelNames: ['of'],
      registers,
      async collect() {
        const { headSeq, deliveredSeq } = await sources.journal();
        this.set({ of: 'head' }, headSeq);
        this.set({ of: 'delivered' }, deliveredSeq);
      },
    });
    new Gauge({
      name: 'cussec_rounds',
      help: 'tables by the phase of their current round',
      labelNames: ['phase'],
      registers,
      async collect() {
        this.reset();
        for (const [phase, n] of await sources.roundsByPhase()) this.set({ phase }, n);
      },
    });
    new Gauge({
      name: 'cussec_websocket_clients',
      help: 'WebSocket clients connected to this node',
      registers,
      collect() {
        this.set(sources.sockets());
      },
    });
    const noticeQueueUsage = sources.noticeQueueUsage;
    if (noticeQueueUsage !== undefined)
      new Gauge({
        name: 'cussec_notice_queue_usage',
        help: 'how full PostgreSQL’s queue of journal notices is, 0 to 1',
        registers,
        async collect() {
          this.set(await noticeQueueUsage());
        },
      });
  }

  /** Fairness alerts raised and not cleared, over every table (read from the fairness service). */
  watchFairness(alertsOpen: () => Promise<number>): void {
    new Gauge({
      name: 'cussec_fairness_alerts_open',
      help: 'fairness alerts raised and not cleared, over every table (Art. 1.1)',
      registers: [this.registry],
      async collect() {
        this.set(await alertsOpen());
      },
    });
  }

  /** Log lines lost (a full disk, a stuck output): counted by the log sink, read at each scrape. */
  watchLogSink(sink: { readonly dropped: number }): void {
    let reported = 0;
    new Counter({
      name: 'cussec_log_lines_dropped_total',
      help: 'log lines dropped because the output could not take them (a full disk, a stuck pipe)',
      registers: [this.registry],
      collect() {
        this.inc(sink.dropped - reported);
        reported = sink.dropped;
      },
    });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
