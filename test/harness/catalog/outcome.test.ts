import { expect } from 'chai';
import { ApiException } from '@kubernetes/client-node';
import { isFailing, outcomeOf } from '../../../lib/catalog/outcome.ts';
import type { Expectation, Observation } from '../../../lib/catalog/types.ts';
import { MeansError, asMeansError, podStartMeans, refusalMeans } from '../../../lib/cluster/meansError.ts';
import { cite } from '../../../lib/facts/sources.ts';

const sup: Expectation = { expected: 'supported', reason: 'documented', source: [cite.v19Guide()] };
const lim: Expectation = { expected: 'limited', reason: 'no ICMP', source: [cite.v122Intro()] };
const na: Expectation = { expected: 'n/a', reason: 'no RuntimeClass', source: [cite.intro()] };
const passed = { ok: true, summary: 'TCP to the same host answered' };
const failedControl = { ok: false, summary: 'the FQDN did not resolve either' };
const works: Observation = { works: true, summary: 'it answered', evidence: ['GET 200'], control: passed };
const fails: Observation = { works: false, summary: 'no answer', evidence: ['GET timed out'], control: passed };

describe('outcomeOf', () => {
  const table: [string, Expectation, Observation | undefined, unknown, string][] = [
    ['supported + works = supported', sup, works, undefined, 'supported'],
    ['supported + fails = regressed', sup, fails, undefined, 'regressed'],
    ['limited + fails + passing control = limited', lim, fails, undefined, 'limited'],
    ['limited + works + passing control = lifted', lim, works, undefined, 'lifted'],
    ['n/a is n/a without probing', na, undefined, undefined, 'n/a'],
    ['n/a wins over an error', na, undefined, new Error('x'), 'n/a'],
    ['a probe that threw = error', sup, undefined, new Error('exec failed'), 'error'],
    ['no observation = error', sup, undefined, undefined, 'error'],
    ['a probe finding a precondition missing = n/a', sup, { ...fails, notApplicable: 'no LB' }, undefined, 'n/a'],
    // The rule: limited and lifted rest on a positive control run in the same check.
    ['limited + fails without a control = error', lim, { ...fails, control: undefined }, undefined, 'error'],
    ['limited + works without a control = error', lim, { ...works, control: undefined }, undefined, 'error'],
    ['limited + fails + failed control = error', lim, { ...fails, control: failedControl }, undefined, 'error'],
    ['limited + works + failed control = error', lim, { ...works, control: failedControl }, undefined, 'error'],
    ['supported needs no control', sup, { ...fails, control: undefined }, undefined, 'regressed'],
    ['a failed control voids a supported verdict too', sup, { ...works, control: failedControl }, undefined, 'error'],
    ['a failed control voids a regression too', sup, { ...fails, control: failedControl }, undefined, 'error'],
    // An outcome needs an observation: nothing recorded = nothing seen.
    ['supported + fails with no evidence = error', sup, { ...fails, evidence: [] }, undefined, 'error'],
    ['supported + works with no evidence = error', sup, { ...works, evidence: [] }, undefined, 'error'],
    // A broken promise the limitation does not cover (the pod refused) regresses a limited feature.
    ['limited + a contradiction = regressed', lim, { ...fails, contradicts: 'upstream expects the pod to start' }, undefined, 'regressed'],
    ['a contradiction with a failed control = error', lim, { ...fails, control: failedControl, contradicts: 'x' }, undefined, 'error'],
  ];
  for (const [name, e, o, err, want] of table) it(name, () => expect(outcomeOf(e, o, err).outcome).to.equal(want));

  it('says why a regression happened', () => {
    expect(outcomeOf(sup, fails).reason).to.equal('documented to work (documented), but no answer');
  });

  it('keeps the error chain in the reason', () => {
    const e = new Error('failed to deploy fixture "iis"', { cause: new Error('quota exceeded') });
    expect(outcomeOf(sup, undefined, e).reason).to.equal('the check could not tell: failed to deploy fixture "iis": quota exceeded');
  });

  it('a failed control is error with both results in the reason', () => {
    const v = outcomeOf(lim, { ...fails, control: failedControl });
    expect(v.reason).to.equal('the positive control failed (the FQDN did not resolve either), so "no answer" says nothing about the feature');
    expect(outcomeOf(lim, { ...fails, control: undefined }).reason).to.match(/^no positive control ran/);
  });

  it("a failure of the harness's own means is error naming the means", () => {
    const exec = new MeansError('exec', 'exec in ns/iis failed: hcs::System::CreateProcess: The system cannot find the file specified.');
    const v = outcomeOf(sup, undefined, exec);
    expect(v.outcome).to.equal('error');
    expect(v.reason).to.equal(
      "the harness's own means failed (exec), so the feature was not observed: exec in ns/iis failed: hcs::System::CreateProcess: The system cannot find the file specified.",
    );
    // Wrapped by the probe: still found in the cause chain.
    expect(outcomeOf(sup, undefined, new Error('probe failed', { cause: exec })).reason).to.contain('means failed (exec)');
    // A 403 thrown by a generated client is classified without anyone wrapping it.
    const forbidden = new ApiException(
      403,
      'Forbidden',
      '{"kind":"Status","message":"pods \\"x\\" is forbidden: User \\"u\\" cannot get resource \\"pods/log\\""}',
      {},
    );
    expect(outcomeOf(sup, undefined, forbidden).reason).to.match(/means failed \(forbidden\).*cannot get resource "pods\/log"/);
  });

  it("a means that is the feature's subject is the observation: regressed, or error for a limited one (no control)", () => {
    const exec = new MeansError('exec', 'exec failed: container not found');
    const v = outcomeOf(sup, undefined, exec, ['exec', 'logs']);
    expect(v.outcome).to.equal('regressed');
    expect(v.observation?.summary).to.equal('exec failed: exec failed: container not found');
    expect(v.observation?.evidence).to.deep.equal(['exec failed: container not found']);
    expect(outcomeOf(lim, undefined, exec, ['exec']).outcome).to.equal('error');
    // Another means than the subject is still an error.
    expect(outcomeOf(sup, undefined, new MeansError('forbidden', 'HTTP 403'), ['exec', 'logs']).outcome).to.equal('error');
  });

  it('fails the run on regressed and error, on lifted only under --strict', () => {
    expect(isFailing('regressed', false)).to.equal(true);
    expect(isFailing('error', false)).to.equal(true);
    expect(isFailing('lifted', false)).to.equal(false);
    expect(isFailing('lifted', true)).to.equal(true);
    expect(isFailing('limited', true)).to.equal(false);
    expect(isFailing('n/a', true)).to.equal(false);
  });
});

