/**
 * The ids this extension contributes in package.json, written once (no vscode import): its commands
 * (what fixes, buttons and menus point at), its chat participant and its language-model vendor.
 * test/unit/extension/ids.test.ts holds them to the manifest.
 */

export const COMMANDS = {
  signIn: 'modelGateway.signIn',
  setApiKey: 'modelGateway.setApiKey',
  clearApiKey: 'modelGateway.clearApiKey',
  setBaseUrl: 'modelGateway.setBaseUrl',
  runSelfTest: 'modelGateway.runSelfTest',
  pickModel: 'modelGateway.pickModel',
  openConsole: 'modelGateway.openConsole',
  showLog: 'modelGateway.showLog',
  startLocalGateway: 'modelGateway.startLocalGateway',
  stopLocalGateway: 'modelGateway.stopLocalGateway',
  refreshBalance: 'modelGateway.refreshBalance',
  balanceMenu: 'modelGateway.balanceMenu',
  copyProblemReport: 'modelGateway.copyProblemReport',
  openSettings: 'modelGateway.openSettings',
  moveKeyToSecretStorage: 'modelGateway.moveKeyToSecretStorage',
  pickCompletionModel: 'modelGateway.pickCompletionModel',
  toggleCompletions: 'modelGateway.toggleCompletions',
  showUsage: 'modelGateway.showUsage',
  refreshUsage: 'modelGateway.refreshUsage',
  switchProfile: 'modelGateway.switchProfile',
  addProfile: 'modelGateway.addProfile',
  removeProfile: 'modelGateway.removeProfile',
  generateCommitMessage: 'modelGateway.generateCommitMessage',
  editSelection: 'modelGateway.editSelection',
  pickEmbeddingModel: 'modelGateway.pickEmbeddingModel',
  indexCodebase: 'modelGateway.indexCodebase',
  clearCodebaseIndex: 'modelGateway.clearCodebaseIndex',
  pickCompareModels: 'modelGateway.pickCompareModels',
  useModel: 'modelGateway.useModel',
  reviewChanges: 'modelGateway.reviewChanges',
  reviewBranch: 'modelGateway.reviewBranch',
  clearReview: 'modelGateway.clearReview',
  dismissReviewFinding: 'modelGateway.dismissReviewFinding',
  explainTerminalFailure: 'modelGateway.explainTerminalFailure',
  insertIntoTerminal: 'modelGateway.insertIntoTerminal',
  writeTerminalCommand: 'modelGateway.writeTerminalCommand',
  describePullRequest: 'modelGateway.describePullRequest',
  pickImageModel: 'modelGateway.pickImageModel',
  generateImage: 'modelGateway.generateImage',
  saveImage: 'modelGateway.saveImage',
  writeAltText: 'modelGateway.writeAltText',
} as const;

/** The `@gateway` chat participant (`chatParticipants[].id`). */
export const PARTICIPANT_ID = 'model-gateway.gateway';

/** The vendor of the gateway's models in VS Code's model picker (`languageModelChatProviders[].vendor`). */
export const LM_VENDOR = 'model-gateway';
