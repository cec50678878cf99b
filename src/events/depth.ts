/**
 * How deep a transcript entry may nest (the entry object is level 1). `JSON.parse` builds any depth, but
 * `JSON.stringify`, `structuredClone`, immer and Longhaul's own walks recurse and throw from a few thousand levels;
 * real pi entries nest under 10.
 */
export const MAX_DEPTH = 100;

type Container = Record<string, unknown> | unknown[];

function isContainer(u: unknown): u is Container {
	return typeof u === "object" && u !== null;
}

/** True when `value` nests deeper than `max` levels (an object or an array is one level). Iterative. */
function nestsDeeper(value: Container, max: number): boolean {
	const stack: [Container, number][] = [[value, 1]];
	for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
		const [container, depth] = top;
		for (const child of Object.values(container))
			if (isContainer(child)) {
				if (depth + 1 > max) return true;
				stack.push([child, depth + 1]);
			}
	}
	return false;
}

function emptyLike(u: Container): Container {
	return Array.isArray(u) ? [] : {};
}

/** A copy of `value` in which every object or array below level `max` is null. Iterative. */
function cutBelow(value: Record<string, unknown>, max: number): Record<string, unknown> {
	const root: Record<string, unknown> = {};
	const stack: [Container, Container, number][] = [[value, root, 1]];
	for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
		const [source, target, depth] = top;
		for (const [key, child] of Object.entries(source)) {
			let copied: unknown = child;
			if (isContainer(child)) {
				copied = depth + 1 > max ? null : emptyLike(child);
				if (isContainer(copied)) stack.push([child, copied, depth + 1]);
			}
			// defineProperty, so that a `__proto__` key stays a key, as JSON.parse made it.
			Object.defineProperty(target, key, { value: copied, writable: true, enumerable: true, configurable: true });
		}
	}
	return root;
}

/**
 * An entry bounded in depth: itself when it nests at most `max` levels, else a copy with what lies below level
 * `max` replaced by null (`cut` true). Never recurses, so any depth is read.
 */
export function boundedDepth(
	value: Record<string, unknown>,
	max = MAX_DEPTH,
): { readonly value: Record<string, unknown>; readonly cut: boolean } {
	return nestsDeeper(value, max) ? { value: cutBelow(value, max), cut: true } : { value, cut: false };
}
