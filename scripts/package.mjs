#!/usr/bin/env node
// `npm run package`: makes the extension's .vsix with @vscode/vsce, offline and without prompts,
// then lists what it holds and checks that this is only the bundle, the media, README, CHANGELOG,
// LICENSE and the manifest (.vscodeignore says so; this script makes sure).
//
//   node scripts/package.mjs [--out FILE]     default: <repo>/<name>-<version>.vsix
//
// vsce runs the manifest's `vscode:prepublish` script first, which is the production build
// (`npm run build -- --production`: minified, no source map). Flags that keep vsce off the network
// and away from the terminal:
//   --no-dependencies           everything is bundled into dist/extension.js, so vsce neither asks
//                               npm for the dependency tree nor packs node_modules/
//   --allow-missing-repository  package.json has no `repository` field; vsce would otherwise ask
//                               "Continue? [y/N]"
//   --no-rewrite-relative-links without a repository vsce cannot turn README links that are
//                               relative (a link to a source file) into absolute URLs, and refuses
//                               to package; this keeps them as they are
//   --readme-path dist/README.md the README as VS Code's extension page can show it: that page drops
//                               an image whose source is not http(s), so the packaged copy names
//                               each screenshot in words instead of showing a broken image; the
//                               repository's README.md keeps its images for GitHub
// The list is read from the .vsix itself (its zip central directory), so it is what a user gets.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

function fail(message) {
  process.stderr.write(`package: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  let out = path.join(root, `${manifest.name}-${manifest.version}.vsix`);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--out' || arg === '-o') out = path.resolve(argv[++i] ?? fail(`${arg} needs a value`));
    else if (arg.startsWith('--out=')) out = path.resolve(arg.slice('--out='.length));
    else fail(`unknown argument ${arg} (usage: node scripts/package.mjs [--out FILE])`);
  }
  return { out };
}

/**
 * The entries of a zip file from its central directory: name, uncompressed and compressed size.
 * Enough of the format for what vsce writes (no zip64, no multi-disk).
 */
function zipEntries(file) {
  const buf = fs.readFileSync(file);
  // The end of central directory record: signature 0x06054b50, within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${n}`);
    const method = buf.readUInt16LE(at + 10);
    const compressed = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    const localHeader = buf.readUInt32LE(at + 42);
    const read = () => {
      const start = localHeader + 30 + buf.readUInt16LE(localHeader + 26) + buf.readUInt16LE(localHeader + 28);
      const data = buf.subarray(start, start + compressed);
      return method === 0 ? data : inflateRawSync(data);
    };
    entries.push({ name, size, compressed, read });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { entries, bytes: buf.length };
}

/** What a .vsix of this extension may hold: vsce's own two files, and under extension/ the bundles, media and docs. */
const ALLOWED = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/readme\.md$/i,
  /^extension\/changelog\.md$/i,
  /^extension\/LICENSE(\.txt|\.md)?$/i,
  /^extension\/dist\/extension\.js$/,
  /^extension\/dist\/webview\/(health\.js|health-style\.css|uPlot\.min\.css|events\.js|events-style\.css)$/,
  /^extension\/dist\/webview\/(overview\.js|overview-style\.css)$/,
  /^extension\/dist\/webview\/(table\.js|table-style\.css)$/,
  /^extension\/media\/[^/]+(\/[^/]+)*$/,
];
/** ...and must hold at least these. */
const REQUIRED = [
  'extension/package.json',
  'extension/dist/extension.js',
  'extension/dist/webview/health.js',
  'extension/dist/webview/health-style.css',
  'extension/dist/webview/overview.js',
  'extension/dist/webview/overview-style.css',
  'extension/dist/webview/uPlot.min.css',
  'extension/dist/webview/events.js',
  'extension/dist/webview/events-style.css',
  'extension/dist/webview/table.js',
  'extension/dist/webview/table-style.css',
  'extension/readme.md',
  'extension/changelog.md',
];