describe('means classification', () => {
  it('names refusals by their status and words', () => {
    expect(refusalMeans(403, 'pods is forbidden')).to.equal('forbidden');
    expect(refusalMeans(400, 'admission webhook "policy.example.com" denied the request')).to.equal('webhook');
    expect(refusalMeans(403, 'pods "x" is forbidden: exceeded quota: compute, requested: pods=1')).to.equal('quota');
    expect(refusalMeans(403, 'pods "x" is forbidden: violates PodSecurity "restricted:latest"')).to.equal('forbidden');
    expect(refusalMeans(502, 'error dialing backend: dial tcp 10.0.0.4:10250: connect: connection refused')).to.equal('kubelet');
    expect(refusalMeans(422, 'spec.os: Forbidden: may not be set')).to.equal(undefined);
    expect(refusalMeans(undefined, 'Unexpected server response: 403')).to.equal('forbidden');
  });

  it("names a pod's failed start: scheduling, capacity, volume binding, pulls, the platform, the sandbox; not the pod's own failures", () => {
    expect(podStartMeans('FailedScheduling', '0/3 nodes are available: 3 node(s) had untolerated taint {os: windows}')).to.equal('scheduling');
    // No room (others may have taken it): capacity, whose error names the numbers (lib/run/capacity.ts).
    expect(podStartMeans('FailedScheduling', '0/3 nodes are available: 3 Too many pods')).to.equal('capacity');
    expect(podStartMeans('FailedScheduling', 'pod has unbound immediate PersistentVolumeClaims')).to.equal('volume-binding');
    expect(podStartMeans('ErrImagePull', 'failed to resolve reference: not found')).to.equal('image-pull');
    expect(podStartMeans('ErrImagePull', 'no match for platform in manifest: not found')).to.equal('image-platform');
    expect(podStartMeans('FailedCreatePodSandBox', 'x')).to.equal('sandbox');
    expect(podStartMeans('CrashLoopBackOff', 'x')).to.equal(undefined);
    expect(podStartMeans('CreateContainerConfigError', 'x')).to.equal(undefined);
  });

  it('asMeansError: its own, one in the chain, an ApiException, or the fallback', () => {
    const own = new MeansError('logs', 'x');
    expect(asMeansError(own)).to.equal(own);
    expect(asMeansError(new Error('outer', { cause: own }))).to.equal(own);
    expect(asMeansError(new Error('socket hang up'))).to.equal(undefined);
    expect(asMeansError(new Error('socket hang up'), 'port-forward')?.means).to.equal('port-forward');
    expect(asMeansError(new ApiException(403, 'Forbidden', { message: 'nope' }, {}), 'logs')?.means).to.equal('forbidden');
    // The websocket ErrorEvent the client's port-forward and exec reject with is not an Error.
    const wsRefused = { type: 'error', message: 'Unexpected server response: 403', error: new Error('Unexpected server response: 403') };
    expect(asMeansError(wsRefused, 'port-forward', 'port-forward to pf:8080 failed')?.means).to.equal('forbidden');
    expect(asMeansError(wsRefused, 'port-forward', 'port-forward to pf:8080 failed')?.message).to.equal(
      'port-forward to pf:8080 failed: Unexpected server response: 403',
    );
  });
});
