/**
 * Prometheus metrics in the text exposition format, kept by hand: a few
 * counters and gauges do not need a client library.
 */
export class Metrics {
  private readonly counters = new Map<string, number>();
  private readonly gauges = new Map<string, () => number>();
  private readonly help = new Map<string, string>();

  count(name: string, labels: Record<string, string> = {}, by = 1): void {
    const key = series(name, labels);
    this.counters.set(key, (this.counters.get(key) ?? 0) + by);
  }

  gauge(name: string, help: string, read: () => number): void {
    this.help.set(name, help);
    this.gauges.set(name, read);
  }

  describe(name: string, help: string): void {
    this.help.set(name, help);
  }

  render(): string {
    const lines: string[] = [];
    const names = new Set([
      ...[...this.counters.keys()].map((k) => k.split('{')[0]!),
      ...this.gauges.keys(),
    ]);
    for (const name of [...names].sort()) {
      const help = this.help.get(name);
      if (help !== undefined) lines.push(`# HELP ${name} ${help}`);
      const read = this.gauges.get(name);
      if (read !== undefined) {
        lines.push(`# TYPE ${name} gauge`, `${name} ${read()}`);
        continue;
      }
      lines.push(`# TYPE ${name} counter`);
      for (const [key, value] of this.counters)
        if (key.split('{')[0] === name) lines.push(`${key} ${value}`);
    }
    return lines.join('\n') + '\n';
  }
}

function series(name: string, labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return name;
  return `${name}{${entries.map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, '_')}"`).join(',')}}`;
}
