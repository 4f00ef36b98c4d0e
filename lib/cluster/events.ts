// When an event happened, from whichever API wrote it. events.k8s.io recorders (kube-scheduler,
// newer controllers) write eventTime and, for repeats, series.lastObservedTime, and no
// lastTimestamp; core/v1 recorders (the kubelet, most controllers) write firstTimestamp and
// lastTimestamp; read through events.k8s.io the latter are deprecatedFirstTimestamp and
// deprecatedLastTimestamp (https://kubernetes.io/docs/reference/kubernetes-api/cluster-resources/event-v1/).

import type { CoreV1Event, EventsV1Event } from '@kubernetes/client-node';

type AnyEvent = CoreV1Event | EventsV1Event;

const ms = (t: Date | string | undefined | null): number | undefined => {
  if (!t) return undefined;
  const n = new Date(t).getTime();
  // A zero time (0001-01-01, what an unset MicroTime may read as) says nothing.
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/** The last time the event was seen (ms since the epoch; 0 when it says nothing). */
export function eventLastSeen(ev: AnyEvent): number {
  const core = ev as CoreV1Event;
  const v1 = ev as EventsV1Event;
  return (
    ms(ev.series?.lastObservedTime) ??
    ms(core.lastTimestamp) ??
    ms(v1.deprecatedLastTimestamp) ??
    ms(ev.eventTime) ??
    ms(core.firstTimestamp) ??
    ms(v1.deprecatedFirstTimestamp) ??
    ms(ev.metadata?.creationTimestamp) ??
    0
  );
}

/** How many times it happened: series.count, the core count, deprecatedCount, else once. */
export function eventCount(ev: AnyEvent): number {
  return ev.series?.count ?? (ev as CoreV1Event).count ?? (ev as EventsV1Event).deprecatedCount ?? 1;
}
