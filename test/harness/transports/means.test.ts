// The transports keep what the harness needs to judge its own means: an exec that failed keeps
// the runtime's message (a MeansError, never "exit -1" with empty text), and an SSH command's
// exit status survives a channel whose data, exit-status and close arrive in one batch.

import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import { execFailure, exitCodeOf } from '../../../lib/cluster/exec.ts';
import { MeansError } from '../../../lib/cluster/meansError.ts';
import { SshTransport } from '../../../lib/transports/ssh.ts';

describe('exec: the status says whether the command ran', () => {
  it('a command that ran: Success or NonZeroExitCode (its own exit code)', () => {
    expect(execFailure({ status: 'Success' }, { stdout: '', stderr: '' })).to.equal(undefined);
    const nonZero = { status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '7' }] } };
    expect(execFailure(nonZero, { stdout: '', stderr: '' })).to.equal(undefined);
    expect(exitCodeOf(nonZero)).to.equal(7);
  });

  it('an exec that failed keeps the Status message and reason', () => {
    const hcs = {
      status: 'Failure',
      reason: 'InternalError',
      code: 500,
      message:
        'Internal error occurred: error executing command in container: failed to exec in container: hcs::System::CreateProcess abc: The system cannot find the file specified.: unknown',
    };
    expect(execFailure(hcs, { stdout: '', stderr: '' })).to.equal(`${hcs.message} (InternalError, HTTP 500)`);
    expect(execFailure(undefined, { stdout: '', stderr: 'OCI runtime exec failed\n' })).to.equal(
      'the connection closed without an exec status (stderr: OCI runtime exec failed)',
    );
  });
});

/** An ssh2 channel stand-in whose whole life happens inside exec's callback (one packet batch). */
function burstConnection(events: (s: EventEmitter & { stderr: EventEmitter }) => void) {
  return {
    exec(_line: string, _opts: object, cb: (err: Error | undefined, s: EventEmitter) => void) {
      const s = Object.assign(new EventEmitter(), {
        stderr: new EventEmitter(),
        close() {
          /* closed already */
        },
      });
      cb(undefined, s);
      events(s);
    },
  };
}

function sshWith(conn: object): SshTransport {
  const t = new SshTransport({ node: 'win-1', host: '127.0.0.1', user: 'Administrator', privateKey: '', knownHosts: [], knownHostsSource: 'test' });
  t.connect = async () => conn as never;
  return t;
}

describe('SSH transport: the exit status is never lost', () => {
  it('keeps stdout and the exit status when the channel ends in the same tick as it opens', async () => {
    const t = sshWith(
      burstConnection(s => {
        s.emit('data', Buffer.from('WIN-1\r\n'));
        s.stderr.emit('data', Buffer.from('warning\r\n'));
        s.emit('exit', 3);
        s.emit('close');
      }),
    );
    expect(await t.run('echo %COMPUTERNAME%', { timeoutMs: 2_000 })).to.deep.equal({ stdout: 'WIN-1\r\n', stderr: 'warning\r\n', exitCode: 3 });
  });

  it('a channel that closes without an exit status is a MeansError, not exit -1', async () => {
    const t = sshWith(
      burstConnection(s => {
        s.emit('data', Buffer.from('partial'));
        s.emit('exit', null, 'KILL');
        s.emit('close');
      }),
    );
    const err = await t.run('x', { timeoutMs: 2_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(MeansError);
    expect((err as MeansError).means).to.equal('node-access');
    expect((err as Error).message).to.equal('ssh win-1: the channel closed without an exit status (signal KILL)');
  });
});
