import assert from 'node:assert/strict';
import { POD_ROW_CHARS, podStatusOnly, podTitle } from '../../src/ui/tree/short-name';

const pod = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels } });
const ledger = (suffix: string) => pod(`ledger-6d5f7c8b9-${suffix}`, { 'pod-template-hash': '6d5f7c8b9' });

describe('pod titles at the default side bar width (V27, issue 29 item 9)', () => {
  it('V27 leaves out what the controllers generated, keeping the owner and the pod\'s own suffix', () => {
    assert.equal(podTitle(ledger('z9w4c')), 'ledger…z9w4c');
    assert.equal(podTitle(pod('prometheus-6b8d9c7f5-h2jrl', { 'pod-template-hash': '6b8d9c7f5' })), 'prometheus…h2jrl');
    assert.equal(podTitle(pod('db-migrate-29013780-ck2fd', { 'job-name': 'db-migrate-29013780' })), 'db-migrate…ck2fd');
    assert.equal(podTitle(pod('pi-x7k2q', { 'batch.kubernetes.io/job-name': 'pi' })), 'pi…x7k2q');
  });

  it('every pod of one owner shows the owner\'s name whole, whatever its status (`ledger…b7n2k`, `ledger…z9w4c`)', () => {
    assert.equal(podTitle(ledger('b7n2k')), 'ledger…b7n2k');
    assert.equal(podTitle(ledger('z9w4c')), 'ledger…z9w4c', 'the CrashLoopBackOff pod as its Running sibling');
      });

  it('only an owner name too long for any row is cut, at a hyphen, by its own length alone', () => {
    const long = (suffix: string) => podTitle(pod(`a-very-long-deployment-name-6d5f7c8b9-${suffix}`, { 'pod-template-hash': '6d5f7c8b9' }));
    assert.equal(long('z9w4c'), 'a-very-long…z9w4c');
    assert.equal(long('b7n2k'), 'a-very-long…b7n2k');
    assert.equal(podTitle(pod('nightly-report-29013840-7hxkq', { 'job-name': 'nightly-report-29013840' })), 'nightly…7hxkq', 'whatever its status');
    assert.equal(podTitle(pod('abcdefghijklmnopqrstuvwxyz-6d5f7c8b9-z9w4c', { 'pod-template-hash': '6d5f7c8b9' })), 'abcdefghijklm…z9w4c', 'no hyphen: cut at the limit');
  });

  it('V27 a row shows only the status beside its title when more fields would push the ellipsis over it, or the status does not fit beside it', () => {
    assert.equal(podStatusOnly('ledger…z9w4c', 'CrashLoopBackOff'), true);
    assert.equal(podStatusOnly('ledger…b7n2k', 'Running'), false);
    assert.equal(podStatusOnly('prometheus…h2jrl', 'Running'), false);
    assert.equal(podStatusOnly('nightly…7hxkq', 'Completed'), false);
    assert.equal(podStatusOnly('a-very-long…z9w4c', 'Completed'), true);
    assert.equal(podStatusOnly('checkout-6f7d9c8b5-x2v7q', 'Running'), true, 'a name no controller generated, too long for every field: the status alone');
    assert.ok('ledger…b7n2k'.length + 1 + 'Running'.length + 3 <= POD_ROW_CHARS);
  });

  it('keeps names no controller generated', () => {
    assert.equal(podTitle(pod('postgres-0', { app: 'postgres' })), 'postgres-0');
    assert.equal(podTitle(pod('debug')), 'debug');
    assert.equal(podTitle(pod('web-abc', { 'pod-template-hash': 'zzz' })), 'web-abc', 'a hash not in the name');
  });
});
