// @gateway /codebase in a real editor, through the suite gateway's offline models: echo-embedding (lexical: texts that
// share words point the same way) indexes the workspace, echo answers with what it was sent. So the answer holds the
// excerpts the search found, and the references name their files and lines. The index is kept in the workspace's
// storage and brought up to date before each question: only changed files are embedded again.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { CodebaseIndex, type RefreshReport } from '../../../src/extension/codebase/codebaseIndex.ts';
import { askGateway, suiteGatewayHooks, waitFor } from './helpers.ts';

const RETRY = [
  'export async function retryRequest(send: () => Promise<Response>, attempts = 3): Promise<Response> {',
  '  for (let attempt = 1; ; attempt++) {',
  '    const response = await send();',
  '    if (response.ok || attempt === attempts) return response;',
  '    await backoff(attempt);',
  '  }',
  '}',
  '',
  'function backoff(attempt: number): Promise<void> {',
  '  return new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));',
  '}',
].join('\n');
const COLORS = 'export const palette = { primary: "navy", accent: "coral", muted: "slate" };\nexport function shade(color: string) { return `${color}-dark`; }\n';
const BUTTON = 'export function renderButton(label: string): string {\n  return `<button class="primary">${label}</button>`;\n}\n';

interface Answer {
  readonly markdown: string;
  readonly references: vscode.Location[];
  readonly buttons: string[];
}

