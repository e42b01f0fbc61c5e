// Terminal commands explained, in a real integrated terminal (bash with VS Code's shell integration): a command that
// fails as a user types it puts "Explain failure" in the status bar; @gateway /terminal sends the model the command,
// its directory, exit code and output (secrets masked), and its Insert into Terminal button puts the answer's command
// on that terminal's prompt, as Write Terminal Command does with the command it asked for. A stand-in gateway answers and records what it was sent.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { activate, askGateway, resetConfiguration, waitFor } from './helpers.ts';
import { useRecordingGateway, type RecordingGateway } from './recordingGateway.ts';

const FIX = 'mkdir -p mg-made && ls -d mg-made';
const ANSWER = `\`ls\` says the folder does not exist.\n\n\`\`\`bash\n${FIX}\n\`\`\`\n\nThis creates it and lists it.`;
const TOKEN = 'ghp_terminalSuiteToken0123456789abcdef';

/** A bash terminal with shell integration on, in `cwd`, shown. */
async function bashTerminal(name: string, cwd: string): Promise<vscode.Terminal> {
  const terminal = vscode.window.createTerminal({ name, shellPath: '/bin/bash', cwd });
  terminal.show();
  await waitFor(`shell integration in the terminal "${name}"`, () => terminal.shellIntegration, 60_000);
  return terminal;
}

/** Types `command` and Enter, as a user would, and waits until the shell says it ended. */
async function typeCommand(terminal: vscode.Terminal, command: string): Promise<vscode.TerminalShellExecutionEndEvent> {
  const ended = new Promise<vscode.TerminalShellExecutionEndEvent>((resolve) => {
    const subscription = vscode.window.onDidEndTerminalShellExecution((event) => {
      if (event.terminal !== terminal) return;
      subscription.dispose();
      resolve(event);
    });
  });
  terminal.sendText(command, true);
  return ended;
}

