import * as vscode from 'vscode';
import type { Clock, TimerHandle } from '../../base';
import type { BufferProblem, TextRange } from '../../edit';
import type { EditDocuments } from './edit-documents';

/** How long typing must pause before the buffer is checked again. */
const CHECK_DELAY_MS = 300;

function rangeOf(r: TextRange): vscode.Range {
  return new vscode.Range(r.line, r.character, r.endLine, Math.max(r.endCharacter, r.endLine === r.line ? r.character + 1 : r.endCharacter));
}

/**
 * The Problems panel (and squiggles) of editable object documents: what keeps the buffer from
 * being sent (checked as the user types), and what the server said about the last save or apply
 * (a 422's fields, apply conflicts), until the next one.
 */
export class EditDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('Kube Watch edit');
  private readonly buffer = new Map<string, vscode.Diagnostic[]>();
  private readonly server = new Map<string, vscode.Diagnostic[]>();
  private readonly timers = new Map<string, TimerHandle>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly edits: EditDocuments,
    private readonly clock: Clock,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidOpenTextDocument((doc) => this.schedule(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.forget(doc.uri)),
    ];
  }

  /** Checks `doc` now (when it is an edit document). */
  check(doc: vscode.TextDocument): void {
    const edit = this.edits.get(doc.uri);
    if (!edit || doc.uri.toString() !== edit.uri.toString()) return;
    const problems = edit.session.problems(doc.getText());
    this.buffer.set(doc.uri.toString(), problems.map((p) => this.diagnostic(p, vscode.DiagnosticSeverity.Error, 'not sent')));
    this.publish(doc.uri);
  }

  /** What the server said about the last write, until the next one (`[]` clears). */
  setServerProblems(uri: vscode.Uri, problems: readonly BufferProblem[], severity: vscode.DiagnosticSeverity, code: string): void {
    this.server.set(uri.toString(), problems.map((p) => this.diagnostic(p, severity, code)));
    this.publish(uri);
  }

  /** The diagnostics of `uri` now (for tests). */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  private diagnostic(p: BufferProblem, severity: vscode.DiagnosticSeverity, code: string): vscode.Diagnostic {
    const d = new vscode.Diagnostic(rangeOf(p.range), p.message, severity);
    d.source = 'Kube Watch';
    d.code = code;
    return d;
  }

  private schedule(doc: vscode.TextDocument): void {
    if (!this.edits.get(doc.uri)) return;
    const key = doc.uri.toString();
    this.timers.get(key)?.cancel();
    this.timers.set(
      key,
      this.clock.setTimer(() => {
        this.timers.delete(key);
        this.check(doc);
      }, CHECK_DELAY_MS),
    );
  }

  private publish(uri: vscode.Uri): void {
    const key = uri.toString();
    this.collection.set(uri, [...(this.buffer.get(key) ?? []), ...(this.server.get(key) ?? [])]);
  }

  /** Drops every diagnostic of `uri` (its document closed, or its last tab). */
  forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.timers.get(key)?.cancel();
    this.timers.delete(key);
    this.buffer.delete(key);
    this.server.delete(key);
    this.collection.delete(uri);
  }

  dispose(): void {
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}
