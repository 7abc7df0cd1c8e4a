import * as crypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';

/** What differs between the panels' pages. */
export interface WebviewPageParts {
  readonly title: string;
  /** Stylesheets in `root` (dist/webview), in order. */
  readonly styles: readonly string[];
  /** The page's script in `root`. */
  readonly script: string;
  /** The markup of `<body>` before the script. */
  readonly body: string;
  /** Attributes of `<body>` (`data-vscode-context='…'` for its menus). */
  readonly bodyAttributes?: string;
}

/** The files' texts by path, read once per session (they change only with the extension). */
const texts = new Map<string, string>();

function textOf(root: vscode.Uri, file: string): string {
  const path = vscode.Uri.joinPath(root, file).fsPath;
  let text = texts.get(path);
  if (text === undefined) texts.set(path, (text = readFileSync(path, 'utf8')));
  return text;
}

/**
 * A panel's page under the one Content Security Policy every panel keeps: nothing from the
 * network, and only the styles and the one script this page carries, by its fresh nonce; images
 * and fonts only from the extension's `root`.
 *
 * The stylesheets and the script are in the page itself: fetched one by one through the webview's
 * resource loader they took some 100 ms more of each opening on code-server (PERF B15, open).
 * A `</script` or `</style` inside them is written `<\/…` so that it cannot end its element.
 */
export function webviewPage(webview: vscode.Webview, root: vscode.Uri, parts: WebviewPageParts): string {
  const nonce = crypto.randomBytes(16).toString('base64');
  const csp = [`default-src 'none'`, `style-src 'nonce-${nonce}'`, `img-src ${webview.cspSource} data:`, `font-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  const inline = (file: string, element: 'style' | 'script') => textOf(root, file).replace(new RegExp(`</(${element})`, 'gi'), '<\\/$1');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${parts.styles.map((file) => `<style nonce="${nonce}">\n${inline(file, 'style')}\n</style>`).join('\n')}
<title>${parts.title}</title>
</head>
<body${parts.bodyAttributes ? ` ${parts.bodyAttributes}` : ''}>
${parts.body}
<script nonce="${nonce}">
${inline(parts.script, 'script')}
</script>
</body>
</html>`;
}
