import assert from 'node:assert/strict';
import { checkEntryName, linkStaysInside, onlyVanishedEntries, parseFindOutput, parseLsOutput } from '../../src/container-files';
import { fileUriParts, parseFileUri } from '../../src/ui/container-files/files-uri';

/** The listings of images the local API server does not run (BusyBox), and the traversal rules themselves. */
describe('container files: listings and the entry rules', () => {
  it('X17 BusyBox and GNU `ls -lan` lines: names with spaces and arrows, links, devices, dates with and without a year', () => {
    const now = new Date(Date.UTC(2026, 10, 28, 7, 0));
    const busybox = [
      'total 12',
      'drwxr-xr-x    2 0        0             4096 Nov 28 06:53 .',
      'drwxr-xr-x    1 0        0             4096 Jan  3  2025 ..',
      '-rw-r--r--    1 0        0               42 Nov 28 06:53 config.yaml',
      'lrwxrwxrwx    1 0        0                6 Dec 30 23:10 current -> static',
      'crw-rw-rw-    1 0        0           1,   3 Nov 28 06:00 null',
      '-rw-r--r--    1 1000     1000             5 Jan  3  2025 name with spaces.txt',
    ].join('\n');
    const entries = parseLsOutput(busybox, now);
    assert.deepEqual(entries.map((e) => [e.name, e.type, e.size, e.linkTarget]), [
      ['config.yaml', 'file', 42, undefined],
      ['current', 'symlink', 6, 'static'],
      ['null', 'other', 0, undefined],
      ['name with spaces.txt', 'file', 5, undefined],
    ]);
    assert.equal(entries[0].mtimeMs, Date.UTC(2026, 10, 28, 6, 53));
    assert.equal(entries[1].mtimeMs, Date.UTC(2025, 11, 30, 23, 10), 'a date ahead of now without a year is last year');
    assert.equal(entries[3].mtimeMs, Date.UTC(2025, 0, 3));
    assert.equal(entries[0].mode, 0o644);
    const full = parseLsOutput('-rw-r--r-- 1 0 0 7 2026-11-28 06:53:12.123456789 +0100 a -> b.txt\n', now);
    assert.deepEqual([full[0].name, full[0].mtimeMs], ['a -> b.txt', Date.parse('2026-11-28T06:53:12.123+01:00')]);
  });

  it('X17 find -printf with NUL-separated fields reads any name exactly', () => {
    const out = Buffer.from(['f', '3', '1700000000.5', '644', '', 'tab\there\nnewline', 'l', '4', '1700000000', '777', '/etc', 'out', ''].join('\0'));
    assert.deepEqual(parseFindOutput(out), [
      { name: 'tab\there\nnewline', type: 'file', size: 3, mtimeMs: 1700000000500, mode: 0o644 },
      { name: 'out', type: 'symlink', size: 4, mtimeMs: 1700000000000, mode: 0o777, linkTarget: '/etc' },
    ]);
  });

  it('X18 entry names and link targets that escape the folder are told apart from those that stay', () => {
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'C:\\x', 'a/..', '..']) assert.ok('why' in checkEntryName(bad), bad);
    assert.deepEqual(checkEntryName('./a//b/./c'), { parts: ['a', 'b', 'c'] });
    assert.equal(linkStaysInside(['app', 'current'], 'static'), true);
    assert.equal(linkStaysInside(['app', 'up'], '..'), true, 'the folder itself');
    assert.equal(linkStaysInside(['app', 'out'], '../..'), false);
    assert.equal(linkStaysInside(['app', 'abs'], '/etc'), false);
    assert.equal(linkStaysInside(['top'], 'a/../../b'), false);
  });

  it('X17 a listing whose only complaints are entries that vanished meanwhile (a busy /tmp, /proc) keeps what it printed; any other complaint fails it', () => {
    assert.equal(onlyVanishedEntries("find: ‘/var/spool/kw-streams-xbxYTK’: No such file or directory\n", '/var/spool'), true, 'GNU find, typographic quotes');
    assert.equal(onlyVanishedEntries("find: '/proc/4242': No such file or directory\nfind: '/proc/4243': No such file or directory", '/proc/'), true, 'two, ASCII quotes, a trailing slash');
    assert.equal(onlyVanishedEntries("ls: cannot access '/var/spool/x': No such file or directory", '/var/spool'), true, 'ls');
    assert.equal(onlyVanishedEntries("ls: cannot access '/proc': No such file or directory", '/'), true, 'a child of the root');
    assert.equal(onlyVanishedEntries("find: ‘/var/spool’: No such file or directory", '/var/spool'), false, 'the folder itself missing is an error');
    assert.equal(onlyVanishedEntries("find: ‘/var/spool/a/b’: No such file or directory", '/var/spool'), false, 'not a direct child');
    assert.equal(onlyVanishedEntries("find: ‘/var/spoolx/a’: No such file or directory", '/var/spool'), false, 'a sibling folder sharing a prefix');
    assert.equal(onlyVanishedEntries("find: ‘/var/spool/a’: No such file or directory\nfind: ‘/var/spool/b’: Permission denied", '/var/spool'), false, 'another complaint beside it');
    assert.equal(onlyVanishedEntries('', '/var/spool'), false, 'a failure without words');
  });

  it('a file URI carries its cluster entry, pod, container and path both ways', () => {
    const ref = { entryId: 'ctx/pods v1#2', namespace: 'shop', pod: 'web-1', container: 'app', path: '/srv/a b/c.txt' };
    const parts = fileUriParts(ref);
    assert.equal(parts.path, '/shop/web-1/app/srv/a b/c.txt');
    assert.deepEqual(parseFileUri(parts.authority, parts.path), ref);
    assert.deepEqual(parseFileUri(parts.authority, '/shop/web-1/app'), { ...ref, path: '/' });
    assert.equal(parseFileUri('zz', parts.path), undefined);
  });
});
