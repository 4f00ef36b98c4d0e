// The pre-pull phase: which images go to which nodes, how a pull pod's status reads, and on the
// slow-pulls profile (first pulls as long as the image's size makes them, time-scaled) a run that
// pre-pulls within its deadline with progress lines (then pods start within a pod-start deadline
// shorter than the pulls), and one that hits the deadline, says what still pulls, and goes on.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import type { RenderedFixture } from '../../../lib/fixtures/types.ts';
import { canonicalImage } from '../../../lib/fixtures/images.ts';
import { formatElapsed, pullState, pullTargets } from '../../../lib/run/prepull.ts';
import { linuxNode, winNode } from '../../support/clusterFixture.ts';
import { runOnSim } from '../../support/simRun.ts';

const podWith = (image: string): RenderedFixture['objects'][number] =>
  ({ kind: 'Pod', metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image }] } }) as V1Pod;
const fixture = (id: string, image: string, extra: Partial<RenderedFixture> & { pin?: 'node' | 'none' | 'build' } = {}): RenderedFixture => ({
  spec: { id, template: id, os: extra.spec?.os ?? 'windows', pin: extra.pin },
  objects: [podWith(image)],
  windowsBuild: '10.0.20348',
  ...extra,
});
const status = (s: V1Pod['status']): V1Pod => ({ status: s });

