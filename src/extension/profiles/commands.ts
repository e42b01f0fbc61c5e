/**
 * Profile commands and the status item: Switch Profile (a QuickPick, also from the status item and the
 * balance menu), Add Profile (name, base URL; then its key), Remove Profile. The status item shows the
 * active profile once there is more than one.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids.ts';
import type { ExtensionServices } from '../services.ts';
import { DEFAULT_PROFILE, MAX_PROFILE_NAME_LENGTH, profileNameProblem } from './profiles.ts';
import type { NameProblem } from './profiles.ts';
import type { ProfileService } from './profileService.ts';

export const PROFILE_ITEM_ID = 'modelGateway.profile';

function nameProblemText(problem: NameProblem): string {
  const t = vscode.l10n.t;
  if (problem === 'empty') return t('Give the profile a name.');
  if (problem === 'too_long') return t('At most {0} characters.', MAX_PROFILE_NAME_LENGTH);
  return t('A profile of that name exists.');
}

async function addProfile(profiles: ProfileService): Promise<string | undefined> {
  const t = vscode.l10n.t;
  const name = await vscode.window.showInputBox({
    title: t('Add Profile'),
    prompt: t('A name for the gateway, for example Work, Personal or Local.'),
    validateInput: (value) => {
      const problem = profileNameProblem(value, profiles.state);
      return problem === null ? null : nameProblemText(problem);
    },
  });
  if (name === undefined) return undefined;
  const baseUrl = await vscode.window.showInputBox({
    title: t('Add Profile'),
    prompt: t('The base URL of this gateway (with or without /v1).'),
    placeHolder: 'https://gateway.example.com/v1',
    ignoreFocusOut: true,
  });
  if (baseUrl === undefined) return undefined;
  await profiles.add({ name: name.trim(), baseUrl: baseUrl.trim(), model: '', completionModel: '' });
  await profiles.switchTo(name.trim());
  void vscode.window.showInformationMessage(t('Profile {0} is in use. Set its API key to connect.', name.trim()), t('Set API Key')).then((choice) => {
    if (choice) void vscode.commands.executeCommand(COMMANDS.setApiKey);
  });
  return name.trim();
}

async function switchProfile(profiles: ProfileService, name?: string): Promise<void> {
  const t = vscode.l10n.t;
  if (typeof name === 'string') return profiles.switchTo(name);
  const add = { label: `$(add) ${t('Add Profile…')}`, name: '' };
  const items = profiles.state.profiles.map((p) => ({
    label: `${p.name === profiles.state.active ? '$(check)' : '$(blank)'} ${p.name}`,
    description: p.baseUrl || t('no base URL'),
    detail: [p.model && t('chat: {0}', p.model), p.completionModel && t('completion: {0}', p.completionModel)].filter(Boolean).join(' · ') || undefined,
    name: p.name,
  }));
  const choice = await vscode.window.showQuickPick([...items, add], { title: t('Switch Profile'), placeHolder: t('The gateway to use') });
  if (!choice) return;
  if (choice === add) await addProfile(profiles);
  else await profiles.switchTo(choice.name);
}

async function removeProfile(profiles: ProfileService, name?: string): Promise<void> {
  const t = vscode.l10n.t;
  const others = profiles.state.profiles.filter((p) => p.name !== profiles.state.active);
  if (typeof name !== 'string') {
    if (others.length === 0) {
      void vscode.window.showInformationMessage(t('There is no other profile to remove (the one in use cannot be).'));
      return;
    }
    name = (await vscode.window.showQuickPick(others.map((p) => ({ label: p.name, description: p.baseUrl })), { title: t('Remove Profile') }))?.label;
    if (name === undefined) return;
    const remove = t('Remove');
    if ((await vscode.window.showWarningMessage(t('Remove profile {0} and its API key?', name), { modal: true }, remove)) !== remove) return;
  }
  await profiles.remove(name);
}

function renderItem(item: vscode.StatusBarItem, profiles: ProfileService): void {
  const t = vscode.l10n.t;
  item.text = `$(server-environment) ${profiles.active.name}`;
  item.tooltip = t('Model Gateway profile: {0} ({1}). Click to switch.', profiles.active.name, profiles.active.baseUrl || t('no base URL'));
  if (profiles.state.profiles.length > 1 || profiles.active.name !== DEFAULT_PROFILE) item.show();
  else item.hide();
}

export function registerProfiles(context: vscode.ExtensionContext, services: ExtensionServices): void {
  const { profiles } = services;
  const item = vscode.window.createStatusBarItem(PROFILE_ITEM_ID, vscode.StatusBarAlignment.Right, 101);
  item.name = vscode.l10n.t('Model Gateway Profile');
  item.command = COMMANDS.switchProfile;
  renderItem(item, profiles);
  context.subscriptions.push(
    item,
    profiles.onDidChange(() => renderItem(item, profiles)),
    vscode.commands.registerCommand(COMMANDS.switchProfile, (name?: string) => switchProfile(profiles, name)),
    vscode.commands.registerCommand(COMMANDS.addProfile, () => addProfile(profiles)),
    vscode.commands.registerCommand(COMMANDS.removeProfile, (name?: string) => removeProfile(profiles, name)),
  );
}
