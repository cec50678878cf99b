/**
 * Characters that must never reach a terminal: C0 controls but `\n` and `\t` (a lone `\r` too), DEL, the C1 range
 * (0x9B is CSI, 0x9D is OSC), and the bidi controls. They are shown escaped rather than stripped, so nothing is
 * hidden and no pattern can be slipped past (SECURITY-NOTES, "Printing untrusted text to a terminal").
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
	const code = ch.charCodeAt(0);
	return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** Untrusted text made safe to print: every unsafe character shown as a visible escape. */
export function sanitize(text: string): string {
	return text.replace(UNSAFE, visible);
}

/**
 * Text meant to be read as lines (the summary pi stores): a CRLF is a line break, and every other unsafe character,
 * a lone carriage return among them, is shown as a visible escape.
 */
export function sanitizeText(text: string): string {
	return sanitize(text.replace(/\r\n/g, "\n"));
}

/** `JSON.stringify` leaves C1 and bidi controls raw; this escapes them as JSON `\u` escapes, still valid JSON. */
export function safeJson(value: unknown, indent?: number): string {
	return JSON.stringify(value, null, indent).replace(
		UNSAFE,
		(ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
	);
}

/** True when the text holds no character `sanitize` would escape. */
export function isTerminalSafe(text: string): boolean {
	UNSAFE.lastIndex = 0;
	const found = UNSAFE.test(text);
	UNSAFE.lastIndex = 0;
	return !found;
}
