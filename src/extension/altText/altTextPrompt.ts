/** What the chat model is asked for an image's alt text: the image, and the document text around it. Pure. */
import type { ChatMessage } from '../../contract/index.ts';

export const ALT_TEXT_SYSTEM =
  'You write alt text for images in documents. Answer with the alt text only: one sentence of at most 125 characters saying what the image shows that matters to a reader who cannot see it, in the language of the document. Do not start with "Image of" or "Picture of". If the image holds text that matters, include it.';

export interface AltTextAsk {
  /** The image as a `data:` URL. */
  readonly image: string;
  /** The document's lines around the image (its heading, the sentence before), for what matters in it. */
  readonly context: string;
  readonly path: string;
  /** The alt text the image has now, if any. */
  readonly current: string;
}

export function altTextMessages(ask: AltTextAsk): ChatMessage[] {
  const text = [
    `The image ${ask.path} in this part of a Markdown document:`,
    '',
    ask.context,
    '',
    ask.current.trim() === '' ? 'It has no alt text yet.' : `Its alt text now: ${ask.current.trim()}`,
  ].join('\n');
  return [
    { role: 'system', content: ALT_TEXT_SYSTEM },
    { role: 'user', content: [{ type: 'text', text }, { type: 'image_url', image_url: { url: ask.image } }] },
  ];
}
