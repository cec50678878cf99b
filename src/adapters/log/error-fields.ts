/** How many characters of an error's message a record keeps. Exported for tests. */
export const ERROR_HEAD_CHARS = 200;

/** An error as a log record carries it: its class, the head of its message, and the stack when asked for. */
export interface ErrorFields {
	readonly errorClass: string;
	readonly error: string;
	readonly stack?: string;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Replaces the home directory with `~` where it stands as a whole path component (not `/home/al` in `/home/alice`).
 * Exported for tests.
 */
export function homeAsTilde(text: string, home: string): string {
	const trimmed = home.replace(/[\\/]+$/, "");
	if (trimmed === "") return text;
	return text.replace(new RegExp(`(?<![\\w.~-])${escapeRegExp(trimmed)}(?![\\w.-])`, "g"), "~");
}

/** The first `count` characters of `text`, never splitting a surrogate pair. */
function head(text: string, count: number): string {
	return Array.from(text).slice(0, count).join("");
}

function classOf(error: unknown): string {
	if (!(error instanceof Error)) return error === null ? "null" : typeof error;
	// A subclass that does not set `name` still reads "Error"; its constructor says more.
	if (error.name !== "" && error.name !== "Error") return error.name;
	return error.constructor.name || "Error";
}

function messageOf(error: unknown): string {
	if (error instanceof Error) return error.message;
	return typeof error === "string" ? error : String(error);
}

/** The log fields for an error: class, first 200 characters of the message and (when on) the stack, home as `~`. */
export function errorFields(error: unknown, home: string, withStack: boolean): ErrorFields {
	try {
		const fields = {
			errorClass: classOf(error),
			error: head(homeAsTilde(messageOf(error), home), ERROR_HEAD_CHARS),
		};
		const stack = error instanceof Error ? error.stack : undefined;
		return withStack && stack !== undefined ? { ...fields, stack: homeAsTilde(stack, home) } : fields;
	} catch {
		// A getter on a thrown object can itself throw; logging must not.
		return { errorClass: "unknown", error: "" };
	}
}
