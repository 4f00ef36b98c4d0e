import { expect } from 'chai';
import { run, winHost, startHttp, nodeViews } from '../../../support/fakeShellHost.ts';
import type { ShellHost } from '../../../../sim/runtime/shell/types.ts';
import { ContainerFS, MemFS as SimFS } from '../../../../sim/runtime/fs.ts';

const ps = (script: string): string[] => ['powershell', '-NoProfile', '-Command', script];

describe('sim shell: powershell', () => {
  let srv: { port: number; close: () => Promise<void> };
  before(async () => {
    srv = await startHttp();
  });
  after(async () => {
    await srv.close();
  });

  it('Write-Output prints one CRLF line per string', async () => {
    const r = await run(ps('Write-Output "SUCCESS"; "a","b"'), winHost());
    expect(r.stdout).to.equal('SUCCESS\r\na\r\nb\r\n');
    expect(r.code).to.equal(0);
  });

  it('the last statement decides: a failing cmdlet earlier still exits 0', async () => {
    const r = await run(ps('Get-Service nope; Write-Output ok'), winHost({ node: nodeViews() }));
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal('ok\r\n');
  });

  it('the last statement decides: a failing cmdlet last exits 1 with the error record', async () => {
    const r = await run(ps('Write-Output ok; Get-Service nope'), winHost({ node: nodeViews() }));
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(
      /^Get-Service : Cannot find any service with service name 'nope'\.\r\nAt line:1 char:18\r\n\+ Write-Output ok; Get-Service nope\r\n\+ \x20{17}~{16}\r\n/,
    );
    expect(r.stderr).to.include('+ CategoryInfo          : ObjectNotFound: (nope:String) [Get-Service], ServiceCommandException\r\n');
  });

  it('throw exits 1 with "<msg>\\r\\nAt line:1 char:N" on stderr', async () => {
    const r = await run(ps("$x = 1; throw 'boom'; Write-Output never"), winHost());
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.match(/^boom\r\nAt line:1 char:9\r\n\+ \$x = 1; throw 'boom'; Write-Output never\r\n\+ \x20{8}~{12}\r\n/);
  });

  it("an external program's nonzero exit becomes 1", async () => {
    const r = await run(ps('cmd /c exit 5'), winHost());
    expect(r.code).to.equal(1);
  });

  it("exit $LASTEXITCODE keeps the external program's code", async () => {
    const r = await run(ps('cmd /c exit 5; exit $LASTEXITCODE'), winHost());
    expect(r.code).to.equal(5);
  });

  it('an unknown cmdlet is "not recognized" on stderr and exits 1', async () => {
    const r = await run(ps('Frob-Nicate -Now'), winHost());
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/^Frob-Nicate : The term 'Frob-Nicate' is not recognized as the name of a cmdlet, function, script file, or operable program\./);
  });

  it('Get-Service prints the Status/Name/DisplayName table', async () => {
    const host = winHost({ node: nodeViews([], [{ name: 'hns', displayName: 'Host Network Service', status: 'Running', pid: 1 }]) });
    const r = await run(ps('Get-Service hns'), host);
    expect(r.stdout).to.equal('\r\nStatus   Name     DisplayName\r\n------   ----     -----------\r\nRunning  hns      Host Network Service\r\n\r\n\r\n');
  });

  it('(Get-Service x).Status compares case-insensitively', async () => {
    const host = winHost({ node: nodeViews([], [{ name: 'kubelet', displayName: 'kubelet', status: 'Running', pid: 1 }]) });
    const r = await run(ps("if ((Get-Service kubelet).Status -ne 'running') { throw 'not running' }; 'ok'"), host);
    expect(r.stdout).to.equal('ok\r\n');
    expect(r.code).to.equal(0);
  });

  const hyperv =
    "$vms = Get-ComputeProcess | Where-Object { ($_.Type -EQ 'VirtualMachine') -and ($_.Owner -EQ 'containerd-shim-runhcs-v1.exe') } ; if ($vms.Length -le 0) { throw 'error' }";
  it('the hyperv.go script passes when a utility VM exists', async () => {
    const vm = { id: 'A1', owner: 'containerd-shim-runhcs-v1.exe', type: 'VirtualMachine' as const, isTemplate: false };
    const r = await run(ps(hyperv), winHost({ node: nodeViews([vm]) }));
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(0);
  });

  it('the hyperv.go script throws when there is none', async () => {
    const r = await run(ps(hyperv), winHost({ node: nodeViews([]) }));
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/^error\r\nAt line:1 char:\d+/);
  });

  it('Get-ComputeProcess is not recognized without node access', async () => {
    const r = await run(ps('Get-ComputeProcess'), winHost());
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include("The term 'Get-ComputeProcess' is not recognized");
  });

  it('Where-Object simple form and Select-Object -ExpandProperty', async () => {
    const vm = { id: 'A1', owner: 'o', type: 'VirtualMachine' as const, isTemplate: false };
    const ct = { id: 'B2', owner: 'o', type: 'Container' as const, isTemplate: false };
    const r = await run(
      ps("Get-ComputeProcess | Where-Object Type -EQ 'container' | Select-Object -ExpandProperty Id"),
      winHost({ node: nodeViews([vm, ct]) }),
    );
    expect(r.stdout).to.equal('B2\r\n');
  });

  it('$env:COMPUTERNAME and [Environment]::UserName', async () => {
    const r = await run(ps('$env:COMPUTERNAME; [Environment]::UserName; $env:username -eq "CONTAINERUSER"'), winHost());
    expect(r.stdout).to.equal('IIS-7C7757C8BF-\r\nContainerUser\r\nTrue\r\n');
  });

  it('$env: writes are seen by child programs', async () => {
    const r = await run(ps('$env:FOO = "bar"; cmd /c echo %FOO%'), winHost());
    expect(r.stdout).to.equal('bar\r\n');
  });

  it('native output passes through raw at top level, and is captured as lines', async () => {
    const r = await run(ps('$h = hostname; "[$h]"; hostname'), winHost());
    expect(r.stdout).to.equal('[iis-7c7757c8bf-24fh4]\r\niis-7c7757c8bf-24fh4\r\n');
  });

  it('-EncodedCommand takes base64 UTF-16LE', async () => {
    const enc = Buffer.from("Write-Output 'enc'", 'utf16le').toString('base64');
    const r = await run(['powershell.exe', '-NonInteractive', '-EncodedCommand', enc], winHost());
    expect(r.stdout).to.equal('enc\r\n');
  });

  it('Get-Content / Set-Content / Test-Path round trip', async () => {
    const host = winHost();
    const r = await run(
      ps("Set-Content -Path C:\\data\\x.txt -Value 'v1'; Add-Content C:\\data\\x.txt 'v2'; (Get-Content C:\\data\\x.txt).Count; Test-Path C:\\data\\x.txt"),
      host,
    );
    expect(r.stdout).to.equal('2\r\nTrue\r\n');
    expect(host.fs.read('C:\\data\\x.txt').toString()).to.equal('v1\r\nv2\r\n');
  });

  it('Set-Content into a read-only mount fails with Access denied', async () => {
    const r = await run(ps("Set-Content C:\\ro\\x.txt 'v'"), winHost());
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/^Set-Content : Access to the path 'C:\\ro\\x\.txt' is denied\./);
  });

  it('Test-NetConnection -InformationLevel Quiet returns True/False', async () => {
    const host = winHost({}, { open: { '10.0.0.1:80': srv.port } });
    const r = await run(
      ps('Test-NetConnection -ComputerName 10.0.0.1 -Port 80 -InformationLevel Quiet; Test-NetConnection 10.0.0.9 -Port 81 -InformationLevel Quiet'),
      host,
    );
    expect(r.stdout).to.equal('True\r\nWARNING: TCP connect to (10.0.0.9 : 81) failed\r\nWARNING: Ping to 10.0.0.9 failed with status: TimedOut\r\nFalse\r\n');
    expect(r.code).to.equal(0);
  });

  it('Test-NetConnection success ends with TcpTestSucceeded : True', async () => {
    const host = winHost({}, { open: { '10.0.0.1:80': srv.port } });
    const r = await run(ps('Test-NetConnection -ComputerName 10.0.0.1 -Port 80'), host);
    expect(r.stdout).to.match(/ComputerName {5}: 10\.0\.0\.1\r\n/);
    expect(r.stdout).to.match(/TcpTestSucceeded : True\r\n\r\n\r\n$/);
    expect(r.stdout).not.to.include('PingSucceeded');
  });

  it('Resolve-DnsName: a table on success, an error and exit 1 when the name does not exist', async () => {
    const host = winHost({}, { names: { 'kubernetes.default.svc.cluster.local': ['10.96.0.1'] } });
    const ok = await run(ps('Resolve-DnsName kubernetes.default.svc.cluster.local'), host);
    expect(ok.stdout).to.match(/Name +Type +TTL +Section +IPAddress\r\n/);
    expect(ok.stdout).to.match(/kubernetes\.default\.svc\.cluster\.local +A +5 +Answer +10\.96\.0\.1\r\n/);
    const bad = await run(ps('Resolve-DnsName nope.example.'), host);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/^Resolve-DnsName : nope\.example\. : DNS name does not exist\r\n/);
    expect(bad.stderr).to.include('DNS_ERROR_RCODE_NAME_ERROR,Microsoft.DnsClient.Commands.ResolveDnsName');
  });

  it('Invoke-WebRequest returns StatusCode and Content; failure sets $? false', async () => {
    const host = winHost({}, { open: { '10.0.0.1:80': srv.port } });
    const r = await run(ps('$r = Invoke-WebRequest -UseBasicParsing -Uri http://10.0.0.1/ -TimeoutSec 5; $r.StatusCode; $r.Content'), host);
    expect(r.stdout).to.equal('200\r\nhello\r\n');
    const bad = await run(ps('Invoke-WebRequest -UseBasicParsing http://10.0.0.1/missing'), host);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.match(/^Invoke-WebRequest : The remote server returned an error: \(404\) Not Found\.\r\n/);
    const after = await run(ps('Invoke-WebRequest -UseBasicParsing http://10.0.0.9/; $?'), host);
    expect(after.stdout).to.equal('False\r\n');
    expect(after.stderr).to.match(/^Invoke-WebRequest : Unable to connect to the remote server\r\n/);
  });

  it('[System.Net.Dns]::GetHostAddresses resolves through the twin', async () => {
    const host = winHost({}, { names: { 'kubernetes.default.svc.cluster.local': ['10.96.0.1'] } });
    const r = await run(ps("[System.Net.Dns]::GetHostAddresses('kubernetes.default.svc.cluster.local').IPAddressToString"), host);
    expect(r.stdout).to.equal('10.96.0.1\r\n');
  });

  it('whoami and hostname run as native programs', async () => {
    const r = await run(ps('whoami; hostname'), winHost({ user: 'NT AUTHORITY\\SYSTEM' }));
    expect(r.stdout).to.equal('nt authority\\system\r\niis-7c7757c8bf-24fh4\r\n');
  });

  it('if/else, comparison operators, arrays and .Count', async () => {
    const r = await run(
      ps("$a = @(1,2,3); if ($a.Count -ge 3 -and 'abc' -like 'a*') { 'yes' } else { 'no' }; $a -contains 2; 'X' -match 'x'; ($a | Measure-Object).Count"),
      winHost(),
    );
    expect(r.stdout).to.equal('yes\r\nTrue\r\nTrue\r\n3\r\n');
  });

  it('try/catch catches a throw and reads $_.Exception.Message', async () => {
    const r = await run(ps('try { throw \'inner\' } catch { Write-Output "caught: $($_.Exception.Message)" }'), winHost());
    expect(r.stdout).to.equal('caught: inner\r\n');
    expect(r.code).to.equal(0);
  });

  it('-ErrorAction Stop makes a cmdlet error end the script', async () => {
    const r = await run(ps("Get-Content C:\\nope.txt -ErrorAction Stop; 'after'"), winHost());
    expect(r.code).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.match(/^Get-Content : Cannot find path 'C:\\nope\.txt' because it does not exist\./);
  });

  it('a parse error is reported with exit 1', async () => {
    const r = await run(ps("if ($true) { 'x'"), winHost());
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('ParserError');
  });

  it('while ($true) {} burns CPU through host.resources until aborted', async () => {
    const calls: [number, number][] = [];
    const host: ShellHost = winHost({
      resources: {
        burnCpu: async (m, ms, signal) => {
          calls.push([m, ms]);
          await new Promise(r => {
            const t = setTimeout(r, 10);
            signal.addEventListener('abort', () => {
              clearTimeout(t);
              r(undefined);
            });
          });
        },
        allocateMemory: () => ({ ok: true, oomKilled: false }),
      },
    });
    const r = await run(ps('while ($true) {}'), host, { abortAfterMs: 100 });
    expect(r.code).to.equal(130);
    expect(calls.length).to.be.greaterThan(2);
    expect(calls[0]).to.deep.equal([1000, 100]);
  });

  it('a deadline loop on Get-Date ends by itself', async () => {
    const calls: number[] = [];
    const host: ShellHost = winHost({
      resources: {
        burnCpu: async (_m, ms) => {
          calls.push(ms);
          await new Promise(r => setTimeout(r, ms));
        },
        allocateMemory: () => ({ ok: true, oomKilled: false }),
      },
    });
    const r = await run(ps('$end = (Get-Date).AddMilliseconds(250); while ((Get-Date) -lt $end) { }; "done"'), host);
    expect(r.stdout).to.equal('done\r\n');
    expect(calls.length).to.be.within(2, 4);
  });

  it('Start-Sleep honours the abort signal', async () => {
    const t0 = Date.now();
    const r = await run(ps('Start-Sleep -Seconds 30'), winHost(), { abortAfterMs: 50 });
    expect(Date.now() - t0).to.be.lessThan(2000);
    expect(r.code).to.equal(130);
  });

  it('pwsh prints errors in ConciseView', async () => {
    const r = await run(['pwsh', '-Command', 'Get-Service nope'], winHost({ hasBinary: n => n === 'pwsh.exe', node: nodeViews() }));
    expect(r.stderr).to.equal("Get-Service: Cannot find any service with service name 'nope'.\r\n");
  });

  it('switch picks the matching clause, else default', async () => {
    const r = await run(ps("switch ('b') { 'a' { 'A' } 'b' { 'B' } default { 'D' } }; switch (3) { 1 { 'one' } default { 'other' } }"), winHost());
    expect(r.stdout).to.equal('B\r\nother\r\n');
  });

  it('hash literal values run commands ([ordered]@{ Ok = Test-Path ... })', async () => {
    const r = await run(ps('$r = [ordered]@{ Ok = Test-Path C:\\data; No = Test-Path C:\\nope }\n$r | ConvertTo-Json -Compress'), winHost());
    expect(r.stdout).to.equal('{"Ok":true,"No":false}\r\n');
  });

  it('Get-HnsNetwork is a list of ID, Name, Type', async () => {
    const host = winHost({ node: nodeViews([], [], [{ id: 'B0F7', name: 'flannel.4096', type: 'Overlay' }]) });
    const r = await run(ps('Get-HnsNetwork'), host);
    expect(r.stdout).to.equal(
      '\r\nID           : B0F7\r\nName         : flannel.4096\r\nType         : Overlay\r\nManagementIP :\r\nSubnets      :\r\n\r\n\r\n',
    );
  });

  it('a Start-Sleep longer than a timer can hold still sleeps (HostProcess idle pods)', async () => {
    const r = await run(ps('Start-Sleep -Seconds 2147483; "woke"'), winHost(), { abortAfterMs: 100 });
    expect(r.stdout).to.equal('');
    expect(r.code).to.equal(130);
  });

  it('New-Object byte[] reports the allocation to host.resources', async () => {
    const seen: number[] = [];
    const host = winHost({
      resources: {
        burnCpu: async () => {},
        allocateMemory: b => {
          seen.push(b);
          return { ok: true, oomKilled: false };
        },
      },
    });
    const r = await run(ps('$a = New-Object byte[] 200MB; $a.Length'), host);
    expect(seen).to.deep.equal([200 * 1024 * 1024]);
    expect(r.stdout).to.equal('209715200\r\n');
  });

  it('nslookup 2>&1 in Windows PowerShell: stderr becomes a NativeCommandError and $? is false', async () => {
    const r = await run(ps('nslookup www.example.com 2>&1'), winHost({}, { names: { 'www.example.com': ['10.0.0.200'] } }));
    expect(r.stdout).to.include('nslookup : Non-authoritative answer:\r\nAt line:1 char:1\r\n');
    expect(r.stdout).to.include('+ FullyQualifiedErrorId : NativeCommandError\r\n');
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(1);
  });

  const tcpProbe = (h: string, p: number): string[] =>
    ps(
      `$c = New-Object Net.Sockets.TcpClient; $t = $c.ConnectAsync('${h}', ${p}); if (-not $t.Wait(10000)) { Write-Error 'TIMEOUT'; exit 1 }; if ($t.IsFaulted) { Write-Error $t.Exception.InnerException.Message; exit 1 }; exit 0`,
    );

  it('the TcpClient.ConnectAsync probe exits 0 on an open port', async () => {
    const r = await run(tcpProbe('10.0.0.1', 80), winHost({}, { open: { '10.0.0.1:80': srv.port } }));
    expect(r.stderr).to.equal('');
    expect(r.code).to.equal(0);
  });

  it('the TcpClient.ConnectAsync probe exits 1 with the SocketException text when refused', async () => {
    const r = await run(tcpProbe('10.0.0.9', 80), winHost());
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include('Exception calling "Wait" with "1" argument(s): "One or more errors occurred."');
    expect(r.stderr).to.include('No connection could be made because the target machine actively refused it 10.0.0.9:80');
  });

  it('Get-Item shows a file written with mode 0400 as read-only (Mode -ar---, IsReadOnly), others as -a----', async () => {
    const vol = new SimFS(true);
    vol.write(['data'], 'x', { mode: 0o400 });
    vol.write(['other'], 'y', { mode: 0o644 });
    const host = winHost({ fs: new ContainerFS('windows', new SimFS(true), [{ at: ['c:', 's'], fs: vol, base: [], readOnly: true, name: 's' }]) });
    const r = await run(ps('(Get-Item C:\\s\\data).Mode; (Get-Item C:\\s\\data).IsReadOnly; (Get-Item C:\\s\\other).Mode'), host);
    expect(r.stdout).to.equal('-ar---\r\nTrue\r\n-a----\r\n');
  });

  it('Get-Acl gives the inherited default ACL (owner, group, rules with NTAccount .Value and numeric rights); a volume without Users under volume-file-acl', async () => {
    const vol = new SimFS(true);
    vol.write(['data-2'], 'value-2', { mode: 0o644 });
    const script = `$a = Get-Acl -LiteralPath 'C:\\s\\data-2'; [pscustomobject]@{ Owner = $a.Owner; Group = $a.Group; Access = @($a.Access | ForEach-Object { [pscustomobject]@{ Identity = $_.IdentityReference.Value; Rights = [int]$_.FileSystemRights; Type = [string]$_.AccessControlType } }) } | ConvertTo-Json -Depth 3 -Compress`;
    const mounts = [{ at: ['c:', 's'], fs: vol, base: [], readOnly: true, name: 's' }];
    const r = await run(ps(script), winHost({ fs: new ContainerFS('windows', new SimFS(true), mounts) }));
    expect(r.code, r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout)).to.deep.equal({
      Owner: 'BUILTIN\\Administrators',
      Group: 'NT AUTHORITY\\SYSTEM',
      Access: [
        { Identity: 'NT AUTHORITY\\SYSTEM', Rights: 2032127, Type: 'Allow' },
        { Identity: 'BUILTIN\\Administrators', Rights: 2032127, Type: 'Allow' },
        { Identity: 'BUILTIN\\Users', Rights: 1179817, Type: 'Allow' },
      ],
    });
    const broken = await run(ps(script), winHost({ fs: new ContainerFS('windows', new SimFS(true), mounts, undefined, { volumeAclWithoutUsers: true }) }));
    expect((JSON.parse(broken.stdout) as { Access: { Identity: string }[] }).Access.map(a => a.Identity)).to.deep.equal([
      'NT AUTHORITY\\SYSTEM',
      'BUILTIN\\Administrators',
    ]);
    const missing = await run(ps("Get-Acl -LiteralPath 'C:\\s\\nope'"), winHost({ fs: new ContainerFS('windows', new SimFS(true), mounts) }));
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.match(/Cannot find path/);
  });

  it('a read-only file refuses a write on a writable mount ("Access is denied.")', async () => {
    const vol = new SimFS(true);
    vol.write(['data'], 'x', { mode: 0o400 });
    const host = winHost({ fs: new ContainerFS('windows', new SimFS(true), [{ at: ['c:', 's'], fs: vol, base: [], readOnly: false, name: 's' }]) });
    const r = await run(['cmd', '/c', 'echo y > C:\\s\\data'], host);
    expect(r.stderr).to.equal('Access is denied.\r\n');
    expect(vol.read(['data']).toString()).to.equal('x');
  });
});
