// HTTPS_PROXY/NO_PROXY as Go's http.ProxyFromEnvironment reads them (golang.org/x/net/http/httpproxy).

import { expect } from 'chai';
import { proxyFor, useProxy } from '../../../lib/cluster/proxyEnv.ts';
import { headerKeyEscape } from '../../../lib/cluster/impersonation.ts';

describe('proxy from the environment', () => {
  const env = { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: '' };

  it('proxy-url wins over the environment', () => {
    expect(proxyFor('https://api.example', 'socks5://s:1080', env)).to.equal('socks5://s:1080');
  });

  it('HTTPS_PROXY for https servers, HTTP_PROXY for http ones, upper case first', () => {
    expect(proxyFor('https://api.example', undefined, env)).to.equal('http://proxy:3128');
    expect(proxyFor('http://api.example', undefined, env)).to.equal(undefined);
    expect(proxyFor('http://api.example', undefined, { HTTP_PROXY: 'http://h:1', http_proxy: 'http://l:1' })).to.equal('http://h:1');
    expect(proxyFor('https://api.example', undefined, { https_proxy: 'http://l:1' })).to.equal('http://l:1');
  });

  it('a proxy without a scheme is http', () => {
    expect(proxyFor('https://api.example', undefined, { HTTPS_PROXY: 'proxy:3128' })).to.equal('http://proxy:3128');
  });

  it('never proxies localhost or loopback addresses', () => {
    for (const h of ['localhost', '127.0.0.1', '127.3.4.5', '[::1]']) expect(useProxy(h, '443', ''), h).to.equal(false);
    expect(proxyFor('https://127.0.0.1:6443', undefined, env)).to.equal(undefined);
  });

  const cases: [string, string, string, boolean][] = [
    ['api.example', '443', '*', false],
    ['api.example', '443', 'example', false],
    ['api.example', '443', 'xample', true],
    ['api.example', '443', 'api.example', false],
    ['x.api.example', '443', 'api.example', false],
    ['api.example', '443', '.api.example', true],
    ['x.api.example', '443', '.api.example', false],
    ['x.api.example', '443', '*.api.example', false],
    ['notapi.example', '443', 'api.example', true],
    ['api.example', '443', 'api.example:6443', true],
    ['api.example', '6443', 'api.example:6443', false],
    ['10.1.2.3', '443', '10.0.0.0/8', false],
    ['11.1.2.3', '443', '10.0.0.0/8', true],
    ['10.1.2.3', '443', '10.1.2.3', false],
    ['fd00::1', '443', 'fd00::/8', false],
    ['API.Example', '443', ' foo.com , api.example ', false],
  ];
  for (const [host, port, noProxy, use] of cases)
    it(`${host}:${port} with NO_PROXY="${noProxy}" ${use ? 'goes through' : 'goes direct'}`, () => {
      expect(useProxy(host, port, noProxy)).to.equal(use);
    });

  it('NO_PROXY (or no_proxy) exempts a host', () => {
    expect(proxyFor('https://api.example', undefined, { ...env, NO_PROXY: 'other.example' })).to.equal('http://proxy:3128');
    expect(proxyFor('https://api.example', undefined, { ...env, no_proxy: '.example' })).to.equal(undefined);
  });
});

describe('impersonation header keys', () => {
  it('escapes what a header name cannot hold, as client-go', () => {
    expect(headerKeyEscape('example.com/team')).to.equal('example.com%2Fteam');
    expect(headerKeyEscape('a%b')).to.equal('a%25b');
    expect(headerKeyEscape('scopes')).to.equal('scopes');
    expect(headerKeyEscape('é')).to.equal('%C3%A9');
  });
});
