import { describe, expect, it } from "vitest";
import { exitIsAnswer, lastSimpleCommand } from "../../../../src/pass/ledger/exits.js";

describe("the last simple command of a shell line", () => {
	it("is the part after the last pipe, && , ||, ; , & or line break", () => {
		expect(lastSimpleCommand("cat a | grep x")).toBe(" grep x");
		expect(lastSimpleCommand("cd pkg && npm test")).toBe(" npm test");
		expect(lastSimpleCommand("make || echo failed")).toBe(" echo failed");
		expect(lastSimpleCommand("a; b\nc")).toBe("c");
		expect(lastSimpleCommand("server & curl localhost")).toBe(" curl localhost");
	});

	it("does not split inside quotes, $( ) or backticks, nor at a redirection's &", () => {
		expect(lastSimpleCommand("grep 'a|b' f")).toBe("grep 'a|b' f");
		expect(lastSimpleCommand('grep "x && y" f')).toBe('grep "x && y" f');
		expect(lastSimpleCommand("grep $(echo a | tr a b) f")).toBe("grep $(echo a | tr a b) f");
		expect(lastSimpleCommand("grep `ls | head -1` f")).toBe("grep `ls | head -1` f");
		expect(lastSimpleCommand("grep x f 2>&1")).toBe("grep x f 2>&1");
		expect(lastSimpleCommand("grep x f &>/dev/null")).toBe("grep x f &>/dev/null");
	});

	it("skips a trailing separator", () => {
		expect(lastSimpleCommand("npm test; grep x f;")).toBe(" grep x f");
	});
});

describe("exits that are answers, not errors", () => {
	it("exit 1 of grep, rg, egrep, fgrep, diff, cmp, test and [ is an answer", () => {
		for (const command of [
			"grep -n invalidate src/text.ts",
			"rg TODO",
			"egrep 'a|b' f",
			"fgrep x f",
			"diff a.txt b.txt",
			"cmp a b",
			"test -f dist/index.js",
			"[ -d build ]",
		])
			expect(exitIsAnswer(command, 1), command).toBe(true);
	});

	it("is judged on the last command of a pipeline or && chain", () => {
		expect(exitIsAnswer('grep -n "new Markdown" t.ts | grep "0, 0)$"', 1)).toBe(true);
		expect(exitIsAnswer("cd packages/tui && grep -n color src/x.ts", 1)).toBe(true);
		expect(exitIsAnswer("grep -q x f && npm test", 1)).toBe(false);
		expect(exitIsAnswer("grep x f | wc -l", 1)).toBe(false);
	});

	it("reads the command's name past variable assignments, a path and a subshell's parenthesis", () => {
		expect(exitIsAnswer("LC_ALL=C /usr/bin/grep x f", 1)).toBe(true);
		expect(exitIsAnswer("(cd a && diff x y)", 1)).toBe(true);
	});

	it("any other exit code of those commands is still an error (grep's 2 is a missing file)", () => {
		expect(exitIsAnswer("grep x missing.ts", 2)).toBe(false);
		expect(exitIsAnswer("diff a b", 2)).toBe(false);
		expect(exitIsAnswer("grep x f", null)).toBe(false);
	});

	it("exit 1 of other commands, or of a command only named like one, is an error", () => {
		expect(exitIsAnswer("npm test", 1)).toBe(false);
		expect(exitIsAnswer("git grep x", 1)).toBe(false);
		expect(exitIsAnswer("git diff --exit-code", 1)).toBe(false);
		expect(exitIsAnswer("grepx a", 1)).toBe(false);
		expect(exitIsAnswer("", 1)).toBe(false);
	});

	it("reads a quoted command name, a subshell opened after a separator and assignments with several spaces", () => {
		expect(exitIsAnswer('"grep" -n x f', 1)).toBe(true);
		expect(exitIsAnswer("cd a && (grep -q x f)", 1)).toBe(true);
		expect(exitIsAnswer("LC_ALL=C  grep x f", 1)).toBe(true);
		expect(exitIsAnswer("cd a && LC_ALL=C", 1)).toBe(false);
	});
});

describe("the last simple command of real shell lines", () => {
	it("is empty when the line holds only separators and spaces", () => {
		expect(lastSimpleCommand("")).toBe("");
		expect(lastSimpleCommand(" ; ")).toBe("");
	});

	it("skips a trailing part of only spaces", () => {
		expect(lastSimpleCommand("cd a && grep x f; ")).toBe(" grep x f");
	});

	it("reads past a closed quote of either kind to the separators after it", () => {
		expect(lastSimpleCommand("grep 'a|b' f | wc -l")).toBe(" wc -l");
		expect(lastSimpleCommand('grep "a b" f || true')).toBe(" true");
	});

	it("does not split at an escaped separator, but a backslash in single quotes escapes nothing", () => {
		expect(lastSimpleCommand("grep a\\|b f")).toBe("grep a\\|b f");
		expect(lastSimpleCommand("echo 'a\\' ; grep x f")).toBe(" grep x f");
	});

	it("splits after a $( ) closes and at a plain $, and a subshell's parentheses open no $( )", () => {
		expect(lastSimpleCommand("grep $(echo a) f | wc -l")).toBe(" wc -l");
		expect(lastSimpleCommand("echo $HOME | wc -l")).toBe(" wc -l");
		expect(lastSimpleCommand("echo x; (cd a; grep -q x f)")).toBe(" grep -q x f)");
		expect(lastSimpleCommand("(cd a) ; grep $(echo a | tr a b) f")).toBe(" grep $(echo a | tr a b) f");
	});

	it("does not split at an input redirection's &", () => {
		expect(lastSimpleCommand("grep x f <&3")).toBe("grep x f <&3");
	});
});
