import * as vscode from 'vscode';
import { systemClock, type Clock, type Disposable as EngineDisposable, type TimerHandle } from '../base';
import type { EntriesChange, WatchEntry } from '../manager';
import { staleBanner, type Staleness } from '../ui/staleness';
import { EDIT_SCHEME, OBJECT_SCHEME, parseObjectUri } from './object-documents';

/** What the banner reads: the entries (to know which watches are down) and the shared staleness. */
export interface StaleBannerSource {
  entry(id: string): WatchEntry | undefined;
  onDidChangeEntries(listener: (change: EntriesChange) => void): EngineDisposable;
  /** Since when and why an entry's objects are stale; the tree model's `stalenessOf`, so both agree. */
  stalenessOf(entryId: string): Staleness | undefined;
}

const TICK_MS = 1000;

/**
 * The "⚠ Stale for 40 s …" banner over an object's YAML document (`kubewatch:`) while its watch
 * is down, and gone the moment the watch is live again.
 *
 * Why a CodeLens (and, in a diff, a decoration) rather than a header line: the document must
 * stay exactly the object's YAML, so that copying it, saving it or comparing it with a stored
 * version never picks up our notice, and a diff against a version does not show the banner as a
 * change. A CodeLens sits above line 1 without being text of the document. Diff editors hide
 * CodeLenses by default (`diffEditor.codeLens`), so in a diff the same text is drawn as an
 * after-text decoration on the first line of the live side, again outside the text.
 *
 * Invariant: a timer runs only while a visible object document's watch is down; none after dispose.
 */
export function registerStaleDocumentBanner(source: StaleBannerSource, clock: Clock = systemClock): vscode.Disposable {
  const lensesChanged = new vscode.EventEmitter<void>();
  const decoration = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    after: { color: new vscode.ThemeColor('editorWarning.foreground'), margin: '0 0 0 3em', fontStyle: 'italic' },
  });
  let timer: TimerHandle | undefined;
  let disposed = false;

  const bannerOf = (uri: vscode.Uri): string | undefined => {
    const ref = parseObjectUri(uri);
    return ref && staleBanner(source.stalenessOf(ref.entryId), clock.now());
  };

  const lenses: vscode.CodeLensProvider = {
    onDidChangeCodeLenses: lensesChanged.event,
    provideCodeLenses(document) {
      const text = bannerOf(document.uri);
      // A lens without a command id is drawn as plain text: nothing to click.
      return text ? [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: text, command: '' })] : [];
    },
  };

  /** Object documents on screen, and whether each is the live side of a diff. */
  const visible = () =>
    vscode.window.visibleTextEditors
      .filter((e) => e.document.uri.scheme === OBJECT_SCHEME || e.document.uri.scheme === EDIT_SCHEME)
      .map((editor) => ({ editor, inDiff: isInDiff(editor.document.uri) }));

  const refresh = () => {
    timer?.cancel();
    timer = undefined;
    if (disposed) return;
    lensesChanged.fire();
    let down = false;
    for (const { editor, inDiff } of visible()) {
      const ref = parseObjectUri(editor.document.uri);
      const entry = ref && source.entry(ref.entryId);
      if (entry && entry.state.phase !== 'watching') down = true;
      const text = inDiff ? bannerOf(editor.document.uri) : undefined;
      editor.setDecorations(decoration, text ? [{ range: new vscode.Range(0, 0, 0, 0), renderOptions: { after: { contentText: text } } }] : []);
    }
    if (down) timer = clock.setTimer(refresh, TICK_MS);
  };

  const subscriptions = [
    source.onDidChangeEntries(refresh),
    vscode.window.onDidChangeVisibleTextEditors(refresh),
    vscode.languages.registerCodeLensProvider([{ scheme: OBJECT_SCHEME }, { scheme: EDIT_SCHEME }], lenses),
  ];
  refresh();
  return {
    dispose() {
      disposed = true;
      timer?.cancel();
      timer = undefined;
      for (const s of subscriptions) s.dispose();
      lensesChanged.dispose();
      decoration.dispose();
    },
  };
}

function isInDiff(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff && (t.input.modified.toString() === key || t.input.original.toString() === key)));
}
