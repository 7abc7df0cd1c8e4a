import type { Locator, Page } from 'playwright-core';
import { poll } from './poll';

/**
 * Hovers what `target()` finds and returns the text of the hover VS Code shows, once it matches
 * `expect`. The target is found again on each try (rows re-render: a ticking description, a
 * refresh), and the mouse leaves first so that a hover shown before cannot answer.
 */
export async function hoverText(page: Page, target: () => Promise<Locator>, expect: RegExp, what: string): Promise<string> {
  const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: expect });
  return poll(
    what,
    async () => {
      await page.mouse.move(900, 600);
      await (await target()).hover();
      await hover.first().waitFor({ state: 'visible', timeout: 10_000 });
      return (await hover.first().innerText()).replace(/\u00a0/g, ' ');
    },
    (text) => expect.test(text),
    { timeoutMs: 60_000 },
  );
}
