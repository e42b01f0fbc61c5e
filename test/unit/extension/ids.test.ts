// The ids the code uses are the ids the manifest contributes, both ways.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COMMANDS, LM_VENDOR, PARTICIPANT_ID } from '../../../src/extension/ids.ts';

type Manifest = {
  contributes: {
    commands: { command: string }[];
    chatParticipants: { id: string }[];
    languageModelChatProviders: { vendor: string; managementCommand?: string }[];
  };
};

const manifest = JSON.parse(readFileSync(join(resolve(import.meta.dirname, '../../..'), 'package.json'), 'utf8')) as Manifest;

describe('extension ids', () => {
  it('COMMANDS are exactly the commands package.json contributes', () => {
    assert.deepEqual(Object.values(COMMANDS).sort(), manifest.contributes.commands.map((c) => c.command).sort());
  });

  it('the participant and the language-model vendor are the ones package.json contributes', () => {
    assert.deepEqual(manifest.contributes.chatParticipants.map((p) => p.id), [PARTICIPANT_ID]);
    assert.deepEqual(manifest.contributes.languageModelChatProviders.map((p) => [p.vendor, p.managementCommand]), [[LM_VENDOR, COMMANDS.setApiKey]]);
  });
});
