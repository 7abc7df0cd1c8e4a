import uPlot from 'uplot';
import { clockTime, DEFAULT_TIME_FORMAT, type TimeFormat } from '../../base/time-format';
import type { RateView } from '../../ui/health/health-messages';

/** The theme's colour for a CSS variable (canvas needs a concrete colour), with a fallback. */
function themeColor(variable: string, fallback: string): string {
  const value = getComputedStyle(document.body).getPropertyValue(variable).trim();
  return value || fallback;
}

/**
 * A small uPlot chart of a watch's adds, updates and deletes per second, under its band, on the
 * same time range. The data arrays are replaced on every update; uPlot redraws on its own frame.
 */
export class RateChart {
  private readonly plot: uPlot;
  /** The one time format, for the time axis's labels (hours, minutes and seconds, never `:00 :30` alone). */
  private format: TimeFormat = DEFAULT_TIME_FORMAT;

  constructor(container: HTMLElement, width: number) {
    const axis = themeColor('--vscode-descriptionForeground', '#888');
    const grid = themeColor('--vscode-editorWidget-border', 'rgba(128,128,128,0.25)');
    const series = (label: string, variable: string, fallback: string): uPlot.Series => ({
      label,
      stroke: themeColor(variable, fallback),
      width: 1,
      points: { show: false },
      value: (_u, v) => (v === null || v === undefined ? '–' : `${Number(v.toFixed(1))}/s`),
    });
    this.plot = new uPlot(
      {
        width,
        height: 70,
        legend: { show: true, live: true },
        cursor: { y: false, drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [
          { stroke: axis, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, size: 24, font: '10px var(--vscode-font-family, sans-serif)', values: (_u, splits) => splits.map((s) => clockTime(s * 1000, false, this.format)) },
          { stroke: axis, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, size: 40, font: '10px var(--vscode-font-family, sans-serif)' },
        ],
        series: [{ value: (_u, v) => (v === null || v === undefined ? '–' : clockTime(v * 1000, true, this.format)) }, series('adds', '--vscode-charts-green', '#89d185'), series('updates', '--vscode-charts-blue', '#75beff'), series('deletes', '--vscode-charts-red', '#f14c4c')],
      },
      [[], [], [], []],
      container,
    );
  }

  update(rate: RateView, from: number, to: number, format: TimeFormat): void {
    this.format = format;
    this.plot.batch(() => {
      this.plot.setData([rate.t, rate.adds, rate.updates, rate.deletes], false);
      this.plot.setScale('x', { min: from / 1000, max: to / 1000 });
    });
  }

  /** Where the plotting area is inside the chart, in CSS pixels. */
  plotArea(): { left: number; width: number } {
    const over = this.plot.over;
    return { left: over.offsetLeft, width: over.clientWidth };
  }

  resize(width: number): void {
    this.plot.setSize({ width, height: 70 });
  }

  destroy(): void {
    this.plot.destroy();
  }
}
