/**
 * Kubernetes resource quantities (`250m`, `1.5`, `128Mi`, `2Gi`, `1e3`, `12345n`) read as numbers,
 * as apimachinery's `resource.Quantity` reads them. `MilliValue()` and `Value()` round up, so the
 * helpers here do too: a CPU of `1n` is 1m, a memory of `0.5` is 1 byte.
 */

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?)$/;

/** The quantity in base units (cores, bytes), or undefined when the text is not a quantity. */
export function parseQuantity(text: unknown): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) ? text : undefined;
  if (typeof text !== 'string') return undefined;
  const m = QUANTITY.exec(text.trim());
  if (!m) return undefined;
  const [, digits, exponent, suffix] = m;
  const n = Number(digits);
  if (exponent) return n * 10 ** Number(exponent.slice(1));
  const factor = suffix === undefined ? 1 : (BINARY[suffix] ?? DECIMAL[suffix]);
  return n * factor;
}

/** Rounds up as apimachinery does, ignoring the float dust of a product (`0.1 * 1000`). */
function ceil(x: number): number {
  const r = Math.round(x);
  return Math.abs(x - r) < 1e-9 ? r : Math.ceil(x);
}

/** A CPU quantity in millicores (`MilliValue()`); undefined when absent or unreadable. */
export function milliCores(text: unknown): number | undefined {
  const v = parseQuantity(text);
  return v === undefined ? undefined : ceil(v * 1000);
}

/** A memory quantity in bytes (`Value()`); undefined when absent or unreadable. */
export function bytesOf(text: unknown): number | undefined {
  const v = parseQuantity(text);
  return v === undefined ? undefined : ceil(v);
}

/** Millicores as k9s prints them: `250m`, `0m`. */
export function formatMilliCores(milli: number): string {
  return `${Math.round(milli)}m`;
}

/** Bytes as k9s prints memory: whole MiB, `128Mi` (below 1 MiB: `0Mi`). */
export function formatMebibytes(bytes: number): string {
  return `${Math.floor(bytes / 2 ** 20)}Mi`;
}

/** k9s's ToPercentage: floor(v / of * 100); undefined when there is nothing to compare with. */
export function percentOf(value: number, of: number | undefined): number | undefined {
  if (!of) return undefined;
  return Math.floor((value / of) * 100 + 1e-9);
}
