import { describe, expect, it } from "vitest";
import { candidateLines, LINT_TRIGGER, type Piece, pieceAt } from "../../../../src/adapters/redact/prefilter.js";

describe("LINT_TRIGGER", () => {
	it.each([
		"//registry.npmjs.org/:_authToken=npm_abc",
		"https://ghp_abc:x-oauth-basic@github.com/acme/app.git",
		"AWS_SECRET_ACCESS_KEY=",
		"client_secret: abc",
		"sso_account_id = 123456789012",
		"DATABASE_URL=postgres://deploy:Zk3Qm9XwPq7Rt2@db.internal:5432/app",
	])("marks a line secretlint may find something in: %s", (line) => {
		expect(LINT_TRIGGER.test(line)).toBe(true);
	});

	it.each([
		"GITHUB_TOKEN=ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
		"-----BEGIN PRIVATE KEY-----",
		"listening on https://localhost:8443/health",
		"git clone git@github.com:acme/app.git",
		"https://deploy@db.internal/app",
		"commit 1507f8b3c2d4e5f60718293a4b5c6d7e8f901234",
	])("leaves a line of vendor tokens, keys or ordinary output unlinted: %s", (line) => {
		expect(LINT_TRIGGER.test(line)).toBe(false);
	});
});

describe("candidateLines", () => {
	it("picks a line with a trigger and the line after it, and places the run in its text", () => {
		const key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq2Lr0Tm9Y";
		const text = `$ cat .env\nPORT=5173\nAWS_SECRET_ACCESS_KEY=\n${key}\nDEBUG=1`;
		// "$ cat .env\n" is 11 characters and "PORT=5173\n" 10: the trigger's line starts at 21.
		expect(candidateLines([text], LINT_TRIGGER)).toEqual({
			joined: `AWS_SECRET_ACCESS_KEY=\n${key}`,
			pieces: [{ text: 0, at: 21, from: 0, length: 22 + 1 + 40 }],
		});
	});

	it("joins the runs of a batch by line breaks, each piece naming its text and where it stands in the joined lines", () => {
		const texts = ["no trigger here", "x\nthe secret\ny\nz", "aws_account_id = 1\nmore"];
		expect(candidateLines(texts, LINT_TRIGGER)).toEqual({
			joined: "the secret\ny\naws_account_id = 1\nmore",
			pieces: [
				{ text: 1, at: 2, from: 0, length: 12 },
				{ text: 2, at: 0, from: 13, length: 23 },
			],
		});
	});

	it("makes two pieces of two runs apart in one text, the last ending at the text's end", () => {
		const text = "SECRET_A=1\nb\nc\nd\nSECRET_B=2";
		expect(candidateLines([text], LINT_TRIGGER)).toEqual({
			joined: "SECRET_A=1\nb\nSECRET_B=2",
			pieces: [
				{ text: 0, at: 0, from: 0, length: 12 },
				{ text: 0, at: 17, from: 13, length: 10 },
			],
		});
	});

	it("keeps a run going over lines with a trigger one after another, and the line after the last", () => {
		const text = "client_secret: a\nSECRET_KEY=b\nvalue\nPORT=5173";
		expect(candidateLines([text], LINT_TRIGGER)).toEqual({
			joined: "client_secret: a\nSECRET_KEY=b\nvalue",
			pieces: [{ text: 0, at: 0, from: 0, length: 35 }],
		});
	});

	it("picks nothing from texts without a trigger", () => {
		expect(candidateLines(["PORT=5173\nDEBUG=1", "", "ghp_token"], LINT_TRIGGER)).toEqual({ joined: "", pieces: [] });
	});

	it("reads the trigger it is given", () => {
		expect(candidateLines(["a\nTODO b\nc\nd"], /TODO/)).toEqual({
			joined: "TODO b\nc",
			pieces: [{ text: 0, at: 2, from: 0, length: 8 }],
		});
	});
});

describe("pieceAt", () => {
	const pieces: Piece[] = [
		{ text: 0, at: 5, from: 0, length: 10 },
		{ text: 0, at: 40, from: 11, length: 4 },
		{ text: 2, at: 0, from: 16, length: 7 },
	];

	it.each([
		[0, 0],
		[9, 0],
		[11, 1],
		[14, 1],
		[16, 2],
		[22, 2],
	])("finds the piece joined position %i falls in", (at, index) => {
		expect(pieceAt(pieces, at)).toBe(pieces[index]);
	});

	it.each([10, 15, 23, 100, -1])("finds none at %i, a joining line break or outside the lines", (at) => {
		expect(pieceAt(pieces, at)).toBeUndefined();
	});

	it("finds none among no pieces", () => {
		expect(pieceAt([], 0)).toBeUndefined();
	});
});
