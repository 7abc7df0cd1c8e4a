import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pack } from 'tar-stream';
import { Cancelled, ContainerFiles, EscapeRefused, planUpload, type UploadItem } from '../../src/container-files';
import { runInContainer } from '../../src/container-files/exec-run';
import { OriginTransport } from '../../src/manager';
import { StreamsRig, until } from '../port-forward/rig';

/**
 * A container's files through exec (issue 32, part 3), against the local API server, whose
 * simulated pods run real commands in a scratch folder with an image of chosen commands
 * (test/support/apiserver/pod-image.ts), over HTTP/1.1 and HTTP/2 (the exec upgrades themselves
 * are WebSocket over HTTP/1.1, as kube-apiserver serves them).
 */
describe('container files: browse, read, download and upload through exec (local API server)', function () {
  this.timeout(120_000);
  let rig: StreamsRig | undefined;
  let local: string;

  beforeEach(() => {
    local = fs.mkdtempSync(path.join(os.tmpdir(), 'kw-files-'));
  });

  afterEach(async () => {
    if (rig) await until(() => rig!.server.podStreams.openStreams('exec') === 0, () => `every exec stream closed (${rig!.server.podStreams.openStreams('exec')} open)`);
    await rig?.close();
    rig = undefined;
    fs.rmSync(local, { recursive: true, force: true });
  });

  async function start(http2: boolean): Promise<StreamsRig> {
    const r = (rig = await StreamsRig.start({ server: { http2 } }));
    assert.equal(new OriginTransport(r.manager.originOf(r.entryId), (o) => r.manager.resolveOrigin(o), 'the pods').protocol, http2 ? 'h2' : 'http/1.1', 'the connection the exec requests are pinned to');
    return r;
  }

  function filesOf(r: StreamsRig, pod: string, annotations: Record<string, string>): ContainerFiles {
    r.pod(pod, { app: pod }, { annotations: { 'kube-watch.test/files': 'true', ...annotations } });
    const transport = new OriginTransport(r.manager.originOf(r.entryId), (o) => r.manager.resolveOrigin(o), `shop/${pod}`);
    return new ContainerFiles(transport, { namespace: 'shop', pod, container: 'app' });
  }

  const execs = (r: StreamsRig, pod: string, first: string) => r.server.requests.filter((q) => q.path === `/api/v1/namespaces/shop/pods/${pod}/exec` && q.query.command === first).length;

  for (const http2 of [false, true]) {
    const protocol = http2 ? 'HTTP/2' : 'HTTP/1.1';

    it(`X17 ${protocol}: a container's folder is listed and a file read through exec, with find, ls or tar, whichever the image has (found once per container and said)`, async () => {
      const r = await start(http2);
      const images = [
        { pod: 'full', commands: undefined, list: 'find', read: 'cat' },
        { pod: 'busybox', commands: 'sh,ls,cat,tar', list: 'ls', read: 'cat' },
        { pod: 'tar-only', commands: 'tar', list: 'tar', read: 'tar' },
      ] as const;
      for (const image of images) {
        const files = filesOf(r, image.pod, image.commands ? { 'kube-watch.test/commands': image.commands } : {});
        const tools = await files.tools();
        assert.deepEqual(tools, { list: image.list, read: image.read, tar: true }, image.pod);
        const words = await files.describe();
        assert.match(words, image.list === 'tar' ? /listed by reading a tar archive of each folder \(the image has neither find nor ls\)/ : new RegExp(`listed with ${image.list}, read with ${image.read}; copied with tar`), words);
        const cwd = await files.workingDirectory();
        assert.match(cwd, new RegExp(`^/.*kube-watch-pod-${image.pod}-`), `the working directory of ${image.pod}`);
        const app = await files.list(`${cwd}/app`);
        assert.deepEqual(
          app.map((e) => [e.name, e.type]),
          [['empty', 'directory'], ['static', 'directory'], ['config.yaml', 'file'], ['current', 'symlink'], ['data.bin', 'file'], ['name with spaces.txt', 'file']],
          `${image.pod}: folders first, then files, names with spaces whole`,
        );
        assert.equal(app.find((e) => e.name === 'current')?.linkTarget, 'static');
        assert.equal(app.find((e) => e.name === 'data.bin')?.size, 256 * 1024);
        assert.ok((app.find((e) => e.name === 'config.yaml')?.mtimeMs ?? 0) > Date.UTC(2020, 0, 1), `${image.pod}: the modification time is read`);
        assert.equal((await files.read(`${cwd}/app/config.yaml`)).toString('utf8'), 'port: 8080\nname: web\nlogLevel: info\n');
        assert.equal((await files.read(`${cwd}/app/name with spaces.txt`)).toString('utf8'), 'spaces are fine\n');
        assert.equal((await files.read(`${cwd}/app/current/index.html`)).toString('utf8'), '<h1>web</h1>\n', `${image.pod}: a file through a link inside`);
        const progress: number[] = [];
        const data = await files.read(`${cwd}/app/data.bin`, { size: 256 * 1024, onProgress: (done) => progress.push(done) });
        assert.ok(data.equals(Buffer.alloc(256 * 1024, 7)));
        assert.equal(progress.at(-1), 256 * 1024);
        assert.equal((await files.stat(`${cwd}/app/static`)).type, 'directory', image.pod);
        await assert.rejects(files.read(`${cwd}/app/missing.txt`), /no such file or folder/i);
        assert.ok((await files.list(cwd)).some((e) => e.name === 'README.md' && e.type === 'file'));
        // Found once: the probes ran once, however many calls followed.
        assert.equal(r.server.requests.filter((q) => q.path.endsWith(`/${image.pod}/exec`) && JSON.stringify(q.query).includes('--version')).length, 1, `${image.pod}: tools found once`);
      }
    });

    it(`X18 ${protocol}: download and upload through tar over exec; entries that escape the folder (../, absolute, symlink out) are refused in words and nothing is written outside`, async () => {
      const r = await start(http2);
      const files = filesOf(r, 'web', {});
      const cwd = await files.workingDirectory();
      // Download a folder: written as it streams, the link inside kept as a link.
      const into = path.join(local, 'down');
      const summary = await files.download(`${cwd}/app`, into);
      assert.equal(fs.readFileSync(path.join(into, 'app', 'config.yaml'), 'utf8'), 'port: 8080\nname: web\nlogLevel: info\n');
      assert.equal(fs.readlinkSync(path.join(into, 'app', 'current')), 'static');
      assert.ok(fs.statSync(path.join(into, 'app', 'empty')).isDirectory());
      assert.deepEqual([summary.files, summary.links], [4, 1]);
      // Upload a folder (a nested file, a link inside) and a file, then see them in the container.
      const src = path.join(local, 'src', 'site');
      fs.mkdirSync(path.join(src, 'css'), { recursive: true });
      fs.writeFileSync(path.join(src, 'css', 'main.css'), 'body{}\n');
      fs.symlinkSync('css/main.css', path.join(src, 'style.css'));
      fs.writeFileSync(path.join(local, 'src', 'notes.txt'), 'uploaded\n');
      const progress: number[] = [];
      assert.deepEqual(await files.upload([src, path.join(local, 'src', 'notes.txt')], `${cwd}/app/empty`, { onProgress: (d) => progress.push(d) }), { files: 2, bytes: 16 });
      assert.equal((await files.read(`${cwd}/app/empty/site/style.css`)).toString('utf8'), 'body{}\n');
      assert.equal((await files.read(`${cwd}/app/empty/notes.txt`)).toString('utf8'), 'uploaded\n');
      assert.equal(progress.at(-1), 16);
      // v4 (a server before 1.30) has no stdin close: tar ends at the archive's end, padded to its record.
      r.server.podStreams.offerV5 = false;
      fs.writeFileSync(path.join(local, 'src', 'v4.txt'), 'over v4\n');
      await files.upload([path.join(local, 'src', 'v4.txt')], `${cwd}/app/empty`);
      r.server.podStreams.offerV5 = true;
      assert.equal((await files.read(`${cwd}/app/empty/v4.txt`)).toString('utf8'), 'over v4\n');

      // Download: a real link in the container that points out of the folder.
      const outLink = path.join(local, 'out-link');
      fs.mkdirSync(outLink);
      // A link made in the container by a user there (not through our upload, which refuses it).
      await runSh(r, 'web', `ln -s /etc/hostname '${cwd}/app/static/hostname'`);
      await assert.rejects(files.download(`${cwd}/app`, outLink), (err: Error) => err instanceof EscapeRefused && /the entry "app\/static\/hostname" is a symbolic link to "\/etc\/hostname", which points outside the folder/.test(err.message) && /Nothing was written outside the folder it was copied to/.test(err.message));
      assert.equal(fs.existsSync(path.join(outLink, 'app', 'static', 'hostname')), false);

      // Download: a hostile tar in the image sends names that climb out, absolute names, a link then a file through it.
      const victim = path.join(local, 'victim');
      fs.mkdirSync(victim);
      const hostile: Array<[string, UploadItem[]]> = [
        ['climbs out with ".."', [item('app/ok.txt', 'fine'), item('app/../../victim/escaped.txt', 'pwned')]],
        ['has an absolute path', [item(`${victim}/escaped.txt`, 'pwned')]],
        ['is a symbolic link to', [{ name: 'app/link', type: 'symlink', linkTarget: '../../victim', size: 0, mode: 0o777, mtime: new Date() }, item('app/link/escaped.txt', 'pwned')]],
        ['is not inside "app"', [item('other/escaped.txt', 'pwned')]],
      ];
      for (const [why, entries] of hostile) {
        const evil = filesOf(r, `evil-${hostile.findIndex((h) => h[0] === why)}`, { 'kube-watch.test/tar-output': (await archiveOf(entries)).toString('base64') });
        const target = path.join(local, 'target', String(hostile.findIndex((h) => h[0] === why)));
        await assert.rejects(evil.download('/srv/app', target), (err: Error) => err instanceof EscapeRefused && err.message.includes(why) && /^Download refused: the entry /.test(err.message), why);
        assert.deepEqual(fs.readdirSync(victim), [], `${why}: nothing written outside the folder`);
      }

      // Upload: items that escape are refused before any tar runs in the container.
      const tarsBefore = execs(r, 'web', 'tar');
      for (const [name, why] of [['../escaped.txt', /climbs out with "\.\."/], [`${cwd}/escaped-abs.txt`, /has an absolute path/]] as const) {
        await assert.rejects(files.upload({ items: [item(name, 'pwned', local)] }, `${cwd}/app`), (err: Error) => err instanceof EscapeRefused && why.test(err.message) && /^Upload refused/.test(err.message));
      }
      const linkOut = path.join(local, 'linking');
      fs.mkdirSync(linkOut);
      fs.symlinkSync('/etc/hostname', path.join(linkOut, 'hostname'));
      assert.throws(() => planUpload([linkOut]), /the entry "linking\/hostname" is a symbolic link to "\/etc\/hostname", which points outside the folder being uploaded/);
      await assert.rejects(files.upload([linkOut], `${cwd}/app`), EscapeRefused);
      assert.equal(execs(r, 'web', 'tar'), tarsBefore, 'no tar ran for a refused upload');
      await assert.rejects(files.stat(`${path.posix.dirname(cwd)}/escaped.txt`), /no such file or folder/i, 'nothing written above the folder in the container');
      assert.equal((await files.list(cwd)).some((e) => e.name === 'escaped-abs.txt'), false);
    });

    it(`X19 ${protocol}: an image without tar is said in words; a cancelled large download or read stops its exec stream`, async () => {
      const r = await start(http2);
      const distroless = filesOf(r, 'distroless', { 'kube-watch.test/commands': 'ls,cat' });
      assert.deepEqual(await distroless.tools(), { list: 'ls', read: 'cat', tar: false });
      assert.match(await distroless.describe(), /downloads and uploads unavailable: the image has no tar: Download and Upload copy files through tar in the container, as kubectl cp does, and shop\/distroless \(container app\) has none/);
      const cwd0 = await distroless.workingDirectory();
      await assert.rejects(distroless.download(`${cwd0}/app`, local), (err: Error) => err.message.startsWith('The image has no tar: '));
      await assert.rejects(distroless.upload([local], cwd0), (err: Error) => err.message.startsWith('The image has no tar: '));
      assert.deepEqual(fs.readdirSync(local), [], 'nothing written for a refused download');
      assert.equal((await distroless.read(`${cwd0}/app/config.yaml`)).toString('utf8').split('\n')[0], 'port: 8080', 'browsing still works');

      const files = filesOf(r, 'web', {});
      const cwd = await files.workingDirectory();
      await runSh(r, 'web', `head -c 268435456 /dev/zero > '${cwd}/big.bin'`);
      for (const how of ['download', 'read'] as const) {
        const ctl = new AbortController();
        let seen = 0;
        const onProgress = (done: number) => {
          seen = done;
          if (done >= 1 << 20) ctl.abort();
        };
        const copy = how === 'download' ? files.download(`${cwd}/big.bin`, path.join(local, how), { signal: ctl.signal, onProgress }) : files.read(`${cwd}/big.bin`, { signal: ctl.signal, onProgress, sink: fs.createWriteStream(path.join(local, 'read.bin')) });
        await assert.rejects(copy, (err: Error) => err instanceof Cancelled && /was cancelled; the command in the container was stopped/.test(err.message));
        assert.ok(seen >= 1 << 20 && seen < 268435456, `${how}: stopped part way (${seen} bytes)`);
        await until(() => r.server.podStreams.openStreams('exec') === 0, () => `${how}: the exec stream closed`);
      }
      // RBAC refuses pods/exec: said as a refused shell is.
      r.server.podStreams.forbid('exec');
      const refused = filesOf(r, 'locked', {});
      await assert.rejects(refused.tools(), /^Error: Not allowed: .*may not run commands in pods \(pods\/exec\) in namespace shop/);
    });
  }
});

