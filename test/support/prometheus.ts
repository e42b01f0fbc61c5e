/**
 * A strict reader of Prometheus' text exposition format (0.0.4), written from the format's description and
 * independent of the gateway's writer: every sample must belong to a family declared by # TYPE before it
 * (a histogram's as _bucket, _sum or _count), label values are unescaped (\\, \", \n), and a series may
 * appear once. Anything else throws, so a scrape Prometheus would refuse fails the test.
 */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function labelsOf(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let at = 0;
  while (at < text.length) {
    const eq = text.indexOf('=', at);
    const name = text.slice(at, eq);
    if (eq < 0 || !NAME.test(name) || text[eq + 1] !== '"') throw new Error(`bad label in: ${line}`);
    let value = '';
    let i = eq + 2;
    for (; i < text.length && text[i] !== '"'; i++) {
      if (text[i] !== '\\') {
        value += text[i];
        continue;
      }
      const escaped = text[++i];
      if (escaped === 'n') value += '\n';
      else if (escaped === '\\' || escaped === '"') value += escaped;
      else throw new Error(`bad escape in: ${line}`);
    }
    if (i >= text.length) throw new Error(`unterminated label value in: ${line}`);
    if (name in labels) throw new Error(`label ${name} twice in: ${line}`);
    labels[name] = value;
    at = i + 1;
    if (text[at] === ',') at++;
    else if (at < text.length) throw new Error(`bad label separator in: ${line}`);
  }
  return labels;
}

function valueOf(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value in: ${line}`);
  return Number(text);
}

export function parseExposition(text: string): Sample[] {
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  const types = new Map<string, string>();
  const seen = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ');
      if (!name || !NAME.test(name) || !['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type ?? '')) throw new Error(`bad TYPE: ${line}`);
      if (types.has(name)) throw new Error(`TYPE twice: ${line}`);
      types.set(name, type!);
      continue;
    }
    if (line.startsWith('#') || line === '') continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`bad sample: ${line}`);
    const [, name, labelText, valueText] = match;
    const family = types.has(name!) ? name! : name!.replace(/_(bucket|sum|count)$/, '');
    const type = types.get(family);
    if (!type || (family !== name && type !== 'histogram' && type !== 'summary')) throw new Error(`sample without its # TYPE: ${line}`);
    const labels = labelsOf(labelText ?? '', line);
    if (name!.endsWith('_bucket') && type === 'histogram' && labels['le'] === undefined) throw new Error(`bucket without le: ${line}`);
    const series = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(series)) throw new Error(`series twice: ${line}`);
    seen.add(series);
    samples.push({ name: name!, labels, value: valueOf(valueText!, line) });
  }
  return samples;
}
