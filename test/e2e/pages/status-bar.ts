/**
 * The status bar, and in it the Kube Watch item (`$(eye) 5/5`, `$(sync~spin) 3/5`, ...).
 * Status bar entries of an extension get the DOM id `<publisher>.<name>.<item id>`.
 */
import type { Locator, Page } from 'playwright-core';
import { poll, type PollOptions } from '../support/poll';

export interface StatusItem {
  /** The visible text without the icon, e.g. `5/5`. */
  text: string;
  /** The codicon (`eye`, `sync`, `error`, ...). */
  icon?: string;
  spinning: boolean;
  /** The screen reader text: `Kube Watch: 5 of 5 watches live`. */
  ariaLabel: string;
  /** From the item's theme background: `warning`, `error` or `none`. */
  background: 'warning' | 'error' | 'none';
  /** `watching/total` when the text is a count. */
  counts?: { watching: number; total: number };
}

export class StatusBar {
  constructor(private readonly page: Page) {}

  get part(): Locator {
    return this.page.locator('.monaco-workbench .part.statusbar');
  }

  /** The item with the given id (`kubeWatch.status`), whatever extension registered it. */
  item(id: string): Locator {
    return this.part.locator(`.statusbar-item[id$=".${id}"]`);
  }

  get kubeWatch(): Locator {
    return this.item('kubeWatch.status');
  }

  async readKubeWatch(): Promise<StatusItem> {
    const raw = await this.kubeWatch.evaluate((el) => {
      const label = el.querySelector('.statusbar-item-label');
      const icon = label?.querySelector('.codicon');
      const codicon = icon ? [...icon.classList].find((c) => c.startsWith('codicon-') && !c.startsWith('codicon-modifier')) : undefined;
      const background = el.classList.contains('error-kind') ? 'error' : el.classList.contains('warning-kind') ? 'warning' : 'none';
      return {
        text: (label?.textContent ?? '').replace(/\u00a0/g, ' ').trim(),
        icon: codicon?.slice('codicon-'.length),
        spinning: icon?.classList.contains('codicon-modifier-spin') ?? false,
        ariaLabel: el.getAttribute('aria-label') ?? '',
        background: background as StatusItem['background'],
      };
    });
    const m = /^(\d+)\/(\d+)$/.exec(raw.text);
    return m ? { ...raw, counts: { watching: Number(m[1]), total: Number(m[2]) } } : raw;
  }

  /** Waits until the Kube Watch item is shown and `accept` holds. */
  async waitForKubeWatch(what: string, accept: (item: StatusItem) => boolean, opts?: PollOptions): Promise<StatusItem> {
    return poll(`the Kube Watch status bar item to show ${what}`, () => this.readKubeWatch(), accept, opts);
  }
}
