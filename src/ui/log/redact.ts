/**
 * A last line of defence against credentials in anything Kube Watch writes or shows.
 *
 * The engine promises that no lifecycle event, state reason or entry error carries a credential
 * (reasons come from server Status messages and network error codes). Every log line still goes
 * through `redactCredentials`, so a server or an exec plugin that echoes a token in an error
 * message cannot leak it: bearer and basic authorization values, `token=`/`password:`-style
 * assignments, JWTs (service account and OIDC tokens) and PEM blocks (client keys) are replaced.
 */

const REDACTED = '[redacted]';

const rules: readonly [RegExp, string][] = [
  // PEM blocks: client keys and certificates pasted into a message.
  [/-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)/g, `${REDACTED} PEM block`],
  // Authorization header values.
  [/\b(bearer|basic)(\s+)[A-Za-z0-9._~+/=-]{4,}/gi, `$1$2${REDACTED}`],
  // JWTs: header.payload.signature, base64url, the header always starts with eyJ ('{"').
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // key=value / key: value pairs whose key names a secret (kubeconfig fields, query strings, JSON).
  [
    /\b((?:access[_-]?|id[_-]?|refresh[_-]?|bearer[_-]?|auth[_-]?)?token|password|passwd|secret|client[_-]key[_-]data|client[_-]certificate[_-]data|authorization|api[_-]?key)("?\s*[:=]\s*"?)(?!\[redacted\])[^\s"',;&}]+/gi,
    `$1$2${REDACTED}`,
  ],
];

/** `text` with every credential-looking substring replaced by `[redacted]`. */
export function redactCredentials(text: string): string {
  let out = text;
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
  return out;
}
