import assert from 'node:assert/strict';
import { bytesOf, formatMebibytes, formatMilliCores, milliCores, parseQuantity, percentOf } from '../../src/metrics';

describe('metrics: quantities as apimachinery reads them', () => {
  it('reads CPU in every suffix as millicores, rounding up as MilliValue() does', () => {
    assert.equal(milliCores('250m'), 250);
    assert.equal(milliCores('1'), 1000);
    assert.equal(milliCores('1.5'), 1500);
    assert.equal(milliCores('0.1'), 100);
    assert.equal(milliCores('12345678n'), 13); // 12.345678m rounds up
    assert.equal(milliCores('1n'), 1);
    assert.equal(milliCores('500u'), 1); // 0.5m rounds up
    assert.equal(milliCores('2k'), 2_000_000);
    assert.equal(milliCores('1e3'), 1_000_000);
    assert.equal(milliCores('100e-3'), 100);
    assert.equal(milliCores(undefined), undefined);
    assert.equal(milliCores('lots'), undefined);
    assert.equal(milliCores('12Qi'), undefined);
  });

  it('reads memory in binary and decimal suffixes as bytes', () => {
    assert.equal(bytesOf('128Mi'), 128 * 2 ** 20);
    assert.equal(bytesOf('1Gi'), 2 ** 30);
    assert.equal(bytesOf('1.5Gi'), 1.5 * 2 ** 30);
    assert.equal(bytesOf('64Ki'), 65536);
    assert.equal(bytesOf('1k'), 1000);
    assert.equal(bytesOf('1M'), 1e6);
    assert.equal(bytesOf('2G'), 2e9);
    assert.equal(bytesOf('1Ti'), 2 ** 40);
    assert.equal(bytesOf('129e6'), 129e6);
    assert.equal(bytesOf('1000'), 1000);
    assert.equal(bytesOf('500m'), 1); // half a byte rounds up
    assert.equal(parseQuantity('+.5'), 0.5);
  });

  it('prints as k9s does: whole millicores and whole MiB; percentages floored, none without a base', () => {
    assert.equal(formatMilliCores(13), '13m');
    assert.equal(formatMebibytes(128 * 2 ** 20 + 5), '128Mi');
    assert.equal(formatMebibytes(1000), '0Mi');
    assert.equal(percentOf(50, 200), 25);
    assert.equal(percentOf(199, 200), 99);
    assert.equal(percentOf(300, 200), 150);
    assert.equal(percentOf(29, 100), 29);
    assert.equal(percentOf(5, 0), undefined);
    assert.equal(percentOf(5, undefined), undefined);
  });
});
