// An event's time and count from either API's fields.

import { expect } from 'chai';
import type { CoreV1Event, EventsV1Event } from '@kubernetes/client-node';
import { eventCount, eventLastSeen } from '../../../lib/cluster/events.ts';

const t = (s: string) => new Date(s).getTime();
const core = (o: Partial<CoreV1Event>): CoreV1Event => ({ metadata: { name: 'e' }, involvedObject: {}, ...o });

describe('event time and count', () => {
  it('reads an events.k8s.io event through core/v1: eventTime, then its series', () => {
    const scheduled = core({ eventTime: '2026-01-01T00:00:01.123456Z' as unknown as Date });
    expect(eventLastSeen(scheduled)).to.equal(t('2026-01-01T00:00:01.123Z'));
    const repeated = core({
      eventTime: '2026-01-01T00:00:01.000000Z' as unknown as Date,
      series: { count: 4, lastObservedTime: '2026-01-01T00:00:09.000000Z' as unknown as Date },
    });
    expect(eventLastSeen(repeated)).to.equal(t('2026-01-01T00:00:09Z'));
    expect(eventCount(repeated)).to.equal(4);
  });

  it('reads a core/v1 event: lastTimestamp over firstTimestamp, count', () => {
    const ev = core({ firstTimestamp: new Date('2026-01-01T00:00:00Z'), lastTimestamp: new Date('2026-01-01T00:00:05Z'), count: 3 });
    expect(eventLastSeen(ev)).to.equal(t('2026-01-01T00:00:05Z'));
    expect(eventCount(ev)).to.equal(3);
  });

  it('reads a core/v1 event through events.k8s.io: the deprecated fields; a zero time says nothing', () => {
    const ev: EventsV1Event = {
      metadata: { name: 'e', creationTimestamp: new Date('2026-01-01T00:00:00Z') },
      eventTime: '0001-01-01T00:00:00.000000Z' as unknown as Date,
      deprecatedLastTimestamp: new Date('2026-01-01T00:00:07Z'),
      deprecatedCount: 2,
    };
    expect(eventLastSeen(ev)).to.equal(t('2026-01-01T00:00:07Z'));
    expect(eventCount(ev)).to.equal(2);
  });
});
