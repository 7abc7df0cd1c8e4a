import * as crypto from 'node:crypto';
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

/**
 * A panel's page under the one Content Security Policy every panel keeps: nothing from the
 * network, stylesheets, images and fonts only from the extension's `root`, and only the one
 * script carrying this page's fresh nonce.
 */
export function webviewPage(webview: vscode.Webview, root: vscode.Uri, parts: WebviewPageParts): string {
  const nonce = crypto.randomBytes(16).toString('base64');
  const uri = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(root, file)).toString();
  const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `img-src ${webview.cspSource} data:`, `font-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${parts.styles.map((file) => `<link rel="stylesheet" href="${uri(file)}">`).join('\n')}
<title>${parts.title}</title>
</head>
<body${parts.bodyAttributes ? ` ${parts.bodyAttributes}` : ''}>
${parts.body}
<script nonce="${nonce}" src="${uri(parts.script)}"></script>
</body>
</html>`;
}
