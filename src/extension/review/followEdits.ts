/**
 * Review findings follow the edits made after the review: below an edit they move with the lines, and a finding
 * on a line the edit touched goes (its line is no longer what the model saw). Pure: lines are 0-based.
 */

export interface LineEdit {
  /** The first and last line the replaced range spans. */
  readonly startLine: number;
  readonly endLine: number;
  /** Line breaks in the text put in its place. */
  readonly newLineBreaks: number;
}

/** Where each finding's line is after `edit`; null for one the edit touched. */
export function lineAfterEdit(line: number, edit: LineEdit): number | null {
  if (line < edit.startLine) return line;
  if (line > edit.endLine) return line + edit.newLineBreaks - (edit.endLine - edit.startLine);
  return null;
}