/**
 * README.md as the .vsix carries it, written to dist/README.md for vsce: every relative image
 * (`![alt](docs/x.png)`) becomes a line naming the picture and where it is. VS Code's extension
 * page shows README images from http(s) URLs only (its sanitizer drops relative and data: sources,
 * and its CSP allows https: and data: only), so a relative image there is a broken one, and the
 * manifest has no `repository` for vsce to turn it into an https URL. Returns how many it replaced.
 */
function writePackagedReadme() {
  let replaced = 0;
  const text = fs.readFileSync(path.join(root, 'README.md'), 'utf8').replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (whole, alt, src) => {
    if (/^https:/i.test(src)) return whole;
    if (!fs.existsSync(path.join(root, decodeURI(src)))) fail(`README.md: the image ${src} does not exist`);
    replaced++;
    return `*Screenshot, \`${src}\` in the source repository: ${alt}*`;
  });
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(root, 'dist/README.md'), text);
  return replaced;
}

function kib(n) {
  return `${(n / 1024).toFixed(1)} KiB`;
}

function main() {
  const { out } = parseArgs(process.argv.slice(2));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.rmSync(out, { force: true });

  const replaced = writePackagedReadme();
  const args = ['--no', 'vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--readme-path', 'dist/README.md', '--out', out];
  process.stderr.write(`package: npx ${args.join(' ')}\n`);
  const started = Date.now();
  const result = spawnSync('npx', args, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'], // no stdin: vsce must never wait for an answer
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (result.error) fail(`could not run npx: ${result.error.message}`);
  if (result.status !== 0) fail(`vsce exited with ${result.status ?? result.signal}`);
  if (!fs.existsSync(out)) fail(`vsce did not write ${out}`);

  const { entries, bytes } = zipEntries(out);
  const unexpected = entries.filter((e) => !ALLOWED.some((re) => re.test(e.name)));
  const missing = REQUIRED.filter((name) => !entries.some((e) => e.name.toLowerCase() === name.toLowerCase()));

  const width = Math.max(...entries.map((e) => String(e.size).length), 6);
  const lines = [`${path.relative(process.cwd(), out) || out}: ${entries.length} files, ${kib(bytes)} (${bytes.toLocaleString('en-US')} bytes)`];
  lines.push(`  ${'size'.padStart(width)}  ${'packed'.padStart(width)}  name`);
  let total = 0;
  for (const e of entries) {
    total += e.size;
    lines.push(`  ${String(e.size).padStart(width)}  ${String(e.compressed).padStart(width)}  ${e.name}`);
  }
  lines.push(`  ${String(total).padStart(width)}  ${''.padStart(width)}  (uncompressed total, ${kib(total)})`);
  process.stdout.write(`${lines.join('\n')}\n`);

  if (unexpected.length > 0) fail(`unexpected files in the package (fix .vscodeignore): ${unexpected.map((e) => e.name).join(', ')}`);
  if (missing.length > 0) fail(`missing from the package: ${missing.join(', ')}`);
  // The bundle must be the production one: minified, without a source map reference.
  // (Read from the package, not from dist/, which another build may have rewritten since.)
  const readme = entries.find((e) => e.name.toLowerCase() === 'extension/readme.md').read().toString('utf8');
  const relativeImages = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((src) => !/^https:/i.test(src));
  if (relativeImages.length > 0) fail(`the packaged README has images VS Code's extension page cannot show: ${relativeImages.join(', ')}`);
  process.stderr.write(`package: README with ${replaced} screenshot(s) named in words\n`);
  const bundle = entries.find((e) => e.name === 'extension/dist/extension.js').read().toString('utf8');
  const webviewBundle = entries.find((e) => e.name === 'extension/dist/webview/health.js').read().toString('utf8');
  if (/\/\/# sourceMappingURL=/.test(webviewBundle)) fail('the packaged dist/webview/health.js is not a production build (it has a source map)');
  if (/\/\/# sourceMappingURL=/.test(bundle)) fail('the packaged dist/extension.js is not a production build (it has a source map); is `vscode:prepublish` still `npm run build -- --production`?');
  process.stderr.write(`package: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

main();
