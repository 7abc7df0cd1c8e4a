import assert from 'node:assert/strict';
import { EditSession } from '../../src/edit';
import type { KubeObject, ResourceType } from '../../src/informer';
import { pinnedTo } from '../support/pinned-origin';
import { PROTOCOLS, useControlPlane, useTransports } from './support';

const WIDGETS: ResourceType = { group: 'exact.example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true };

/**
 * W11 against a real kube-apiserver 1.34.9: a custom resource's int64 fields beyond 2^53 (the
 * server keeps them exact) through open, edit, merge and save. The watch's copy of the object is
 * what `JSON.parse` makes of it (rounded), as the informer holds it.
 */
describe('[real] integers beyond 2^53 through an edit (kube-apiserver 1.34)', function () {
  this.timeout(120_000);
  const plane = useControlPlane();
  const transportOf = useTransports();
  before(async () => {
    await plane().setup.crd({ group: WIDGETS.group, plural: 'widgets', kind: 'Widget' });
  });

  for (const { label, http2 } of PROTOCOLS) {
    it(`W11 [real] ${label}: opened from the watch's rounded copy, the edit shows int64 values digit for digit; a save of another field never rewrites them; an edit of one and a rebase over a server change keep every digit`, async () => {
      const p = plane();
      const ns = await p.setup.namespace();
      const path = `/apis/${WIDGETS.group}/v1/namespaces/${ns}/widgets/w`;
      // Raw JSON text: JSON.stringify would round the numbers before they reach the server.
      const created = await p.admin.raw('POST', `/apis/${WIDGETS.group}/v1/namespaces/${ns}/widgets`, `{"apiVersion":"${WIDGETS.group}/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"maxBytes":9223372036854775807,"offset":-9007199254740993,"replicas":1}}`);
      assert.equal(created.status, 201, created.text);
      const serverText = async () => (await p.admin.raw('GET', path)).text;
      assert.match(await serverText(), /"maxBytes":9223372036854775807,"offset":-9007199254740993/, 'the server keeps them exact');

      const transport = transportOf(p, 'admin', http2);
      const watched = (text: string) => JSON.parse(text) as KubeObject;
      const pin = pinnedTo(transport);
      const session = new EditSession({ type: WIDGETS, namespace: ns, name: 'w', ...pin }, watched(await serverText()), { hideServerFields: true });
      await session.standOnExactCopy(new AbortController().signal);
      const text = session.render();
      assert.match(text, /maxBytes: 9223372036854775807\n/);
      assert.match(text, /offset: -9007199254740993\n/);

      // Another field saved: the int64 fields are not in the patch, and stay as they were.
      const saved = await session.save(text.replace('replicas: 1', 'replicas: 2'), new AbortController().signal);
      assert.equal(saved.kind, 'saved', JSON.stringify(saved, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
      assert.ok(!pin.sent.at(-1)?.body?.includes('maxBytes'), `an untouched field is never rewritten: ${pin.sent.at(-1)?.body}`);
      assert.match(await serverText(), /"maxBytes":9223372036854775807,"offset":-9007199254740993,"replicas":2/);

      // One of them edited, while the server changed another field meanwhile (the watch delivers its rounded copy).
      const edited = session.render().replace('maxBytes: 9223372036854775807', 'maxBytes: 9223372036854775806');
      await p.admin.raw('PATCH', path, '{"spec":{"note":"set by the server"}}', 'application/merge-patch+json');
      session.noteLive(watched(await serverText()));
      const rebased = await session.save(edited, new AbortController().signal);
      assert.equal(rebased.kind, 'saved');
      assert.ok(rebased.kind === 'saved' && rebased.rebased, 'saved on top of the server change');
      const after = await serverText();
      assert.match(after, /"maxBytes":9223372036854775806,/);
      assert.match(after, /"offset":-9007199254740993,/);
      assert.match(after, /"note":"set by the server"/);
      assert.match(session.render(), /maxBytes: 9223372036854775806\n/, 'the save\'s answer, read exact, is the new base');
    });
  }
});
