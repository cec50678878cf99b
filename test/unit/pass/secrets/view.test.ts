import { describe, expect, it } from "vitest";
import { originalRange, readEscapesKept, readView, ViewReader, viewRange } from "../../../../src/pass/secrets/view.js";

/** The text a reader of `text` sees. */
const seen = (text: string) => readView(text).text;

/** Where each character of the view of `text` came from: its source's start and end in `text`. */
function origins(text: string): { starts: number[]; ends: number[] } {
	const origin = readView(text).origin;
	return { starts: Array.from(origin?.starts ?? []), ends: Array.from(origin?.ends ?? []) };
}

describe("readView: a text with nothing to decode or drop", () => {
	it.each([
		["an env line", "API_KEY=Zk3Qm9XwPq7Rt2Ls"],
		["a URL without escapes", "https://api.example.com/v1/users?page=2"],
	])("is its own view, with no map back: %s", (_name, text) => {
		expect(readView(text)).toEqual({ text, origin: undefined });
	});
});

describe("readView: terminal escapes are dropped, body and all", () => {
	it.each([
		["colour codes around a value", "\u001b[1;31mS3cret99Pass\u001b[0m", "S3cret99Pass"],
		["a reset with the parameter 0", "\u001b[0mok", "ok"],
		["a private-mode parameter ?", "\u001b[?25lhidden\u001b[?25h", "hidden"],
		["an intermediate byte (a cursor shape)", "\u001b[2 qtoken", "token"],
		["the final byte @", "\u001b[4@x", "x"],
		["the final byte ~ (a key code)", "\u001b[3~x", "x"],
		["an 8-bit CSI", "\u009b32mok\u009b0m", "ok"],
		["a window title ended by BEL", "\u001b]0;build\u0007done", "done"],
		["a window title ended by the next escape", "\u001b]0;build\u001b[1mdone", "done"],
		["a window title a cut left open, to the text's end", "log \u001b]0;build", "log "],
		["a two-byte escape (reverse index)", "\u001bMup", "up"],
		["two-byte escapes at the ends of their range, @ and Z", "\u001b@a\u001bZb", "ab"],
		["two-byte escapes ^ and _", "\u001b^a\u001b_b", "ab"],
		["ESC 7 and ESC 8 (save and restore the cursor)", "\u001b7saved\u001b8", "saved"],
		["ESC c (reset the terminal)", "\u001bcreset", "reset"],
		["ESC ( B and a reset, as `tput sgr0` writes them", "\u001b(B\u001b[mok", "ok"],
		["an escape with two intermediate bytes", "\u001b$(Cok", "ok"],
		["a window title ended by the string terminator ESC \\", "\u001b]0;build\u001b\\done", "done"],
		["a bell of its own", "pass\u0007word", "password"],
	])("%s", (_name, text, view) => {
		expect(seen(text)).toBe(view);
	});

	it.each([
		["a CSI cut by a line break keeps the break", "\u001b[31\nnext", "\nnext"],
		["a CSI cut at the text's end", "x\u001b[31", "x"],
		["ESC ( cut at the text's end", "x\u001b(", "x"],
		["ESC before a control character keeps the control", "\u001b\tnext", "\tnext"],
	])("drops only the ESC of an escape without a final byte: %s", (_name, text, view) => {
		expect(seen(text)).toBe(view);
	});

	it("maps each character kept back to where it stood", () => {
		expect(origins("\u001b[1mab\u001b[0mc")).toEqual({ starts: [4, 5, 10], ends: [5, 6, 11] });
	});
});

describe("readView: escaped terminal escapes, as JSON and shell text print them", () => {
	it.each([
		["\\u001b", "\\u001b[32mok\\u001b[0m"],
		["\\u009b", "\\u009b32mok"],
		["\\x1b", "\\x1b[32mok\\x1b[0m"],
		["\\x9b", "\\x9b32mok"],
		["\\033", "\\033[32mok\\033[0m"],
		["\\e", "\\e[32mok\\e[0m"],
		["\\e with a window title", "\\e]0;build\u0007ok"],
		["\\e with a window title ended by an escaped bell", "\\e]0;build\\x07ok"],
		["\\u001b ( B, as `tput sgr0` writes it", "\\u001b(B\\u001b[mok"],
		["\\u001b with a window title ended by the next escaped escape", "\\u001b]0;build\\u001b[0mok"],
	])("drops %s with its body", (_name, text) => {
		expect(seen(text)).toBe("ok");
	});

	it("keeps a backslash and e before anything but [ or ]", () => {
		expect(seen("C:\\edit\\docs")).toBe("C:\\edit\\docs");
	});
});

