import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { webviewPage } from '../../../src/vscode/webview-page';

/** The page every panel (Watch Health, Events, Overview, Table) is built from, with VS Code's own Uri. */
describe('a panel page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kw-page-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'a.css'), 'body { color: red; }');
  writeFileSync(join(dir, 'b.css'), '.x::after { content: "</style>"; }');
  writeFileSync(join(dir, 'table.js'), 'document.title = "</script><b>";');
  const root = vscode.Uri.file(dir);
  const webview = { cspSource: 'https://resource.example', asWebviewUri: (uri: vscode.Uri) => uri.with({ scheme: 'https', authority: 'resource.example' }) } as unknown as vscode.Webview;
  const page = () => webviewPage(webview, root, { title: 'Table', styles: ['a.css', 'b.css'], script: 'table.js', bodyAttributes: `data-vscode-context='{"x": 1}'`, body: '<div id="grid"></div>' });

  it('allows nothing from the network and only the styles and the one script it carries, by a fresh nonce', () => {
    const html = page();
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
    assert.ok(nonce.length >= 16, csp);
    assert.equal(csp, `default-src 'none'; style-src 'nonce-${nonce}'; img-src https://resource.example data:; font-src https://resource.example; script-src 'nonce-${nonce}'`);
    assert.deepEqual([...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]), [` nonce="${nonce}"`], 'one script element, with the nonce');
    assert.deepEqual([...html.matchAll(/<style([^>]*)>\n([^]*?)\n<\/style>/g)].map((m) => [m[1], m[2]]), [
      [` nonce="${nonce}"`, 'body { color: red; }'],
      [` nonce="${nonce}"`, '.x::after { content: "<\\/style>"; }'],
    ], 'the stylesheets in order, a </style> inside one unable to end it');
    assert.match(html, /<script nonce="[^"]+">\ndocument\.title = "<\\\/script><b>";\n<\/script>\n<\/body>/, 'the script whole, a </script> inside it unable to end it');
    assert.doesNotMatch(html, /<link|src=/, 'nothing fetched');
    assert.match(html, /<body data-vscode-context='\{"x": 1\}'>\n<div id="grid"><\/div>\n<script/);
    assert.match(html, /<title>Table<\/title>/);
    assert.notEqual(/nonce-([^']+)/.exec(page())?.[1], nonce, 'a new nonce for each page');
  });
});
