/**
 * What a command works from: the text a caller gave (a key binding's or a quick fix's argument), else what the user
 * types in an input box whose hint is their last answer. Typed answers are remembered (ten at most); given ones are not.
 */
import * as vscode from 'vscode';

export interface Question {
  readonly title: string;
  readonly prompt: string;
  /** The hint before anything was typed. */
  readonly example: string;
}

/** The text as given or typed; undefined when the user cancels or it is empty. */
export async function givenOrAsked(given: unknown, history: string[], question: Question): Promise<string | undefined> {
  if (typeof given === 'string') return given.trim() === '' ? undefined : given;
  const typed = await vscode.window.showInputBox({ title: question.title, prompt: question.prompt, placeHolder: history[0] ?? question.example, ignoreFocusOut: true });
  if (!typed?.trim()) return undefined;
  history.splice(0, history.length, typed, ...history.slice(0, 9));
  return typed;
}
