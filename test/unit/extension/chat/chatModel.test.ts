// Which model a @gateway turn asks: the model picked under the chat input when it is one of the gateway's, else
// the modelGateway.model setting. Before, @gateway always asked the setting's model, whatever the user had picked.
import assert from 'node:assert/strict';
import { chatModelFor } from '../../../../src/extension/chat/chatModel.ts';
import { LM_VENDOR } from '../../../../src/extension/ids.ts';

describe('@gateway chat model', () => {
  it('is the gateway model picked in the chat model picker, over the setting', () => {
    assert.equal(chatModelFor({ vendor: LM_VENDOR, id: 'gpt-4o', family: 'gpt-4o' }, 'echo'), 'gpt-4o');
    assert.equal(chatModelFor({ vendor: LM_VENDOR, id: 'deepseek-chat', family: 'deepseek-chat' }, ''), 'deepseek-chat');
  });

  it("is the setting when the picker holds another vendor's model, or none", () => {
    assert.equal(chatModelFor({ vendor: 'copilot', id: 'gpt-4.1', family: 'gpt-4.1' }, 'echo'), 'echo');
    assert.equal(chatModelFor(undefined, 'echo'), 'echo');
    assert.equal(chatModelFor(undefined, ''), '');
  });
});
