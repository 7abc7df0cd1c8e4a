/**
 * How alarming something is, and the one theme colour each tone is drawn in. Shared by the
 * watch-state text and the object status so that a red icon means the same thing everywhere.
 * Colours are VS Code theme colour ids (strings), so this stays VS Code-free.
 */
export type Tone =
  /** Healthy and settled: a ready pod, a fully available deployment, a watch that is watching. */
  | 'ok'
  /** Working towards healthy: connecting, listing, a pod being created. */
  | 'busy'
  /** Degraded or waiting to retry. */
  | 'warning'
  /** Broken until something changes: refused, unreachable, crash-looping, failed. */
  | 'error'
  /** Finished or switched off: a completed pod, a paused watch, a deployment scaled to 0. */
  | 'idle'
  /** No opinion (a ConfigMap has no health). */
  | 'neutral';

export const themeColors = {
  green: 'testing.iconPassed',
  yellow: 'problemsWarningIcon.foreground',
  red: 'problemsErrorIcon.foreground',
  grey: 'disabledForeground',
} as const;

/** The theme colour id of a tone; undefined for tones drawn in the default foreground. */
export function toneColor(tone: Tone): string | undefined {
  switch (tone) {
    case 'ok':
      return themeColors.green;
    case 'busy':
    case 'warning':
      return themeColors.yellow;
    case 'error':
      return themeColors.red;
    case 'idle':
      return themeColors.grey;
    case 'neutral':
      return undefined;
  }
}

const rank: Record<Tone, number> = { error: 5, warning: 4, busy: 3, idle: 2, ok: 1, neutral: 0 };

/** The more alarming of two tones (error > warning > busy > idle > ok > neutral). */
export function worseTone(a: Tone, b: Tone): Tone {
  return rank[a] >= rank[b] ? a : b;
}
