// The authentication.k8s.io and authorization.k8s.io endpoints a client uses about
// itself: TokenRequest (serviceaccounts/<sa>/token, `kubectl create token`),
// SelfSubjectReview (`kubectl auth whoami`), SelfSubjectAccessReview (`kubectl auth
// can-i`, the harness's RBAC preflight) and SelfSubjectRulesReview (`can-i --list`).

import type { V1SelfSubjectAccessReviewSpec, V1TokenRequestSpec } from '@kubernetes/client-node';
import { ApiError, sendJSON } from '../status.ts';
import { asKubeObject, readObject, type Ctx } from '../context.ts';
import { currentRequest } from '../requestContext.ts';
import { ANONYMOUS, type UserInfo } from '../auth/identity.ts';
import { authorize, rulesFor, type Attributes } from '../auth/rbac.ts';
import { DEFAULT_EXPIRATION_SECONDS, MIN_EXPIRATION_SECONDS } from '../auth/tokens.ts';

const MAX_EXPIRATION_SECONDS = 2 ** 32;

const requester = (): UserInfo => currentRequest()?.user ?? ANONYMOUS;

function invalid(kind: string, name: string, field: string, value: unknown, detail: string): ApiError {
  return new ApiError(422, 'Invalid', `${kind} "${name}" is invalid: ${field}: Invalid value: ${JSON.stringify(value)}: ${detail}`, {
    name,
    group: kind.split('.').slice(1).join('.'),
    kind: kind.split('.')[0],
    causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(value)}: ${detail}`, field }],
  });
}

export async function serviceAccountToken(ctx: Ctx): Promise<void> {
  const { state, route } = ctx;
  if (ctx.req.method !== 'POST') throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  const body = asKubeObject((await readObject(ctx.req)) ?? {});
  const spec = (body.spec ?? {}) as V1TokenRequestSpec;
  const sa = state.store.get('serviceaccounts', route.namespace, route.name!);
  const seconds = spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
  if (seconds < MIN_EXPIRATION_SECONDS)
    throw invalid('TokenRequest.authentication.k8s.io', route.name!, 'spec.expirationSeconds', seconds, 'may not specify a duration less than 10 minutes');
  if (seconds > MAX_EXPIRATION_SECONDS)
    throw invalid('TokenRequest.authentication.k8s.io', route.name!, 'spec.expirationSeconds', seconds, 'may not specify a duration larger than 2^32 seconds');
  const issued = state.tokens.issue({ namespace: route.namespace!, name: route.name!, uid: sa.metadata.uid! }, seconds, spec.audiences ?? []);
  sendJSON(ctx.res, 201, {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name: route.name, namespace: route.namespace, creationTimestamp: null },
    spec: {
      audiences: spec.audiences?.length ? spec.audiences : ['https://kubernetes.default.svc.cluster.local'],
      expirationSeconds: seconds,
      boundObjectRef: spec.boundObjectRef ?? null,
    },
    status: issued,
  });
}

/** The review's body; kubectl 1.33 sends these as protobuf, decoded like any other body. */
async function review(ctx: Ctx): Promise<{ metadata: object; spec: Record<string, unknown> }> {
  if (ctx.req.method !== 'POST') throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  const body = asKubeObject((await readObject(ctx.req)) ?? {});
  return { metadata: body.metadata, spec: (body.spec ?? {}) as Record<string, unknown> };
}

export async function selfSubjectReview(ctx: Ctx): Promise<void> {
  const { metadata } = await review(ctx);
  const u = requester();
  sendJSON(ctx.res, 201, {
    kind: 'SelfSubjectReview',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { ...metadata, creationTimestamp: null },
    status: { userInfo: { username: u.name, ...(u.uid ? { uid: u.uid } : {}), groups: u.groups, ...(u.extra ? { extra: u.extra } : {}) } },
  });
}

export async function selfSubjectAccessReview(ctx: Ctx): Promise<void> {
  const { metadata, spec: raw } = await review(ctx);
  const spec = raw as V1SelfSubjectAccessReviewSpec;
  const user = requester();
  let attrs: Attributes;
  if (spec.resourceAttributes) {
    const ra = spec.resourceAttributes;
    attrs = {
      user,
      verb: ra.verb ?? '',
      resourceRequest: true,
      apiGroup: ra.group ?? '',
      resource: ra.resource ?? '',
      subresource: ra.subresource || undefined,
      namespace: ra.namespace || undefined,
      name: ra.name || undefined,
    };
  } else if (spec.nonResourceAttributes) {
    attrs = { user, verb: spec.nonResourceAttributes.verb ?? '', resourceRequest: false, path: spec.nonResourceAttributes.path ?? '' };
  } else {
    throw new ApiError(
      422,
      'Invalid',
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      { group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview', causes: [{ reason: 'FieldValueInvalid', field: 'spec.resourceAttributes' }] },
    );
  }
  const d = authorize(ctx.state.store, attrs);
  sendJSON(ctx.res, 201, {
    kind: 'SelfSubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { ...metadata, creationTimestamp: null },
    spec,
    status: { allowed: d.allowed, ...(d.reason ? { reason: d.reason } : {}) },
  });
}

export async function selfSubjectRulesReview(ctx: Ctx): Promise<void> {
  const { metadata, spec } = await review(ctx);
  const namespace = typeof spec.namespace === 'string' ? spec.namespace : '';
  if (!namespace) throw new ApiError(400, 'BadRequest', 'no namespace on request');
  sendJSON(ctx.res, 201, {
    kind: 'SelfSubjectRulesReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { ...metadata, creationTimestamp: null },
    spec,
    status: { ...rulesFor(ctx.state.store, requester(), namespace), incomplete: false },
  });
}