describe('Terminal commands explained', () => {
  let api: ModelGatewayApi;
  let gateway: RecordingGateway;
  let dir: string;
  let terminal: vscode.Terminal;
  const others: vscode.Terminal[] = [];
  const lastUserMessage = () => String(gateway.chats.at(-1)?.messages.at(-1)?.content ?? '');

  before(async () => {
    ({ api } = await activate());
    gateway = await useRecordingGateway(api, 'helper', ANSWER);
    dir = mkdtempSync(join(tmpdir(), 'mg-terminal-'));
    terminal = await bashTerminal('mg-terminal', dir);
  });

  after(async () => {
    for (const t of [terminal, ...others]) t?.dispose();
    await vscode.workspace.getConfiguration('modelGateway').update('terminal.explainFailures', undefined, vscode.ConfigurationTarget.Global);
    if (api) await resetConfiguration(api);
    await gateway?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('offers "Explain failure" in the status bar when a typed command fails, until one succeeds in that terminal', async () => {
    const end = await typeCommand(terminal, 'ls /mg-missing-dir');
    assert.equal(end.exitCode, 2);
    const status = api.terminalFailure;
    await waitFor('the offer to explain the failure', () => status.visible || undefined);
    assert.equal(status.failure?.command, 'ls /mg-missing-dir');
    assert.equal(status.failure?.exitCode, 2);
    assert.equal(status.failure?.terminal, terminal);

    await typeCommand(terminal, 'true');
    await waitFor('the offer to go once a command succeeds', () => !status.visible || undefined);

    // Ctrl+C (exit 130) is the user stopping a command, not a failure.
    await typeCommand(terminal, 'sh -c "exit 130"');
    assert.equal(status.visible, false, 'no offer for a command the user stopped');

    await vscode.workspace.getConfiguration('modelGateway').update('terminal.explainFailures', false, vscode.ConfigurationTarget.Global);
    await typeCommand(terminal, 'ls /mg-missing-dir');
    await waitFor('the failure to be known', () => status.failure?.command === 'ls /mg-missing-dir' || undefined);
    assert.equal(status.visible, false, 'the setting turns the offer off');
    await vscode.workspace.getConfiguration('modelGateway').update('terminal.explainFailures', true, vscode.ConfigurationTarget.Global);
    await waitFor('the offer back with the setting on', () => status.visible || undefined);
  });

  it('/terminal sends the command, its directory, exit code and masked output, and its button inserts the fix into that terminal', async () => {
    // The output holds a token, and the command is a quick one: VS Code's buffer has all of its output.
    const end = await typeCommand(terminal, `echo "GITHUB_TOKEN=${TOKEN}"; ls /mg-missing-dir`);
    assert.equal(end.exitCode, 2);
    const asked = gateway.chats.length;
    const answer = await askGateway(api, '', 'terminal');
    assert.equal(gateway.chats.length, asked + 1, `one request: ${answer.markdown}`);
    const sent = lastUserMessage();
    assert.match(sent, /^Command: echo "GITHUB_TOKEN=\*\*\*\*"; ls \/mg-missing-dir$/m);
    assert.match(sent, new RegExp(`^Directory: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    assert.match(sent, /^Exit code: 2$/m);
    assert.match(sent, /ls: cannot access '\/mg-missing-dir': No such file or directory/);
    assert.match(sent, /Why did it fail, and how do I fix it\?$/);
    assert.ok(!JSON.stringify(gateway.chats.at(-1)).includes(TOKEN), 'the token never reaches the gateway');
    assert.match(String(gateway.chats.at(-1)?.messages[0]?.content), /Linux, their shell bash/);
    assert.ok(answer.markdown.replace(/\\(.)/g, '$1').includes('About "echo "GITHUB_TOKEN=****"; ls /mg-missing-dir" in the terminal "mg-terminal" (exit code 2)'), answer.markdown);
    assert.ok(answer.markdown.includes('says the folder does not exist'), answer.markdown);
    assert.deepEqual(answer.buttons, ['Insert into Terminal']);
    // Kept for a follow-up question: the turn as the model was asked it.
    assert.equal((answer.result?.metadata as { asked?: string } | undefined)?.asked, sent);

    // The button puts the command on the prompt without running it; Enter (the user's) runs it there.
    const button = answer.commands[0]!;
    await vscode.commands.executeCommand(button.command, ...(button.arguments ?? []));
    const ran = await typeCommand(terminal, '');
    assert.equal(ran.execution.commandLine.value.trim(), FIX);
    assert.equal(ran.exitCode, 0);
  });

  it('reads the output of a command in a terminal that is not the active one from shell integration', async () => {
    const other = await bashTerminal('mg-terminal-other', dir);
    others.push(other);
    await typeCommand(other, 'sleep 0.3; cat mg-no-such-file');
    terminal.show();
    await waitFor('the first terminal to be the active one', () => vscode.window.activeTerminal === terminal || undefined);
    const last = await api.services.terminals.lastCommand(other);
    assert.equal(last?.command, 'sleep 0.3; cat mg-no-such-file');
    assert.equal(last?.exitCode, 1);
    assert.match(last?.output ?? '', /cat: mg-no-such-file: No such file or directory/);
  });

  it('/terminal about a command still running sends what it printed so far', async () => {
    const started = new Promise<void>((resolve) => {
      const subscription = vscode.window.onDidStartTerminalShellExecution((event) => {
        if (event.terminal !== terminal) return;
        subscription.dispose();
        resolve();
      });
    });
    terminal.show();
    terminal.sendText('echo mg-still-going; sleep 60', true);
    await started;
    await waitFor('the output so far to be read', async () => (await api.services.terminals.lastCommand(terminal))?.output.includes('mg-still-going') || undefined);
    await askGateway(api, '', 'terminal');
    const sent = lastUserMessage();
    assert.match(sent, /^Command: echo mg-still-going; sleep 60\nDirectory: .+\nIt is still running\.\nOutput/);
    assert.match(sent, /mg-still-going/);
    assert.match(sent, /What is it doing, and is something wrong\?$/);
    // Ctrl+C stops it: exit 130, which is not offered as a failure.
    const ended = new Promise<number | undefined>((resolve) => {
      const subscription = vscode.window.onDidEndTerminalShellExecution((event) => {
        if (event.terminal !== terminal) return;
        subscription.dispose();
        resolve(event.exitCode);
      });
    });
    terminal.sendText('\u0003', false);
    assert.equal(await ended, 130);
  });

  it('answers a question about the shell when no command has run in the terminal', async () => {
    const fresh = await bashTerminal('mg-terminal-fresh', dir);
    others.push(fresh);
    await waitFor('the new terminal to be the active one', () => vscode.window.activeTerminal === fresh || undefined);
    const answer = await askGateway(api, 'how do I list hidden files?', 'terminal');
    assert.equal(lastUserMessage(), 'how do I list hidden files?');
    assert.match(String(gateway.chats.at(-1)?.messages[0]?.content), /their shell bash/);
    assert.ok(!answer.markdown.includes('About "'), 'no command is described');
    const none = await askGateway(api, '', 'terminal');
    assert.match(none.markdown, /No command has run in the terminal "mg-terminal-fresh" yet/);
  });

  it('Write Terminal Command puts the command the model wrote for this shell on the active terminal\'s prompt', async () => {
    terminal.show();
    await waitFor('the terminal to be the active one', () => vscode.window.activeTerminal === terminal || undefined);
    const asked = gateway.chats.length;
    await vscode.commands.executeCommand('modelGateway.writeTerminalCommand', { description: 'make the folder mg-made and show it' });
    assert.equal(gateway.chats.length, asked + 1);
    const sent = gateway.chats.at(-1)!;
    assert.match(String(sent.messages[0]?.content), /write a command .* their shell bash\. Reply with the command alone/);
    assert.equal(sent.messages[1]?.content, `make the folder mg-made and show it\n\n(It runs in ${dir}.)`);
    // On the prompt, not run: Enter (the user's) runs it.
    const ran = await typeCommand(terminal, '');
    assert.equal(ran.execution.commandLine.value.trim(), FIX);
    assert.equal(ran.exitCode, 0);
  });

  it('Explain Terminal Failure shows the failed terminal and asks @gateway /terminal in the chat', async () => {
    await typeCommand(terminal, 'ls /mg-missing-again');
    await waitFor('the offer to explain the failure', () => (api.terminalFailure.visible && api.terminalFailure.failure?.command === 'ls /mg-missing-again') || undefined);
    const asked = gateway.chats.length;
    const failure = api.terminalFailure.failure!;
    await vscode.commands.executeCommand('modelGateway.explainTerminalFailure', failure.terminal);
    assert.equal(vscode.window.activeTerminal, terminal, 'the failed terminal is the one asked about');
    assert.equal(api.terminalFailure.visible, false, 'the offer is taken');
    await waitFor('the chat to ask the gateway', () => gateway.chats.length > asked || undefined, 60_000);
    assert.match(lastUserMessage(), /^Command: ls \/mg-missing-again$/m);
  });
});
