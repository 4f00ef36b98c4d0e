// A `wincheck sim` process for a mocha suite, driven by a real kubectl: registers the
// before/after hooks (the suite skips, with a message, where the kubectl binary is absent).

import { kubectl, kubectlBinary, type KubectlResult } from './kubectl.ts';
import { startSimProcess, type SimProcess } from './simProcess.ts';

export type Kubectl = (args: string[], input?: string) => Promise<KubectlResult>;

export function useSimWithKubectl(version = '1.33', timeoutMs = 120_000): Kubectl {
  let sim: SimProcess | undefined;
  let bin = '';
  before(async function () {
    const b = kubectlBinary(version);
    if (!b) {
      console.log(`    (kubectl.${version} is not on this machine: skipped)`);
      this.skip();
    }
    bin = b;
    sim = await startSimProcess();
  });
  after(async () => {
    await sim?.stop('SIGTERM');
  });
  return (args, input) => kubectl(bin, sim!.kubeconfig, args, { input, timeoutMs });
}
