/**
 * Time and randomness, injected so that tests can run backoffs and deadlines in milliseconds.
 * Every timer the engine starts goes through a Clock, so stopping an informer can cancel them all.
 */
export interface TimerHandle {
  /** Cancels the timer; calling it twice or after it fired is harmless. */
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` after `ms` milliseconds (as scaled by the clock). */
  setTimer(fn: () => void, ms: number): TimerHandle;
  /** A number in [0, 1). */
  random(): number;
}

/** The real clock: wall time, Node timers, Math.random. Timers do not keep the process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
  random: () => Math.random(),
};

/**
 * A clock on which time runs `factor` times faster than real time: a 30 s backoff lasts 30 ms
 * at factor 1000, and `now()` advances 1000 ms per real millisecond, so every duration the
 * engine measures keeps its proportion to the timers it sets. Used by fault tests that talk to
 * a real server over real sockets, where a fully virtual clock cannot drive I/O.
 */
export function acceleratedClock(factor: number, random: () => number = Math.random): Clock {
  const origin = Date.now();
  return {
    now: () => origin + (Date.now() - origin) * factor,
    setTimer(fn, ms) {
      const t = setTimeout(fn, Math.max(0, ms / factor));
      return { cancel: () => clearTimeout(t) };
    },
    random,
  };
}

/**
 * A clock whose time moves only when one of its timers fires (to that timer's due time); the
 * timers themselves run `factor` times faster than real time. Between two timers no time passes,
 * however long real I/O takes: a duration the engine measures between two network events (an
 * empty watch's life, from its headers to its end) does not grow when the machine is busy. Used
 * by fault tests whose verdict depends on such a duration.
 */
export function steppingClock(factor: number, random: () => number = Math.random): Clock {
  let now = Date.now();
  return {
    now: () => now,
    setTimer(fn, ms) {
      const due = now + Math.max(0, ms);
      const t = setTimeout(() => {
        if (due > now) now = due;
        fn();
      }, Math.max(0, ms) / factor);
      return { cancel: () => clearTimeout(t) };
    },
    random,
  };
}

/** A small deterministic PRNG (mulberry32) for seeded tests and chaos runs. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
