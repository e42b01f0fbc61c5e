import assert from 'node:assert/strict';
import { ECHO_OWNER } from '../../../../src/contract/index.ts';
import { AuthenticationError, NotFoundError } from '../../../../src/client/errors.ts';
import { explainError } from '../../../../src/extension/errors/explain.ts';
import { NotConfiguredError } from '../../../../src/extension/errors/notConfigured.ts';
import { balanceView, failureView, modelsView, noModelView } from '../../../../src/extension/chat/views.ts';
import { tooltipMarkdown, viewOfBalance } from '../../../../src/extension/statusBar/balanceState.ts';

const commandsOf = (view: { buttons: readonly { command: string }[] }) => view.buttons.map((b) => b.command);

describe('chat/views', () => {
  it('a 401 renders the contract explanation with the request id and key fixes', () => {
    const error = new AuthenticationError({ status: 401, code: 'invalid_api_key', gatewayMessage: 'Invalid token: the API key is wrong', requestId: 'req-123', condition: 'invalid_api_key' });
    const view = failureView(explainError(error));
    assert.match(view.markdown, /Authentication failed \(401\)/);
    assert.match(view.markdown, /req-123/);
    assert.deepEqual(commandsOf(view), ['modelGateway.setApiKey', 'modelGateway.openConsole', 'modelGateway.runSelfTest']);
  });

  it('a wrong model name offers Pick Model, the self-test and the console', () => {
    const error = new NotFoundError({ status: 404, code: 'model_not_found', gatewayMessage: 'model not found', condition: 'model_not_found' });
    assert.deepEqual(commandsOf(failureView(explainError(error))), ['modelGateway.pickModel', 'modelGateway.runSelfTest', 'modelGateway.openConsole']);
  });

  it('not configured offers only what fixes it', () => {
    const view = failureView(explainError(new NotConfiguredError(['apiKey'])));
    assert.deepEqual(commandsOf(view), ['modelGateway.setApiKey']);
  });

  it('no model selected says so with a Pick Model button', () => {
    assert.deepEqual(commandsOf(noModelView()), ['modelGateway.pickModel']);
  });

  it('/models lists the models sorted, marks the current one, and flags an unknown configured name', () => {
    const models = [{ id: 'gpt-4o', owned_by: 'openai' }, { id: 'echo', owned_by: ECHO_OWNER }];
    const view = modelsView(models, 'echo');
    assert.ok(view.markdown.indexOf('`echo`') < view.markdown.indexOf('`gpt-4o`'));
    assert.match(view.markdown, /`echo` — model-gateway-echo \*\*\(current\)\*\*/);
    assert.doesNotMatch(view.markdown, /not in this list/);
    assert.match(modelsView(models, 'gpt-5').markdown, /`gpt-5` is not in this list/);
    assert.deepEqual(commandsOf(view), ['modelGateway.pickModel']);
  });

  it('/balance shows remaining, used and limit, and warns when exhausted', () => {
    const ok = balanceView({ remainingUsd: 7.5, usedUsd: 2.5, limitUsd: 10, unlimited: false }).markdown;
    assert.match(ok, /Remaining: \$7\.50/);
    assert.match(ok, /Used: \$2\.50/);
    assert.match(ok, /Limit: \$10\.00/);
    assert.doesNotMatch(ok, /exhausted/);
    assert.match(balanceView({ remainingUsd: 0, usedUsd: 10, limitUsd: 10, unlimited: false }).markdown, /exhausted/);
    assert.match(balanceView({ remainingUsd: null, usedUsd: 1, limitUsd: null, unlimited: true }).markdown, /Remaining: unlimited/);
  });

  it('/balance and the status bar tooltip write the same balance the same way, to the micro-dollar', () => {
    const balance = { remainingUsd: 9.999612, usedUsd: 0.000388, limitUsd: 10, unlimited: false };
    const amounts = (markdown: string) => [...markdown.matchAll(/(Remaining|Used|Limit): (?:\*\*)?(\$[\d,.]+)/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(amounts(balanceView(balance).markdown), ['Remaining $9.999612', 'Used $0.000388', 'Limit $10.00']);
    assert.deepEqual(amounts(tooltipMarkdown(viewOfBalance(balance, 0), '')), amounts(balanceView(balance).markdown));
  });
});
