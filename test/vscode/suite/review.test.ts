// Review Changes in a real Git repository opened by VS Code's Git extension: the uncommitted changes (staged, not
// staged, untracked) go to the model numbered by their lines, and the model's findings land in the Problems panel on
// those lines, and in the chat for @gateway /review as links to them. A stand-in gateway answers with findings and
// records what it was sent.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import type { GitRepository } from '../../../src/extension/commitMessage/git.ts';
import { openInGit, type OpenedRepository } from './gitInEditor.ts';
import type { Review } from '../../../src/extension/review/review.ts';
import { ReviewProblems } from '../../../src/extension/review/reviewProblems.ts';
import { REVIEW_STATE_KEY, savedFiles } from '../../../src/extension/review/savedFindings.ts';
import { activate, askGateway, resetConfiguration, waitFor } from './helpers.ts';
import { useRecordingGateway, type RecordingGateway } from './recordingGateway.ts';
import { repositoryWithCommit, type TestRepository } from '../../support/gitRepository.ts';

const ORIGINAL = ['export function total(items) {', '  let sum = 0;', '  for (const item of items) sum += item.price;', '  return sum;', '}', ''].join('\n');
const CHANGED = ['export function total(items) {', '  let sum = 0;', '  for (let i = 0; i <= items.length; i++) sum += items[i].price;', '  return sum;', '}', ''].join('\n');
const FINDINGS = [
  'cart.ts:3: error: `i <= items.length` reads one past the end; use `<`.',
  'notes/todo.ts:2: warning: the token is written into the source.',
  'cart.ts:90: info: far from any change: kept, with no place.',
].join('\n');

