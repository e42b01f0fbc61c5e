/** What a problem report says about the tool (contract 7.4): extension name and version, VS Code version. */
import * as vscode from 'vscode';
import type { ProblemReportEnvironment } from '../selfTest/report.ts';

export function problemEnvironment(context: vscode.ExtensionContext): ProblemReportEnvironment {
  const pkg = context.extension.packageJSON as { displayName?: string; name?: string; version?: string };
  return {
    extensionName: `${pkg.displayName ?? pkg.name ?? 'Model Gateway'} (${context.extension.id})`,
    extensionVersion: pkg.version ?? '?',
    vscodeVersion: `${vscode.version} (${vscode.env.appName}${vscode.env.remoteName ? `, remote ${vscode.env.remoteName}` : ''})`,
    platform: `${process.platform}-${process.arch}, Node ${process.versions.node}`,
  };
}

/** User-Agent for requests from the extension. */
export function userAgent(context: vscode.ExtensionContext): string {
  const version = (context.extension.packageJSON as { version?: string }).version ?? '0';
  return `model-gateway-vscode/${version} vscode/${vscode.version}`;
}
