import assert from 'node:assert/strict';
import type { FakeApiServer } from '../support/apiserver';

/**
 * The object helpers every fault context offers: ConfigMaps in the context's namespace on the
 * fake server, named cm-0, cm-1, … unless a name is given.
 */
export abstract class ConfigMapObjects {
  private counter = 0;

  protected constructor(
    readonly server: FakeApiServer,
    readonly namespace: string,
  ) {}

  createObject(name = `cm-${this.counter++}`, namespace = this.namespace): void {
    this.server.create('configmaps', { metadata: { name, namespace }, data: { v: '0' } });
  }

  updateObject(name: string, value: string, namespace = this.namespace): void {
    const cur = this.server.get('configmaps', namespace, name);
    assert.ok(cur, `no object ${namespace}/${name} to update`);
    this.server.update('configmaps', { ...cur, data: { v: value } });
  }

  deleteObject(name: string, namespace = this.namespace): void {
    this.server.delete('configmaps', namespace, name);
  }
}
