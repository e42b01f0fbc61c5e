/**
 * A terminal command's output as a model should read it (no vscode import): the raw data of a shell execution has
 * escape sequences (colours, cursor moves, VS Code's own shell-integration marks) and carriage returns that redraw a
 * progress line; a long output keeps its head (what ran) and its tail (where the error usually is).
 */

// CSI (colours, cursor), OSC (titles, links, shell-integration marks) ended by BEL or ST, and the two-byte escapes.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[P^_][^\u001b]*\u001b\\|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;

/** The text as the terminal showed it: escapes removed, each line as its last redraw left it, no trailing blanks. */
export function plainOutput(raw: string): string {
  const text = raw.replace(ESCAPES, '').replace(/\r\n/g, '\n');
  return text
    .split('\n')
    .map((line) => {
      const redrawn = line.lastIndexOf('\r', line.length - 2);
      return (redrawn >= 0 ? line.slice(redrawn + 1) : line).replace(/[\r\u0007\b]/g, '').trimEnd();
    })
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

/** The output within `budget` characters: whole, or its first lines and as much of its end as fits, with what was left out said. */
export function fitOutput(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const lines = text.split('\n');
  const headBudget = Math.floor(budget / 5);
  const head: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > headBudget) break;
    head.push(line);
    used += line.length + 1;
  }
  const tail: string[] = [];
  let tailUsed = 0;
  for (let i = lines.length - 1; i >= head.length; i--) {
    const line = lines[i]!;
    if (used + tailUsed + line.length + 1 > budget) {
      // A last line longer than the whole budget still shows its end.
      if (tail.length === 0) tail.push(`…${line.slice(line.length - (budget - used - 1))}`);
      break;
    }
    tail.unshift(line);
    tailUsed += line.length + 1;
  }
  const left = lines.length - head.length - tail.length;
  return [...head, `[… ${left} line(s) left out …]`, ...tail].join('\n');
}

/** How much raw output an execution keeps while it runs: its start, and a window on its end. */
const HEAD_CHARS = 8_000;
const TAIL_CHARS = 64_000;

/** Collects a running command's raw output in bounded memory, however much it prints. */
export class OutputCollector {
  #head = '';
  #tail = '';
  #dropped = 0;

  push(data: string): void {
    if (this.#head.length < HEAD_CHARS) {
      const room = HEAD_CHARS - this.#head.length;
      this.#head += data.slice(0, room);
      data = data.slice(room);
      if (data === '') return;
    }
    this.#tail += data;
    if (this.#tail.length > TAIL_CHARS * 2) {
      this.#dropped += this.#tail.length - TAIL_CHARS;
      this.#tail = this.#tail.slice(this.#tail.length - TAIL_CHARS);
    }
  }

  /** The plain text of what was kept, a mark where the middle was dropped. */
  text(): string {
    if (this.#dropped === 0) return plainOutput(this.#head + this.#tail);
    // The cut may fall inside a line or an escape: the partial first line of the tail goes.
    const tail = this.#tail.slice(this.#tail.indexOf('\n') + 1);
    return `${plainOutput(this.#head)}\n[… about ${Math.round(this.#dropped / 1000)} KB of output left out …]\n${plainOutput(tail)}`;
  }
}
