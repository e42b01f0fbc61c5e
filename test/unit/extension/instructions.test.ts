import assert from 'node:assert/strict';
import { instructionsText, MAX_INSTRUCTIONS_CHARS, systemText } from '../../../src/extension/instructions/instructionsText.ts';
import { editPrompt } from '../../../src/extension/editSelection/prompt.ts';
import { commitMessagePrompt } from '../../../src/extension/commitMessage/prompt.ts';

describe('repository instructions', () => {
  it('heads each file with its path, in the order given (the nearest last), and leaves empty ones out', () => {
    const text = instructionsText([
      { label: 'AGENTS.md', text: '\nUse early returns.\n' },
      { label: '.github/copilot-instructions.md', text: '  \n' },
      { label: 'pkg/AGENTS.md', text: 'Tabs here.' },
    ]);
    assert.match(text, /^The repository has instructions for AI assistants/);
    assert.match(text, /the later one \(the more specific, nearer the file at hand\) wins/);
    assert.ok(text.endsWith('<instructions file="AGENTS.md">\nUse early returns.\n</instructions>\n\n<instructions file="pkg/AGENTS.md">\nTabs here.\n</instructions>'), text);
    assert.doesNotMatch(text, /copilot-instructions/);
  });

  it('is empty when no file has any text', () => {
    assert.equal(instructionsText([]), '');
    assert.equal(instructionsText([{ label: 'AGENTS.md', text: '\n\n' }]), '');
  });

  it('keeps the files together within the budget: the one that crosses it is cut and says so, later ones left out', () => {
    const text = instructionsText([
      { label: 'a.md', text: 'a'.repeat(60) },
      { label: 'b.md', text: 'b'.repeat(60) },
      { label: 'c.md', text: 'c'.repeat(10) },
    ], 100);
    assert.ok(text.includes(`${'a'.repeat(60)}\n</instructions>`));
    assert.ok(text.includes(`<instructions file="b.md">\n${'b'.repeat(40)}\n[... the rest of this file is left out for length]\n</instructions>`), text);
    assert.doesNotMatch(text, /c\.md/);
    assert.ok(instructionsText([{ label: 'big.md', text: 'x'.repeat(MAX_INSTRUCTIONS_CHARS * 2) }]).length < MAX_INSTRUCTIONS_CHARS + 500);
  });

  it('a path with a quote cannot close the file attribute', () => {
    assert.match(instructionsText([{ label: 'we"ird/AGENTS.md', text: 'x' }]), /<instructions file="we'ird\/AGENTS\.md">/);
  });

  it('joins system texts, leaving out the empty ones', () => {
    assert.equal(systemText('one', '', undefined, 'two'), 'one\n\ntwo');
    assert.equal(systemText('', undefined), undefined);
  });

  it('go after Edit Selection\'s and the commit message\'s own system text, and change nothing without them', () => {
    const edit = { instruction: 'add types', languageId: 'typescript', path: 'a.ts', before: '', selected: 'x', after: '' };
    const plainEdit = editPrompt(edit)[0]!.content as string;
    assert.equal(editPrompt({ ...edit, instructions: '' })[0]!.content, plainEdit);
    assert.equal(editPrompt({ ...edit, instructions: 'RULES' })[0]!.content, `${plainEdit}\n\nRULES`);
    const changes = { diff: 'diff --git a/a.ts b/a.ts\n+x\n', staged: true, recentSubjects: [], draft: '' };
    const plainCommit = commitMessagePrompt(changes)[0]!.content as string;
    assert.equal(commitMessagePrompt({ ...changes, instructions: 'Use Conventional Commits.' })[0]!.content, `${plainCommit}\n\nUse Conventional Commits.`);
  });
});
