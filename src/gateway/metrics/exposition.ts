/**
 * Prometheus' text exposition format (version 0.0.4), for the few kinds of metric the gateway keeps:
 * counters and histograms with fixed label names (values kept per label set, in memory), and gauges
 * read when scraped. Label values are escaped as the format asks (backslash, double quote, newline).
 */

/** The media type Prometheus asks for and reads. */
export const EXPOSITION_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type Labels = Readonly<Record<string, string>>;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function labelText(names: readonly string[], values: readonly string[], extra = ''): string {
  const pairs = names.map((name, i) => `${name}="${escapeLabel(values[i] ?? '')}"`);
  if (extra) pairs.push(extra);
  return pairs.length > 0 ? `{${pairs.join(',')}}` : '';
}

/** A sample's value as the format writes it. */
function valueText(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function header(out: string[], name: string, help: string, type: string): void {
  out.push(`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${name} ${type}`);
}

/**
 * A family's values by label set: a map per label, nested, so that finding a set builds no key string (this runs
 * for every request). `all` lists them in the order they first appeared.
 */
class LabelSets<E extends { readonly labels: readonly string[] }> {
  readonly #root = new Map<string, unknown>();
  readonly all: E[] = [];
  readonly #make: (labels: readonly string[]) => E;

  constructor(make: (labels: readonly string[]) => E) {
    this.#make = make;
  }

  get(labels: readonly string[]): E {
    let node = this.#root;
    const last = labels.length - 1;
    for (let i = 0; i < last; i++) {
      let next = node.get(labels[i]!) as Map<string, unknown> | undefined;
      if (!next) {
        next = new Map();
        node.set(labels[i]!, next);
      }
      node = next;
    }
    const key = last >= 0 ? labels[last]! : '';
    let entry = node.get(key) as E | undefined;
    if (!entry) {
      entry = this.#make(labels);
      node.set(key, entry);
      this.all.push(entry);
    }
    return entry;
  }
}

export class Counter {
  readonly #values = new LabelSets((labels) => ({ labels, value: 0 }));
  readonly name: string;
  readonly #help: string;
  readonly #labelNames: readonly string[];
  readonly #format: (value: number) => string;

  /** `format` writes the summed value (a counter kept in integer units shown in larger ones, for example). */
  constructor(name: string, help: string, labelNames: readonly string[], format: (value: number) => string = valueText) {
    this.name = name;
    this.#help = help;
    this.#labelNames = labelNames;
    this.#format = format;
  }

  inc(labels: readonly string[], by = 1): void {
    this.#values.get(labels).value += by;
  }

  render(out: string[]): void {
    header(out, this.name, this.#help, 'counter');
    for (const { labels, value } of this.#values.all) out.push(`${this.name}${labelText(this.#labelNames, labels)} ${this.#format(value)}`);
  }
}

export class Histogram {
  readonly #values: LabelSets<{ readonly labels: readonly string[]; readonly counts: number[]; sum: number; count: number }>;

  readonly name: string;
  readonly #help: string;
  readonly #labelNames: readonly string[];
  readonly #buckets: readonly number[];

  /** `buckets`: upper bounds, ascending (+Inf is added). */
  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    this.name = name;
    this.#help = help;
    this.#labelNames = labelNames;
    this.#buckets = buckets;
    this.#values = new LabelSets((labels) => ({ labels, counts: new Array<number>(buckets.length).fill(0), sum: 0, count: 0 }));
  }

  observe(labels: readonly string[], value: number): void {
    const entry = this.#values.get(labels);
    // Counted in the first bucket it fits; render() makes them cumulative.
    const buckets = this.#buckets;
    for (let i = 0; i < buckets.length; i++) {
      if (value <= buckets[i]!) {
        entry.counts[i]!++;
        break;
      }
    }
    entry.sum += value;
    entry.count++;
  }

  render(out: string[]): void {
    header(out, this.name, this.#help, 'histogram');
    for (const { labels, counts, sum, count } of this.#values.all) {
      let cumulative = 0;
      this.#buckets.forEach((bound, i) => {
        cumulative += counts[i]!;
        out.push(`${this.name}_bucket${labelText(this.#labelNames, labels, `le="${valueText(bound)}"`)} ${cumulative}`);
      });
      out.push(`${this.name}_bucket${labelText(this.#labelNames, labels, 'le="+Inf"')} ${count}`);
      // Rounded: a sum of thousandths in binary floating point ends in ...000000001.
      out.push(`${this.name}_sum${labelText(this.#labelNames, labels)} ${valueText(Number(sum.toFixed(6)))}`);
      out.push(`${this.name}_count${labelText(this.#labelNames, labels)} ${count}`);
    }
  }
}

/** A gauge (or a counter the process keeps, such as its CPU time), its samples read now. */
export function renderSampled(out: string[], type: 'gauge' | 'counter', name: string, help: string, samples: ReadonlyArray<readonly [Labels, number]>): void {
  header(out, name, help, type);
  for (const [labels, value] of samples) out.push(`${name}${labelText(Object.keys(labels), Object.values(labels))} ${valueText(value)}`);
}
