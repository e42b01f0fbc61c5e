// What inline completion sends of the other open files, in a real editor: the part of each most like the code before
// the cursor, not its first lines (the function used here sits 12 KB into the other file, past what its start would
// give). A stand-in gateway records the fill-in-the-middle request the real provider sends.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { activate, resetConfiguration, waitFor } from './helpers.ts';
import { useRecordingGateway } from './recordingGateway.ts';
import type { RecordingGateway } from './recordingGateway.ts';

const FILLER = Array.from({ length: 120 }, (_, i) => `export function helperNumber${i}(value: number): number {\n  return value * ${i} + offsetFor${i}(value);\n}\n`).join('\n');
const INVOICES = [
  '// invoices: totals and taxes',
  FILLER,
  'export function parseInvoiceTotal(invoice: Invoice, taxRate: number): number {',
  '  const subtotal = invoice.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);',
  '  return Math.round(subtotal * (1 + taxRate) * 100) / 100;',
  '}',
  FILLER.replaceAll('helperNumber', 'otherHelper'),
].join('\n');
const CHECKOUT = 'import { parseInvoiceTotal } from "./invoices";\n\nexport function checkout(invoice: Invoice, taxRate: number) {\n  const total = parseInvoiceTotal(';

describe('inline completion and the other open files', () => {
  let api: ModelGatewayApi;
  let gateway: RecordingGateway;
  let folder: string;

  before(async () => {
    ({ api } = await activate());
    gateway = await useRecordingGateway(api, 'recorded-fim', 'invoice, taxRate);');
    await vscode.workspace.getConfiguration('modelGateway').update('completionModel', 'recorded-fim', vscode.ConfigurationTarget.Global);
    await waitFor('the completion model', () => api.services.settings.current.completionModel === 'recorded-fim' || undefined);
    folder = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'mg-neighbours');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'invoices.ts'), INVOICES);
    writeFileSync(join(folder, 'checkout.ts'), CHECKOUT);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('modelGateway').update('completionModel', undefined, vscode.ConfigurationTarget.Global);
    rmSync(folder, { recursive: true, force: true });
    if (api) await resetConfiguration(api);
    await gateway?.close();
  });

  it('sends the function the cursor\'s code uses, from deep inside the other file, not the file\'s start', async () => {
    await vscode.window.showTextDocument(vscode.Uri.file(join(folder, 'invoices.ts')), { viewColumn: vscode.ViewColumn.One });
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(join(folder, 'checkout.ts')), { viewColumn: vscode.ViewColumn.Two });
    const end = editor.document.positionAt(CHECKOUT.length);
    const source = new vscode.CancellationTokenSource();
    try {
      const context = { triggerKind: vscode.InlineCompletionTriggerKind.Invoke, selectedCompletionInfo: undefined } as vscode.InlineCompletionContext;
      const items = await api.completions.provider.provideInlineCompletionItems(editor.document, end, context, source.token);
      assert.equal((items?.[0]?.insertText as string | undefined), 'invoice, taxRate);');
    } finally {
      source.dispose();
    }
    const prompt = gateway.completions.at(-1)?.prompt ?? '';
    assert.match(prompt, /\/\/ Path: mg-neighbours\/invoices\.ts\n/);
    assert.match(prompt, /\/\/ export function parseInvoiceTotal\(invoice: Invoice, taxRate: number\): number \{\n\/\/ {3}const subtotal/);
    assert.doesNotMatch(prompt, /invoices: totals and taxes/, 'the file\'s first lines are not what the cursor needs');
    assert.ok(prompt.endsWith('// Path: mg-neighbours/checkout.ts\n' + CHECKOUT), prompt.slice(-300));
  });
});
