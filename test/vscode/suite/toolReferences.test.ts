// Tools named with # in a @gateway prompt are run and their answers attached, through the suite gateway (echo says
// back what it was sent, attachments included): #terminalLastCommand, VS Code's own tool, needs no input; the
// codebase tool needs a query, which the chat model gives when made to call it (echo calls a tool when told
// `call <name> {input}`), and a model that gives none has the tool left out, said under the answer.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { askGateway, suiteGatewayHooks, waitFor } from './helpers.ts';

const promptWith = (text: string, name: string, typed: string) => {
  const at = text.indexOf(typed);
  return { prompt: text, toolReferences: [{ name, range: [at, at + typed.length] as [number, number] }] };
};

describe('@gateway with #tools in the prompt', () => {
  const shared = suiteGatewayHooks();
  let terminal: vscode.Terminal | undefined;

  after(async () => {
    terminal?.dispose();
    await vscode.workspace.getConfiguration('modelGateway').update('embeddingModel', undefined, vscode.ConfigurationTarget.Global);
  });

  it('runs #terminalLastCommand and sends its answer with the prompt', async () => {
    terminal = vscode.window.createTerminal({ name: 'mg-tools', shellPath: '/bin/bash' });
    terminal.show();
    const shell = await waitFor('shell integration', () => terminal!.shellIntegration, 60_000);
    await waitFor('the terminal to be the active one', () => vscode.window.activeTerminal === terminal || undefined);
    const ended = new Promise<void>((resolve) => {
      const subscription = vscode.window.onDidEndTerminalShellExecution((event) => {
        if (event.terminal !== terminal) return;
        subscription.dispose();
        resolve();
      });
    });
    shell.executeCommand('ls /mg-tools-missing');
    await ended;
    const ask = promptWith('why did #terminalLastCommand fail?', 'terminal_last_command', '#terminalLastCommand');
    const answer = await askGateway(shared.api, ask.prompt, undefined, [], ask.toolReferences);
    // Echo says back the prompt and then each attachment under its label.
    assert.match(answer.markdown, /You said: why did #terminalLastCommand fail\?/);
    assert.match(answer.markdown, /#terminalLastCommand:/);
    assert.match(answer.markdown, /ls \/mg-tools-missing/);
    assert.match(answer.markdown, /It exited with code: 2/);
    assert.match(answer.markdown, /No such file or directory/);
  });

  it('asks the model for the input of a tool that needs one (#gatewayCodebase), then runs it', async () => {
    await vscode.workspace.getConfiguration('modelGateway').update('embeddingModel', 'echo-embedding', vscode.ConfigurationTarget.Global);
    await waitFor('the embedding model setting', () => shared.api.services.settings.current.embeddingModel === 'echo-embedding' || undefined);
    const ask = promptWith('call modelGateway_searchCodebase {"query":"mg-tool-query"} #gatewayCodebase', 'modelGateway_searchCodebase', '#gatewayCodebase');
    const answer = await askGateway(shared.api, ask.prompt, undefined, [], ask.toolReferences);
    // The tool's own words, with the query the model gave it.
    assert.match(answer.markdown, /#gatewayCodebase:[\s\S]*nearest to "mg-tool-query"|#gatewayCodebase:[\s\S]*found for "mg-tool-query"/, answer.markdown);
    assert.doesNotMatch(answer.markdown, /left out/);
  });

  it('leaves out a tool that needs input the model did not give, and says so', async () => {
    const ask = promptWith('look around #gatewayCodebase', 'modelGateway_searchCodebase', '#gatewayCodebase');
    const answer = await askGateway(shared.api, ask.prompt, undefined, [], ask.toolReferences);
    assert.match(answer.markdown, /#gatewayCodebase: left out \(the tool needs input, and the model gave none: it may not call tools\)/);
    assert.match(answer.markdown, /You said: look around #gatewayCodebase/);
    assert.doesNotMatch(answer.markdown, /#gatewayCodebase:\n/);
  });
});
