// Builds the extension-host tests: test/vscode/suite/index.ts and every
// test/vscode/suite/**/*.vscode-test.ts, each bundled to out/test/vscode/suite/ as a CommonJS file
// (the extension host `require`s them). `vscode` comes from the host; mocha from node_modules.
// Test support code written for ESM (the local API server finds its certificates through
// `import.meta.dirname`) is bundled with `import.meta.dirname` replaced by its source folder, which
// a CommonJS bundle would otherwise leave undefined.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const suite = path.join(root, 'test', 'vscode', 'suite');
const outdir = path.join(root, 'out', 'test', 'vscode', 'suite');

const entryPoints = fs
  .readdirSync(suite, { recursive: true, encoding: 'utf8' })
  .filter((file) => file === 'index.ts' || file.endsWith('.vscode-test.ts'))
  .map((file) => path.join(suite, file));

/** Replaces `import.meta.dirname` and `import.meta.filename` in TypeScript sources with the file's own folder and path, as strings. */
const importMetaDirname = {
  name: 'import-meta-dirname',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!text.includes('import.meta.dirname') && !text.includes('import.meta.filename')) return undefined;
      const contents = text.replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path))).replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

fs.rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints,
  outbase: suite,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  sourcemap: 'inline',
  logLevel: 'warning',
  external: ['vscode', 'mocha'],
  plugins: [importMetaDirname],
});
console.log(`built ${entryPoints.length} files into ${path.relative(root, outdir)}/`);
