import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/shared.js";

// Comments cite the project's own pages as "(docs/<file>.md, <Heading>)": a heading of that page (## or ###), up to
// the first ")", ",", ":" or ";" after it ("docs/how-it-works.md, One pass, step 7" cites "One pass"). A citation
// wrapped over comment lines reads as one line. These tests keep each one pointing at a page and a heading that exist.

/** One citation of a docs page: where it stands, the page, and the heading it names if any. */
interface Citation {
	readonly where: string;
	readonly page: string;
	readonly heading: string | undefined;
}

/** Each comment line's continuation (` * `, `// `) joined to the line before, so wrapped text reads whole. */
function joinedComments(text: string): string {
	return text.replace(/[ \t]*\n[ \t]*(?:\*(?!\/)|\/\/)[ \t]?/g, " ");
}

/** Every `docs/<file>.md` a source text names, with the heading that follows it after ", ". */
function citationsIn(where: string, text: string): Citation[] {
	return [...joinedComments(text).matchAll(/docs\/([\w.-]+\.md)(?:, ([^),:;\n]+))?/g)].map((m) => ({
		where,
		page: m[1] ?? "",
		heading: m[2]?.trim(),
	}));
}

/** The ## and ### headings of a Markdown page, fenced code left out. */
function headingsOf(markdown: string): Set<string> {
	const unfenced = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "");
	return new Set([...unfenced.matchAll(/^#{2,3} (.+?)[ \t]*$/gm)].map((m) => m[1] ?? ""));
}

/** The citations of `citations` that name no page of `pages` or no heading of the page they name. */
function rotten(citations: readonly Citation[], pages: (page: string) => Set<string> | undefined): Citation[] {
	return citations.filter((c) => {
		const headings = pages(c.page);
		return headings === undefined || (c.heading !== undefined && !headings.has(c.heading));
	});
}

function sourceFiles(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((e) => e.isFile() && e.name.endsWith(".ts"))
		.map((e) => join(e.parentPath, e.name));
}

function docsPage(page: string): Set<string> | undefined {
	const path = join(repoRoot, "docs", page);
	return existsSync(path) ? headingsOf(readFileSync(path, "utf8")) : undefined;
}

const cited = ["src", "bench", "scripts"]
	.flatMap((dir) => sourceFiles(join(repoRoot, dir)))
	.flatMap((file) => citationsIn(relative(repoRoot, file), readFileSync(file, "utf8")));

describe("citations of docs/ in src, bench and scripts", () => {
	it("each names an existing page and, where it names one, an existing ## or ### heading of it", () => {
		expect(rotten(cited, docsPage)).toEqual([]);
	});

	it("are read from the code: the contracts page and both pass pages are cited by heading", () => {
		const withHeading = new Set(cited.filter((c) => c.heading !== undefined).map((c) => c.page));
		expect([...withHeading].sort()).toEqual(
			expect.arrayContaining(["contracts.md", "how-it-works.md", "turns-mode.md"]),
		);
	});

	it("no comment cites a document a clone does not have (the seed, SPEC)", () => {
		const outside = ["src", "bench", "scripts"]
			.flatMap((dir) => sourceFiles(join(repoRoot, dir)))
			.filter((file) => /(?<!\w)\(seed[,)]|the seed's|\bSPEC\b/.test(readFileSync(file, "utf8")))
			.map((file) => relative(repoRoot, file));
		expect(outside).toEqual([]);
	});
});

describe("the citation reader", () => {
	const pages = (page: string) =>
		page === "a.md" ? headingsOf("# A\n\n## One pass\n\n```\n## Fenced\n```\n\n### The gate\n") : undefined;

	it("reads a citation wrapped over comment lines, the heading cut at its first punctuation", () => {
		const text = "/**\n * kept (docs/a.md, One\n * pass, step 7) and (docs/a.md, The gate: why)\n */";
		expect(citationsIn("x.ts", text).map((c) => [c.page, c.heading])).toEqual([
			["a.md", "One pass"],
			["a.md", "The gate"],
		]);
	});

	it("finds a heading that is not there, a page that is not there, and a heading only inside a fence", () => {
		const text = "// (docs/a.md, Gone) (docs/b.md) (docs/a.md, Fenced) (docs/a.md) (docs/a.md, One pass)";
		expect(rotten(citationsIn("x.ts", text), pages).map((c) => `${c.page} ${c.heading ?? ""}`)).toEqual([
			"a.md Gone",
			"b.md ",
			"a.md Fenced",
		]);
	});
});
