/**
 * B9: 2,000 events per second into a WatchManager watching Pods in all namespaces, with and
 * without the Watch Health recorder and an open panel's feed (snapshots built and serialised as
 * postMessage would, at most two a second). The two modes alternate in windows of the same
 * client process under one continuous churn, so that both see the same load; the figure is the
 * median difference of the process's CPU between a window with the panel and the window before
 * it without, as a percentage of one core. The webview's drawing happens in the browser and is
 * not part of it.
 */
import type { HealthTask, HealthWindow } from '../support/client-main';
import { median, type CaseContext, type CaseResult } from '../support/harness';
import { podsResource } from '../support/resources';

export async function b9({ h, quick }: CaseContext): Promise<CaseResult> {
  const perSecond = 2000;
  const windowMs = quick ? 2_000 : 5_000;
  const pairs = quick ? 3 : 8;
  const pods = 2000;
  await h.setup({ collections: [{ spec: podsResource.spec, data: { gen: 'pods', count: pods, namespaces: 20 } }], watchMode: { mode: 'churn' } });
  const without: HealthWindow[] = [];
  const withPanel: HealthWindow[] = [];
  h.progress.step(`B9: ${pods} Pods, syncing`);
  const c = h.client();
  try {
    await c.call('healthStart', { conn: h.conn('b9-ours'), resources: ['pods'] } satisfies HealthTask);
    // One churn for every window, plus a second to settle; the windows alternate within it.
    await h.serverCall('churn', { perSecond, durationMs: (pairs * 2 + 2) * windowMs + 1000 });
    await c.call('healthMeasure', { durationMs: windowMs }); // warm-up
    for (let i = 0; i < pairs; i++) {
      h.progress.step(`B9 pair ${i + 1}/${pairs}: ${perSecond} events/s, ${windowMs / 1000} s without the panel, then ${windowMs / 1000} s with it`);
      await c.call('healthPanel', { on: false });
      without.push(await c.call<HealthWindow>('healthMeasure', { durationMs: windowMs }));
      await c.call('healthPanel', { on: true });
      withPanel.push(await c.call<HealthWindow>('healthMeasure', { durationMs: windowMs }));
    }
    await c.call('healthStop');
  } finally {
    await c.stop();
  }
  await h.serverCall('closeWatches');
  h.progress.done();
  const share = (w: HealthWindow) => (w.cpuMs / 1000 / w.seconds) * 100;
  const extra = median(withPanel.map((w, i) => share(w) - share(without[i])));
  const base = median(without.map(share));
  const snapshotShare = median(withPanel.map((w) => (w.snapshotMs / 1000 / w.seconds) * 100));
  const eventsPerSecond = median(withPanel.map((w) => w.events / w.seconds));
  const snapshotsPerSecond = median(withPanel.map((w) => w.snapshots / w.seconds));
  const bytes = median(withPanel.map((w) => w.bytesPerSnapshot));
  return {
    rows: [
      { case: 'B9', metric: 'extra CPU with the panel', unit: '% of a core', better: 'lower', ours: round(extra), reference: null, limit: null, runs: pairs },
      { case: 'B9', metric: 'CPU building panel messages', unit: '% of a core', better: 'lower', ours: round(snapshotShare), reference: null, limit: null, runs: pairs },
    ],
    verdicts: [{ case: 'B9', metric: 'extra CPU with the panel', target: '< 5% of one core', met: extra < 5 }],
    notes: [
      `B9: ${Math.round(eventsPerSecond)} events/s reached the handlers; the process used ${base.toFixed(1)}% of a core without the panel; with it ${snapshotsPerSecond.toFixed(1)} snapshots/s of ${Math.round(bytes / 1024)} KiB each (recording + snapshots: ${extra.toFixed(2)}% more; building and serialising the snapshots alone: ${snapshotShare.toFixed(2)}%)`,
    ],
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
