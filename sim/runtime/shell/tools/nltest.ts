// nltest /PARENTDOMAIN: the AD domain the container was given by its gMSA credential spec
// (DomainJoinConfig.DnsName). Upstream test/e2e/windows/gmsa_kubelet.go checks the output starts
// with the domain and says "The command completed successfully"; even a credential spec for a
// domain nobody can reach answers so. Without one the machine is in no domain: ERROR_NO_SUCH_DOMAIN.

import type { ProgramCtx } from '../types.ts';

export async function runNltest(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  if (!ctx.args.some(a => /^\/parentdomain$/i.test(a))) {
    io.stderr.write('sim: only nltest /PARENTDOMAIN is simulated\r\n');
    return 87;
  }
  if (!host.domain) {
    io.stdout.write('Getting parent domain failed: Status = 1355 0x54b ERROR_NO_SUCH_DOMAIN\r\n');
    return 1355;
  }
  io.stdout.write(`${host.domain}. (1)\r\nThe command completed successfully\r\n`);
  return 0;
}