function item(name: string, content: string, dir?: string): UploadItem {
  const local = dir ? path.join(dir, `content-${Math.random().toString(36).slice(2)}`) : undefined;
  if (local) fs.writeFileSync(local, content);
  return { name, type: 'file', size: Buffer.byteLength(content), mode: 0o644, mtime: new Date(), ...(local ? { localPath: local } : { localPath: `inline:${content}` }) };
}

/** A tar archive of `items` as a hostile tar would send it (names written as given). */
async function archiveOf(items: readonly UploadItem[]): Promise<Buffer> {
  const archive = pack();
  for (const i of items) {
    if (i.type === 'symlink') archive.entry({ name: i.name, type: 'symlink', linkname: i.linkTarget });
    else archive.entry({ name: i.name, size: i.size }, Buffer.from(i.localPath!.slice('inline:'.length)));
  }
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A command through sh in the pod (test setup only), through the same exec streams. */
async function runSh(r: StreamsRig, pod: string, script: string): Promise<void> {
  const transport = new OriginTransport(r.manager.originOf(r.entryId), (o) => r.manager.resolveOrigin(o), `shop/${pod}`);
  const outcome = await runInContainer(transport, { namespace: 'shop', pod }, ['sh', '-c', script]);
  assert.equal(outcome.result.exitCode, 0, `${script}: ${outcome.stderr}`);
}
