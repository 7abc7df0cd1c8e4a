import assert from 'node:assert/strict';
import { NoProxy } from '../../src/connection/proxy/no-proxy';
import { describeProxyRoute, proxyRouteFor } from '../../src/connection/proxy/proxy-route';

/** Each case: host as in a URL (IPv6 without brackets), the port, and whether Go's httpproxy would proxy it. */
type Case = [host: string, port: string, proxied: boolean, why: string];

describe('NO_PROXY as Go reads it (golang.org/x/net/http/httpproxy, so kubectl)', () => {
  const list = 'corp.example, .svc.example, *.apps.example, 172.20.1.1, 172.20.1.2:8443, 172.20.1.3:6443, 10.96.0.0/12, fd00::10, [fd00::11]:6443, [fd00::12]:443, fd12:3456::/48, :7, [::5]';
  const matcher = new NoProxy(list);
  const cases: Case[] = [
    ['localhost', '6443', false, 'localhost is never proxied'],
    ['LOCALHOST', '6443', false, 'case-insensitive'],
    ['127.0.0.1', '6443', false, 'loopback'],
    ['127.9.8.7', '6443', false, 'all of 127/8 is loopback'],
    ['::1', '6443', false, 'IPv6 loopback'],
    ['::ffff:127.0.0.1', '6443', false, 'IPv4-mapped loopback'],
    ['::2', '6443', true, 'not loopback'],
    ['172.20.1.1', '6443', false, 'exact IPv4, any port'],
    ['172.20.1.2', '6443', true, 'exact IPv4 with another port'],
    ['172.20.1.2', '8443', false, 'exact IPv4 with its port'],
    ['172.20.1.3', '6443', false, 'IPv4:port'],
    ['172.20.1.4', '6443', true, 'no entry'],
    ['10.100.0.1', '443', false, 'inside the CIDR'],
    ['10.112.0.1', '443', true, 'outside the CIDR'],
    ['fd00::10', '6443', false, 'exact IPv6'],
    ['fd00::11', '6443', false, '[IPv6]:port with its port'],
    ['fd00::12', '6443', true, '[IPv6]:port with another port'],
    ['fd12:3456:0:1::9', '6443', false, 'inside the IPv6 CIDR'],
    ['fd12:3457::9', '6443', true, 'outside the IPv6 CIDR'],
    ['corp.example', '6443', false, 'a bare domain matches itself'],
    ['api.corp.example', '6443', false, '... and its subdomains'],
    ['mycorp.example', '6443', true, 'but not a longer name ending the same'],
    ['svc.example', '6443', true, 'a leading dot matches subdomains only'],
    ['kube.svc.example', '6443', false, 'a subdomain of .svc.example'],
    ['apps.example', '6443', true, '*. matches subdomains only'],
    ['a.b.apps.example', '6443', false, 'any depth below *.apps.example'],
    ['xapps.example', '6443', true, 'not a subdomain'],
    ['corp.example.other', '6443', true, 'a suffix, not a prefix'],
  ];
  for (const [host, port, proxied, why] of cases) {
    it(`${host}:${port} ${proxied ? 'goes through the proxy' : 'bypasses it'} (${why})`, () => {
      assert.equal(matcher.useProxy(host, port), proxied);
    });
  }

  it('an entry with a port but no host (":7") is ignored, as Go does', () => {
    assert.equal(new NoProxy(':7').useProxy('example.com', '7'), true);
  });

  it('"*" bypasses every host; an empty NO_PROXY bypasses only loopback', () => {
    for (const [host, port] of cases) assert.equal(new NoProxy('*').useProxy(host, port), false, host);
    assert.equal(new NoProxy('').useProxy('api.corp.example', '443'), true);
    assert.equal(new NoProxy(undefined).useProxy('localhost', '443'), false);
  });

  it('domain entries never match IP addresses (Go matches domains only for names)', () => {
    assert.equal(new NoProxy('0.0.1').useProxy('10.0.0.1', '443'), true);
  });
});

describe('the proxy route, as kubectl chooses it', () => {
  const server = new URL('https://api.corp.example:6443');
  const plain = new URL('http://api.corp.example:8080');

  it('HTTPS_PROXY for https servers, HTTP_PROXY for http ones; upper case before lower case', () => {
    assert.equal(describeProxyRoute(proxyRouteFor(server, { env: { HTTPS_PROXY: 'http://p1:3128', https_proxy: 'http://p2:3128', HTTP_PROXY: 'http://p3:3128' } })), 'proxy http://p1:3128');
    assert.equal(describeProxyRoute(proxyRouteFor(server, { env: { https_proxy: 'http://p2:3128' } })), 'proxy http://p2:3128');
    assert.equal(describeProxyRoute(proxyRouteFor(server, { env: { HTTP_PROXY: 'http://p3:3128' } })), 'direct', 'HTTP_PROXY does not apply to https');
    assert.equal(describeProxyRoute(proxyRouteFor(plain, { env: { HTTP_PROXY: 'http://p3:3128', HTTPS_PROXY: 'http://p1:3128' } })), 'proxy http://p3:3128');
  });

  it('a proxy without a scheme means http://; its credentials never show', () => {
    const route = proxyRouteFor(server, { env: { HTTPS_PROXY: 'user:s3cret@proxy.corp:3128' } });
    assert.equal(route.kind, 'connect');
    assert.equal(describeProxyRoute(route), 'proxy http://proxy.corp:3128');
  });

  it('NO_PROXY and lower-case no_proxy exempt the server; loopback is never proxied', () => {
    assert.equal(proxyRouteFor(server, { env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: '.corp.example' } }).kind, 'direct');
    assert.equal(proxyRouteFor(server, { env: { HTTPS_PROXY: 'http://p:1', no_proxy: 'corp.example' } }).kind, 'direct');
    assert.equal(proxyRouteFor(new URL('https://127.0.0.1:6443'), { env: { HTTPS_PROXY: 'http://p:1' } }).kind, 'direct');
    assert.equal(proxyRouteFor(new URL('https://[::1]:6443'), { env: { HTTPS_PROXY: 'http://p:1' } }).kind, 'direct');
  });

  it('the kubeconfig proxy-url wins over the environment and NO_PROXY; socks goes to the library agent', () => {
    const env = { HTTPS_PROXY: 'http://env:1', NO_PROXY: '*' };
    assert.equal(describeProxyRoute(proxyRouteFor(server, { kubeconfigProxyUrl: 'http://kc:3128', env })), 'proxy http://kc:3128');
    assert.equal(proxyRouteFor(server, { kubeconfigProxyUrl: 'socks5://kc:1080', env }).kind, 'library-agent');
  });

  it('the editor proxy (http.proxy) applies where the environment names none, under the same NO_PROXY', () => {
    assert.equal(describeProxyRoute(proxyRouteFor(server, { env: {}, editorProxy: 'http://editor:8080' })), 'proxy http://editor:8080');
    assert.equal(describeProxyRoute(proxyRouteFor(server, { env: { HTTPS_PROXY: 'http://env:1' }, editorProxy: 'http://editor:8080' })), 'proxy http://env:1');
    assert.equal(proxyRouteFor(server, { env: { NO_PROXY: 'corp.example' }, editorProxy: 'http://editor:8080' }).kind, 'direct');
  });

  it('an unusable proxy URL is a one-line error without its credentials', () => {
    assert.throws(() => proxyRouteFor(server, { env: { HTTPS_PROXY: 'ftp://user:pw@p:21' } }), (err: Error) => {
      assert.equal(err.message, 'HTTPS_PROXY has an unsupported proxy scheme ftp');
      return true;
    });
  });
});