describe('@gateway /codebase', () => {
  const gateway = suiteGatewayHooks();
  let folder: string;

  before(async () => {
    const root = vscode.workspace.workspaceFolders?.[0];
    assert.ok(root, 'the editor of this suite opens a workspace folder');
    folder = join(root.uri.fsPath, 'mg-codebase');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'retry.ts'), RETRY);
    writeFileSync(join(folder, 'colors.ts'), COLORS);
    writeFileSync(join(folder, 'button.ts'), BUTTON);
    writeFileSync(join(folder, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    // Where secrets live: never read, never sent, though its words match the question below.
    writeFileSync(join(folder, '.env'), 'RETRY_REQUESTS_BACKOFF_TOKEN=sk-retried-requests-backoff-secret\n');
    writeFileSync(join(folder, 'deploy.key'), 'where are requests retried with backoff? sk-key-file-secret\n');
    // What the repository's .gitignore leaves out (generated code) is not indexed, though it matches too.
    writeFileSync(join(folder, '.gitignore'), 'generated/\n');
    mkdirSync(join(folder, 'generated'), { recursive: true });
    writeFileSync(join(folder, 'generated', 'retryClient.ts'), '// where are requests retried with backoff? generatedRetryClient\n');
  });

  after(async () => {
    await setEmbeddingModel(undefined);
    await gateway.api?.services.codebase?.clear();
    rmSync(folder, { recursive: true, force: true });
  });

  async function setEmbeddingModel(model: string | undefined): Promise<void> {
    await vscode.workspace.getConfiguration('modelGateway').update('embeddingModel', model, vscode.ConfigurationTarget.Global);
    await waitFor('the extension to read the embedding model', () => gateway.api.services.settings.current.embeddingModel === (model ?? '') || undefined);
  }

  /** `/codebase <prompt>`: what it showed, the code it found as references (locations). */
  async function ask(prompt: string): Promise<Answer> {
    const answer = await askGateway(gateway.api, prompt, 'codebase');
    return { ...answer, references: answer.references.filter((r): r is vscode.Location => r instanceof vscode.Location) };
  }

  const fileOf = (location: vscode.Location) => vscode.workspace.asRelativePath(location.uri);

  const invokeTool = async (query: string): Promise<string> => {
    const source = new vscode.CancellationTokenSource();
    try {
      const result = await vscode.lm.invokeTool('modelGateway_searchCodebase', { input: { query }, toolInvocationToken: undefined }, source.token);
      return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    } finally {
      source.dispose();
    }
  };

  it('without an embedding model, offers to pick one and asks nothing', async () => {
    const answer = await ask('where are requests retried?');
    assert.match(answer.markdown, /needs an embedding model/);
    assert.deepEqual(answer.buttons, ['Pick Embedding Model']);
    assert.deepEqual(answer.references, []);
    // The tool says it to the model that called it.
    await assert.rejects(invokeTool('where are requests retried?'), /Pick Embedding Model/);
  });

  it('indexes the workspace, then answers with the code that matches the question, shown as references', async () => {
    await setEmbeddingModel('echo-embedding');
    const answer = await ask('where are requests retried with backoff?');
    assert.match(answer.markdown, /Indexed \d+ changed files with echo-embedding \([\d,]+ tokens, \$[\d.]+\); the index holds \d+ files\./);
    assert.equal(fileOf(answer.references[0]!), 'mg-codebase/retry.ts', `first reference: ${answer.references.map(fileOf)}`);
    assert.deepEqual([answer.references[0]!.range.start.line, answer.references[0]!.range.end.line], [0, 10], 'the whole file, one chunk');
    // Echo says back what it was sent: the question, then the excerpts, each headed by its path and lines.
    assert.match(answer.markdown, /You said: where are requests retried with backoff\?/);
    assert.match(answer.markdown, /mg-codebase\/retry\.ts:1-11:/);
    assert.match(answer.markdown, /export async function retryRequest/);
    assert.ok(!answer.references.some((r) => fileOf(r).endsWith('logo.png')), 'binary files are not indexed');
    assert.ok(!answer.references.some((r) => /\.env$|\.key$/.test(fileOf(r))), `secret files are not indexed: ${answer.references.map(fileOf)}`);
    assert.doesNotMatch(answer.markdown, /secret/);
    assert.ok(!answer.references.some((r) => fileOf(r).includes('generated/')), `ignored files are not indexed: ${answer.references.map(fileOf)}`);
    assert.doesNotMatch(answer.markdown, /generatedRetryClient/);
  });

  it('is a tool any chat model can call (#gatewayCodebase): the nearest excerpts with their paths and lines', async () => {
    const tool = vscode.lm.tools.find((t) => t.name === 'modelGateway_searchCodebase');
    assert.ok(tool, 'the tool is registered');
    assert.deepEqual(tool.inputSchema && (tool.inputSchema as { required?: string[] }).required, ['query']);
    const text = await invokeTool('where are requests retried with backoff?');
    assert.match(text, /^The \d excerpts of the workspace's code nearest to "where are requests retried with backoff\?" \(embedding model echo-embedding\), best first:\n\nmg-codebase\/retry\.ts:1-11\n```\nexport async function retryRequest/);
    assert.doesNotMatch(text, /secret/);
  });

  it('embeds again only the files that changed, and drops the ones deleted', async () => {
    const unchanged = await vscode.commands.executeCommand<RefreshReport>('modelGateway.indexCodebase');
    assert.deepEqual([unchanged.embeddedFiles, unchanged.tokens, unchanged.removedFiles], [0, 0, 0], 'nothing changed: nothing embedded');
    const colors = await ask('what colors are in the palette?');
    assert.doesNotMatch(colors.markdown, /Indexed/);
    assert.match(colors.markdown, /You said: what colors are in the palette\?\n\nmg-codebase\/colors\.ts:1-2:/);

    writeFileSync(join(folder, 'button.ts'), `${BUTTON}export function jitterDelay(ms: number): number {\n  return ms * (0.5 + Math.random());\n}\n`);
    unlinkSync(join(folder, 'colors.ts'));
    const changed = await vscode.commands.executeCommand<RefreshReport>('modelGateway.indexCodebase');
    assert.deepEqual([changed.embeddedFiles, changed.removedFiles], [1, 1]);
    assert.ok(changed.tokens > 0);
    const answer = await ask('how is the jitter delay computed?');
    assert.equal(fileOf(answer.references[0]!), 'mg-codebase/button.ts');
    assert.match(answer.markdown, /jitterDelay/);
    assert.ok(!answer.references.some((r) => fileOf(r) === 'mg-codebase/colors.ts'), 'a deleted file is no longer found');
  });

  it('is kept in the workspace storage: a new window reads it back without embedding anything', async () => {
    const { services } = gateway.api;
    const fresh = new CodebaseIndex(services.context.storageUri!, services.log, () => []);
    const source = new vscode.CancellationTokenSource();
    const report = await fresh.refresh(await services.connection.require(), 'echo-embedding', () => undefined, source.token);
    source.dispose();
    assert.equal(report.embeddedFiles, 0);
    assert.ok(report.files >= 2 && report.chunks >= 2, `${report.files} files, ${report.chunks} chunks`);
    const hits = await fresh.search(await services.connection.require(), 'render a button label', 1);
    assert.equal(vscode.workspace.asRelativePath(vscode.Uri.parse(hits[0]!.file)), 'mg-codebase/button.ts');
  });

  it('a full index leaves the further files out and says so; searches still find what it holds', async () => {
    const { services } = gateway.api;
    const storage = vscode.Uri.joinPath(services.context.storageUri!, 'full-index-test');
    const small = new CodebaseIndex(storage, services.log, () => [], 1);
    const source = new vscode.CancellationTokenSource();
    try {
      const client = await services.connection.require();
      const report = await small.refresh(client, 'echo-embedding', () => undefined, source.token);
      assert.equal(report.capped, true);
      assert.equal(report.chunks, 1, 'one chunk held, the files past it left out');
      assert.equal((await small.search(client, 'anything at all', 10)).length, report.chunks);
    } finally {
      source.dispose();
      await small.clear();
    }
  });

  it('a cancelled indexing stops at once, and the next one finishes the work', async () => {
    await gateway.api.services.codebase!.clear();
    const source = new vscode.CancellationTokenSource();
    source.cancel();
    const { services } = gateway.api;
    await assert.rejects(services.codebase!.refresh(await services.connection.require(), 'echo-embedding', () => undefined, source.token), vscode.CancellationError);
    const report = await vscode.commands.executeCommand<RefreshReport>('modelGateway.indexCodebase');
    assert.ok(report.embeddedFiles >= 2, `${report.embeddedFiles} files embedded`);
  });

  it('a run its first caller cancels does not cancel a second caller waiting on it: the second runs its own', async () => {
    const { services } = gateway.api;
    await services.codebase!.clear();
    const client = await services.connection.require();
    const first = new vscode.CancellationTokenSource();
    const second = new vscode.CancellationTokenSource();
    try {
      const firstRun = services.codebase!.refresh(client, 'echo-embedding', () => undefined, first.token);
      const secondRun = services.codebase!.refresh(client, 'echo-embedding', () => undefined, second.token);
      first.cancel();
      await assert.rejects(firstRun, vscode.CancellationError);
      const report = await secondRun;
      assert.ok(report.embeddedFiles >= 2, `${report.embeddedFiles} files embedded`);
      // A caller cancelled already starts nothing.
      const third = services.codebase!.refresh(client, 'echo-embedding', () => undefined, first.token);
      await assert.rejects(third, vscode.CancellationError);
    } finally {
      first.dispose();
      second.dispose();
    }
  });
});
