// Bundles the extension and the CLI with esbuild. `--production` minifies and leaves no source map
// (not even one from an earlier development build); `--watch` rebuilds on change; `--out DIR`
// writes somewhere other than dist/ (the build test uses it).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { copyFileSync, chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs';

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const outFlag = process.argv.indexOf('--out');
const out = outFlag >= 0 ? path.resolve(process.argv[outFlag + 1]) : 'dist';

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // client-node pulls optional native helpers we never call; keep them out of the bundle.
  external: ['vscode'],
};

/**
 * The webviews' scripts (Watch Health's with uPlot) and styles, in dist/webview/, which the pages
 * carry inline. uPlot's own stylesheet is copied beside ours.
 */
const webview = {
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  entryPoints: { health: 'src/webview/health/main.ts', 'health-style': 'src/webview/health/health.css', events: 'src/webview/events/main.ts', 'events-style': 'src/webview/events/events.css', overview: 'src/webview/overview/main.ts', 'overview-style': 'src/webview/overview/overview.css', table: 'src/webview/table/main.ts', 'table-style': 'src/webview/table/table.css' },
  outdir: `${out}/webview`,
  plugins: [
    {
      name: 'copy-uplot-css',
      setup(build) {
        build.onEnd(() => {
          fs.mkdirSync(`${out}/webview`, { recursive: true });
          fs.copyFileSync('node_modules/uplot/dist/uPlot.min.css', `${out}/webview/uPlot.min.css`);
          // The pages carry these files inline (src/vscode/webview-page.ts), where `<!--` or `<script` could change how the HTML parser ends the element.
          for (const f of fs.readdirSync(`${out}/webview`)) {
            if (!/\.(js|css)$/.test(f)) continue;
            const bad = /<!--|<script/i.exec(fs.readFileSync(`${out}/webview/${f}`, 'utf8'));
            if (bad) throw new Error(`${out}/webview/${f} contains "${bad[0]}", which a page cannot carry inline`);
          }
        });
      },
    },
  ],
};

const targets = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: `${out}/extension.js` },
  // dist/cli.js is src/cli/node-version-check.cjs: it checks the Node version, then loads this bundle.
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: `${out}/cli-bundle.js` },
  webview,
];

/** The CLI's unbundled entry, and no source map left over from an earlier development build. */
function finish() {
  mkdirSync(out, { recursive: true });
  copyFileSync('src/cli/node-version-check.cjs', `${out}/cli.js`);
  chmodSync(`${out}/cli.js`, 0o755);
  if (production) for (const f of readdirSync(out, { recursive: true })) if (String(f).endsWith('.map')) rmSync(path.join(out, String(f)));
}

finish();
if (watch) {
  for (const options of targets) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
} else {
  await Promise.all(targets.map((options) => esbuild.build(options)));
}
