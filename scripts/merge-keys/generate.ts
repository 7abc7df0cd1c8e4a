/**
 * Regenerates src/edit/merge-keys/builtin-merge-keys.ts from a real kube-apiserver's OpenAPI v3:
 *
 *   node --import tsx scripts/merge-keys/generate.ts
 *
 * Starts the test tier's control plane (kube-apiserver 1.34.9 and etcd from shared/envtest, see
 * test/real/support/README.md), reads every group version's document under /openapi/v3, writes
 * the table, and stops the control plane. test/real/merge-keys.real.ts checks that the committed
 * table is what this writes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ControlPlane } from '../../test/real/support';
import { fetchOpenApiV3, renderMergeKeys, mergeKeysFromOpenApi } from './openapi-merge-keys';

const TABLE_FILE = path.join(import.meta.dirname, '..', '..', 'src', 'edit', 'merge-keys', 'builtin-merge-keys.ts');

async function main(): Promise<void> {
  const plane = await ControlPlane.start({});
  try {
    const { documents, source } = await fetchOpenApiV3((p) => plane.admin.get(p));
    fs.writeFileSync(TABLE_FILE, renderMergeKeys(mergeKeysFromOpenApi(documents), source));
    console.log(`wrote ${path.relative(process.cwd(), TABLE_FILE)} from ${source}`);
  } finally {
    await plane.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
