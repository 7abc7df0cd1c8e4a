import assert from 'node:assert/strict';
import { ApiError } from '../../src/base/api-error';
import { LogFollower, NO_NODE_YET } from '../../src/logs';
import { LOG_RANGES, rangeQuery } from '../../src/ui/logs';
import { ManualClock } from '../ui/lifecycle-rig';
import { PROTOCOLS, REAL_BOUND_MS, until, useControlPlane, useTransports } from './support';

/**
 * The log range choices on a real 1.34 server, as far as one without a kubelet goes: the API
 * server validates a log request's options (PodLogOptions) before it would ask the kubelet, so
 * what it accepts and how it refuses is real here (a pod on no node then gives an empty answer).
 * The local API server copies these refusals word for word (test/logs/log-terminal.test.ts, X12).
 */
describe('[real] log ranges (kube-apiserver 1.34, no kubelet)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  const transportAs = useTransports();

  for (const { label, http2, protocol } of PROTOCOLS) {
    it(`X12 [real] ${label}: every range Kube Watch offers is a query the server accepts; a negative tail, a since below 1 s, since with sinceTime and a tail that is not a number are refused in the words the local API server uses; a pod on no node yet is said in words`, async () => {
      const ns = await plane().setup.namespace();
      await plane().admin.post(`/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'web:1' }] } });
      const transport = transportAs(plane(), 'admin', http2);
      const path = `/api/v1/namespaces/${ns}/pods/web/log`;
      const answer = async (query: Record<string, string>): Promise<string> => {
        try {
          await transport.stream(path, { container: 'app', timestamps: 'true', ...query }, new AbortController().signal, () => undefined);
          return 'accepted';
        } catch (err) {
          // 204: accepted, and nothing to read (the pod is on no node: the server has no kubelet to ask).
          if (err instanceof ApiError && err.code === 204) return 'accepted';
          return err instanceof ApiError ? `${err.code} ${err.message}` : String(err);
        }
      };
      for (const range of LOG_RANGES) assert.equal(await answer({ follow: 'true', ...rangeQuery(range) }), 'accepted', range.label);
      assert.equal(await answer({ previous: 'true', tailLines: '100' }), 'accepted');
      assert.equal(await answer({ tailLines: '-1' }), '422 PodLogOptions "web" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0');
      assert.equal(await answer({ sinceSeconds: '0' }), '422 PodLogOptions "web" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0');
      assert.equal(await answer({ sinceSeconds: '10', sinceTime: '2026-01-01T00:00:00Z' }), '422 PodLogOptions "web" is invalid: []: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
      assert.equal(await answer({ tailLines: 'abc' }), '400 strconv.ParseInt: parsing "abc": invalid syntax');
      assert.equal(transport.protocol ?? 'http/1.1', protocol);

      // Follow Logs on that pod: the terminal's outage line says why in words, and it tries again.
      const failures: string[] = [];
      const clock = new ManualClock();
      const follower = new LogFollower({ namespace: ns, pod: 'web', container: 'app' }, { line: () => undefined, marker: () => undefined, failed: (reason) => failures.push(reason) }, { transport, clock });
      const done = follower.start();
      await until(() => failures.length === 1 && clock.pendingTimers === 1, 'the first attempt', REAL_BOUND_MS);
      assert.deepEqual(failures, [NO_NODE_YET]);
      follower.stop();
      await done;
      assert.equal(follower.activeStreams + follower.activeTimers, 0);
    });
  }
});
