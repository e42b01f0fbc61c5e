import assert from 'node:assert/strict';
import { functionToolsOf, toolNamesOf } from '../../../src/gateway/relay/formats/chatResponses/toolNames.ts';

const fn = (name: string) => ({ type: 'function', name, parameters: { type: 'object' } });

describe('Responses tool names for chat', () => {
  const tools = [
    fn('exec_command'),
    fn('wait'),
    { type: 'namespace', name: 'multi_agent_v1', tools: [fn('spawn_agent'), fn('wait')] },
    { type: 'web_search' },
  ];
  const names = toolNamesOf(tools);

  it('flattens namespaces and leaves built-in tools out', () => {
    assert.deepEqual(functionToolsOf(tools).map(({ namespace, tool }) => `${namespace ?? '-'} ${tool['name']}`), ['- exec_command', '- wait', 'multi_agent_v1 spawn_agent', 'multi_agent_v1 wait']);
  });

  it('a namespaced tool keeps its own name unless another tool has it; both ways agree', () => {
    assert.equal(names.toChat({ name: 'spawn_agent', namespace: 'multi_agent_v1' }), 'spawn_agent');
    assert.equal(names.toChat({ name: 'wait', namespace: 'multi_agent_v1' }), 'multi_agent_v1__wait');
    assert.equal(names.toChat({ name: 'wait' }), 'wait');
    assert.deepEqual(names.fromChat('spawn_agent'), { name: 'spawn_agent', namespace: 'multi_agent_v1' });
    assert.deepEqual(names.fromChat('multi_agent_v1__wait'), { name: 'wait', namespace: 'multi_agent_v1' });
    assert.deepEqual(names.fromChat('wait'), { name: 'wait' });
    assert.deepEqual(names.fromChat('exec_command'), { name: 'exec_command' });
  });

  it('computed once per request, and harmless without tools', () => {
    assert.equal(toolNamesOf(tools), names);
    assert.deepEqual(toolNamesOf(undefined).fromChat('x'), { name: 'x' });
  });
});
