/**
 * One time format everywhere (the tree's hovers, the stale banners, the watch log, the Watch
 * Health panel, the history): VS Code's display language through `Intl`, with the time zone
 * named. Extension activation sets the language and the machine's time zone (`setTimeFormat`);
 * until then, and in tests, `en-US` with a 24-hour clock in UTC, so the same instant always reads
 * the same. The date, where shown, is `2026-01-02` in every language (never ambiguous).
 */
export interface TimeFormat {
  /** A BCP 47 language tag (`vscode.env.language`: `en`, `de`, `zh-cn`). */
  locale: string;
  /** An IANA time zone (`Europe/Berlin`), or `UTC`. */
  timeZone: string;
  /** `h23` for a 24-hour clock; undefined: the language's own. */
  hourCycle?: 'h11' | 'h12' | 'h23' | 'h24';
}

export const DEFAULT_TIME_FORMAT: TimeFormat = { locale: 'en-US', timeZone: 'UTC', hourCycle: 'h23' };

let format: TimeFormat = DEFAULT_TIME_FORMAT;
let timeOfDay: Intl.DateTimeFormat | undefined;
let timeOfDayZoned: Intl.DateTimeFormat | undefined;
let dayOf: Intl.DateTimeFormat | undefined;
let logTimeOfDay: Intl.DateTimeFormat | undefined;

/** Sets the language and time zone (an unknown language or zone falls back to the default's). */
export function setTimeFormat(next: Partial<TimeFormat>): void {
  const candidate: TimeFormat = { ...DEFAULT_TIME_FORMAT, hourCycle: undefined, ...next };
  try {
    new Intl.DateTimeFormat(candidate.locale, { timeZone: candidate.timeZone }).format(0);
    format = candidate;
  } catch {
    format = DEFAULT_TIME_FORMAT;
  }
  timeOfDay = timeOfDayZoned = dayOf = logTimeOfDay = undefined;
}

/** The format in force (the Watch Health panel's webview gets it in its snapshots). */
export function timeFormat(): TimeFormat {
  return format;
}

function timeFormatter(zoned: boolean, f: TimeFormat): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(f.locale, {
    // `03:04:56 PM` reads oddly: two digits only on a 24-hour clock.
    hour: f.hourCycle === 'h23' || f.hourCycle === 'h24' ? '2-digit' : 'numeric',
    minute: '2-digit',
    second: '2-digit',
    timeZone: f.timeZone,
    ...(f.hourCycle ? { hourCycle: f.hourCycle } : {}),
    ...(zoned ? { timeZoneName: 'short' as const } : {}),
  });
}

/** `15:04:56 UTC` (or `3:04:56 PM GMT+1` in `en` in Berlin): a time of day, with the zone unless `zone` is false. */
export function clockTime(at: number, zone = true, f: TimeFormat = format): string {
  if (f !== format) return timeFormatter(zone, f).format(at);
  const formatter = zone ? (timeOfDayZoned ??= timeFormatter(true, f)) : (timeOfDay ??= timeFormatter(false, f));
  return formatter.format(at);
}

/** `2026-01-02 15:04:56 UTC`: a day and a time of day, with the zone. */
export function dateTime(at: number, f: TimeFormat = format): string {
  const day = f === format ? (dayOf ??= dayFormatter(f)) : dayFormatter(f);
  return `${day.format(at)} ${clockTime(at, true, f)}`;
}

function dayFormatter(f: TimeFormat): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: f.timeZone });
}

/**
 * A log line's time for the log terminals: `2026-01-02 15:04:56.789` in the user's time zone and
 * clock (the zone is said once, in the terminal's header, not on every line).
 */
export function logTime(at: number, f: TimeFormat = format): string {
  const day = f === format ? (dayOf ??= dayFormatter(f)) : dayFormatter(f);
  const time = f === format ? (logTimeOfDay ??= logTimeFormatter(f)) : logTimeFormatter(f);
  return `${day.format(at)} ${time.format(at)}`;
}

function logTimeFormatter(f: TimeFormat): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(f.locale, {
    hour: f.hourCycle === 'h23' || f.hourCycle === 'h24' ? '2-digit' : 'numeric',
    minute: '2-digit',
    second: '2-digit',
    fractionalSecondDigits: 3,
    timeZone: f.timeZone,
    ...(f.hourCycle ? { hourCycle: f.hourCycle } : {}),
  });
}
