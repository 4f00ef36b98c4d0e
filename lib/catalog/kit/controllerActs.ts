// A fixture's workload waited for only while its controller acts on it (lib/cluster/controllerObserved.ts).

import { CONTROLLER_OF, whileControllerActs, type ControlledKind } from '../../cluster/controllerObserved.ts';
import type { RenderedFixture } from '../../fixtures/types.ts';
import type { CheckContext } from '../types.ts';

/**
 * Runs `wait` for a fixture's pods, failing early (ControllerNotActingError, a MeansError naming
 * the controller) when the controller of the fixture's workload does not observe it within the
 * controllerObserve bound. A fixture without a workload: `wait` alone.
 */
export function whileFixtureControllerActs<T>(ctx: CheckContext, fixture: RenderedFixture, wait: () => Promise<T>): Promise<T> {
  const workload = fixture.objects.find(o => (o.kind ?? '') in CONTROLLER_OF);
  const name = workload?.metadata?.name;
  if (!workload || !name) return wait();
  const kind = workload.kind as ControlledKind;
  return whileControllerActs(ctx.kube, { namespace: ctx.namespace, kind, name }, ctx.options.timeouts.controllerObserve, ctx.signal, wait);
}
