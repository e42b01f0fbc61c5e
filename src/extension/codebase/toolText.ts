/** What the codebase tool gives the model: the excerpts, each headed by its path and lines, fenced so that no excerpt's own fences end its block. Pure. */
import { fenceFor } from '../chat/fence.ts';

export interface ToolExcerpt {
  readonly label: string;
  readonly text: string;
}

export function toolText(query: string, model: string, excerpts: readonly ToolExcerpt[]): string {
  if (excerpts.length === 0) return `No code of the workspace was found for "${query}" (searched with the embedding model ${model}).`;
  const blocks = excerpts.map(({ label, text }) => {
    const fence = fenceFor(text);
    return `${label}\n${fence}\n${text}\n${fence}`;
  });
  return `The ${excerpts.length} excerpts of the workspace's code nearest to "${query}" (embedding model ${model}), best first:\n\n${blocks.join('\n\n')}`;
}
