import assert from 'node:assert/strict';
import { describeEntries, entryOf, fixture, statsOf, logSince, registerTeardown, serverObjects, settled, treeObjects, treeText, until, type Fixture } from '../support/fixture';

registerTeardown();

describe('a forced expiry', () => {
  let fx: Fixture;

  before(async function () {
    this.timeout(60_000);
    fx = await fixture();
  });

  beforeEach(async () => {
    await settled(fx);
  });

  afterEach(() => {
    fx.server.clearFaults();
  });

  it('leads to a relist, visible in the informer statistics, the log and the tree', async () => {
    const { api, server } = fx;
    const before = { informer: entryOf(api, 'configmaps').informer, stats: statsOf(api, 'configmaps') };
    const otherBefore = { stats: statsOf(api, 'secrets') };
    const logFrom = api.log.recentLines().length;
    const oldRv = before.stats.resourceVersion;

    // The next watch of configmaps gets a 410 ERROR event; ending every watch makes the informers re-watch now.
    const fault = server.injectFault(
      { type: 'errorEvent', code: 410, reason: 'Expired', message: `too old resource version: ${oldRv} (${Number(server.resourceVersion) + 1})` },
      { verb: 'watch', resource: 'configmaps' },
    );
    // A change made while the watch is down: the relist must bring it.
    server.dropWatches('end');
    const missed = server.create('configmaps', { metadata: { name: 'while-expired', namespace: 'default' } });

    await until(
      () => {
        const e = entryOf(api, 'configmaps');
        return e.stats.relists > before.stats.relists && e.state.phase === 'watching';
      },
      () => `a relist of configmaps: ${describeEntries(api)}; stats ${JSON.stringify(entryOf(api, 'configmaps').stats)}; fault hits ${fault.hits}`,
    );
    const after = entryOf(api, 'configmaps');
    assert.equal(fault.hits, 1, 'the fault was applied to one watch');
    assert.equal(after.stats.expiries, before.stats.expiries + 1, 'one expiry');
    assert.equal(after.stats.relists, before.stats.relists + 1, 'one relist');
    assert.equal(after.stats.lists, before.stats.lists + 1, 'the relist is a list');
    assert.equal(after.informer, before.informer, 'the same informer relisted');
    const other = entryOf(api, 'secrets');
    assert.equal(other.stats.relists, otherBefore.stats.relists, 'secrets re-watched without a relist');
    assert.equal(other.stats.expiries, otherBefore.stats.expiries);

    const lines = logSince(api, logFrom);
    const show = () => JSON.stringify(lines, null, 1);
    const expired = lines.findIndex((l) => /^warn \[kw-test\/configmaps\] expired: resourceVersion \d+ is too old for the server: too old resource version/.test(l));
    assert.ok(expired >= 0, `an "expired" warning in ${show()}`);
    const relisting = lines.findIndex((l, i) => i > expired && /^(info|debug) \[kw-test\/configmaps\] relist/.test(l));
    assert.ok(relisting > expired, `a relist line after the expiry in ${show()}`);
    assert.ok(
      lines.some((l, i) => i > relisting && /^info \[kw-test\/configmaps\] list finished: \d+ objects? in 1 page/.test(l)),
      `"list finished" after the relist in ${show()}`,
    );
    assert.ok(!lines.some((l) => /\[kw-test\/secrets\] (expired|relist)/.test(l)), `no expiry or relist for secrets in ${show()}`);

    await until(
      () => treeObjects(api).join('\n') === serverObjects(server).join('\n'),
      () => `the tree to equal the server after the relist:\n${treeText(api).join('\n')}`,
    );
    assert.ok(treeObjects(api).some((l) => l.includes(`default/while-expired ${missed.metadata.resourceVersion}`)));
    server.delete('configmaps', 'default', 'while-expired');
    await until(() => treeObjects(api).join('\n') === serverObjects(server).join('\n'), () => treeText(api).join('\n'));
  });
});
