// @gateway /terminal without the editor: a command's raw terminal output made plain and fitted to a budget, VS Code's
// terminal_last_command answer read, secrets masked before anything goes to a model, and the answer's command read
// back out for Insert into Terminal.
import assert from 'node:assert/strict';
import { isFailedExit, parseLastCommandText } from '../../../src/extension/terminal/lastCommand.ts';
import { maskSecrets } from '../../../src/extension/terminal/maskSecrets.ts';
import { fitOutput, OutputCollector, plainOutput } from '../../../src/extension/terminal/terminalOutput.ts';
import { commandFromAnswer, commandMessages, commandToInsert, terminalMessages } from '../../../src/extension/terminal/terminalPrompt.ts';
import { shellName } from '../../../src/extension/terminal/shellName.ts';

describe('terminal output', () => {
  it('drops colours, shell-integration marks, titles and links, and keeps each line as its last redraw left it', () => {
    const raw = '\u001b]633;C\u0007\u001b[1;31merror\u001b[0m: cannot find module \u001b]8;;file:///a.ts\u0007a.ts\u001b]8;;\u0007\r\n'
      + 'Downloading  10%\rDownloading  55%\rDownloading 100%\r\n\u001b]0;title\u001b\\done\r\n\u001b]633;D;1\u0007';
    assert.equal(plainOutput(raw), 'error: cannot find module a.ts\nDownloading 100%\ndone');
  });

  it('keeps output within the budget whole, and a longer one as its first lines and its end, saying how much was left out', () => {
    assert.equal(fitOutput('a\nb', 10), 'a\nb');
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
    const fitted = fitOutput(lines.join('\n'), 500);
    assert.ok(fitted.length <= 560, `${fitted.length} characters`);
    assert.ok(fitted.startsWith('line 0\nline 1\n'));
    assert.ok(fitted.endsWith('line 998\nline 999'));
    const left = Number(/\[… (\d+) line\(s\) left out …\]/.exec(fitted)?.[1]);
    assert.equal(left + fitted.split('\n').length - 1, 1000, 'the lines shown and those said left out are all the lines');
    // One enormous last line (minified output) still shows its end.
    const huge = fitOutput(`start\n${'x'.repeat(5000)}END`, 300);
    assert.ok(huge.endsWith('xEND') && huge.length <= 340, huge);
  });

  it('collects any amount of output in bounded memory, keeping its start and its end', () => {
    const collector = new OutputCollector();
    collector.push('\u001b]633;C\u0007first line\r\n');
    for (let i = 0; i < 20_000; i++) collector.push(`progress ${i} ${'.'.repeat(40)}\r\n`);
    collector.push('\u001b[31mnpm ERR! missing script: biuld\u001b[0m\r\n');
    const text = collector.text();
    assert.ok(text.length <= 136_000, `${text.length} characters kept of ~1 MB`);
    assert.ok(text.startsWith('first line\nprogress 0 '));
    assert.ok(text.endsWith('npm ERR! missing script: biuld'));
    assert.match(text, /\[… about \d+ KB of output left out …\]/);
  });
});

describe("VS Code's terminal_last_command answer", () => {
  it('reads the command, directory, exit code and output', () => {
    const text = 'The following is the last command run in the terminal:\ncd /tmp && ls /missing\nIt was run in the directory:\n/home/me/app\nIt exited with code: 2\nIt has the following output:\nls: cannot access \'/missing\': No such file or directory\n';
    assert.deepEqual(parseLastCommandText(text), { command: 'cd /tmp && ls /missing', cwd: '/home/me/app', exitCode: 2, output: "ls: cannot access '/missing': No such file or directory" });
  });

  it('reads a command that printed nothing, one still running, and says null when there is none', () => {
    assert.deepEqual(parseLastCommandText('The following is the last command run in the terminal:\ntrue\nIt exited with code: 0'), { command: 'true', exitCode: 0, output: '' });
    assert.deepEqual(parseLastCommandText('The following command is currently executing in the terminal:\nnpm run dev\nIt is running in the directory:\n/srv/app'), { command: 'npm run dev', cwd: '/srv/app', output: '', running: true });
    assert.equal(parseLastCommandText('No command has been run in the active terminal.'), null);
    assert.equal(parseLastCommandText('No active terminal instance found.'), null);
  });

  it('takes a non-zero exit as a failure, except Ctrl+C and an unknown code', () => {
    assert.equal(isFailedExit(1), true);
    assert.equal(isFailedExit(127), true);
    assert.equal(isFailedExit(0), false);
    assert.equal(isFailedExit(130), false);
    assert.equal(isFailedExit(undefined), false);
  });
});