describe("readView: JSON backslash escapes are decoded", () => {
	it.each([
		["quotes of a password escaped into a prompt", '{\\"password\\": \\"S3cret99\\"}', '{"password": "S3cret99"}'],
		["line breaks, returns and tabs", "a\\nb\\rc\\td", "a\nb\rc\td"],
		["an escaped slash and an escaped single quote", "https:\\/\\/x.io \\'q\\'", "https://x.io 'q'"],
		["a \\u escape, four hex digits and no more", "\\u00411", "A1"],
		["a \\u escape of the NUL character", "a\\u0000b", "a\u0000b"],
		["a \\x escape, two hex digits", "\\x41\\x42", "AB"],
		["a \\x escape of the NUL character", "a\\x00b", "a\u0000b"],
		["a surrogate pair as two \\u escapes", "\\ud83d\\udd11", "\u{1F511}"],
		["a lone surrogate, as U+FFFD", "x\\ud83d", "x\ufffd"],
		["an escape escaped again, read as the escape", "a\\\\nb\\\\\\\\u0041", "a\nbA"],
		["an invisible character escaped, dropped", "pass\\u200bword", "password"],
	])("%s", (_name, text, view) => {
		expect(seen(text)).toBe(view);
	});

	it.each([
		["a Windows path", "C:\\Users\\dev"],
		["a regex", "\\d+\\s*\\b"],
		["a \\u without four hex digits", "\\u00zz"],
		["a \\x without two hex digits", "\\xZZ"],
		["a run of backslashes before no escape", "a\\\\\\b"],
	])("keeps a backslash before no escape as it is: %s", (_name, text) => {
		expect(seen(text)).toBe(text);
	});

	it("maps a decoded escape to the whole of its source, and a kept backslash to itself", () => {
		expect(origins("a\\\\u0041")).toEqual({ starts: [0, 1], ends: [1, 8] });
		expect(origins("C:\\U")).toEqual({ starts: [0, 1, 2, 3], ends: [1, 2, 3, 4] });
	});
});

describe("readView: URL percent escapes are decoded as UTF-8", () => {
	it.each([
		["a password's @ and ! in a URL", "https://admin:p%40ss%21word@db.local", "https://admin:p@ss!word@db.local"],
		["hex digits 0 and 9, a and f, A and F", "%30%39%4a%4f%4A%4F", "09JOJO"],
		["the last one-byte character", "%7F", "\u007f"],
		[
			"two bytes: first and last of the range (continuations 80, BF), and é",
			"%C2%80%DF%BF%C3%A9",
			"\u0080\u07ff\u00e9",
		],
		["three bytes: the first and last of their range, and €", "%E0%A0%80%EF%BF%BF%E2%82%AC", "\u0800\uffff\u20ac"],
		["four bytes: a key emoji and the last code point", "%F0%9F%94%91%F4%8F%BF%BF", "\u{1F511}\u{10FFFF}"],
	])("%s", (_name, text, view) => {
		expect(seen(text)).toBe(view);
	});

	it.each([
		["a percent sign in words", "100% done"],
		["a percent sign before no hex digits", "%zz"],
		["a percent sign before a digit and :", "%0:"],
		["a percent sign before a digit and g", "%4g"],
		["a percent sign before a digit and @", "%4@"],
		["a percent sign before a digit and `", "%4`"],
		["a lone continuation byte", "%80"],
		["an overlong lead byte", "%C1%BF"],
		["a lead byte past the last code point", "%F5%80%80%80"],
		["a lead byte the text's end cut from its continuation", "a%C3"],
		["a lead byte before a byte past the continuations", "%C3%C0"],
	])("keeps what is no UTF-8 escape as it is: %s", (_name, text) => {
		expect(seen(text)).toBe(text);
	});

	it("reads on after a lead byte whose continuation is a character of its own", () => {
		expect(seen("%C3%28")).toBe("%C3(");
		expect(seen("%C3%7F")).toBe("%C3\u007f");
	});

	it.each([
		["a zero-width space", "%E2%80%8B"],
		["a soft hyphen", "%C2%AD"],
		["a byte order mark", "%EF%BB%BF"],
		["the first tag character", "%F3%A0%80%80"],
		["the last tag character", "%F3%A0%81%BF"],
	])("drops an invisible character that was escaped: %s", (_name, escaped) => {
		expect(seen(`pass${escaped}word`)).toBe("password");
	});

	it("keeps the characters just past the tag characters", () => {
		expect(seen("a%F3%9F%BF%BFb%F3%A0%82%80c")).toBe("a\u{DFFFF}b\u{E0080}c");
	});

	it("maps each decoded character to its escapes, both halves of a pair to all four", () => {
		expect(origins("p%40ss")).toEqual({ starts: [0, 1, 4, 5], ends: [1, 4, 5, 6] });
		expect(origins("%F0%9F%94%91")).toEqual({ starts: [0, 0], ends: [12, 12] });
	});
});

