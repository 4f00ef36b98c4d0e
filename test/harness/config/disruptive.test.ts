// --disruptive and --disruptive-node: both or neither; the node must be a Ready Windows node; a
// config file never makes a run disruptive; without them the disruptive features are n/a.

import { expect } from 'chai';
import { problemWithDisruptive, validateRunInputs } from '../../../lib/config/validate.ts';
import { resolveConfig } from '../../../lib/config/resolve.ts';
import { problemWithDisruptiveNode } from '../../../lib/discovery/nodes.ts';
import { DISRUPTIVE_NOT_ASKED, unmetNeed } from '../../../lib/catalog/needs.ts';
import { UsageError } from '../../../lib/errors.ts';
import type { ClusterInfo } from '../../../lib/discovery/types.ts';
import { linuxNode, winNode } from '../../support/clusterFixture.ts';

describe('--disruptive flags', () => {
  it('--disruptive without --disruptive-node is a usage error naming the missing flag', () => {
    expect(problemWithDisruptive({ disruptive: true })).to.match(/^--disruptive needs --disruptive-node NODE/);
    expect(() => validateRunInputs({ disruptive: true }, {})).to.throw(UsageError, /--disruptive-node NODE/);
  });

  it('--disruptive-node without --disruptive is a usage error too', () => {
    expect(() => validateRunInputs({ disruptiveNode: 'win-1' }, {})).to.throw(UsageError, /--disruptive-node win-1 is used only with --disruptive/);
  });

  it('both together pass and reach the run config; neither leaves it unset', () => {
    expect(problemWithDisruptive({ disruptive: true, disruptiveNode: 'win-1' })).to.equal(undefined);
    expect(resolveConfig({ disruptive: true, disruptiveNode: 'win-1' }, {}, {}).disruptiveNode).to.equal('win-1');
    expect(resolveConfig({}, {}, {}).disruptiveNode).to.equal(undefined);
  });

  it('the node must be a Ready Windows node of the cluster, else the error names the flag and the candidates', () => {
    const nodes = [winNode('win-1'), winNode('win-2', '10.0.20348', { ready: false }), linuxNode('lin-1')];
    expect(problemWithDisruptiveNode('win-1', nodes)).to.equal(undefined);
    expect(problemWithDisruptiveNode('nope', nodes)).to.equal('--disruptive-node nope: no node of that name in the cluster (Ready Windows nodes: win-1)');
    expect(problemWithDisruptiveNode('lin-1', nodes)).to.match(/^--disruptive-node lin-1 is a linux node, not a Windows one/);
    expect(problemWithDisruptiveNode('win-2', nodes)).to.match(/^--disruptive-node win-2 is not Ready/);
  });

  it('without the flags the need is unmet with the reason a report shows', () => {
    const c = { nodes: [winNode('win-1')] } as unknown as ClusterInfo;
    expect(unmetNeed('disruptive-node', c, {})).to.equal(DISRUPTIVE_NOT_ASKED);
    expect(DISRUPTIVE_NOT_ASKED).to.equal('disruptive: run with --disruptive --disruptive-node NODE');
    expect(unmetNeed('disruptive-node', c, { disruptiveNode: 'win-1' })).to.equal(undefined);
  });
});
