// ServiceAccount tokens from the TokenRequest API (POST .../serviceaccounts/<sa>/token,
// what `kubectl create token` calls): JWTs with the upstream claims, signed by the sim's
// own key, valid until they expire or their ServiceAccount is deleted or recreated.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store.ts';
import { serviceAccountUser, type UserInfo } from './identity.ts';

export const ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** The API server's defaults: one hour, never less than ten minutes. */
export const DEFAULT_EXPIRATION_SECONDS = 3600;
export const MIN_EXPIRATION_SECONDS = 600;

interface Claims {
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  iss: string;
  jti: string;
  sub: string;
  'kubernetes.io': { namespace: string; serviceaccount: { name: string; uid: string } };
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * The token clock: real time, or (scale < 1) a clock that runs 1/scale times faster from its
 * start, so a 600 s token expires within a test run; `toReal` maps its times back to real ones.
 */
export function tokenClock(scale = 1, realNow: () => number = Date.now): { now: () => number; toReal: (ms: number) => number } {
  if (!(scale > 0) || scale === 1) return { now: realNow, toReal: ms => ms };
  const t0 = realNow();
  return { now: () => t0 + (realNow() - t0) / scale, toReal: ms => t0 + (ms - t0) * scale };
}

export class ServiceAccountTokens {
  private readonly key = randomBytes(32);
  private readonly kid = randomBytes(8).toString('hex');

  constructor(
    private readonly store: Store,
    private readonly clock: { now: () => number; toReal: (ms: number) => number } = tokenClock(),
  ) {}

  private now(): number {
    return this.clock.now();
  }

  issue(sa: { namespace: string; name: string; uid: string }, expirationSeconds: number, audiences: string[]): { token: string; expirationTimestamp: string } {
    const iat = Math.floor(this.now() / 1000);
    const claims: Claims = {
      aud: audiences.length ? audiences : [ISSUER],
      exp: iat + expirationSeconds,
      iat,
      nbf: iat,
      iss: ISSUER,
      jti: randomBytes(16).toString('hex'),
      sub: serviceAccountUser(sa.namespace, sa.name).name,
      'kubernetes.io': { namespace: sa.namespace, serviceaccount: { name: sa.name, uid: sa.uid } },
    };
    const unsigned = `${b64({ alg: 'HS256', kid: this.kid })}.${b64(claims)}`;
    // RFC 3339 in whole seconds as upstream writes it; with a scaled clock, the real moment (ms kept).
    const real = this.clock.toReal(claims.exp * 1000);
    const at = new Date(real).toISOString();
    return { token: `${unsigned}.${this.sign(unsigned)}`, expirationTimestamp: real % 1000 === 0 ? at.replace(/\.\d{3}Z$/, 'Z') : at };
  }

  /** The ServiceAccount user a token stands for; undefined for a token that is not ours, expired or orphaned. */
  verify(token: string): UserInfo | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const want = Buffer.from(this.sign(`${parts[0]}.${parts[1]}`));
    const got = Buffer.from(parts[2]);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return undefined;
    let claims: Claims;
    try {
      claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString()) as Claims;
    } catch {
      return undefined;
    }
    if (claims.exp * 1000 <= this.now()) return undefined;
    const { namespace, serviceaccount } = claims['kubernetes.io'];
    const sa = this.store.tryGet('serviceaccounts', namespace, serviceaccount.name);
    if (!sa || sa.metadata.uid !== serviceaccount.uid) return undefined;
    return serviceAccountUser(namespace, serviceaccount.name, serviceaccount.uid);
  }

  private sign(data: string): string {
    return createHmac('sha256', this.key).update(data).digest('base64url');
  }
}
