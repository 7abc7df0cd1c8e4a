import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '../..');

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
}

describe('the production build (what the .vsix is made of)', function () {
  this.timeout(120_000);
  let out: string;

  before(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-watch-build-'));
    // What an earlier development build leaves behind.
    fs.mkdirSync(path.join(out, 'webview'), { recursive: true });
    for (const stale of ['extension.js.map', 'cli-bundle.js.map', 'webview/health.js.map', 'webview/health-style.css.map']) fs.writeFileSync(path.join(out, stale), '{}');
  });

  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it('leaves no source map in its output, not even one from an earlier development build', () => {
    const build = spawnSync(process.execPath, [path.join(repo, 'scripts/build.mjs'), '--production', '--out', out], { encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    const files = filesUnder(out);
    assert.deepEqual(files.filter((f) => f.endsWith('.map')), [], files.join(', '));
    for (const bundle of ['extension.js', 'cli-bundle.js', 'webview/health.js', 'webview/events.js']) {
      assert.ok(files.includes(bundle), `${bundle} among ${files.join(', ')}`);
      assert.doesNotMatch(fs.readFileSync(path.join(out, bundle), 'utf8'), /\/\/# sourceMappingURL=/, `${bundle} points at no source map`);
    }
    assert.ok(files.includes('cli.js'), 'the CLI entry');
  });
});
