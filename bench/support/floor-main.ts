/**
 * A bare client process: Node with no Kubernetes client code loaded, only the floor loop of a
 * streaming sync (sync-measure.ts). What V8 alone needs to hold the objects, without the
 * code and runtime of any client around them.
 */
import type { ResourceSpec } from './datasets';
import { serveRpc } from './rpc';
import { measureSync, streamingListFloor, type Conn, type SyncResult } from './sync-measure';

export interface BareSyncTask {
  conn: Conn;
  spec: ResourceSpec;
  namespace?: string;
  expect: number;
}

const keep: unknown[] = [];

serveRpc({
  sync: (t: BareSyncTask): Promise<SyncResult> => measureSync('bare floor', t.expect, streamingListFloor(t.conn, t.spec, t.namespace, keep)),
});
