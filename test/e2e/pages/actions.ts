/**
 * What the action tests need beyond the other page objects: a tree row's context menu (its
 * items, choosing one), the buttons of a modal dialog, the input box, the notifications and the
 * status bar's messages.
 */
import type { Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';
import { ContextMenu } from './context-menu';
import type { SidebarTree } from './sidebar-tree';

export class ActionUi {
  private readonly menu: ContextMenu;

  constructor(
    private readonly page: Page,
    tree: SidebarTree,
  ) {
    this.menu = new ContextMenu(page, tree);
  }

  /** Right-clicks the row at `path` (checked to be the row the menu opened on) and returns its menu's items. */
  async openMenu(path: readonly string[]): Promise<string[]> {
    return this.menu.open(path);
  }

  /** Opens the row's menu until it offers every one of `labels` (write actions wait for access reviews); the menu stays open. */
  async openMenuOffering(path: readonly string[], labels: readonly string[], opts?: PollOptions): Promise<string[]> {
    return this.menu.openOffering(path, labels, opts);
  }

  async menuItems(): Promise<string[]> {
    return this.menu.items();
  }

  /** Chooses an item of the open context menu (focused, then Enter: see ContextMenu.choose). */
  async choose(label: string): Promise<void> {
    await this.menu.choose(label);
  }

  async closeMenu(): Promise<void> {
    await this.menu.close();
  }

  /** Clicks a button of the open modal dialog by its label. */
  async clickDialogButton(label: string): Promise<void> {
    const button = this.page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: new RegExp(`^${label}$`) }).first();
    await button.waitFor({ state: 'visible', timeout: 20_000 });
    await button.click();
    await this.page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: 20_000 });
  }

  /**
   * Types into the open input box (showInputBox; the one titled `title` when given) and accepts
   * it. Enter is a keybinding of the quick input that holds only while the focus is in it, and the
   * box may still be taking its initial value when it shows: so the text is typed until the box
   * holds it with the focus in it (and no picker's list is on screen), then Enter, once (a second
   * one could reach what follows). Done when the box is gone or another one took its place; a box
   * that stays fails with what it showed (its value and validation message).
   */
  async answerInput(text: string, title?: string): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    const input = widget.locator('.quick-input-box input');
    const titleOf = async () => ((await widget.locator('.quick-input-title').textContent().catch(() => '')) ?? '').replace(/\u00a0/g, ' ').trim();
    await input.waitFor({ state: 'visible', timeout: 20_000 });
    let shown = '';
    await poll(
      `the input box${title ? ` "${title}"` : ''} to hold "${text}" with the focus in it`,
      async () => {
        if (!(await widget.isVisible())) return false;
        shown = await titleOf();
        if (title !== undefined && shown !== title) return false;
        // An input box has no list: a picker before it (Copy kubectl Command…'s) may still be closing.
        if (await widget.locator('.quick-input-list .monaco-list-row').first().isVisible()) return false;
        if ((await input.inputValue()) !== text) await input.fill(text);
        return input.evaluate((el, t) => (el as unknown as { value: string }).value === t && (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === el, text);
      },
      (ready) => ready,
      { timeoutMs: 20_000 },
    );
    await this.page.keyboard.press('Enter');
    await poll(
      `the input box "${shown}" holding "${text}" to close`,
      async () => {
        if (!(await widget.isVisible())) return { open: false, title: '', value: '', message: '' };
        const message = ((await widget.locator('.quick-input-message').textContent().catch(() => '')) ?? '').trim();
        return { open: true, title: await titleOf(), value: await input.inputValue().catch(() => ''), message };
      },
      (s) => !s.open || s.title !== shown,
      { timeoutMs: 30_000 },
    );
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
