/** The page objects of the workbench, together, plus what the Kube Watch scenarios do with them. */
import type { Page } from 'playwright-core';
import { ActivityBar } from './activity-bar';
import { ContextMenu } from './context-menu';
import { Dialog } from './dialog';
import { HealthPanel } from './health-panel';
import { OutputPanel } from './output-panel';
import { QuickPick } from './quick-pick';
import { SidebarTree } from './sidebar-tree';
import { StatusBar } from './status-bar';
import { TextEditor } from './text-editor';

export { ActivityBar, ContextMenu, Dialog, HealthPanel, OutputPanel, QuickPick, SidebarTree, StatusBar, TextEditor };
export type { BandSpan, HealthView, WatchBand } from './health-panel';
export type { TreeRow } from './sidebar-tree';
export type { StatusItem } from './status-bar';
export type { LogLineView } from './output-panel';
export type { DialogView } from './dialog';

/** Names the extension contributes (package.json). */
export const KUBE_WATCH = {
  container: 'Kube Watch',
  view: 'Resources',
  channel: 'Kube Watch',
  commands: {
    restartAll: 'Kube Watch: Restart All Watches',
    inspect: 'Kube Watch: Inspect Resource Version',
    showLog: 'Kube Watch: Show Watch Log',
  },
} as const;

/** Wide enough for a pod name and its status. */
const SIDE_BAR_WIDTH = 500;

export class WorkbenchUi {
  readonly activityBar: ActivityBar;
  readonly tree: SidebarTree;
  /** The context menu of the tree's rows. */
  readonly menu: ContextMenu;
  readonly statusBar: StatusBar;
  readonly quickPick: QuickPick;
  readonly output: OutputPanel;
  readonly dialog: Dialog;
  readonly health: HealthPanel;
  readonly editor: TextEditor;

  constructor(readonly page: Page) {
    this.activityBar = new ActivityBar(page);
    this.tree = new SidebarTree(page, KUBE_WATCH.view);
    this.menu = new ContextMenu(page, this.tree);
    this.statusBar = new StatusBar(page);
    this.quickPick = new QuickPick(page);
    this.output = new OutputPanel(page, this.quickPick);
    this.dialog = new Dialog(page);
    this.health = new HealthPanel(page);
    this.editor = new TextEditor(page);
  }

  /** Closes what a scenario may have left open: a dialog, a picker, a maximized panel. */
  async dismissOverlays(): Promise<void> {
    await this.dialog.close();
    await this.quickPick.close();
    if (await this.output.isOpen()) await this.output.filter('');
    if (await this.output.part.isVisible()) await this.output.restore();
  }

  /** Opens the Kube Watch container and its tree (which activates the extension), with a side bar wide enough to read. */
  async openKubeWatch(): Promise<void> {
    await this.activityBar.open(KUBE_WATCH.container);
    await this.tree.waitUntilVisible();
    await this.tree.resizeSideBar(SIDE_BAR_WIDTH);
  }
}
