// gMSA credential specs passed down to the containers, without a domain (upstream
// test/e2e/windows/gmsa_kubelet.go): the kubelet hands the pod's and each container's
// securityContext.windowsOptions.gmsaCredentialSpec to the runtime, and `nltest /PARENTDOMAIN` in
// each container names the spec's domain, the container's own spec winning over the pod's. The
// end-to-end test with a real domain (gmsa_full.go) needs Active Directory and is not ours.

import { k8sAtLeast } from '../../facts/kubernetes.ts';
import { cite, sources } from '../../facts/sources.ts';
import { notApplicable, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import { fixturePodReady } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import type { ProbeResult } from '../../probes/types.ts';

const FIXTURE = 'gmsa-credspec';
const SPEC =
  "GMSA Kubelet kubelet GMSA support when creating a pod with correct GMSA credential specs passes the credential specs down to the Pod's containers";
/** The domain each container must report: the pod's spec for container1, its own for container2 (fixtures/gmsa-credspec.yaml). */
const EXPECTED: [container: string, domain: string][] = [
  ['container1', 'acme.com'],
  ['container2', 'contoso.org'],
];
const SUCCESS = 'The command completed successfully';
/** nltest printed its own answer (the domain, or why it has none): the tool ran. */
const NLTEST_ANSWERED = /The command completed successfully|Getting parent domain failed/i;

/** upstream's check: the output starts with the domain and says the command completed. */
export function reportsDomain(stdout: string, domain: string): boolean {
  return stdout.trim().toLowerCase().startsWith(domain.toLowerCase()) && stdout.includes(SUCCESS);
}

async function gmsaProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, FIXTURE, 'pod gmsa-credspec (pod spec acme.com, container2 spec contoso.org)');
  if (!r.ok) return r.observation;
  const node = r.pod.spec?.nodeName;
  const seen: [string, string, ProbeResult][] = [];
  for (const [container, domain] of EXPECTED) {
    ctx.step(`nltest /PARENTDOMAIN in container ${container} (expects ${domain})`);
    seen.push([container, domain, await ctx.probe(ctx.podTransport(FIXTURE, 'windows', container), { kind: 'raw', argv: ['nltest', '/PARENTDOMAIN'] })]);
  }
  const evidence: EvidenceItem[] = seen.map(([, , p]) => p.evidence);
  const answered = seen.every(([, , p]) => NLTEST_ANSWERED.test(p.evidence.stdout + p.evidence.stderr));
  const ctl = control(
    answered,
    answered
      ? 'nltest answered in both containers'
      : `nltest did not answer in every container (${seen.map(([c, , p]) => `${c}: exit ${p.evidence.exitCode}`).join(', ')})`,
  );
  const wrong = seen.filter(([, domain, p]) => !reportsDomain(p.evidence.stdout, domain));
  const first = (p: ProbeResult) => (p.evidence.stdout.trim().split(/\r?\n/)[0] ?? '').slice(0, 120) || `exit ${p.evidence.exitCode}`;
  return wrong.length
    ? {
        works: false,
        summary: `the credential spec did not reach ${wrong.map(([c, d, p]) => `${c} (expected ${d}, nltest: "${first(p)}")`).join('; ')}`,
        evidence,
        node,
        control: ctl,
      }
    : {
        works: true,
        summary: 'nltest /PARENTDOMAIN names acme.com in container1 (pod spec) and contoso.org in container2 (its own spec)',
        evidence,
        node,
        control: ctl,
      };
}

export const features: Feature[] = [
  {
    id: 'sec.gmsa-credspec',
    area: 'security',
    title: "gMSA credential specs (pod and container level) reach the Pod's containers, no domain needed",
    needs: ['windows-node'],
    fixtures: [{ id: FIXTURE, template: 'gmsa-credspec', os: 'windows' }],
    expect: c =>
      k8sAtLeast(c.version, 1, 18)
        ? supported(
            `gMSA for Windows pods is GA from Kubernetes 1.18 (cluster ${c.version.gitVersion}); the kubelet passes inline credential specs to the runtime`,
            sources(cite.e2eTest('gmsa_kubelet.go', SPEC), cite.doc('tasks/configure-pod-container/configure-gmsa')),
          )
        : notApplicable(
            `gMSA needs Kubernetes 1.18 or later (cluster ${c.version.gitVersion})`,
            sources(cite.doc('tasks/configure-pod-container/configure-gmsa')),
          ),
    probe: gmsaProbe,
  },
];
