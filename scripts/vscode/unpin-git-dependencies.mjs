#!/usr/bin/env node
// Some code-server releases (4.105 among them) pin a dependency of their bundled VS Code to a
// GitHub commit (`"@parcel/watcher": "parcel-bundler/watcher#<sha>"`), which their postinstall
// then fetches from codeload.github.com. Where only the npm registry is reachable that fails, so
// this replaces every such pin, in the package.json and npm-shrinkwrap.json files under the
// folder given, with the registry release of the version the lock file records (for
// @parcel/watcher 2.5.1, the release that commit builds on). Prints what it changed.
//   node scripts/vscode/unpin-git-dependencies.mjs <code-server package folder>
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = process.argv[2];
if (!root) {
  process.stderr.write('usage: unpin-git-dependencies.mjs <folder>\n');
  process.exit(2);
}
const GIT = /^(git\+ssh:|git\+https:|git:|github:|[\w.-]+\/[\w.-]+#)/;

function* manifests(dir, depth = 0) {
  for (const name of ['package.json', 'npm-shrinkwrap.json']) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) yield file;
  }
  if (depth >= 3) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) yield* manifests(path.join(dir, e.name), depth + 1);
  }
}

const files = [...manifests(path.join(root, 'lib', 'vscode'))];
// The version each git-pinned package has in the lock files.
const versions = new Map();
for (const file of files.filter((f) => f.endsWith('npm-shrinkwrap.json'))) {
  const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (typeof entry.resolved === 'string' && GIT.test(entry.resolved) && entry.version) versions.set(key.replace(/^.*node_modules\//, ''), entry.version);
  }
}
let changed = 0;
for (const file of files) {
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  let dirty = false;
  const fixDeps = (deps) => {
    for (const [name, spec] of Object.entries(deps ?? {})) {
      if (typeof spec === 'string' && GIT.test(spec) && versions.has(name)) {
        deps[name] = versions.get(name);
        dirty = true;
      }
    }
  };
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) fixDeps(json[field]);
  for (const [key, entry] of Object.entries(json.packages ?? {})) {
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) fixDeps(entry[field]);
    if (typeof entry.resolved === 'string' && GIT.test(entry.resolved)) {
      const name = key.replace(/^.*node_modules\//, '');
      entry.resolved = `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${entry.version}.tgz`;
      delete entry.integrity;
      dirty = true;
    }
  }
  if (dirty) {
    fs.writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
    changed++;
    process.stderr.write(`unpin-git-dependencies: ${path.relative(root, file)}: ${[...versions].map(([n, v]) => `${n}@${v}`).join(', ')} from the registry\n`);
  }
}
if (changed === 0) process.stderr.write('unpin-git-dependencies: no git-pinned dependency\n');
