// The Usage view in the real editor: opened from its command, it reads the suite gateway and shows
// today's spending of a chat just made, and re-reads after the chat without a click.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suiteGatewayHooks, waitFor } from './helpers.ts';

describe('Usage view', () => {
  const gateway = suiteGatewayHooks();

  it('shows balance, today and month from the gateway, and follows a chat', async () => {
    await vscode.commands.executeCommand('modelGateway.showUsage');
    const first = await waitFor('the Usage view to read the gateway', () => (gateway.api.usage.state.kind === 'ready' ? gateway.api.usage.state : undefined));
    assert.equal(first.summary.todayUsd, 0);
    assert.equal(first.summary.balance.remainingUsd, 10);
    assert.equal(first.gateway, gateway.suite.gateway.url);

    const client = await gateway.api.services.connection.require();
    const answer = await client.chat({ model: 'echo', messages: [{ role: 'user', content: 'what did this cost' }] });
    gateway.api.services.connection.balanceMayHaveChanged(); // what @gateway does after each answer
    const cost = answer.usage?.['cost'] as number;
    const after = await waitFor('the Usage view to show the chat', () => (gateway.api.usage.state.kind === 'ready' && gateway.api.usage.state.summary.todayUsd === cost ? gateway.api.usage.state : undefined));
    assert.equal(after.summary.monthUsd, cost);
    assert.equal(after.summary.recentDays?.at(-1)?.requests, 1);
  });
});