describe('secrets in terminal text', () => {
  it('masks keys, tokens, secret variables, URL passwords and private keys, and leaves ordinary text alone', () => {
    const text = [
      'OPENAI_API_KEY=sk-live-abcdefghijklmnop',
      'GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'export DB_PASSWORD="hunter2-very-secret"',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'fatal: unable to access https://me:p4ssw0rd-x@git.example.com/repo.git',
      'curl -H "Authorization: Bearer abc.def.ghi-token"',
      'token in log ghp_0123456789abcdefghijABCDEFGHIJ and AKIAIOSFODNN7EXAMPLE',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----',
      'PWD=/home/me/app XKB_KEYMAP=us npm ERR! code ENOENT',
    ].join('\n');
    const masked = maskSecrets(text, ['known-secret-value']);
    for (const secret of ['sk-live-abcdefghijklmnop', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'hunter2-very-secret', 'wJalrXUtnFEMI', 'p4ssw0rd-x', 'abc.def.ghi-token', 'ghp_0123456789abcdefghij', 'AKIAIOSFODNN7EXAMPLE', 'b3BlbnNzaC1rZXktdjEAAAAA']) {
      assert.ok(!masked.includes(secret), `${secret} is masked in:\n${masked}`);
    }
    assert.match(masked, /https:\/\/me:\*\*\*\*@git\.example\.com/);
    assert.match(masked, /PWD=\/home\/me\/app XKB_KEYMAP=us npm ERR! code ENOENT/);
    assert.equal(maskSecrets('my known-secret-value here', ['known-secret-value']), 'my **** here');
  });
});

