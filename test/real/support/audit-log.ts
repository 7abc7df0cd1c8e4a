/**
 * The apiserver's audit log (JSON lines, one per request stage), for tests that count what the
 * server saw: requests per user, verb and resource, and their answers. Metadata only: no bodies.
 */
import * as fs from 'node:fs';

/** Every request at Metadata level; watches are logged when their response starts and when it ends. */
export const AUDIT_POLICY = ['apiVersion: audit.k8s.io/v1', 'kind: Policy', 'omitStages: ["RequestReceived"]', 'rules:', '- level: Metadata', ''].join('\n');

/** The fields of an audit event the tests use. */
export interface AuditEvent {
  auditID: string;
  /** ResponseStarted (a watch's headers), ResponseComplete, Panic. */
  stage: string;
  verb: string;
  requestURI: string;
  user: { username: string; groups?: string[] };
  objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string; apiVersion?: string; subresource?: string };
  responseStatus?: { code?: number; reason?: string; message?: string };
  requestReceivedTimestamp: string;
  stageTimestamp: string;
}

export class AuditLog {
  constructor(private readonly file: string) {}

  /** Every event written so far (a line being written is skipped). */
  read(): AuditEvent[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    const events: AuditEvent[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        events.push(JSON.parse(line) as AuditEvent);
      } catch {
        // the last line, half written
      }
    }
    return events;
  }
}