describe("readView: characters no reader sees are dropped", () => {
	it.each([
		["a soft hyphen", "\u00ad"],
		["a combining grapheme joiner", "\u034f"],
		["a Mongolian vowel separator", "\u180e"],
		["a zero-width space", "\u200b"],
		["a right-to-left mark", "\u200f"],
		["a word joiner", "\u2060"],
		["an invisible plus", "\u2064"],
		["a byte order mark", "\ufeff"],
		["a tag character", "\u{E0041}"],
		["the first tag character", "\u{E0000}"],
		["the last tag character", "\u{E007F}"],
	])("%s", (_name, hidden) => {
		expect(seen(`pass${hidden}word`)).toBe("password");
	});

	it.each([
		["a hair space", "\u200a"],
		["a hyphen", "\u2010"],
		["a medium mathematical space", "\u205f"],
		["a euro sign", "\u20ac"],
		["a variation selector past the tag characters", "\u{E0100}"],
	])("keeps a visible neighbour of theirs: %s", (_name, shown) => {
		expect(seen(`\u200bpass${shown}word`)).toBe(`pass${shown}word`);
	});

	it("keeps a tag character's high half with no low half after it", () => {
		expect(seen("x\udb40")).toBe("x\ufffd");
	});

	it("maps the characters after a dropped one to where they stand", () => {
		expect(origins("pass\u200bword")).toEqual({ starts: [0, 1, 2, 3, 5, 6, 7, 8], ends: [1, 2, 3, 4, 6, 7, 8, 9] });
	});
});

describe("ViewReader: a view read a stretch at a time", () => {
	it("reads about as many characters as asked, an escape it started to its end, and says when it is done", () => {
		const reader = new ViewReader("a%41b%42");
		expect(reader.read(2)).toBe(false);
		expect(reader.view().text).toBe("aA");
		expect(reader.read(1)).toBe(false);
		expect(reader.view().text).toBe("aAb");
		expect(reader.read(10)).toBe(true);
		expect(reader.view()).toEqual({
			text: "aAbB",
			origin: { starts: Int32Array.of(0, 1, 4, 5), ends: Int32Array.of(1, 4, 5, 8) },
		});
	});

	it("says it is done on a read that ends exactly at the text's end", () => {
		const reader = new ViewReader("p%40ss");
		expect(reader.read(6)).toBe(true);
		expect(reader.view().text).toBe("p@ss");
	});

	it("is done at once on a text that is its own view", () => {
		const reader = new ViewReader("API_KEY=Zk3Qm9XwPq7Rt2Ls");
		expect(reader.read(1)).toBe(true);
		expect(reader.view()).toEqual({ text: "API_KEY=Zk3Qm9XwPq7Rt2Ls", origin: undefined });
	});
});

describe("originalRange: where a stretch of the view stands in the original", () => {
	it("places a value found between colour codes on the value itself", () => {
		const text = "token=\u001b[1mZk3Qm9XwPq7Rt2Ls\u001b[0m";
		const view = readView(text);
		expect(view.text.slice(6, 22)).toBe("Zk3Qm9XwPq7Rt2Ls");
		const range = originalRange(view, 6, 22);
		expect(range).toEqual({ start: 10, end: 26 });
		expect(text.slice(range.start, range.end)).toBe("Zk3Qm9XwPq7Rt2Ls");
	});

	it("takes in the whole of an escape at either end of the stretch", () => {
		const view = readView("pass=S3cr%21t99");
		expect(originalRange(view, 5, 10)).toEqual({ start: 5, end: 12 });
		expect(originalRange(view, 9, 13)).toEqual({ start: 9, end: 15 });
	});

	it("gives an empty stretch back as it is", () => {
		expect(originalRange(readView("pass=S3cr%21t99"), 10, 10)).toEqual({ start: 10, end: 10 });
	});

	it("gives a stretch of a text that is its own view back as it is", () => {
		expect(originalRange(readView("API_KEY=Zk3Qm9XwPq7Rt2Ls"), 8, 24)).toEqual({ start: 8, end: 24 });
	});
});