describe('pre-pull', function () {
  this.timeout(5 * 60_000);

  it('pulls each Windows image on the nodes its pods may run on: the build, the pinned node, or every Windows node', () => {
    const nodes = [
      linuxNode('l'),
      winNode('a', '10.0.20348'),
      winNode('b', '10.0.20348'),
      winNode('c', '10.0.17763'),
      winNode('d', '10.0.20348', { schedulable: false }),
    ];
    const targets = pullTargets(
      [
        fixture('iis', 'iis:2022'),
        fixture('pinned', 'pause:3.10', { node: 'b' }),
        fixture('ds', 'agnhost:2.52', { pin: 'none' }),
        fixture('again', 'iis:2022'),
        fixture('helper', 'agnhost:2.52', { spec: { id: 'helper', template: 'linux-helper', os: 'linux' } }),
      ],
      nodes,
    );
    expect(targets.map(t => `${t.image}@${t.node}`)).to.have.members([
      'iis:2022@a',
      'iis:2022@b',
      'pause:3.10@b',
      'agnhost:2.52@a',
      'agnhost:2.52@b',
      'agnhost:2.52@c',
    ]);
  });

  it('marks as present what a node already reports in status.images (named by tag, registry or library/ implicit or not): no pull pod for it', () => {
    const nodes = [
      winNode('a', '10.0.20348', {
        images: ['docker.io/library/iis:2022', 'mcr.microsoft.com/oss/kubernetes/pause@sha256:0123', 'registry.k8s.io/pause:3.10'],
      }),
      winNode('b', '10.0.20348', { images: [] }),
    ];
    const targets = pullTargets([fixture('iis', 'iis:2022'), fixture('ds', 'registry.k8s.io/pause:3.10', { pin: 'none' })], nodes);
    expect(targets.map(t => `${t.image}@${t.node}${t.present ? ' present' : ''}`)).to.have.members([
      'iis:2022@a present',
      'iis:2022@b',
      'registry.k8s.io/pause:3.10@a present',
      'registry.k8s.io/pause:3.10@b',
    ]);
    expect(canonicalImage('redis')).to.equal('docker.io/library/redis:latest');
    expect(canonicalImage('me/tool:1')).to.equal('docker.io/me/tool:1');
    expect(canonicalImage('localhost:5000/x')).to.equal('localhost:5000/x:latest');
    expect(canonicalImage('mcr.microsoft.com/windows/nanoserver@sha256:ab')).to.equal('mcr.microsoft.com/windows/nanoserver@sha256:ab');
  });

  it('reads a pull pod: present once the container was created or ran, failed on pull errors, else pulling', () => {
    expect(pullState(status({ phase: 'Pending' })).state).to.equal('pulling');
    expect(
      pullState(
        status({
          containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }],
        }),
      ).state,
    ).to.equal('pulling');
    expect(
      pullState(
        status({
          containerStatuses: [
            { name: 'c', image: 'i', imageID: 'sha256:1', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } },
          ],
        }),
      ).state,
    ).to.equal('present');
    expect(
      pullState(
        status({
          containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'CreateContainerError' } } }],
        }),
      ).state,
    ).to.equal('present');
    expect(
      pullState(status({ containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 0 } } }] }))
        .state,
    ).to.equal('present');
    const failed = pullState(
      status({
        containerStatuses: [
          {
            name: 'c',
            image: 'i',
            imageID: '',
            ready: false,
            restartCount: 0,
            state: { waiting: { reason: 'ErrImagePull', message: 'no match for platform in manifest' } },
          },
        ],
      }),
    );
    expect(failed).to.deep.equal({ state: 'failed', message: 'ErrImagePull: no match for platform in manifest' });
    expect(formatElapsed(1_400)).to.equal('1.4s');
    expect(formatElapsed(42_400)).to.equal('42s');
    expect(formatElapsed(75_000)).to.equal('1m15s');
  });

  it('slow pulls: pre-pulled within the deadline with progress lines; pods then start within a short pod-start deadline', async () => {
    const run = await runOnSim(['work.iis-pod', 'work.exec-logs'], {
      base: 'slow-pulls',
      timeouts: { podStart: 1_000, prepull: 60_000, prepullProgress: 250 },
    });
    const out = run.output.join('\n');
    expect(out).to.match(/Pre-pulling 2 Windows image\(s\) on 2 node\(s\) \(deadline 1m00s\)\./);
    expect(out).to.match(
      /Pre-pull: \d\/4 present after [\d.]+s; waiting for .*mcr\.microsoft\.com\/windows\/servercore\/iis:windowsservercore-ltsc2022 on win-2022-\d/,
    );
    // One line per image, once it is on all its nodes.
    expect(out).to.match(
      /Pre-pull: mcr\.microsoft\.com\/windows\/servercore\/iis:windowsservercore-ltsc2022 present on 2 node\(s\) \(win-2022-\d, win-2022-\d\) after [\d.]+s\./,
    );
    expect(out.match(/^Pre-pull: \S+ present on /gm)).to.have.length(2);
    expect(out).to.match(/Pre-pulled 4\/4 image\(s\) in [\d.]+s\./);
    expect(out.indexOf('Pre-pulled')).to.be.lessThan(out.search(/\] work\.iis-pod/));
    for (const id of ['work.iis-pod', 'work.exec-logs']) expect(run.results.get(id)?.outcome, `${id}: ${run.results.get(id)?.reason}`).to.equal('supported');
    expect(run.leftover).to.deep.equal([]);
  });

  it('a pre-pull deadline that passes is said, with what still pulls; the checks go on with their own deadline', async () => {
    const run = await runOnSim(['work.iis-pod'], { base: 'slow-pulls', timeouts: { prepull: 400, prepullProgress: 60_000 } });
    const out = run.output.join('\n');
    expect(out).to.match(
      /Pre-pull stopped at its deadline of 0.4s with 2 pull\(s\) still running: mcr\.microsoft\.com\/windows\/servercore\/iis:windowsservercore-ltsc2022 on win-2022-1, .* on win-2022-2; their checks wait/,
    );
    expect(run.results.get('work.iis-pod')?.outcome).to.equal('supported');
    expect(run.leftover).to.deep.equal([]);
  });

  it('a pod sandbox that cannot start ends that pull at once, named, instead of waiting for the deadline', async () => {
    const run = await runOnSim(['work.iis-pod'], { breaks: ['pause-image'], timeouts: { podStart: 3_000, prepull: 120_000 } });
    const out = run.output.join('\n');
    expect(out).to.match(
      /Pre-pull: mcr\.microsoft\.com\/windows\/servercore\/iis:windowsservercore-ltsc2022 on win-2022-\d failed: the pod sandbox could not start: .*no match for platform in manifest/,
    );
    expect(out).to.match(/Pre-pulled 0\/2 image\(s\) in [\d.]+s\./);
    expect(run.leftover).to.deep.equal([]);
  });
});
