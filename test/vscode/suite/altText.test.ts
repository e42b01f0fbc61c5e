// Write Alt Text in the real extension host: the light bulb on a Markdown image of the workspace, the image and the
// text around it sent to a chat model that takes images (a stand-in gateway records it), the answer written between
// the brackets; a model the gateway does not list as taking images is refused before anything is sent.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension/extension.ts';
import { solidPng } from '../../../src/gateway/providers/echo/image.ts';
import { activate, resetConfiguration, waitFor } from './helpers.ts';
import { useRecordingGateway, type RecordingGateway } from './recordingGateway.ts';

describe('alt text: Write Alt Text with Model Gateway', () => {
  let api: ModelGatewayApi;
  let gateway: RecordingGateway | undefined;
  let folder: vscode.Uri;
  let doc: vscode.Uri;

  before(async () => {
    ({ api } = await activate());
    folder = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, `mg-alt-text-${Date.now()}`);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'img', 'kite.png'), solidPng(1600, 800, [200, 30, 30]));
    doc = vscode.Uri.joinPath(folder, 'notes.md');
    await vscode.workspace.fs.writeFile(doc, Buffer.from('# Kites\n\nOur red kite:\n\n![](img/kite.png)\n\nMore text.\n'));
  });
  after(async () => {
    // The edits are unsaved: closed without saving, or closing would ask.
    for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(folder, { recursive: true }).then(undefined, () => undefined);
    await resetConfiguration(api);
    await gateway?.close();
  });

  /**
   * The light bulb's actions on a link. Right after a document opens, VS Code can answer before the providers ran (no
   * action at all, measured): asked until Markdown's own "Extract to link definition" is there, then ours looked up.
   */
  async function lightBulb(line = 4, character = 5): Promise<vscode.CodeAction | undefined> {
    const actions = await waitFor('the light bulb\'s actions', async () => {
      const all = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc, new vscode.Range(line, character, line, character));
      return all.some((a) => /link definition/i.test(a.title)) ? all : undefined;
    }, 15000);
    return actions.find((a) => /Alt Text with Model Gateway/.test(a.title));
  }

  it('offers the light bulb on the image, and writes what a model that takes images said between the brackets', async () => {
    gateway = await useRecordingGateway(api, 'vision', 'Alt text: "A red kite, wider than tall."', { capabilities: { image_input: true } });
    await vscode.window.showTextDocument(doc);
    const action = await lightBulb();
    assert.ok(action, 'offered');
    assert.equal(action.title, 'Write Alt Text with Model Gateway');
    const alt = await vscode.commands.executeCommand<string | undefined>(action.command!.command, ...(action.command!.arguments ?? []));
    assert.equal(alt, 'A red kite, wider than tall.');
    const document = await vscode.workspace.openTextDocument(doc);
    assert.equal(document.lineAt(4).text, '![A red kite, wider than tall.](img/kite.png)');
    const sent = gateway.chats.at(-1)!;
    const parts = sent.messages[1]!.content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    assert.match(parts[0]!.text!, /^The image mg-alt-text-\d+\/img\/kite\.png in this part of a Markdown document:\n\n# Kites\n\nOur red kite:\n\n!\[\]\(img\/kite\.png\)/);
    const url = parts[1]!.image_url!.url;
    assert.match(url, /^data:image\/jpeg;base64,/, 'scaled to JPEG for the model');
    const jpeg = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
    // The JPEG's SOF0 frame holds its height and width: 1024 wide, the aspect ratio kept.
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    assert.deepEqual([jpeg.readUInt16BE(sof + 7), jpeg.readUInt16BE(sof + 5)], [1024, 512]);
    // Now it has alt text: the light bulb offers to rewrite it.
    assert.equal((await lightBulb())?.title, 'Rewrite Alt Text with Model Gateway');
  });

  it('refuses a model the gateway does not list as taking images, and sends nothing', async () => {
    await gateway?.close();
    gateway = await useRecordingGateway(api, 'text-only', 'A kite.');
    const asked = gateway.chats.length;
    const alt = await vscode.commands.executeCommand<string | undefined>('modelGateway.writeAltText', { uri: doc, position: new vscode.Position(4, 0) });
    assert.equal(alt, undefined);
    assert.equal(gateway.chats.length, asked);
    await waitFor('the line unchanged', async () => (await vscode.workspace.openTextDocument(doc)).lineAt(4).text === '![A red kite, wider than tall.](img/kite.png)' || undefined);
  });

  it('says where an image is missing, and offers nothing for web images', async () => {
    await gateway?.close();
    gateway = await useRecordingGateway(api, 'vision', 'A kite.', { capabilities: { image_input: true } });
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(6, 0), '![](img/gone.png)\n![](https://example.com/a.png)\n'));
    const asked = gateway.chats.length;
    assert.equal(await vscode.commands.executeCommand('modelGateway.writeAltText', { uri: doc, position: new vscode.Position(6, 0) }), undefined);
    assert.equal(gateway.chats.length, asked, 'nothing sent for a missing file');
    assert.equal(await lightBulb(7, 3), undefined, 'no light bulb for a web image');
    assert.ok(await lightBulb(6, 3), 'one for a file, even a missing one (the command says it is missing)');
  });
});