describe("readEscapesKept: the reading with the terminal escapes that may have taken text kept", () => {
	const kept = (text: string) => readEscapesKept(text)?.text;

	it.each([
		["ESC and a letter", "\u001bpassword=x", "\u001bpassword=x"],
		["ESC, intermediate bytes and a letter", "mysql \u001b--password x", "mysql \u001b--password x"],
		["a CSI with no parameter and a letter", "\u001b[ghp_x", "\u001bghp_x"],
		[
			"a CSI with parameters and a letter",
			"\u001b[1ghp_x \u001b[?25ghp_y \u009b0;1ghp_z",
			"\u001bghp_x \u001bghp_y \u001bghp_z",
		],
		["a CSI with intermediate bytes and a letter", "\u001b[-----BEGIN", "\u001b-----BEGIN"],
		[
			"ESC written as text",
			"\\x1bpassword=x and \\u001b[token=y and \\033[2token=z",
			"\u001bpassword=x and \u001btoken=y and \u001btoken=z",
		],
		["a window title, its body as text", "\u001b]0;build\u0007ok", "\u001b]0;buildok"],
	])("reads its introducer (with a CSI's parameters) as one ESC and the rest as text: %s", (_name, text, want) => {
		expect(kept(text)).toBe(want);
	});

	it("reads a colour code's final byte on as text, which may be a word's first letter, and drops ESC 7 whole", () => {
		expect(kept("\u001b[1;31mS3cr%41t\u001b7\u200b \u001b[mok \u001bpw")).toBe("\u001bmS3crAt \u001bmok \u001bpw");
		expect(kept("\u001b[1mysql -p \u001b7ok")).toBe("\u001bmysql -p ok");
	});

	it("drops an escape whole before a key's name of no secret, which its final byte would make a key's name", () => {
		expect(kept("\u001bMPUBLIC_KEY=x \u001b[Kcache_key=y \u001bpw")).toBe("PUBLIC_KEY=x cache_key=y \u001bpw");
		expect(kept("\r\u001b[KPUBLIC_KEY=x")).toBeUndefined();
	});

	it("judges a name by its first 256 characters only: a longer run is no name a tool prints", () => {
		const named = (length: number) => `PUBLIC_${"x".repeat(length)}_KEY=y`;
		expect(kept(`\u001bM${named(300)}`)).toBe(`\u001bM${named(300)}`);
		expect(kept(`\u001bM${named(200)}`)).toBeUndefined();
	});

	it("reads a final byte on before a word that only a key's name would make plain (`url` of curl, `public`)", () => {
		expect(kept("\u001bcurl -u a:b \u001b[2Kpublic")).toBe("\u001bcurl -u a:b \u001bKpublic");
	});

	it("is undefined where no escape may have taken text (none ends at a letter): the view reads the same", () => {
		expect(kept("\u001b7ok\u001b8 \u001b= \u001b[4@ a%41")).toBeUndefined();
		expect(kept("API_KEY=Zk3Qm9XwPq7Rt2Ls")).toBeUndefined();
	});

	it("maps each character back to where it stands, the ESC to its introducer", () => {
		const view = readEscapesKept("a\\x1bpw");
		expect(view?.text).toBe("a\u001bpw");
		expect(Array.from(view?.origin?.starts ?? [])).toEqual([0, 1, 5, 6]);
		expect(Array.from(view?.origin?.ends ?? [])).toEqual([1, 5, 6, 7]);
	});
});

describe("viewRange: the stretch of a view that stands at a stretch of the original", () => {
	it("starts at the first character that comes from the stretch and ends before the first that comes after it", () => {
		const view = readView("a\u001b[1mbc\nd");
		expect(view.text).toBe("abc\nd");
		expect(viewRange(view, 1, 7)).toEqual({ start: 1, end: 3 });
		expect(viewRange(view, 8, 9)).toEqual({ start: 4, end: 5 });
		expect(viewRange(view, 0, 9)).toEqual({ start: 0, end: 5 });
	});

	it("gives a stretch of a text that is its own view back as it is", () => {
		expect(viewRange(readView("plain"), 1, 4)).toEqual({ start: 1, end: 4 });
	});
});
