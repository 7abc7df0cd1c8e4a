import * as vscode from 'vscode';
import { systemClock, type Clock, type Disposable, type TimerHandle } from '../informer';
import type { EntriesChange, WatchEntry } from '../manager';
import { COMMAND_LINKS, StatusBarState, type StatusBarModel } from '../ui/status';

/** What the indicator reads from the watch manager (a WatchManager is one). */
export interface StatusBarSource {
  entries(): WatchEntry[];
  onDidChangeEntries(listener: (change: EntriesChange) => void): Disposable;
}

/** The registered indicator. Disposing it removes the item and stops its timer. */
export interface StatusBarRegistration extends vscode.Disposable {
  /** Shows "Paused" while true; call it when the user pauses or resumes watching. */
  setPaused(paused: boolean): void;
  /** The model on display (for tests inside VS Code). */
  readonly model: StatusBarModel;
}

/** Refresh period while something counts down or may cross a 30 s threshold. */
const TICK_MS = 1000;

/**
 * The status bar watch indicator: one item on the left, `$(eye) 12/12` and friends (see
 * `statusBarModel`). Refreshed on every entries change, and every second on `clock` only while
 * the model says time matters (`ticking`); no timer runs while every watch is healthy.
 * Clicking runs `kubeWatch.showWatches`. `clock` must be the manager's, since entry states are
 * stamped with its time.
 */
export function registerStatusBar(manager: StatusBarSource, clock: Clock = systemClock): StatusBarRegistration {
  const item = vscode.window.createStatusBarItem('kubeWatch.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Kube Watch';
  item.command = 'kubeWatch.showWatches';
  const state = new StatusBarState();
  let timer: TimerHandle | undefined;
  let disposed = false;
  let shown = '';
  let model = state.update(manager.entries(), clock.now());

  const apply = (m: StatusBarModel) => {
    const key = JSON.stringify([m.text, m.background, m.tooltip, m.ariaLabel]);
    if (key === shown) return;
    shown = key;
    item.text = m.text;
    const tooltip = new vscode.MarkdownString(m.tooltip, true);
    tooltip.isTrusted = { enabledCommands: [...COMMAND_LINKS] };
    item.tooltip = tooltip;
    item.backgroundColor = m.background === 'none' ? undefined : new vscode.ThemeColor(m.background === 'error' ? 'statusBarItem.errorBackground' : 'statusBarItem.warningBackground');
    item.accessibilityInformation = { label: m.ariaLabel, role: 'button' };
  };

  const refresh = () => {
    if (disposed) return;
    timer?.cancel();
    timer = undefined;
    model = state.update(manager.entries(), clock.now());
    apply(model);
    if (model.ticking) timer = clock.setTimer(refresh, TICK_MS);
  };

  const subscription = manager.onDidChangeEntries(refresh);
  apply(model);
  if (model.ticking) timer = clock.setTimer(refresh, TICK_MS);
  item.show();

  return {
    setPaused(paused: boolean) {
      state.setPaused(paused);
      refresh();
    },
    get model() {
      return model;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      timer?.cancel();
      timer = undefined;
      subscription.dispose();
      item.dispose();
    },
  };
}
