// A Transport into a pod's container over the API server's exec: an argv as is, a command line
// through the container OS's shell (cmd /c on Windows, /bin/sh -c on Linux).

import { execInPod, firstContainer, type CommandResult, type ExecTarget } from '../cluster/exec.ts';
import type { KubeClients } from '../cluster/types.ts';
import type { ProbeOS, Transport } from '../probes/types.ts';

export class PodExecTransport implements Transport {
  readonly description: string;
  /** The container, read once: a pod's containers never change, and a GET per command doubled the requests of every exec. */
  private _container?: Promise<string>;
  constructor(
    private readonly _kube: KubeClients,
    private readonly _target: ExecTarget,
    readonly os: ProbeOS,
  ) {
    this.description = `exec ${_target.namespace}/${_target.pod}${_target.container ? ` [${_target.container}]` : ''}`;
  }

  run(command: string[] | string, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<CommandResult> {
    const argv = typeof command === 'string' ? (this.os === 'windows' ? ['cmd', '/c', command] : ['/bin/sh', '-c', command]) : command;
    return this._exec(argv, opts);
  }

  private async _exec(argv: string[], opts: { timeoutMs?: number; signal?: AbortSignal }): Promise<CommandResult> {
    if (this._target.container) return execInPod(this._kube, this._target, argv, opts.timeoutMs, opts.signal);
    this._container ??= firstContainer(this._kube, this._target).catch(e => {
      this._container = undefined;
      throw e;
    });
    return execInPod(this._kube, { ...this._target, container: await this._container }, argv, opts.timeoutMs, opts.signal);
  }
}
