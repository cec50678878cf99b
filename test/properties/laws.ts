import fc from "fast-check";

/**
 * Parameters shared by every property: the seed can be replayed from the environment
 * (`FC_SEED=… FC_PATH=… npx vitest run`), and fast-check prints seed and path on failure.
 */
export function params<T>(extra: fc.Parameters<T> = {}): fc.Parameters<T> {
	const seed = process.env.FC_SEED;
	const path = process.env.FC_PATH;
	const runs = process.env.FC_RUNS;
	return {
		...extra,
		...(seed !== undefined ? { seed: Number(seed) } : {}),
		...(path !== undefined ? { path } : {}),
		...(runs !== undefined ? { numRuns: Number(runs) } : {}),
	};
}

/** Asserts a property with the shared parameters. */
export function law<Ts extends [unknown, ...unknown[]]>(
	arbs: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
	predicate: (...args: Ts) => boolean,
	extra: fc.Parameters<Ts> = {},
): void {
	fc.assert(fc.property(...arbs, predicate), params(extra));
}

/** Deep equality through JSON, for plain data. */
export function sameJson(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}
