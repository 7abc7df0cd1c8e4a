/** Custom resources: a CRD's additionalPrinterColumns, evaluated locally with kubectl's JSONPath dialect. */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/informer';
import { columnCell, crdPrinterColumns, describeRow, printObject, printerKind, toJsonPathPlus, type PrinterColumn } from '../../../src/ui/printers';
import { DAY, MINUTE, NOW, ago } from './support';

const CRD: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', kind: 'Widget' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        additionalPrinterColumns: [
          { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
          { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
          { name: 'Color', type: 'string', priority: 1, jsonPath: '.spec.color' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      },
      { name: 'v1beta1', served: true, storage: false },
    ],
  },
};

const widget = (status: Record<string, unknown>): KubeObject => ({ metadata: { name: 'blue-widget', creationTimestamp: ago(2 * DAY) }, spec: { size: 3, color: 'blue' }, status });

describe('printers: custom resources', () => {
  it("reads a version's additionalPrinterColumns; a version without any gets kubectl's Age; an unknown version none", () => {
    const v1 = crdPrinterColumns(CRD, 'v1')!;
    assert.deepEqual(v1.map((c) => [c.name, c.type, c.priority]), [['Size', 'integer', 0], ['Ready', 'string', 0], ['Color', 'string', 1], ['Age', 'date', 0]]);
    assert.deepEqual(crdPrinterColumns(CRD, 'v1beta1')!.map((c) => c.name), ['Age']);
    assert.equal(crdPrinterColumns(CRD, 'v2'), undefined);
    assert.equal(crdPrinterColumns({ metadata: { name: 'x' }, spec: 'garbage' }, 'v1'), undefined);
  });

  it('evaluates the JSONPath columns: filters, indexes, dates as ages, <none> when absent, <invalid> when malformed', () => {
    const col = (jsonPath: string, type = 'string'): PrinterColumn => ({ name: 'c', type, priority: 0, jsonPath });
    const w = widget({ conditions: [{ type: 'Synced', status: 'True' }, { type: 'Ready', status: 'False' }], replicas: [{ n: 1 }, { n: 2 }], since: ago(5 * MINUTE) });
    assert.equal(columnCell(w, col('.status.conditions[?(@.type=="Ready")].status'), NOW), 'False');
    assert.equal(columnCell(w, col('.status.replicas[1].n', 'integer'), NOW), '2');
    assert.equal(columnCell(w, col('{.spec.size}', 'integer'), NOW), '3', 'braces, as kubectl -o jsonpath takes them');
    assert.equal(columnCell(w, col('.status.since', 'date'), NOW), '5m');
    assert.equal(columnCell(w, col('.status.missing'), NOW), '<none>');
    assert.equal(columnCell(w, col('.status.conditions[?(@.type=="Ready"'), NOW), '<invalid>');
    assert.equal(toJsonPathPlus('.a.b'), '$.a.b');
  });

  it('prints NAME and the columns (wide ones last); status-like columns lead the description', () => {
    const columns = crdPrinterColumns(CRD, 'v1')!;
    const ready = printObject(widget({ conditions: [{ type: 'Ready', status: 'True' }] }), 'Widget', NOW, columns);
    assert.deepEqual(ready.columns, ['NAME', 'SIZE', 'READY', 'AGE', 'COLOR']);
    assert.deepEqual(ready.cells, ['blue-widget', '3', 'True', '2d', 'blue']);
    assert.equal(describeRow(ready), 'True · size 3 · 2d');
    assert.deepEqual(ready.health, { icon: 'pass', tone: 'ok' });
    const notReady = printObject(widget({ conditions: [{ type: 'Ready', status: 'False', reason: 'Reconciling' }] }), 'Widget', NOW, columns);
    assert.equal(notReady.health.tone, 'error');
  });

  it("another group's kind of a built-in name is not printed as the built-in (a Knative Service is no core Service)", () => {
    assert.equal(printerKind({ kind: 'Service', group: '' }), 'Service');
    assert.equal(printerKind({ kind: 'Deployment', group: 'apps' }), 'Deployment');
    assert.equal(printerKind({ kind: 'Event', group: 'events.k8s.io' }), 'Event');
    const knative = printerKind({ kind: 'Service', group: 'serving.knative.dev' });
    assert.equal(knative, 'Service.serving.knative.dev');
    const ksvc: KubeObject = { metadata: { name: 'hello', creationTimestamp: ago(DAY) }, spec: {}, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
    const row = printObject(ksvc, knative, NOW);
    assert.deepEqual([row.columns, describeRow(row)], [['NAME', 'AGE'], 'Ready · 24h']);
  });

  it('without columns (the CRD cannot be read): NAME and AGE, the status read from the object', () => {
    const row = printObject(widget({ phase: 'Reconciling' }), 'Widget', NOW);
    assert.deepEqual([row.columns, row.cells, describeRow(row)], [['NAME', 'AGE'], ['blue-widget', '2d'], 'Reconciling · 2d']);
  });
});
