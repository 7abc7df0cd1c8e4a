import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { webviewPage } from '../../../src/vscode/webview-page';

/** The page every panel (Watch Health, Events, Overview, Table) is built from, with VS Code's own Uri. */
describe('a panel page', () => {
  const root = vscode.Uri.file('/extension/dist/webview');
  const webview = { cspSource: 'https://resource.example', asWebviewUri: (uri: vscode.Uri) => uri.with({ scheme: 'https', authority: 'resource.example' }) } as unknown as vscode.Webview;
  const page = () => webviewPage(webview, root, { title: 'Table', styles: ['a.css', 'b.css'], script: 'table.js', bodyAttributes: `data-vscode-context='{"x": 1}'`, body: '<div id="grid"></div>' });

  it('allows nothing from the network, styles, images and fonts only from the extension, and only its one script, by a fresh nonce', () => {
    const html = page();
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
    assert.ok(nonce.length >= 16, csp);
    assert.equal(csp, `default-src 'none'; style-src https://resource.example; img-src https://resource.example data:; font-src https://resource.example; script-src 'nonce-${nonce}'`);
    assert.deepEqual([...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]), [` nonce="${nonce}" src="https://resource.example/extension/dist/webview/table.js"`], 'one script, ours, with the nonce');
    assert.deepEqual([...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]), ['https://resource.example/extension/dist/webview/a.css', 'https://resource.example/extension/dist/webview/b.css']);
    assert.match(html, /<body data-vscode-context='\{"x": 1\}'>\n<div id="grid"><\/div>\n<script/);
    assert.match(html, /<title>Table<\/title>/);
    assert.notEqual(/nonce-([^']+)/.exec(page())?.[1], nonce, 'a new nonce for each page');
  });
});
