/** True for a JSON object (a plain record of fields): not null, not an array. */
export function isRecord(u: unknown): u is Record<string, unknown> {
	return typeof u === "object" && u !== null && !Array.isArray(u);
}
