import assert from 'node:assert/strict';
import { POD_ROW_CHARS, podStatusOnly, podTitle } from '../../src/ui/tree/short-name';

const pod = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels } });

describe('pod titles at the default side bar width (V27)', () => {
  it('V27 leaves out what the controllers generated, keeping the owner and the pod\'s own suffix', () => {
    assert.equal(podTitle(pod('ledger-6d5f7c8b9-z9w4c', { 'pod-template-hash': '6d5f7c8b9' }), 'Running'), 'ledger…z9w4c');
    assert.equal(podTitle(pod('prometheus-6b8d9c7f5-h2jrl', { 'pod-template-hash': '6b8d9c7f5' }), 'Running'), 'prometheus…h2jrl');
    assert.equal(podTitle(pod('db-migrate-29013780-ck2fd', { 'job-name': 'db-migrate-29013780' }), 'Error'), 'db-migrate…ck2fd');
    assert.equal(podTitle(pod('pi-x7k2q', { 'batch.kubernetes.io/job-name': 'pi' }), 'Completed'), 'pi…x7k2q');
  });

  it('V27 cuts a long owner at a hyphen when the title and the status would not fit', () => {
    assert.equal(podTitle(pod('nightly-report-29013840-7hxkq', { 'job-name': 'nightly-report-29013840' }), 'Completed'), 'nightly…7hxkq');
    assert.equal(podTitle(pod('ledger-6d5f7c8b9-z9w4c', { 'pod-template-hash': '6d5f7c8b9' }), 'CrashLoopBackOff'), 'ledg…z9w4c');
    const long = podTitle(pod('a-very-long-deployment-name-6d5f7c8b9-z9w4c', { 'pod-template-hash': '6d5f7c8b9' }), 'CrashLoopBackOff');
    assert.equal(long, 'a-ve…z9w4c');
    assert.ok(long.length + 1 + 'CrashLoopBackOff'.length <= POD_ROW_CHARS);
  });

  it('V27 a row shows only the status beside its title when more fields would push the ellipsis over it', () => {
    assert.equal(podStatusOnly('ledg…z9w4c', 'CrashLoopBackOff'), true);
    assert.equal(podStatusOnly('prometheus…h2jrl', 'Running'), false);
    assert.equal(podStatusOnly('nightly…7hxkq', 'Completed'), false);
    assert.equal(podStatusOnly('checkout-6f7d9c8b5-x2v7q', 'Running'), false, 'a name no controller generated, too long either way: every field');
  });

  it('keeps names no controller generated', () => {
    assert.equal(podTitle(pod('postgres-0', { app: 'postgres' }), 'Running'), 'postgres-0');
    assert.equal(podTitle(pod('debug'), 'ContainerCreating'), 'debug');
    assert.equal(podTitle(pod('web-abc', { 'pod-template-hash': 'zzz' }), 'Running'), 'web-abc', 'a hash not in the name');
  });
});
