import * as vscode from 'vscode';
import { systemClock, type Clock, type Disposable } from '../base';
import type { EntriesChange, WatchEntry } from '../manager';
import { COMMAND_LINKS, StatusBarFeed, type StatusBarFeedOptions, type StatusBarModel } from '../ui/status';

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

/**
 * The status bar watch indicator: one item on the left, `$(eye) 12/12` and friends (see
 * `statusBarModel`). When it draws is StatusBarFeed's business: with the tree's refreshes (pass
 * `viewChanges`, the tree model's onDidChange) so both agree, every second only while time
 * matters, tooltip-only changes (resourceVersions) at most once a second.
 * Clicking runs `kubeWatch.showWatches`. `clock` must be the manager's, since entry states are
 * stamped with its time.
 */
export function registerStatusBar(manager: StatusBarSource, clock: Clock = systemClock, options: StatusBarFeedOptions = {}): StatusBarRegistration {
  const item = vscode.window.createStatusBarItem('kubeWatch.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Kube Watch';
  item.command = 'kubeWatch.showWatches';

  const apply = (m: StatusBarModel) => {
    item.text = m.text;
    const tooltip = new vscode.MarkdownString(m.tooltip, true);
    tooltip.isTrusted = { enabledCommands: [...COMMAND_LINKS] };
    item.tooltip = tooltip;
    item.backgroundColor = m.background === 'none' ? undefined : new vscode.ThemeColor(m.background === 'error' ? 'statusBarItem.errorBackground' : 'statusBarItem.warningBackground');
    item.accessibilityInformation = { label: m.ariaLabel, role: 'button' };
  };

  const feed = new StatusBarFeed(manager, clock, apply, options);
  item.show();

  return {
    setPaused(paused: boolean) {
      feed.setPaused(paused);
    },
    get model() {
      return feed.model;
    },
    dispose() {
      feed.dispose();
      item.dispose();
    },
  };
}
