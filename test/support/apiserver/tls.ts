/**
 * The committed test TLS material (test/support/certs, see its README.txt): a CA and a server
 * certificate for 127.0.0.1 and localhost, valid for 100 years. Read once per process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TlsMaterial {
  caPem: string;
  certPem: string;
  keyPem: string;
}

const CERT_DIR = join(import.meta.dirname, '..', 'certs');

let cached: TlsMaterial | undefined;

export function loadTlsMaterial(): TlsMaterial {
  cached ??= {
    caPem: readFileSync(join(CERT_DIR, 'ca.pem'), 'utf8'),
    certPem: readFileSync(join(CERT_DIR, 'server.pem'), 'utf8'),
    keyPem: readFileSync(join(CERT_DIR, 'server-key.pem'), 'utf8'),
  };
  return cached;
}
