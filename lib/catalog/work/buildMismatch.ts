// A container image built for another Windows build than the node's (process isolation).

import { buildNumberOf, LTSC_TAGS } from '../../facts/windows.ts';
import { limited } from '../expect.ts';
import { control } from '../kit/observe.ts';
import { createPodLike } from '../kit/podCopy.ts';
import { describeSettled, readyOrEvent } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { cite, sources } from '../../facts/sources.ts';
import { isPlatformMismatch } from '../../cluster/podFailures.ts';

/** An LTSC tag for a Windows build other than `build` (older first: the classic mismatch). */
export function otherBuildTag(build: string): { tag: string; build: string } {
  const own = buildNumberOf(build);
  const others = Object.keys(LTSC_TAGS)
    .map(Number)
    .filter(b => b !== own)
    .sort((a, b) => a - b);
  const pick = others.find(b => own !== undefined && b < own) ?? others[0];
  return { tag: LTSC_TAGS[pick], build: `10.0.${pick}` };
}

async function osMismatchProbe(ctx: CheckContext): Promise<Observation> {
  const base = 'os-mismatch';
  ctx.fixture(base);
  const build = ctx.fixture(base).windowsBuild ?? ctx.windowsNode?.windowsBuild;
  if (!build) throw new Error('no target Windows build was discovered');
  const other = otherBuildTag(build);
  const copy = `${base}-${other.tag}`;
  const evidence: EvidenceItem[] = [];
  ctx.step(`creating pod ${copy}: servercore:${other.tag} (build ${other.build}) for a node of build ${build}`);
  await createPodLike(ctx, base, copy, pod => {
    for (const c of pod.spec!.containers) c.image = c.image?.replace(/:[^:/]+$/, `:${other.tag}`);
  });
  ctx.step(`waiting for the matching-build control pod ${base} and for ${copy}`);
  const [matching, mismatch] = await Promise.all([readyOrEvent(ctx, base, ['FailedCreatePodSandBox']), readyOrEvent(ctx, copy, ['FailedCreatePodSandBox'])]);
  evidence.push(describeSettled(base, matching), describeSettled(copy, mismatch));
  if (matching.kind !== 'ready')
    throw new Error(
      `the control pod ${base} (image matching build ${build}) did not start either, so a failure of ${copy} says nothing about the build: ${describeSettled(base, matching)}`,
    );
  const node = matching.pod.spec?.nodeName;
  const started = control(true, `the control pod ${base} (image matching build ${build}) is Ready on ${node}`);
  if (mismatch.kind === 'ready')
    return {
      works: true,
      summary: `servercore:${other.tag} (build ${other.build}) runs on a build ${build} node`,
      evidence,
      node: mismatch.pod.spec?.nodeName ?? node,
      control: started,
    };
  const text =
    mismatch.kind === 'failed' ? [mismatch.error.message, ...mismatch.error.events].join(' | ') : `${mismatch.message} | ${mismatch.events.join(' | ')}`;
  const reason = mismatch.kind === 'failed' ? mismatch.error.reason : mismatch.reason;
  if (isPlatformMismatch(text) || reason === 'CrashLoopBackOff')
    return {
      works: false,
      summary: `servercore:${other.tag} on a build ${build} node failed as documented: ${reason}`,
      evidence: [...evidence, ...(mismatch.kind === 'failed' ? mismatch.error.events.slice(-3) : mismatch.events.slice(-3))],
      node,
      control: started,
    };
  throw new Error(`pod ${copy} failed, but not with a build mismatch (an unreachable registry or a missing mirror image?): ${text.slice(0, 500)}`);
}

export const features: Feature[] = [
  {
    id: 'work.os-mismatch',
    area: 'workloads',
    title: 'An image for another Windows build fails under process isolation',
    needs: ['windows-node'],
    fixtures: [{ id: 'os-mismatch', template: 'servercore-pod', os: 'windows' }],
    expect: () =>
      limited(
        'under process isolation the container image build must equal the host build; a mismatch fails to run',
        sources(cite.v19Guide(), cite.v122Intro(), cite.e2e()),
      ),
    probe: osMismatchProbe,
  },
];
