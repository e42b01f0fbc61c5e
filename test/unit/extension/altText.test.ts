// Write Alt Text's pure parts: Markdown images found on a line, which are files of the workspace, a model's answer made
// into alt text that cannot break the link, and what the model is sent.
import assert from 'node:assert/strict';
import { altTextMessages } from '../../../src/extension/altText/altTextPrompt.ts';
import { cleanAltText, imageLinkAt, imageLinksIn, localImagePath, MAX_ALT_CHARS } from '../../../src/extension/altText/imageLinks.ts';

describe('alt text: images on a line', () => {
  it('finds each image with its alt text and target (titles, angle brackets, links beside them)', () => {
    const line = 'See ![](img/a.png) and ![A kite](<img/b c.png> "Kites") or [a link](x.md), ![x](https://e.com/c.png)';
    const links = imageLinksIn(line);
    assert.deepEqual(links.map((l) => [l.alt, l.target, line.slice(l.start, l.end), line.slice(l.altStart, l.altEnd)]), [
      ['', 'img/a.png', '![](img/a.png)', ''],
      ['A kite', '<img/b c.png>', '![A kite](<img/b c.png> "Kites")', 'A kite'],
      ['x', 'https://e.com/c.png', '![x](https://e.com/c.png)', 'x'],
    ]);
  });

  it('the image under the cursor, else the line\'s only one', () => {
    const line = '![one](a.png) ![two](b.png)';
    assert.equal(imageLinkAt(line, 2)?.alt, 'one');
    assert.equal(imageLinkAt(line, 16)?.alt, 'two');
    assert.equal(imageLinkAt(line, 13)?.alt, 'one', 'the end of the first counts as on it');
    assert.equal(imageLinkAt('text ![only](a.png)', 0)?.alt, 'only');
    assert.equal(imageLinkAt('no image here', 3), undefined);
    assert.equal(imageLinkAt('[not an image](a.png)', 3), undefined);
  });

  it('only files are images of the workspace: no web addresses or data: URLs', () => {
    assert.equal(localImagePath('img/a.png'), 'img/a.png');
    assert.equal(localImagePath('<img/b c.png>'), 'img/b c.png');
    assert.equal(localImagePath('img/b%20c.png?raw=1#top'), 'img/b c.png');
    assert.equal(localImagePath('/docs/logo.png'), '/docs/logo.png');
    assert.equal(localImagePath('C:\\pics\\a.png'), 'C:\\pics\\a.png');
    for (const remote of ['https://e.com/a.png', 'http://e.com/a.png', 'data:image/png;base64,AAAA', 'vscode-resource:/a.png', '#anchor']) assert.equal(localImagePath(remote), null, remote);
  });
});

describe('alt text: the answer made into alt text', () => {
  it('keeps the first line, without a label, quotes or brackets', () => {
    assert.equal(cleanAltText('Alt text: "A red kite over a grey sea."\n\nIt shows...'), 'A red kite over a grey sea.');
    assert.equal(cleanAltText('\n\n“Bar chart of requests per day [2026]”'), 'Bar chart of requests per day 2026');
    assert.equal(cleanAltText('<think>what is it?</think>\nA login form with a \\ backslash'), 'A login form with a backslash');
    assert.equal(cleanAltText('   '), '');
  });

  it('cuts a long answer at a word within the limit', () => {
    const alt = cleanAltText(`A diagram ${'of many boxes, '.repeat(20)}end`);
    assert.ok(alt.length <= MAX_ALT_CHARS + 1, `${alt.length}`);
    assert.match(alt, /boxes…$|of…$/);
  });

  it('sends the image and the text around it, saying what alt text it has', () => {
    const messages = altTextMessages({ image: 'data:image/jpeg;base64,AAAA', context: '# Kites\n\n![](kite.png)', path: 'docs/kite.png', current: '' });
    assert.equal(messages[0]!.role, 'system');
    const user = messages[1]!.content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    assert.deepEqual(user.map((p) => p.type), ['text', 'image_url']);
    assert.match(user[0]!.text!, /^The image docs\/kite\.png in this part of a Markdown document:\n\n# Kites\n\n!\[\]\(kite\.png\)\n\nIt has no alt text yet\.$/);
    assert.equal(user[1]!.image_url!.url, 'data:image/jpeg;base64,AAAA');
    const again = altTextMessages({ image: 'data:x', context: '', path: 'a.png', current: 'A kite' });
    assert.match((again[1]!.content as Array<{ text?: string }>)[0]!.text!, /Its alt text now: A kite$/);
  });
});
