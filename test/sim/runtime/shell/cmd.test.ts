import { expect } from 'chai';
import { run, winHost, linuxHost, MemFS } from '../../../support/fakeShellHost.ts';
import { ContainerFS, MemFS as SimFS } from '../../../../sim/runtime/fs.ts';

describe('sim shell: cmd', () => {
  it('prints an unset %VAR% literally, CRLF-terminated', async () => {
    const r = await run(['cmd', '/c', 'echo %UNSET%'], winHost());
    expect(r.stdout).to.equal('%UNSET%\r\n');
    expect(r.code).to.equal(0);
  });

  it('expands %username% case-insensitively with /S /C', async () => {
    const r = await run(['cmd', '/S', '/C', 'echo %username%'], winHost());
    expect(r.stdout).to.equal('ContainerUser\r\n');
  });

  it('echoes "ECHO is on." for a set-but-empty variable', async () => {
    const r = await run(['cmd', '/c', 'echo %EMPTY%'], winHost());
    expect(r.stdout).to.equal('ECHO is on.\r\n');
  });

  it('type prints file bytes unchanged', async () => {
    const r = await run(['cmd', '/c', 'type C:\\data\\hello.txt'], winHost());
    expect(r.stdout).to.equal('line1\r\nline2\r\n');
    expect(r.code).to.equal(0);
  });

  it('type of a missing file writes the error on stderr and exits 1', async () => {
    const r = await run(['cmd', '/c', 'type C:\\data\\nope.txt'], winHost());
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.equal('The system cannot find the file specified.\r\n');
    expect(r.code).to.equal(1);
  });

  it('a redirect into a read-only mount prints exactly "Access is denied."', async () => {
    const r = await run(['cmd', '/c', 'echo windows-volume-test', '>', 'C:\\ro\\test-file.txt'], winHost());
    expect(r.stderr).to.equal('Access is denied.\r\n');
    expect(r.stdout).to.equal('');
  });

  it('|| sees a failed redirect as failure', async () => {
    const r = await run(['cmd', '/c', 'echo x > C:\\ro\\f.txt || echo fallback'], winHost());
    expect(r.stdout).to.equal('fallback\r\n');
  });

  it("a redirect writes the echoed text with cmd's trailing space", async () => {
    const host = winHost();
    const r = await run(['cmd', '/c', 'echo hi > C:\\data\\out.txt'], host);
    expect(r.stdout).to.equal('');
    expect(host.fs.read('C:\\data\\out.txt').toString()).to.equal('hi \r\n');
  });

  it('an unknown command prints the not-recognized message and exits 9009', async () => {
    const r = await run(['cmd', '/c', 'frobnicate now'], winHost());
    expect(r.stderr).to.equal("'frobnicate' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n");
    expect(r.code).to.equal(9009);
  });

  it('set lists variables alphabetically as Name=value', async () => {
    const r = await run(['cmd', '/c', 'set'], winHost());
    const names = r.stdout
      .trimEnd()
      .split('\r\n')
      .map(l => l.split('=')[0]!);
    expect(names).to.deep.equal([...names].sort((a, b) => a.toUpperCase().localeCompare(b.toUpperCase())));
    expect(r.stdout).to.include('USERNAME=ContainerUser\r\n');
  });

  it('set PREFIX filters by prefix', async () => {
    const r = await run(['cmd', '/c', 'set user'], winHost());
    expect(r.stdout).to.equal('USERDOMAIN=User Manager\r\nUSERNAME=ContainerUser\r\n');
  });

  it('exit N sets the exit code and && short-circuits', async () => {
    const r = await run(['cmd', '/c', 'echo a && exit 3 && echo b'], winHost());
    // The blank before && belongs to echo's text, as in real cmd.
    expect(r.stdout).to.equal('a \r\n');
    expect(r.code).to.equal(3);
  });

  it('dir prints the volume header, entries and summary', async () => {
    const r = await run(['cmd', '/c', 'dir C:\\data'], winHost());
    expect(r.stdout).to.match(/^ Volume in drive C has no label\.\r\n/);
    expect(r.stdout).to.include(' Directory of C:\\data\r\n');
    expect(r.stdout).to.match(/11\/30\/2026 {2}03:31 AM +14 hello\.txt\r\n/);
    expect(r.stdout).to.match(/ +1 File\(s\) +14 bytes\r\n/);
  });

  it('mkdir then dir shows the new directory', async () => {
    const host = winHost();
    const r = await run(['cmd', '/c', 'mkdir C:\\data\\sub && if exist C:\\data\\sub echo yes'], host);
    expect(r.stdout).to.equal('yes\r\n');
  });

  it('runs curl.exe through cmd, as hybrid_network.go does', async () => {
    const r = await run(['cmd', '/c', 'curl.exe 10.0.0.9 --connect-timeout 10 --fail'], winHost());
    expect(r.code).to.equal(7);
  });

  it('pipes into findstr', async () => {
    const r = await run(['cmd', '/c', 'ipconfig /all | findstr Servers'], winHost());
    expect(r.stdout).to.match(/DNS Servers[ .]*: 10\.96\.0\.10\r\n$/);
  });

  it('a program missing from the Windows image fails the exec (no cmd)', async () => {
    const r = await run(['nothere.exe'], winHost());
    expect(r.code).to.equal(127);
    expect(r.stderr).to.include('The system cannot find the file specified.');
  });

  it('a program missing from a Linux image is "executable file not found"', async () => {
    const r = await run(['/bin/bash', '-c', 'true'], linuxHost({ fs: new MemFS() }));
    expect(r.code).to.equal(127);
    expect(r.stderr).to.include('executable file not found in $PATH');
  });

  it("< feeds a file to a program's stdin", async () => {
    const r = await run(['cmd', '/c', 'findstr line2 < C:\\data\\hello.txt'], winHost());
    expect(r.stdout).to.equal('line2\r\n');
  });

  it('ver prints the image build', async () => {
    const r = await run(['cmd', '/c', 'ver'], winHost());
    expect(r.stdout).to.equal('\r\nMicrosoft Windows [Version 10.0.20348.2582]\r\n');
  });

  it("runCommandLine keeps an SSH client's command line as is", async () => {
    const { runCommandLine } = await import('../../../../sim/runtime/shell/index.ts');
    const { Capture } = await import('../../../../sim/runtime/shell/io.ts');
    const out = new Capture();
    const code = await runCommandLine('cmd.exe /c echo "quoted" & echo %USERDOMAIN%', winHost(), {
      stdin: null,
      stdout: out,
      stderr: new Capture(),
      signal: new AbortController().signal,
    });
    expect(out.text()).to.equal('"quoted" \r\nUser Manager\r\n');
    expect(code).to.equal(0);
  });

  describe('mklink', () => {
    const node = () => {
      const disk = new SimFS(true);
      disk.mkdir(['c:', 'host']);
      disk.write(['c:', 'target', 'marker.txt'], 'm\r\n', { mkdirs: true });
      return winHost({ user: 'NT AUTHORITY\\SYSTEM', fs: new ContainerFS('windows', disk, []) });
    };

    it('/J makes a junction the node follows; rmdir removes the junction only', async () => {
      const host = node();
      const r = await run(['cmd', '/c', 'mklink /J C:\\host\\mnt C:\\target'], host);
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.equal('Junction created for C:\\host\\mnt <<===>> C:\\target\r\n');
      expect((await run(['cmd', '/c', 'type C:\\host\\mnt\\marker.txt'], host)).stdout).to.equal('m\r\n');
      expect((await run(['cmd', '/c', 'dir /b C:\\host'], host)).stdout).to.equal('mnt\r\n');
      expect((await run(['cmd', '/c', 'rmdir C:\\host\\mnt'], host)).code).to.equal(0);
      expect((await run(['cmd', '/c', 'type C:\\target\\marker.txt'], host)).stdout).to.equal('m\r\n');
    });

    it('an existing link name fails with errorlevel 1; bad usage is a syntax error', async () => {
      const host = node();
      await run(['cmd', '/c', 'mklink /J C:\\host\\mnt C:\\target'], host);
      const again = await run(['cmd', '/c', 'mklink /J C:\\host\\mnt C:\\target'], host);
      expect(again.code).to.equal(1);
      expect(again.stderr).to.equal('Cannot create a file when that file already exists.\r\n');
      const usage = await run(['cmd', '/c', 'mklink /J onlyone'], host);
      expect(usage.stderr).to.equal('The syntax of the command is incorrect.\r\n');
      expect(usage.code).to.equal(1);
    });

    it('a symbolic link needs a privilege ContainerUser lacks', async () => {
      const r = await run(['cmd', '/c', 'mklink C:\\data\\l.txt C:\\data\\hello.txt'], winHost());
      expect(r.code).to.equal(1);
      expect(r.stderr).to.equal('You do not have sufficient privilege to perform this operation.\r\n');
    });
  });
});
