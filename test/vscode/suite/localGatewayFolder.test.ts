// "Start Local Gateway" when its data folder (in the extension's global storage) cannot be used: it runs on an
// in-memory store and says why and what that means, instead of failing with "Unexpected error: EEXIST ...". As root
// the suite cannot take write permission away, so a file stands where the folder should be.
import assert from 'node:assert/strict';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { activate, resetConfiguration, waitFor } from './helpers.ts';

describe('local gateway without a usable data folder', () => {
  let api: ModelGatewayApi;
  let folder: string;

  before(async () => {
    ({ api } = await activate());
    await resetConfiguration(api);
    folder = join(api.services.context.globalStorageUri.fsPath, 'gateway');
    if (existsSync(folder)) renameSync(folder, `${folder}.aside`);
    writeFileSync(folder, 'not a folder\n');
  });

  after(async () => {
    await api.localGateway.stop(true);
    await resetConfiguration(api);
    rmSync(folder, { force: true });
    if (existsSync(`${folder}.aside`)) renameSync(`${folder}.aside`, folder);
  });

  it('starts on an in-memory store, and the extension works with it', async () => {
    const url = await vscode.commands.executeCommand<string | undefined>('modelGateway.startLocalGateway');
    assert.ok(url, 'the command returned no address');
    assert.equal(api.localGateway.running?.storeKind, 'memory');
    assert.match(api.localGateway.folderProblem ?? '', /EEXIST|ENOTDIR/);
    await waitFor('the connection to be configured', () => api.services.connection.state.configured || undefined);
    const client = await api.services.connection.require();
    const answer = await client.chat({ model: 'echo', messages: [{ role: 'user', content: 'hello' }] });
    assert.equal(answer.choices[0]?.message.content, 'You said: hello');
  });
});
