import { describe, expect, it } from "vitest";
import { ERROR_HEAD_CHARS, errorFields, homeAsTilde } from "../../../../src/adapters/log/index.js";

const home = "/home/alice";

class QuotaError extends Error {}

describe("errorFields", () => {
	it("keeps the error's class and its message with the home directory as ~", () => {
		const error = new Error("EACCES: permission denied, open '/home/alice/projects/atlas/.pi/x'");
		expect(errorFields(error, home, false)).toEqual({
			errorClass: "Error",
			error: "EACCES: permission denied, open '~/projects/atlas/.pi/x'",
		});
	});

	it("names a subclass that does not set name by its constructor", () => {
		expect(errorFields(new QuotaError("over"), home, false).errorClass).toBe("QuotaError");
		expect(errorFields(new TypeError("bad"), home, false).errorClass).toBe("TypeError");
	});

	it("keeps only the first 200 characters of the message, cut after the home directory is replaced", () => {
		const message = `${home}/${"x".repeat(400)}`;
		const { error } = errorFields(new Error(message), home, false);
		expect(error).toHaveLength(ERROR_HEAD_CHARS);
		expect(error.startsWith("~/xxx")).toBe(true);
	});

	it("does not split a surrogate pair at the cut", () => {
		const { error } = errorFields(new Error(`${"a".repeat(199)}😀tail`), home, false);
		expect(error).toBe(`${"a".repeat(199)}😀`);
	});

	it("adds the stack, home as ~, only when stacks are on", () => {
		const error = new Error("boom");
		error.stack = "Error: boom\n    at run (/home/alice/projects/atlas/src/x.ts:3:1)";
		expect(errorFields(error, home, false)).not.toHaveProperty("stack");
		expect(errorFields(error, home, true).stack).toBe("Error: boom\n    at run (~/projects/atlas/src/x.ts:3:1)");
	});

	it("describes a thrown value that is not an Error", () => {
		expect(errorFields("plain /home/alice/notes", home, false)).toEqual({
			errorClass: "string",
			error: "plain ~/notes",
		});
		expect(errorFields(null, home, false)).toEqual({ errorClass: "null", error: "null" });
	});

	it("does not throw when reading the error throws", () => {
		const hostile = new Error("x");
		Object.defineProperty(hostile, "message", {
			get() {
				throw new Error("getter");
			},
		});
		expect(errorFields(hostile, home, false)).toEqual({ errorClass: "unknown", error: "" });
	});
});

describe("homeAsTilde", () => {
	it("replaces the home directory only as a whole path component", () => {
		expect(homeAsTilde("/home/al/x and /home/alice/y", "/home/al")).toBe("~/x and /home/alice/y");
		expect(homeAsTilde("cd /home/alice", "/home/alice/")).toBe("cd ~");
		expect(homeAsTilde("/srv/home/alice/z", "/home/alice")).toBe("/srv/home/alice/z");
	});

	it("leaves the text alone when home is empty or the root", () => {
		expect(homeAsTilde("/etc/passwd", "")).toBe("/etc/passwd");
		expect(homeAsTilde("/etc/passwd", "/")).toBe("/etc/passwd");
	});
});
