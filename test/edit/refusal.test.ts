import assert from 'node:assert/strict';
import { ApiError } from '../../src/base';
import { refusalOf } from '../../src/edit';

/** A 422 as kube-apiserver sends it for a label key that breaks two rules: two causes on one field. */
function badLabelKey(): ApiError {
  const causes = [
    { reason: 'FieldValueInvalid', message: 'Invalid value: "bad key!": name part must consist of alphanumeric characters', field: 'metadata.labels' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\'', field: 'metadata.labels' },
  ];
  return new ApiError({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 422, reason: 'Invalid', message: 'ConfigMap "web" is invalid', details: { name: 'web', kind: 'configmaps', causes } }, 'http', 422);
}

describe('Refusal words: a 422 names each field once, with or without the buffer', () => {
  const text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  labels:\n    'bad key!': x\n";
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', labels: { 'bad key!': 'x' } } };

  it('U04 a rejected label key with several causes is listed once in the message (both causes stay in the Problems panel)', () => {
    const r = refusalOf(badLabelKey(), 'ConfigMap shop/web', text, object, false);
    assert.equal(r.message, 'The server found a field invalid (metadata.labels[bad key!]): nothing was saved. See the Problems panel; your edit is kept.');
    assert.equal(r.problems.length, 2);
  });

  it('U04 without the buffer (the journal\'s log line) the field is still named, never "()"', () => {
    const r = refusalOf(badLabelKey(), 'ConfigMap shop/web', '', undefined, false);
    assert.equal(r.message, 'The server found a field invalid (metadata.labels): nothing was saved. See the Problems panel; your edit is kept.');
  });
});
