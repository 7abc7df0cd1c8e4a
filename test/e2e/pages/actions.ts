/**
 * What the action tests need beyond the other page objects: a tree row's context menu (its
 * items, choosing one), the buttons of a modal dialog, the input box, the notifications and the
 * status bar's messages.
 */
import type { Locator, Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';
import type { SidebarTree } from './sidebar-tree';

export class ActionUi {
  constructor(
    private readonly page: Page,
    private readonly tree: SidebarTree,
  ) {}

  private get menu(): Locator {
    return this.page.locator('.context-view .monaco-menu');
  }

  /** Right-clicks the row at `path` and returns the labels of its context menu's items. */
  async openMenu(path: readonly string[]): Promise<string[]> {
    const row = await this.tree.waitForRow(path);
    await this.tree.list.locator(`.monaco-list-row[data-index="${row.index}"]`).click({ button: 'right' });
    await this.menu.first().waitFor({ state: 'visible', timeout: 30_000 });
    return this.menuItems();
  }

  async menuItems(): Promise<string[]> {
    return this.menu.locator('.action-menu-item .action-label').evaluateAll((els) => els.map((e) => ((e as { innerText?: string }).innerText ?? '').replace(/\u00a0/g, ' ').trim()).filter((t) => t !== ''));
  }

  /** Chooses a context menu item (the menu acts on mouse up over a hovered item; Enter when the click came too early). */
  async choose(label: string): Promise<void> {
    const item = this.page.locator('.context-view .monaco-menu .action-menu-item', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).first();
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    await item.hover();
    await item.click();
    const closed = await item.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false);
    if (!closed) await this.page.keyboard.press('Enter');
  }

  async closeMenu(): Promise<void> {
    if (await this.menu.first().isVisible().catch(() => false)) await this.page.keyboard.press('Escape');
    await this.menu.first().waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
  }

  /** Clicks a button of the open modal dialog by its label. */
  async clickDialogButton(label: string): Promise<void> {
    const button = this.page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: new RegExp(`^${label}$`) }).first();
    await button.waitFor({ state: 'visible', timeout: 20_000 });
    await button.click();
    await this.page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: 20_000 });
  }

  /** Types into the open input box (showInputBox) and accepts it. */
  async answerInput(text: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 20_000 });
    await input.fill(text);
    await this.page.keyboard.press('Enter');
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 20_000 });
  }

  /** The messages of the notifications on screen. */
  async notifications(): Promise<string[]> {
    return this.page.locator('.notifications-toasts .notification-list-item-message').evaluateAll((els) => els.map((e) => ((e as { innerText?: string }).innerText ?? '').replace(/\u00a0/g, ' ').trim()));
  }

  async waitForNotification(what: string, accept: (message: string) => boolean, opts: PollOptions = { timeoutMs: 30_000 }): Promise<string> {
    const all = await poll(what, () => this.notifications(), (messages) => messages.some(accept), opts);
    return all.find(accept)!;
  }

  /** Closes every notification toast. */
  async clearNotifications(): Promise<void> {
    for (const close of await this.page.locator('.notifications-toasts .codicon-notifications-clear, .notifications-toasts .codicon-close').all()) await close.click().catch(() => undefined);
  }

  /** The texts of the status bar's items (a setStatusBarMessage is one of them). */
  async statusTexts(): Promise<string[]> {
    return this.page.locator('.monaco-workbench .part.statusbar .statusbar-item').evaluateAll((els) => els.map((e) => ((e as { innerText?: string }).innerText ?? '').replace(/\u00a0/g, ' ').trim()).filter((t) => t !== ''));
  }
}
