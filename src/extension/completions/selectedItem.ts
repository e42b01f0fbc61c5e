/**
 * Inline completions beside VS Code's suggest widget (no vscode import). While the widget is open with an
 * item selected, VS Code shows ghost text only when it starts with that item's text and replaces the same
 * range (InlineCompletionContext.selectedCompletionInfo); anything else is dropped silently, so typing an
 * identifier the language server knows would hide every answer. The model is asked to continue the text as
 * if the item were accepted, and the ghost text is the item followed by the answer (provider.ts), as Copilot does.
 */

/** The selected item as offsets in the text a request is built from. */
export interface SelectedItem {
  /** Where the item's range starts and ends in the text (its end is usually the cursor). */
  readonly start: number;
  readonly end: number;
  /** What accepting the item puts in that range. */
  readonly text: string;
}

/** The text, and the cursor in it, as they will be once the item is accepted. */
export function acceptItem(text: string, item: SelectedItem): { text: string; offset: number } {
  return { text: text.slice(0, item.start) + item.text + text.slice(item.end), offset: item.start + item.text.length };
}
