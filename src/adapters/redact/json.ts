import type { Redactor } from "./redactor.js";

/** `value` with each string replaced by `at(string)`, walked in one fixed order; keys are left as they are. */
export function mapStrings(value: unknown, at: (text: string) => string): unknown {
	if (typeof value === "string") return at(value);
	if (Array.isArray(value)) return value.map((item) => mapStrings(item, at));
	if (typeof value === "object" && value !== null)
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, at)]));
	return value;
}

/**
 * A decoded JSON value with every string redacted, walked as a value (never as its serialized text, where an escape
 * could split a secret); one lint for the whole value.
 */
export async function redactJson(redactor: Redactor, value: unknown): Promise<unknown> {
	const texts: string[] = [];
	mapStrings(value, (text) => {
		texts.push(text);
		return text;
	});
	const redacted = await redactor.redactAll(texts);
	let next = 0;
	return mapStrings(value, (text) => redacted[next++] ?? text);
}
