/**
 * mulberry32 (Tommy Ettinger's 32-bit generator, public domain): a few lines, fast, and the same
 * sequence for the same seed on every machine and Node version, which is all demo data needs.
 * Not for anything secret.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Drawing helpers over one generator, so every choice comes from the same sequence. */
export function createRandom(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    /** A whole number in [min, max], both included. */
    int(min: number, max: number): number {
      return min + Math.floor(next() * (max - min + 1));
    },
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    /** One of `items`, each as likely as its weight. */
    weighted<T>(items: readonly (readonly [T, number])[]): T {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let at = next() * total;
      for (const [item, weight] of items) {
        at -= weight;
        if (at < 0) return item;
      }
      return items[items.length - 1]![0];
    },
    chance(probability: number): boolean {
      return next() < probability;
    },
  };
}

export type Random = ReturnType<typeof createRandom>;
