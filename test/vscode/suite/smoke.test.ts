// The host itself: proves the suite runs inside a real VS Code extension host.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';

describe('extension host', () => {
  it('is a real VS Code', () => {
    assert.match(vscode.version, /^\d+\.\d+\.\d+/);
    assert.ok(vscode.env.appName.length > 0);
  });
});
