// The cluster DNS server: real UDP and TCP on the kube-dns address, port 53,
// answering from the DnsZone. Never SERVFAIL: unknown names are NXDOMAIN, other
// query types get an empty NOERROR. With `breaks: dns` it drops Windows pods' queries
// (the client times out, as with a broken DNS path on a real node).

import dgram from 'node:dgram';
import net, { type Socket } from 'node:net';
import dnsPacket, { type Answer, type Packet } from 'dns-packet';
import type { DnsZone } from './dnsRecords.ts';
import type { Policy } from './policy.ts';
import type { Topology } from './topology.ts';
import type { Tracker } from './tracker.ts';

const TTL = 5; // CoreDNS's kubernetes plugin default TTL
const RCODE_NXDOMAIN = 3;
const RCODE_FORMERR = 1;

export class DnsServer {
  /** upstream: serve the view from outside the cluster (a node's resolver), not the cluster zone. */
  constructor(
    private zone: DnsZone,
    private policy: Policy,
    private topo: Topology,
    private tracker: Tracker,
    private upstream = false,
  ) {}

  async start(address: string, port: number): Promise<void> {
    const udp = this.tracker.udpSocket(dgram.createSocket('udp4'));
    udp.on('message', (msg, rinfo) => {
      const reply = this.answer(msg, rinfo.address);
      if (reply) udp.send(reply, rinfo.port, rinfo.address);
    });
    await new Promise<void>((res, rej) => {
      udp.once('error', rej);
      udp.bind({ address, port, exclusive: true }, () => {
        udp.off('error', rej);
        res();
      });
    });
    udp.on('error', e => console.error('sim network: dns udp:', e.message));
    const tcp = this.tracker.server(net.createServer(c => this.onTcp(c)));
    await new Promise<void>((res, rej) => {
      tcp.once('error', rej);
      tcp.listen({ host: address, port, exclusive: true }, () => {
        tcp.off('error', rej);
        res();
      });
    });
  }

  /** DNS over TCP: 2-byte length prefix per message (RFC 1035 4.2.2). */
  private onTcp(c: Socket): void {
    c.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    c.on('data', d => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const len = buf.readUInt16BE(0);
        const msg = buf.subarray(2, 2 + len);
        buf = buf.subarray(2 + len);
        const reply = this.answer(msg, c.remoteAddress ?? '');
        if (reply) {
          const head = Buffer.alloc(2);
          head.writeUInt16BE(reply.length);
          c.write(Buffer.concat([head, reply]));
        }
      }
    });
  }

  /** The encoded reply to one query, or undefined to drop it. */
  answer(msg: Buffer, source: string): Buffer | undefined {
    if (!this.upstream && this.policy.dnsDrops(this.topo.endpointOf(source))) return undefined;
    let q: Packet;
    try {
      q = dnsPacket.decode(msg);
    } catch {
      return undefined;
    }
    const rd = (q.flags ?? 0) & dnsPacket.RECURSION_DESIRED;
    const base = dnsPacket.AUTHORITATIVE_ANSWER | dnsPacket.RECURSION_AVAILABLE | rd;
    const question = q.questions?.[0];
    if (!question) return dnsPacket.encode({ type: 'response', id: q.id, flags: base | RCODE_FORMERR, questions: [] });
    const r = this.zone.lookup(question.name, question.type, this.upstream);
    const answers: Answer[] = r.answers.map(a => ({ type: a.type, name: a.name, ttl: TTL, class: 'IN', data: a.data }));
    return dnsPacket.encode({
      type: 'response',
      id: q.id,
      questions: [question],
      answers,
      flags: base | (r.rcode === 'NXDOMAIN' ? RCODE_NXDOMAIN : 0),
    });
  }
}
