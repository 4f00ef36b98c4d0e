import { expect } from 'chai';
import { run, linuxHost, winHost, startHttp } from '../../../support/fakeShellHost.ts';
import type { ShellHost } from '../../../../sim/runtime/shell/types.ts';
import { ContainerFS, MemFS as SimFS, splitPath } from '../../../../sim/runtime/fs.ts';

describe('sim shell: sh', () => {
  let srv: { port: number; close: () => Promise<void> };
  before(async () => {
    srv = await startHttp();
  });
  after(async () => {
    await srv.close();
  });

  it('expands $VAR and ${VAR}, and exit sets the code', async () => {
    const r = await run(['/bin/sh', '-c', 'echo "$HOME" ${HOME}x; exit 3'], linuxHost());
    expect(r.stdout).to.equal('/root /rootx\n');
    expect(r.code).to.equal(3);
  });

  it('-x traces each command on stderr', async () => {
    const r = await run(['/bin/sh', '-x', '-c', 'echo hello'], linuxHost());
    expect(r.stdout).to.equal('hello\n');
    expect(r.stderr).to.equal('+ echo hello\n');
  });

  it('&& and || follow exit codes', async () => {
    const r = await run(['sh', '-c', 'false && echo no || echo yes; true && echo ok'], linuxHost());
    expect(r.stdout).to.equal('yes\nok\n');
  });

  it('an unknown command is "not found" with 127', async () => {
    const r = await run(['sh', '-c', 'frob'], linuxHost());
    expect(r.stderr).to.equal('sh: frob: not found\n');
    expect(r.code).to.equal(127);
  });

  it('cat /etc/resolv.conf is generated from host.dns when the file is absent', async () => {
    const r = await run(['sh', '-c', 'cat /etc/resolv.conf'], linuxHost());
    expect(r.stdout).to.equal('search ns.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
  });

  it('redirects into files; a read-only mount fails', async () => {
    const host = linuxHost();
    const r = await run(['sh', '-c', 'echo data > /tmp/f && cat /tmp/f; echo x > /ro/f'], host);
    expect(r.stdout).to.equal('data\n');
    expect(r.stderr).to.equal("sh: can't create /ro/f: Permission denied\n");
    expect(r.code).to.equal(1);
  });

  it('pipes and grep', async () => {
    const r = await run(['sh', '-c', 'printenv | grep -c HOME; env | grep -q NOPE || echo none'], linuxHost());
    expect(r.stdout).to.equal('1\nnone\n');
  });

  it('test / [ and if', async () => {
    const r = await run(['sh', '-c', 'if [ -d /tmp ]; then echo dir; else echo nodir; fi; [ "a" = "b" ] || echo ne'], linuxHost());
    expect(r.stdout).to.equal('dir\nne\n');
  });

  it('$(cmd) substitution and for loops', async () => {
    const r = await run(['sh', '-c', 'for i in 1 2; do echo "$i-$(hostname)"; done'], linuxHost());
    expect(r.stdout).to.equal('1-linux-pod\n2-linux-pod\n');
  });

  it('wget -qO- prints the body; a refused connection exits 1', async () => {
    const host = linuxHost({}, { open: { '10.0.0.1:80': srv.port } });
    const ok = await run(['sh', '-c', 'wget -qO- http://10.0.0.1/'], host);
    expect(ok.stdout).to.equal('hello');
    const bad = await run(['sh', '-c', 'wget -qO- -T 1 http://10.0.0.9/'], host);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.equal("wget: can't connect to remote host (10.0.0.9): Connection refused\n");
  });

  it('sleep honours the abort signal', async () => {
    const r = await run(['sh', '-c', 'sleep 30'], linuxHost(), { abortAfterMs: 50 });
    expect(r.code).to.equal(130);
  });

  it('while true; do :; done burns CPU through host.resources', async () => {
    let calls = 0;
    const host: ShellHost = linuxHost({
      resources: {
        burnCpu: async (_m, ms, signal) => {
          calls++;
          await new Promise(r => {
            const t = setTimeout(r, Math.min(ms, 10));
            signal.addEventListener('abort', () => {
              clearTimeout(t);
              r(undefined);
            });
          });
        },
        allocateMemory: () => ({ ok: true, oomKilled: false }),
      },
    });
    const r = await run(['sh', '-c', 'while true; do :; done'], host, { abortAfterMs: 80 });
    expect(r.code).to.equal(130);
    expect(calls).to.be.greaterThan(1);
  });

  it('busybox sh on a Windows agnhost image', async () => {
    const base = winHost();
    const r = await run(['sh', '-c', 'echo $USERNAME'], { ...base, hasBinary: n => n === 'sh.exe' || base.hasBinary(n) });
    expect(r.stdout).to.equal('ContainerUser\n');
  });

  it('timeout stops a command at its deadline with 143', async () => {
    const base = linuxHost();
    const r = await run(['sh', '-c', 'timeout 1 sleep 30; echo "rc=$?"'], { ...base, hasBinary: n => n === 'timeout' || base.hasBinary(n) });
    expect(r.stdout).to.equal('rc=143\n');
  });

  it('dd with a count writes zeros; without one it would burn CPU', async () => {
    const host = linuxHost();
    const r = await run(['sh', '-c', 'dd if=/dev/zero of=/tmp/z bs=1k count=4'], host);
    expect(r.code).to.equal(0);
    expect(host.fs.read('/tmp/z').length).to.equal(4096);
  });

  describe('busybox applets run as programs (ls)', () => {
    /** A Windows view whose secret mount holds `data` written with defaultMode 0400, as the kubelet writes it. */
    function secretView(modes: boolean): ContainerFS {
      const vol = new SimFS(true);
      vol.write(['data'], 'wincheck-defaultmode', { mode: 0o400 });
      vol.write(['tool.exe'], 'MZ', { mode: 0o644 });
      return new ContainerFS(
        'windows',
        new SimFS(true),
        [{ at: splitPath('C:/etc/secret-mode', 'windows'), fs: vol, base: [], readOnly: true, name: 'secret' }],
        undefined,
        { modes },
      );
    }
    const agnhost = (fs: ContainerFS) => winHost({ user: 'ContainerAdministrator', fs, hasBinary: n => ['ls', 'cat', 'cmd.exe'].includes(n) });

    it('Windows: the read-only attribute shows as -r--r--r--, owner cut to 8 characters, LF endings', async () => {
      const r = await run(['ls', '-lL', 'C:/etc/secret-mode'], agnhost(secretView(false)));
      expect(r.code, r.stderr).to.equal(0);
      const lines = r.stdout.split('\n');
      expect(lines[0]).to.equal('total 8');
      expect(lines[1]).to.match(/^-r--r--r-- {4}1 Containe Containe {8}20 \w{3} [ \d]\d \d\d:\d\d data$/);
      expect(lines[2]).to.match(/^-rwxr-xr-x .* tool\.exe$/);
    });

    it('Windows with modes (limitation lifted) shows the mode itself', async () => {
      const r = await run(['ls', '-l', 'C:\\etc\\secret-mode'], agnhost(secretView(true)));
      expect(r.stdout.split('\n')[1]).to.match(/^-r-------- .* data$/);
    });

    it('cat as a program, and an applet the image lacks is not found', async () => {
      expect((await run(['cat', 'C:/etc/secret-mode/data'], agnhost(secretView(false)))).stdout).to.equal('wincheck-defaultmode');
      const r = await run(['head', 'x'], agnhost(secretView(false)));
      expect(r.code).to.equal(127);
    });

    it("Linux: ls -l shows the file system's mode; a missing path is exit 1", async () => {
      const vol = new SimFS(false);
      vol.write(['data'], 'x', { mode: 0o440 });
      const fs = new ContainerFS('linux', new SimFS(false), [{ at: ['etc', 'secret-mode'], fs: vol, base: [], readOnly: true, name: 'secret' }], undefined, {
        modes: true,
      });
      const host = linuxHost({ fs, hasBinary: n => ['sh', 'ls'].includes(n) });
      const r = await run(['ls', '-l', '/etc/secret-mode'], host);
      expect(r.stdout).to.match(/^total 4\n-r--r----- {4}1 root {5}root {13}1 \w{3} [ \d]\d \d\d:\d\d data\n$/);
      const miss = await run(['ls', '/nope'], host);
      expect(miss.code).to.equal(1);
      expect(miss.stderr).to.equal('ls: /nope: No such file or directory\n');
    });
  });
});
