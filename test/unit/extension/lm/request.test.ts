import assert from 'node:assert/strict';
import { AuthenticationError, NotFoundError, ServerError } from '../../../../src/client/errors.ts';
import { explainError } from '../../../../src/extension/errors/explain.ts';
import { lmErrorKind, lmErrorMessage } from '../../../../src/extension/lm/errors.ts';
import { ROLE_USER } from '../../../../src/extension/lm/messages.ts';
import { EmptyConversationError, buildChatRequest } from '../../../../src/extension/lm/request.ts';
import { TOOL_MODE_AUTO } from '../../../../src/extension/lm/tools.ts';

describe('lm/request buildChatRequest', () => {
  it('builds a streaming request, passing only the model options gateways understand', () => {
    const request = buildChatRequest({
      model: 'gpt-4o',
      messages: [{ role: ROLE_USER, content: [{ value: 'hi' }] }],
      toolMode: TOOL_MODE_AUTO,
      modelOptions: { temperature: 0.2, max_tokens: 100, vendorSecretSauce: true },
    });
    assert.deepEqual(request, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: true, temperature: 0.2, max_tokens: 100 });
  });

  it('refuses a conversation with nothing to send', () => {
    assert.throws(() => buildChatRequest({ model: 'm', messages: [{ role: ROLE_USER, content: [] }] }), (e: unknown) => e instanceof EmptyConversationError && e.code === 'empty_conversation');
  });
});

describe('lm/errors', () => {
  it('a provider error says what happened, what to do, what the gateway said and the request id', () => {
    const explanation = explainError(new AuthenticationError({ status: 401, code: 'invalid_api_key', gatewayMessage: 'Invalid token', requestId: 'r-9', condition: 'invalid_api_key' }));
    const message = lmErrorMessage(explanation);
    assert.ok(message.includes(explanation.title));
    assert.ok(message.includes(explanation.action));
    assert.ok(message.includes('Invalid token'));
    assert.ok(message.includes('r-9'));
    assert.equal(lmErrorKind(explanation), 'NoPermissions');
  });

  it('maps a missing model to NotFound and a server fault to Unknown', () => {
    assert.equal(lmErrorKind(explainError(new NotFoundError({ status: 404, code: 'model_not_found', condition: 'model_not_found' }))), 'NotFound');
    assert.equal(lmErrorKind(explainError(new ServerError({ status: 502, code: 'upstream_error' }))), 'Unknown');
  });
});
