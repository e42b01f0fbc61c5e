// "Edit Selection with Instructions" in a real editor, through the gateway's echo model. Echo says back what it
// was asked, and the first fenced block of its answer is what replaces the selection: the code before the
// selection, which the request carries as context. So each edit below is known to the character.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import * as vscode from 'vscode';
import { setSettings, suiteGatewayHooks, waitFor } from './helpers.ts';

const CODE = 'const a = 1;\nfunction sum(x, y) {\n  return x + y;\n}\nexport { sum };\n';

describe('Edit Selection with Instructions', () => {
  const gateway = suiteGatewayHooks();

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  // Each test's document has a name of its own: VS Code names untitled documents Untitled-1, -2, ... and reuses a
  // name once its document is closed, and a reused name could get the closed document's backup (a dirty one's text)
  // as its content, which made a test edit the text the test before it had typed.
  let documents = 0;
  async function editorWith(selection: vscode.Selection): Promise<vscode.TextEditor> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(`untitled:mg-edit-selection-${Date.now()}-${++documents}.ts`));
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), CODE), { undoStopBefore: false, undoStopAfter: true });
    assert.equal(document.getText(), CODE);
    assert.equal(document.languageId, 'typescript');
    editor.selection = selection;
    return editor;
  }

  it('replaces the selected lines with the answer\'s code, as one edit that Undo takes back', async () => {
    const editor = await editorWith(new vscode.Selection(1, 0, 4, 0));
    await vscode.commands.executeCommand('modelGateway.editSelection', { instruction: 'add types' });
    assert.equal(editor.document.getText(), 'const a = 1;\nconst a = 1;\nexport { sum };\n');
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), CODE);
  });

  it('edits the cursor\'s line when nothing is selected', async () => {
    const editor = await editorWith(new vscode.Selection(4, 3, 4, 3));
    await vscode.commands.executeCommand('modelGateway.editSelection', { instruction: 'export it as default' });
    assert.equal(editor.document.getText(), `${CODE.slice(0, CODE.indexOf('export'))}${CODE.slice(0, CODE.indexOf('export'))}`);
  });

  it('leaves the file alone when it changed while the model was writing', async () => {
    const editor = await editorWith(new vscode.Selection(1, 0, 4, 0));
    const running = vscode.commands.executeCommand('modelGateway.editSelection', { instruction: 'add types' });
    // The echo model takes 15 ms a word: the request is on its way well before it answers.
    await sleep(300);
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// typed meanwhile\n'));
    await running;
    assert.equal(editor.document.getText(), `// typed meanwhile\n${CODE}`);
  });

  it('offers "Fix with Model Gateway" on an error, which rewrites the lines the error is on', async () => {
    const editor = await editorWith(new vscode.Selection(0, 0, 0, 0));
    const diagnostics = vscode.languages.createDiagnosticCollection('mg-suite');
    try {
      const problem = new vscode.Diagnostic(new vscode.Range(2, 9, 2, 14), 'Operator \'+\' cannot be applied to types \'x\' and \'y\'.', vscode.DiagnosticSeverity.Error);
      diagnostics.set(editor.document.uri, [problem]);
      const action = await waitFor('the quick fix in the light bulb', async () => {
        const found = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, problem.range, vscode.CodeActionKind.QuickFix.value);
        return found?.find((a) => a.title === 'Fix with Model Gateway');
      });
      await vscode.commands.executeCommand(action.command!.command, ...(action.command!.arguments ?? []));
      // Line 3 (the error's) replaced, whole, by the code before it that the request carried.
      assert.equal(editor.document.getText(), 'const a = 1;\nfunction sum(x, y) {\nconst a = 1;\nfunction sum(x, y) {\n}\nexport { sum };\n');
    } finally {
      diagnostics.dispose();
    }
  });

  it('offers no fix for a hint, nor without a chat model', async () => {
    const editor = await editorWith(new vscode.Selection(0, 0, 0, 0));
    const diagnostics = vscode.languages.createDiagnosticCollection('mg-suite');
    const titles = async (severity: vscode.DiagnosticSeverity) => {
      const problem = new vscode.Diagnostic(new vscode.Range(2, 9, 2, 14), 'something', severity);
      diagnostics.set(editor.document.uri, [problem]);
      const found = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, problem.range, vscode.CodeActionKind.QuickFix.value);
      return (found ?? []).map((a) => a.title);
    };
    try {
      assert.ok(!(await titles(vscode.DiagnosticSeverity.Hint)).includes('Fix with Model Gateway'));
      assert.ok((await titles(vscode.DiagnosticSeverity.Warning)).includes('Fix with Model Gateway'));
      await setSettings(gateway.api, { model: undefined });
      assert.ok(!(await titles(vscode.DiagnosticSeverity.Error)).includes('Fix with Model Gateway'));
    } finally {
      diagnostics.dispose();
      await setSettings(gateway.api, { model: 'echo' });
    }
  });
});
