import assert from 'node:assert/strict';
import { REVEAL_NEEDS_SAVED_BUFFER, encodeSecretValue, revealRefusal, secretKeys, secretValueInput, secretValueProblem, withSecretValue } from '../../src/edit';
import type { KubeObject } from '../../src/informer';

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64');
const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'shop', resourceVersion: '7' }, type: 'Opaque', data: { password: b64('hunter2'), pem: b64('line 1\nC:\\dir\nline 3\n'), raw: b64(Buffer.from([0xff, 0x00])) } } as KubeObject;

describe('edit: one revealed Secret value (W12)', () => {
  it('W12 revealing is refused for a buffer with unsaved changes, in words', () => {
    assert.equal(revealRefusal(false), undefined);
    assert.equal(revealRefusal(true), REVEAL_NEEDS_SAVED_BUFFER);
    assert.match(REVEAL_NEEDS_SAVED_BUFFER, /^Save or revert your changes first: revealed values are never kept in an unsaved buffer/);
  });

  it('W12 the object with one value changed differs in that value only, and the original is untouched', () => {
    const changed = withSecretValue(secret, 'password', b64('correct horse'));
    assert.deepEqual(changed, { ...secret, data: { ...(secret.data as object), password: b64('correct horse') } });
    assert.equal((secret.data as Record<string, string>).password, b64('hunter2'));
    assert.deepEqual(secretKeys(secret), ['password', 'pem', 'raw']);
  });

  it('a value as a one-line input shows it, and back, losslessly: text as it is, several lines escaped, bytes as base64', () => {
    for (const [key, binary, form] of [['password', false, 'text'], ['pem', false, 'multiline'], ['raw', true, 'base64']] as const) {
      const shown = secretValueInput(secret, key, binary);
      assert.equal(shown.form, form);
      assert.ok(!/[\r\n]/.test(shown.text), 'one line');
      assert.equal(secretValueProblem(shown.form, shown.text), undefined);
      assert.equal(encodeSecretValue(shown.form, shown.text), (secret.data as Record<string, string>)[key], `${key} round trips`);
    }
    assert.equal(secretValueInput(secret, 'pem', false).text, 'line 1\\nC:\\\\dir\\nline 3\\n');
    assert.equal(Buffer.from(encodeSecretValue('multiline', 'a\\nb'), 'base64').toString(), 'a\nb');
    assert.match(secretValueProblem('base64', 'not base64!') ?? '', /stays base64/);
    assert.match(secretValueProblem('multiline', 'a\\tb') ?? '', /backslash/);
    assert.equal(secretValueProblem('text', 'any \\ text'), undefined);
  });
});