describe('what /terminal sends and reads back', () => {
  const last = { command: 'npm run biuld', cwd: '/home/me/app', exitCode: 1, output: 'npm ERR! Missing script: "biuld"\nnpm ERR! Did you mean "build"?' };

  it('sends the command, directory, exit code and masked output, with the system and shell, and the question asked', () => {
    const messages = terminalMessages({ last: { ...last, output: `${last.output}\nSECRET_KEY=abcdefgh1234` }, question: '', shell: 'bash', platform: 'linux', budget: 10_000 });
    assert.equal(messages[0]!.role, 'system');
    assert.match(String(messages[0]!.content), /Linux, their shell bash/);
    const user = String(messages[1]!.content);
    assert.match(user, /^Command: npm run biuld\nDirectory: \/home\/me\/app\nExit code: 1\nOutput/);
    assert.match(user, /npm ERR! Did you mean "build"\?/);
    assert.ok(!user.includes('abcdefgh1234'), 'the secret is masked');
    assert.match(user, /Why did it fail, and how do I fix it\?$/);
    const asked = terminalMessages({ last, question: 'is this a typo?', shell: 'zsh', platform: 'darwin', budget: 10_000 });
    assert.match(String(asked[1]!.content), /is this a typo\?$/);
    assert.match(String(asked[0]!.content), /macOS, their shell zsh/);
  });

  it('asks about a command still running with what it printed so far', () => {
    const user = String(terminalMessages({ last: { command: 'npm run dev', output: 'listening on :3000\nGET / 500', running: true }, question: '', shell: 'bash', platform: 'linux', budget: 10_000 })[1]!.content);
    assert.match(user, /^Command: npm run dev\nIt is still running\.\nOutput/);
    assert.match(user, /GET \/ 500/);
    assert.match(user, /What is it doing, and is something wrong\?$/);
  });

  it('fences output that itself holds a code fence so it cannot close early, and keeps it within the budget', () => {
    const user = String(terminalMessages({ last: { ...last, output: `before\n\`\`\`\nmiddle\n${'x\n'.repeat(5000)}after` }, question: '', shell: 'bash', platform: 'linux', budget: 2_000 })[1]!.content);
    assert.match(user, /````text\nbefore\n```\nmiddle/);
    assert.ok(user.length < 2_400, `${user.length} characters`);
    assert.match(user, /after\n````/);
  });

  it('asks a question about the shell alone when no command ran', () => {
    const messages = terminalMessages({ last: null, question: 'how do I find large files?', shell: 'pwsh', platform: 'win32', budget: 10_000 });
    assert.equal(messages[1]!.content, 'how do I find large files?');
    assert.match(String(messages[0]!.content), /Windows, their shell pwsh/);
  });

  it("reads the answer's first shell block as one command line, without prompts or comments", () => {
    assert.equal(commandToInsert('Typo.\n\n```bash\nnpm run build\n```\nRuns it.'), 'npm run build');
    assert.equal(commandToInsert('```sh\n# install first\n$ npm install\n$ npm run build\n```'), 'npm install && npm run build');
    assert.equal(commandToInsert('```\ndocker run \\\n  -p 8080:80 \\\n  nginx\n```'), 'docker run -p 8080:80 nginx');
    assert.equal(commandToInsert('```powershell\nPS C:\\app> Get-ChildItem -Force\n```'), 'Get-ChildItem -Force');
    assert.equal(commandToInsert('```json\n{"a": 1}\n```\n\n```zsh\nls -la\n```'), 'ls -la', 'a non-shell block is skipped');
    assert.equal(commandToInsert('No command needed: the file is missing.'), null);
    assert.equal(commandToInsert('```bash\n# nothing to run\n```'), null);
    assert.equal(commandToInsert(`\`\`\`bash\necho ${'a'.repeat(3000)}\n\`\`\``), null, 'an enormous block is not offered');
  });

  it('names the shell: what VS Code detected, else the program; Windows PowerShell 5 apart from PowerShell 7, though VS Code calls both pwsh', () => {
    assert.equal(shellName('pwsh', 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'), 'powershell');
    assert.equal(shellName('pwsh', 'C:\\Program Files\\PowerShell\\7\\pwsh.exe'), 'pwsh');
    assert.equal(shellName('zsh', '/bin/zsh'), 'zsh');
    assert.equal(shellName('node', '/usr/bin/bash'), 'bash', 'a foreground program is not the shell');
    assert.equal(shellName(undefined, 'C:\\Windows\\System32\\cmd.exe'), 'cmd');
    assert.equal(shellName(undefined, undefined), '');
  });

  it('runs several commands one after another in the syntax of the shell: Windows PowerShell 5 has no &&', () => {
    const answer = '```powershell\nnpm ci\nnpm run build\nnpm test\n```';
    assert.equal(commandToInsert(answer, 'pwsh'), 'npm ci && npm run build && npm test');
    assert.equal(commandToInsert(answer, 'powershell'), 'npm ci; if ($?) { npm run build; if ($?) { npm test } }');
    assert.equal(commandToInsert('```\nnpm test\n```', 'powershell'), 'npm test', 'one command is itself');
    assert.equal(commandFromAnswer('```\ncd app\nnpm start\n```', 'powershell'), 'cd app; if ($?) { npm start }');
  });

  it('keeps a pipeline that goes on on the next line whole, and offers no one-line form of a script (loops, ifs, blocks, here-documents)', () => {
    assert.equal(commandToInsert('```bash\ngit log --oneline |\n  head -5\n```'), 'git log --oneline | head -5');
    assert.equal(commandToInsert('```bash\nmake &&\n  make install\n```'), 'make && make install');
    const scripts = [
      '```bash\nfor f in *.log; do\n  gzip "$f"\ndone\n```',
      '```bash\nif [ -f .env ]; then\n  source .env\nfi\n```',
      '```bash\ncat <<EOF > notes.txt\nhello\nEOF\n```',
      '```powershell\nGet-ChildItem *.log | ForEach-Object {\n  Remove-Item $_\n}\n```',
      '```sh\nwhile read -r line\ndo echo "$line"\ndone < list.txt\n```',
    ];
    scripts.push(
      '```bash\ncat <<\\EOF > f\nhello\nEOF\n```',
      '```powershell\n$text = @"\nline one\n"@\nWrite-Output $text\n```',
      '```bash\ngit commit -m "first line\nsecond line"\n```',
    );
    for (const script of scripts) assert.equal(commandToInsert(script), null, script);
    assert.equal(commandToInsert('```powershell\nGet-ChildItem *.log\nSelect-String -Path *.log -Pattern error\nForEach-Object -Begin {} -Process {}\n```', 'pwsh'),
      'Get-ChildItem *.log && Select-String -Path *.log -Pattern error && ForEach-Object -Begin {} -Process {}', 'a command named like a keyword is a command');
    assert.equal(commandToInsert('```bash\necho $((1 << 4))\necho done\n```'), 'echo $((1 << 4)) && echo done', 'a shift is not a here-document');
    assert.equal(commandToInsert('```bash\n# pick one |\nls -la\npwd\n```'), 'ls -la && pwd', 'a comment ending in a pipe takes nothing with it');
    assert.equal(commandToInsert('```bash\nnpm run watch &\nnpm start\n```'), 'npm run watch & npm start', 'a background command is followed, not chained');
    assert.equal(commandToInsert('```\ncd app\nls\n```', 'nu'), 'cd app; ls', 'Nushell has no &&');
    assert.equal(commandToInsert('```bash\necho "it\'s fine"\nls\n```'), 'echo "it\'s fine" && ls', 'an apostrophe inside double quotes is no open quote');
    // A comment at a line's end goes: joined, it would make the commands after it a comment.
    assert.equal(commandToInsert('```bash\nnpm run build   # compile\nnpm start\n```'), 'npm run build && npm start');
    assert.equal(commandToInsert('```powershell\nnpm ci # clean install\nnpm test\n```', 'powershell'), 'npm ci; if ($?) { npm test }');
    assert.equal(commandToInsert('```bash\ncat f | \\\ngrep foo | # keep foo\nwc -l\n```'), 'cat f | grep foo | wc -l');
    assert.equal(commandToInsert('```bash\ncurl "https://x.test/a#b" -o a\ncurl https://x.test/#/c -o c # two\n```'), 'curl "https://x.test/a#b" -o a && curl https://x.test/#/c -o c', 'a # inside a word or quotes is no comment');
    assert.equal(commandToInsert('```bash\ngit commit -m "fix `null` check" # why\ngit push\n```'), 'git commit -m "fix `null` check" && git push');
    // Each shell's own continuation: a Windows path ending in \ is no continuation in cmd or PowerShell.
    assert.equal(commandToInsert('```cmd\ncd C:\\\ndir\n```'), 'cd C:\\ && dir');
    assert.equal(commandToInsert('```powershell\nSet-Location C:\\Users\\me\\\ngit status\n```', 'pwsh'), 'Set-Location C:\\Users\\me\\ && git status');
    assert.equal(commandToInsert('```powershell\nGet-ChildItem `\n  -Force\n```', 'pwsh'), 'Get-ChildItem -Force');
    assert.equal(commandToInsert('```bash\nexport NOW=`date +%s`\necho $NOW\n```'), 'export NOW=`date +%s` && echo $NOW');
    // fish's blocks and and/or lines, Nushell's blocks.
    assert.equal(commandToInsert('```fish\nbegin\n  echo hi\nend\n```', 'fish'), null);
    assert.equal(commandToInsert('```fish\ncd dir\nand make\n```', 'fish'), null);
    assert.equal(commandToInsert('```nu\ncd app\nls\n```', 'nu'), 'cd app; ls');
    assert.equal(commandToInsert('```bash\nfor f in *.log; do gzip "$f"; done\n```'), 'for f in *.log; do gzip "$f"; done', 'a loop on one line is one command');
    assert.equal(commandToInsert('```bash\ngrep -c x <<< "$text"\nls\n```'), 'grep -c x <<< "$text" && ls', 'a here-string is not a here-document');
  });

  it('asks for one command for this shell and system, in the folder it will run in', () => {
    const messages = commandMessages({ description: ' find files over 100 MB ', shell: 'zsh', platform: 'darwin', cwd: '/Users/me/app' });
    assert.match(String(messages[0]!.content), /macOS, their shell zsh/);
    assert.match(String(messages[0]!.content), /command alone in one fenced code block/);
    assert.equal(messages[1]!.content, 'find files over 100 MB\n\n(It runs in /Users/me/app.)');
    assert.equal(commandMessages({ description: 'list ports', shell: '', platform: 'linux' })[1]!.content, 'list ports');
  });

  it('takes a one-line answer without a fence as the command, and nothing from prose', () => {
    assert.equal(commandFromAnswer('```bash\nfind . -size +100M\n```'), 'find . -size +100M');
    assert.equal(commandFromAnswer('`du -sh *`'), 'du -sh *');
    assert.equal(commandFromAnswer('$ lsof -i :3000\n'), 'lsof -i :3000');
    assert.equal(commandFromAnswer('There is no single command for that.\nYou could try several.'), null);
    assert.equal(commandFromAnswer(''), null);
  });
});
