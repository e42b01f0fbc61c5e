/** The line above a @gateway answer saying which attachments were cut or left out (references.ts). Pure. */
import { escapeMarkdown } from '../errors/explain.ts';
import { english } from '../translate.ts';
import type { Translate } from '../translate.ts';
import type { ReferenceNote } from './references.ts';

export function referenceNotesMarkdown(notes: readonly ReferenceNote[], t: Translate = english): string {
  const why: Record<ReferenceNote['reason'], string> = {
    cut: t('sent in part (too long to send whole)'),
    too_large: t('left out (the file is larger than 5 MB)'),
    over_total: t('left out (the attachments before it filled the room)'),
    unreadable: t('left out (it could not be read)'),
    image_not_sent: t('left out (an image, and the model asked is not known to take images)'),
    tool_failed: t('left out (the tool failed or is not available)'),
    tool_no_input: t('left out (the tool needs input, and the model gave none: it may not call tools)'),
  };
  return notes.map((note) => `_${escapeMarkdown(note.label)}: ${why[note.reason]}_`).join('  \n');
}
