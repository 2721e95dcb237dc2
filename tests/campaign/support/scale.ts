/**
 * How hard the campaign pushes. `npm test` runs the bounded counts (the whole campaign stays well under a minute);
 * `npm run soak` sets SOAK=1 and multiplies them, for deeper runs before a release.
 */
export const SOAK = process.env.SOAK === '1';

/** `normal` in the ordinary run, `soak` under SOAK=1. */
export function scaled(normal: number, soak: number): number {
  return SOAK ? soak : normal;
}

/** fast-check settings: a fixed seed in the ordinary run (reproducible CI), a random one in a soak. */
export function propertyRuns(normal: number, soak: number): { numRuns: number; seed?: number } {
  return SOAK ? { numRuns: soak } : { numRuns: normal, seed: 20260301 };
}

/** A timeout for a test whose work grows with the counts above. */
export const CAMPAIGN_TIMEOUT = SOAK ? 600_000 : 30_000;
