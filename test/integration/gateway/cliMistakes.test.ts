// A mistyped command line answered in our words: what was wrong, what is accepted, and where help is (never
// node:util's parser text, never the whole help, which pushes the line that matters off the screen).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { tempDir } from './helpers.ts';
import { runCli } from './serveProcess.ts';

describe('model-gateway CLI: mistakes on the command line', () => {
  let dir: string;
  before(async () => {
    dir = tempDir();
    assert.equal((await runCli(['--data', dir, 'account', 'create', 'local'])).code, 0);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const refused = async (args: string[], says: RegExp): Promise<void> => {
    const run = await runCli(['--data', dir, ...args]);
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, says, args.join(' '));
    assert.doesNotMatch(run.stderr, /ambiguous|positional argument|Usage:/, `${args.join(' ')}: our words, without the whole help`);
    assert.match(run.stderr, /Run "model-gateway --help" for usage\./);
    assert.equal(run.stdout, '');
  };

  it('a negative number after a flag reaches the flag\'s own check, and a negative amount is said to be one', async () => {
    await refused(['serve', '--port', '-1'], /--port must be a whole number from 0 to 65535, got "-1"/);
    await refused(['serve', '--stop-grace-ms', '-5'], /--stop-grace-ms must be a whole number from 0 to 3600000, got "-5"/);
    await refused(['key', 'create', '--account', 'local', '--name', 'k', '--rpm', '-5'], /--rpm must be a whole number from 0/);
    await refused(['key', 'create', '--account', 'local', '--name', 'k', '--spend-limit', '-1'], /not an amount in USD: "-1" \(amounts are positive\)/);
    await refused(['channel', 'add', '--name', 'c', '--base-url', 'http://h/v1', '--models', 'm', '--priority', '-1'], /--priority must be a whole number from 0/);
    await refused(['account', 'topup', 'local', '-5'], /amount \(USD\): not an amount in USD: "-5" \(amounts are positive\)/);
    await refused(['serve', '--port'], /--port needs a value/);
    await refused(['channel', 'add', '--name', 'e', '--type', 'echo', '--models', 'm', '--base-url', 'http://h/v1'], /an echo channel answers offline: it takes no --base-url, --proxy or --api-key/);
    assert.match((await runCli(['--data', dir, 'account', 'show', 'local'])).stdout, /balance \$0\.00/, 'nothing was added');
  });

  it('a misspelled flag is named with the nearest flag of the command, when one is close', async () => {
    await refused(['serve', '--prot', '8080'], /unknown option --prot for serve; did you mean --port\?/);
    await refused(['channel', 'add', '--base_url', 'http://h/v1'], /unknown option --base_url for channel add; did you mean --base-url\?/);
    await refused(['key', 'show', 'k', '--acount', 'local'], /unknown option --acount for key show; did you mean --account\?/);
    await refused(['key', 'list', '--zzzzzz'], /unknown option --zzzzzz for key list\n/);
    await refused(['serve', '-x'], /unknown option -x for serve\n/);
  });

  it('an unknown sub-command is named as one, with the sub-commands of its group', async () => {
    await refused(['channel', 'frobnicate'], /unknown command: channel frobnicate; channel takes add, update, list, test, disable, enable, remove/);
    await refused(['channel'], /channel needs a command: channel takes add, update/);
    for (const group of ['account', 'key', 'model', 'user', 'code', 'invitation', 'token', 'settings']) {
      await refused([group, 'frobnicate'], new RegExp(`unknown command: ${group} frobnicate; ${group} takes \\w+, \\w+`));
    }
    await refused(['logs', 'frobnicate'], /logs takes no arguments but prune/);
    await refused(['backup'], /backup takes one FILE/);
  });

  it('--host and --metrics-host take an IP address or a host name, and say so naming the flag', async () => {
    await refused(['serve', '--port', '0', '--host', '999.1.1.1'], /--host must be an IP address or a host name .*not an IPv4 address.*got "999\.1\.1\.1"/);
    await refused(['serve', '--port', '0', '--host', 'http://127.0.0.1'], /--host must be an IP address or a host name .*not a URL/);
    await refused(['serve', '--port', '0', '--host', '127.0.0.1:8080'], /--host must be .*the port goes in its own flag/);
    await refused(['serve', '--port', '0', '--host', '[::1]'], /--host must be .*without brackets/);
    await refused(['serve', '--port', '0', '--metrics-port', '0', '--metrics-host', 'http://x'], /--metrics-host must be an IP address or a host name/);
    await refused(['serve', '--port', '0', '--host', 'no-such-host.invalid'], /--host no-such-host\.invalid: no such host name here/);
  });
});
