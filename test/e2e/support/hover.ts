import type { Locator, Page } from 'playwright-core';
import { poll } from './poll';

/**
 * Hovers what `target()` finds and returns the text of the hover VS Code shows, once it matches
 * `expect`. The target is found again on each try (rows re-render: a ticking description, a
 * refresh), and the mouse leaves first so that a hover shown before cannot answer.
 */
export async function hoverText(page: Page, target: () => Promise<Locator>, expect: RegExp, what: string): Promise<string> {
  const hovers = page.locator('.monaco-hover, .workbench-hover');
  return poll(
    what,
    async () => {
      await page.mouse.move(900, 600);
      const element = await target();
      await element.hover();
      // As a hand on the mouse does: small moves over the element until the hover shows (a row
      // that re-renders, a ticking stale row, sets its hover up again and waits for the next move).
      const box = await element.boundingBox();
      for (let i = 0; i < 40 && box && !(await hovers.first().isVisible()); i++) {
        await page.mouse.move(box.x + Math.min(box.width / 2, 40) + (i % 3), box.y + box.height / 2);
        await new Promise((r) => setTimeout(r, 250));
      }
      // Any hover, so that a timeout says what was shown instead.
      await hovers.first().waitFor({ state: 'visible', timeout: 10_000 });
      const texts = await hovers.allInnerTexts();
      const text = texts.find((t) => expect.test(t.replace(/\u00a0/g, ' '))) ?? texts.join('\n---\n');
      return text.replace(/\u00a0/g, ' ');
    },
    (text) => expect.test(text),
    { timeoutMs: 60_000 },
  );
}