describe('Review Changes', () => {
  let api: ModelGatewayApi;
  let gateway: RecordingGateway;
  let repo: TestRepository;
  let repository: GitRepository;
  let opened: OpenedRepository | undefined;
  const fileUri = (path: string) => vscode.Uri.file(join(repo.dir, path));
  const problemsOf = (path: string) => vscode.languages.getDiagnostics(fileUri(path)).filter((d) => d.source?.startsWith('Model Gateway review'));

  before(async () => {
    ({ api } = await activate());
    gateway = await useRecordingGateway(api, 'reviewer', FINDINGS);
    repo = repositoryWithCommit('mg-review-', { path: 'cart.ts', content: ORIGINAL }, 'first');
    opened = await openInGit(repo.dir);
    repository = opened.repository;
  });

  after(async () => {
    await vscode.commands.executeCommand('modelGateway.clearReview');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await opened?.close();
    if (repo) rmSync(repo.dir, { recursive: true, force: true });
    if (api) await resetConfiguration(api);
    await gateway?.close();
  });

  it('sends the changes numbered by line and puts the findings in the Problems panel on those lines', async () => {
    repo.write('cart.ts', CHANGED);
    repo.git('add', 'cart.ts');
    repo.write('AGENTS.md', 'Money is in integer cents (mg-review-rule).\n');
    mkdirSync(join(repo.dir, 'notes'));
    repo.write('notes/todo.ts', 'export const url = "https://example.com";\nexport const token = "abc123";\n');
    repo.write('.env', 'PAYMENTS_KEY=sk-live-review-secret\n');
    const review = await vscode.commands.executeCommand<Review | undefined>('modelGateway.reviewChanges', { rootUri: repository.rootUri });
    assert.ok(review, 'the command returns the review');

    const sent = gateway.chats.at(-1)!;
    assert.equal(sent.model, 'reviewer');
    assert.match(String(sent.messages[0]!.content), /^You review code changes/);
    assert.match(String(sent.messages[0]!.content), /mg-review-rule/, 'the repository\'s AGENTS.md goes along');
    const user = String(sent.messages[1]!.content);
    assert.ok(user.includes('File: cart.ts\n'), user);
    assert.ok(user.includes('    3 +   for (let i = 0; i <= items.length; i++) sum += items[i].price;'), 'the staged change, numbered as in the file');
    assert.ok(user.includes('      -   for (const item of items) sum += item.price;'), 'the removed line, without a number');
    assert.ok(user.includes('    2 + export const token = "abc123";'), 'the untracked file, as new');
    assert.ok(!user.includes('sk-live-review-secret') && /not shown .*\.env/.test(user), 'a .env file is named, its content never sent');

    const cart = problemsOf('cart.ts');
    assert.deepEqual(cart.map((d) => [d.range.start.line, d.severity, d.message]), [[2, vscode.DiagnosticSeverity.Error, '`i <= items.length` reads one past the end; use `<`.']]);
    assert.equal(cart[0]!.source, 'Model Gateway review (reviewer)');
    assert.deepEqual(problemsOf('notes/todo.ts').map((d) => [d.range.start.line, d.severity]), [[1, vscode.DiagnosticSeverity.Warning]]);
    assert.equal(review.findings.length, 3);
    assert.equal(review.findings[2]!.at, null, 'the finding 87 lines off every change has no place in the Problems panel');
  });

  it('findings are kept in the workspace state and come back after a reload on the files whose text has not changed', async () => {
    await api.services.reviewProblems.save();
    const kept = api.services.context.workspaceState.get(REVIEW_STATE_KEY);
    assert.deepEqual(savedFiles(kept).map((f) => [vscode.Uri.parse(f.uri).fsPath, f.findings.map((x) => x.line)]).sort(), [[fileUri('cart.ts').fsPath, [2]], [fileUri('notes/todo.ts').fsPath, [1]]]);
    // Another window's start reads what this one kept (a memento holding the same value: VS Code's own storage is per window).
    const memento = (value: unknown): vscode.Memento => ({ get: () => value, update: async () => undefined, keys: () => [REVIEW_STATE_KEY] }) as unknown as vscode.Memento;
    const again = new ReviewProblems(memento(kept));
    try {
      await again.restored;
      assert.equal(problemsOf('cart.ts').length, 2, 'the finding, once from each instance');
      assert.equal(problemsOf('notes/todo.ts').length, 2);
    } finally {
      again.dispose();
    }
    // A file changed while the window was closed: its findings would sit on the wrong lines, so they are not brought back.
    repo.write('notes/todo.ts', '// moved down\nexport const url = "https://example.com";\nexport const token = "abc123";\n');
    const afterChange = new ReviewProblems(memento(kept));
    try {
      await afterChange.restored;
      assert.equal(problemsOf('cart.ts').length, 2);
      assert.equal(problemsOf('notes/todo.ts').length, 1, 'only this window\'s own');
    } finally {
      afterChange.dispose();
      repo.write('notes/todo.ts', 'export const url = "https://example.com";\nexport const token = "abc123";\n');
    }
  });

  it('a finding\'s light bulb offers Fix with Model Gateway and Dismiss Review Finding, which removes it alone', async () => {
    await vscode.window.showTextDocument(fileUri('cart.ts')); // the light bulb is asked of an open document
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', fileUri('cart.ts'), new vscode.Range(2, 4, 2, 4), vscode.CodeActionKind.QuickFix.value);
    const titles = actions.map((a) => a.title);
    assert.ok(titles.includes('Fix with Model Gateway') && titles.includes('Dismiss Review Finding'), titles.join(' / '));
    const dismiss = actions.find((a) => a.title === 'Dismiss Review Finding')!;
    await vscode.commands.executeCommand(dismiss.command!.command, ...dismiss.command!.arguments!);
    assert.deepEqual(problemsOf('cart.ts'), []);
    assert.equal(problemsOf('notes/todo.ts').length, 1, 'the other file\'s finding stays');
  });

  it('@gateway /review answers in the chat with a link per finding, and its review replaces the last one', async () => {
    // The next review finds one thing only: the earlier warning on notes/todo.ts goes.
    await gateway.close();
    gateway = await useRecordingGateway(api, 'reviewer', 'cart.ts:4: warning: the sum is not rounded to cents.');
    await vscode.window.showTextDocument(fileUri('cart.ts'));
    const answer = await askGateway(api, 'money handling', 'review');
    assert.deepEqual(answer.anchors.map((a) => [a.title, a.location.uri.fsPath, a.location.range.start.line]), [['cart.ts:4', fileUri('cart.ts').fsPath, 3]]);
    assert.match(answer.markdown, /\[cart\.ts:4\] the sum is not rounded to cents\./);
    assert.match(answer.markdown, /reviewer found 1 problem\(s\) in 3 changed file\(s\)\. \(10 \+ 2 tokens · \$0\.000042\)/);
    assert.deepEqual(answer.buttons, ['Show Problems']);
    assert.match(String(gateway.chats.at(-1)!.messages[1]!.content), /Look in particular at: money handling/);
    assert.deepEqual(problemsOf('cart.ts').map((d) => d.range.start.line), [3]);
    assert.deepEqual(problemsOf('notes/todo.ts'), [], 'the previous review\'s findings are gone');
  });

  it('a finding follows the lines inserted above it, and goes when its own line is edited', async () => {
    const editor = await vscode.window.showTextDocument(fileUri('cart.ts'));
    // The Problems panel follows the document's change event, which may come just after the edit's promise settles.
    const linesOnceSettled = (what: string, expected: number[]) => waitFor(what, () => (JSON.stringify(problemsOf('cart.ts').map((d) => d.range.start.line)) === JSON.stringify(expected) || undefined), 5000);
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '// one\n// two\n'));
    await linesOnceSettled('the finding to move two lines down', [5]);
    assert.equal(problemsOf('cart.ts')[0]!.message, 'the sum is not rounded to cents.');
    await editor.edit((edit) => edit.replace(new vscode.Range(5, 0, 5, Number.MAX_SAFE_INTEGER), '  return Math.round(sum);'));
    await linesOnceSettled('the finding on the edited line to go', []);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('"Clear Review Findings" empties the Problems panel of them; with no changes there is nothing to review', async () => {
    await vscode.commands.executeCommand('modelGateway.clearReview');
    assert.deepEqual(problemsOf('cart.ts'), []);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'second');
    const asked = gateway.chats.length;
    const answer = await askGateway(api, '', 'review');
    assert.match(answer.markdown, /There are no changes to review/);
    assert.equal(gateway.chats.length, asked, 'no model was asked');
  });

  it('a model with a small context is sent the files that fit it, the others named; none fitting is said, and nothing sent', async () => {
    await gateway.close();
    // 2,500 tokens of context: room for about 2,000 characters of diff.
    gateway = await useRecordingGateway(api, 'small-reviewer', 'NO FINDINGS', { context_length: 2_500 });
    repo.write('small.ts', 'export const small = 1;\n');
    repo.write('big.ts', lines(120));
    const answer = await askGateway(api, '', 'review');
    const user = String(gateway.chats.at(-1)!.messages[1]!.content);
    assert.ok(user.includes('File: small.ts'), user);
    assert.ok(!user.includes('File: big.ts') && /not shown .*: big\.ts/.test(user), 'big.ts is named, not shown');
    assert.match(answer.markdown, /small-reviewer found nothing to report in 1 changed file\(s\)/);
    assert.match(answer.markdown, /Not reviewed \(.*\): big\.ts/);

    repo.git('add', 'small.ts');
    repo.git('commit', '-q', '-m', 'small');
    const asked = gateway.chats.length;
    const none = await askGateway(api, '', 'review');
    assert.match(none.markdown, /None of the changed files can be reviewed: big\.ts\. .* larger than small-reviewer can read at once\./);
    assert.equal(gateway.chats.length, asked, 'no model was asked');
  });

  it('@gateway /review since main, and Review Branch Changes, review what the branch changed since it left main', async () => {
    await gateway.close();
    gateway = await useRecordingGateway(api, 'reviewer', 'feature.ts:1: info: say what the flag is for.');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('feature.ts', 'export const flag = true;\n');
    repo.git('add', 'feature.ts');
    repo.git('commit', '-q', '-m', 'feature');
    const answer = await askGateway(api, 'since main: naming', 'review');
    const user = String(gateway.chats.at(-1)!.messages[1]!.content);
    assert.match(user, /^What the current branch changed since it left main:/);
    assert.ok(user.includes('File: feature.ts\n') && user.includes('File: big.ts\n'), 'the branch\'s commit and the uncommitted file');
    assert.match(user, /Look in particular at: naming/);
    assert.match(answer.markdown, /reviewer found 1 problem\(s\) in 2 file\(s\) changed since main\./);
    const review = await vscode.commands.executeCommand<Review | undefined>('modelGateway.reviewBranch', { rootUri: repository.rootUri, since: 'main' });
    assert.equal(review?.since, 'main');
    assert.deepEqual(review?.reviewed.map((f) => f.path).sort(), ['big.ts', 'feature.ts']);
    assert.equal(problemsOf('feature.ts').length, 1);
  });

  it('@gateway /review with files attached (#file) reviews only their changes', async () => {
    repo.write('other.ts', 'export const other = 1;\n');
    const attached = (prompt: string, text: string, uri: vscode.Uri): vscode.ChatPromptReference =>
      ({ id: 'vscode.file', value: uri, range: [prompt.indexOf(text), prompt.indexOf(text) + text.length] }) as vscode.ChatPromptReference;
    const prompt = 'since main: names #file:feature.ts';
    const answer = await askGateway(api, prompt, 'review', [attached(prompt, '#file:feature.ts', fileUri('feature.ts'))]);
    const user = String(gateway.chats.at(-1)!.messages[1]!.content);
    assert.ok(user.includes('File: feature.ts\n'), user);
    assert.ok(!user.includes('File: other.ts') && !user.includes('File: big.ts'), 'only the attached file');
    assert.match(user, /Look in particular at: names\n/, 'the attachment\'s own text is not part of what to look at');
    assert.match(answer.markdown, /in 1 file\(s\) changed since main/);
    const uncommittedOnly = await askGateway(api, '#file:feature.ts', 'review', [attached('#file:feature.ts', '#file:feature.ts', fileUri('feature.ts'))]);
    assert.match(uncommittedOnly.markdown, /The attached files have no changes to review: feature\.ts\./, 'feature.ts is committed: no uncommitted change');
  });

  it('the #gatewayReview tool reviews for any chat model and answers with the findings, a line each', async () => {
    await vscode.window.showTextDocument(fileUri('feature.ts'));
    const invoke = async (input: object): Promise<string> => {
      const source = new vscode.CancellationTokenSource();
      try {
        const result = await vscode.lm.invokeTool('modelGateway_reviewChanges', { input, toolInvocationToken: undefined }, source.token);
        return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
      } finally {
        source.dispose();
      }
    };
    const text = await invoke({ since: 'main', focus: 'flags' });
    assert.match(text, /^feature\.ts:1: info: say what the flag is for\.$/m);
    assert.match(text, /reviewer found 1 problem\(s\) in 3 file\(s\) changed since main\./);
    assert.match(String(gateway.chats.at(-1)!.messages[1]!.content), /Look in particular at: flags/);
    assert.equal(problemsOf('feature.ts').length, 1, 'the Problems panel has it too');
    await assert.rejects(invoke({ since: '--output=/tmp/x' }), /is not a branch/);
  });
});

/** `count` numbered lines of code, about 45 characters each. */
function lines(count: number): string {
  return Array.from({ length: count }, (_, i) => `export const value${i} = ${i} * 1000 + ${i};\n`).join('');
}
