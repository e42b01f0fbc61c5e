/** The extension's command ids (contributed in package.json): what fixes, buttons and menus point at. */

export const COMMANDS = {
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
} as const;
