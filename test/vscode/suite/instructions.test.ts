// The repository's instructions for AI assistants in a real editor: AGENTS.md and .github/copilot-instructions.md at
// the workspace's root and the AGENTS.md nearest the file at hand go with @gateway chat and Edit Selection as the
// system message (a repository's root's with Generate Commit Message), the chat lists them as references, and modelGateway.useInstructionFiles turns it off. A stand-in
// gateway records the bodies it gets, so what the model was sent is read as sent.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { activate, askGateway, resetConfiguration, waitFor } from './helpers.ts';
import { useRecordingGateway } from './recordingGateway.ts';
import type { RecordingGateway } from './recordingGateway.ts';
import { openInGit } from './gitInEditor.ts';
import { repositoryWithCommit } from '../../support/gitRepository.ts';

const ROOT_RULE = 'Name every test after the behaviour it checks (mg-root-rule).';
const COPILOT_RULE = 'Prefer early returns (mg-copilot-rule).';
const NESTED_RULE = 'In this package, use tabs (mg-nested-rule).';

describe('repository instructions (AGENTS.md)', () => {
  let api: ModelGatewayApi;
  let gateway: RecordingGateway;
  let root: string;
  let code: vscode.Uri;
  const created: string[] = [];

  before(async () => {
    ({ api } = await activate());
    gateway = await useRecordingGateway(api, 'recorded-model', '```\nedited();\n```');
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const write = (path: string, text: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
      created.push(join(root, path));
    };
    write('AGENTS.md', `# Conventions\n\n${ROOT_RULE}\n`);
    write('.github/copilot-instructions.md', `${COPILOT_RULE}\n`);
    write('mg-instructions/pkg/AGENTS.md', `${NESTED_RULE}\n`);
    write('mg-instructions/other/AGENTS.md', 'Not for this file (mg-other-rule).\n');
    write('mg-instructions/pkg/src/code.ts', 'export function greet() {\n  return "hi";\n}\n');
    code = vscode.Uri.file(join(root, 'mg-instructions/pkg/src/code.ts'));
  });

  after(async () => {
    await vscode.workspace.getConfiguration('modelGateway').update('useInstructionFiles', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const file of created) rmSync(file, { force: true });
    rmSync(join(root, 'mg-instructions'), { recursive: true, force: true });
    rmSync(join(root, '.github'), { recursive: true, force: true }); // the suite's own temp workspace: only this test writes there
    if (api) await resetConfiguration(api);
    await gateway?.close();
  });

  /** @gateway asked `prompt`: the files it listed as references. */
  async function ask(prompt: string): Promise<string[]> {
    const { references } = await askGateway(api, prompt);
    return references.map((r) => vscode.workspace.asRelativePath(r instanceof vscode.Uri ? r : r.uri));
  }

  const lastSystem = (): string => {
    const first = gateway.chats.at(-1)!.messages[0]!;
    return first.role === 'system' ? String(first.content) : '';
  };

  it('@gateway sends the root\'s instructions and the AGENTS.md nearest the open file, nearest last, and lists them', async () => {
    await vscode.window.showTextDocument(code);
    const references = await ask('how should I name this test?');
    const system = lastSystem();
    for (const rule of [ROOT_RULE, COPILOT_RULE, NESTED_RULE]) assert.ok(system.includes(rule), `the system message holds "${rule}":\n${system}`);
    assert.ok(system.indexOf(ROOT_RULE) < system.indexOf(NESTED_RULE), 'the nearest file comes last (it wins)');
    assert.doesNotMatch(system, /mg-other-rule/, 'an AGENTS.md off the open file\'s path is not sent');
    assert.match(system, /<instructions file="mg-instructions\/pkg\/AGENTS\.md">/);
    assert.deepEqual(references, ['AGENTS.md', '.github/copilot-instructions.md', 'mg-instructions/pkg/AGENTS.md']);
    assert.equal(gateway.chats.at(-1)!.messages.at(-1)!.content, 'how should I name this test?');
  });

  it('Edit Selection sends them after its own instructions', async () => {
    const editor = await vscode.window.showTextDocument(code);
    editor.selection = new vscode.Selection(1, 0, 2, 0);
    await vscode.commands.executeCommand('modelGateway.editSelection', { instruction: 'say hello' });
    const system = lastSystem();
    assert.match(system, /^You edit code in the user's editor\./);
    assert.ok(system.includes(NESTED_RULE) && system.includes(ROOT_RULE), system);
    assert.equal(editor.document.getText(), 'export function greet() {\nedited();\n}\n');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('Generate Commit Message sends the AGENTS.md at the root of the repository the commit is for', async () => {
    const repo = repositoryWithCommit('mg-instructions-commit-', { path: 'a.ts', content: 'export const a = 1;\n' }, 'first');
    try {
      repo.write('AGENTS.md', 'Commit subjects follow Conventional Commits (mg-commit-rule).\n');
      repo.write('a.ts', 'export const a = 2;\n');
      repo.git('add', 'a.ts');
      const { repository, close } = await openInGit(repo.dir);
      try {
        repository.inputBox.value = '';
        await vscode.commands.executeCommand('modelGateway.generateCommitMessage', { rootUri: repository.rootUri });
        await waitFor('the commit message in the message box', () => repository.inputBox.value || undefined);
        const system = lastSystem();
        assert.match(system, /mg-commit-rule/);
        assert.doesNotMatch(system, /mg-root-rule/, 'the workspace folder is not this repository: its AGENTS.md is not about these commits');
      } finally {
        await close();
      }
    } finally {
      rmSync(repo.dir, { recursive: true, force: true });
    }
  });

  it('sends none of them with modelGateway.useInstructionFiles off', async () => {
    await vscode.workspace.getConfiguration('modelGateway').update('useInstructionFiles', false, vscode.ConfigurationTarget.Global);
    await waitFor('the extension to read the setting', () => api.services.settings.current.useInstructionFiles === false || undefined);
    await vscode.window.showTextDocument(code);
    const references = await ask('and now?');
    assert.deepEqual(references, []);
    assert.equal(gateway.chats.at(-1)!.messages[0]!.role, 'user', 'no system message');
  });
});
