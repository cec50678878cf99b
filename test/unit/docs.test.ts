import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
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

// The docs a reader of the repository meets (README.md, CONTEXT.md, docs/*.md and the fixtures' READMEs) name the
// repository's files in six ways, and each must point at what is there today, so no page outlives a move:
// - a path from the repository's root (`src/pass/secrets/vendors.ts`, test/unit/events, mutation/), code blocks too;
// - a bare file name (`diff-section.ts`), which some file of the repository must bear;
// - a symbol with its file (`ANSWER_BOUNDS` (src/pass/answer/answer.ts), `sliceWhole` in …, `ledgerEvents`
//   (ledger.ts)), which must stand in that file as a whole word;
// - a Markdown link to a page of the repository, and its #anchor, which must be a heading's slug there;
// - a page and heading in prose ("how-it-works.md, One pass, step 7", as the comments cite them);
// - `npm run <script>`, which package.json must hold.
// A path or script a page names that is no file or script of this project (pi's own pages, a file of the demo
// session's project, a script of the project a real transcript worked on) is listed in NOT_OURS with why, and each
// such entry must still be named, so the list cannot outlive the page.

/** The top-level folders a page may name a path in; a path under another (`packages/…`, `dist/`) is not the repository's. */
const ROOTS: ReadonlySet<string> = new Set(["src", "test", "bench", "scripts", "mutation", "docs", "bin", ".ci"]);

/** A relative path, not inside a longer path or word; a trailing `.` or `,` left out. Only those under ROOTS count. */
const RELATIVE_PATH = /(?<![\w./~-])((?:\.ci|[a-z][\w-]*)\/(?:[\w.*-]*[\w*])?(?:\/[\w.*-]*[\w*])*\/?)/g;

/** The paths from the repository's root a text names: relative paths under one of ROOTS. */
function rootPathsIn(text: string): string[] {
	return [...text.matchAll(RELATIVE_PATH)]
		.map((m) => m[1] ?? "")
		.filter((path) => ROOTS.has(path.slice(0, path.indexOf("/"))));
}

/** A bare name of a code file, not the end of a path (`./config.js`, `bin/longhaul.js` are not bare). */
const BARE_FILE = /(?<![\w./~-])([\w-]+(?:\.[\w-]+)*\.(?:ts|mjs|js))(?![\w/])/g;

/** A symbol in backticks and its file: "`x`, path", "`x` (path" or "`x` in path", the path maybe in backticks. */
const SYMBOL_IN_FILE =
	/`([A-Za-z_$][\w$]*)`(?:, | \(| in )`?((?:src|bench|test|scripts)\/[\w./-]*[\w]\.ts|[\w-]+(?:\.[\w-]+)*\.ts)(?![\w/])/g;

/** A Markdown link's target that is no URL: a page, a page and its anchor, or an anchor of the page itself. */
const LINK = /\]\((?![a-z][\w+.-]*:)([^)\s#]*)(?:#([^)\s]*))?\)/g;

/** A page and a heading in prose ("how-it-works.md, One pass", "docs/security.md, Keys…"), up to `)` `,` `:` `;` `.` or a backtick. */
const PROSE_CITATION = /(?<![\w/.-])(?:docs\/)?([\w-]+\.md), ([^),:;.`\n]+)/g;

/** `npm run` and the script it runs (`npm run -s state` runs `state`). */
const NPM_RUN = /\bnpm run (?:-s )?([a-z][\w:-]*)/g;

/** Paths and scripts pages name that are no files or scripts of this project, by page, with why. */
const NOT_OURS: readonly { readonly page: string; readonly name: string; readonly why: string }[] = [
	{ page: "docs/evaluation.md", name: "src/index.ts", why: "a file of the demo session's shop API, in its rule" },
	{ page: "docs/evaluation.md", name: "docs/models.md", why: "pi's own page on models.json" },
	{ page: "docs/evaluation.md", name: "check", why: "a script of pi's repository, in an open error of its session" },
	{ page: "docs/evaluation.md", name: "publish", why: "a script of pi's repository, in an open error of its session" },
];

/** The paths and scripts a page's text names. */
function namesIn(text: string): string[] {
	return [...rootPathsIn(text), ...[...text.matchAll(NPM_RUN)].map((m) => m[1] ?? "")];
}

/** A problem a page has: the page and what it names that does not resolve. */
function problem(page: string, what: string): string {
	return `${page}: ${what}`;
}

/** The text with every line break read as a space, so a citation wrapped over lines reads whole. */
function oneLine(text: string): string {
	return text.replace(/[ \t]*\n[ \t]*/g, " ");
}

/** Each heading's anchor as GitHub makes it: lowercased, punctuation but `-` and `_` dropped, spaces as `-`, a repeat numbered. */
function anchorsOf(markdown: string): Set<string> {
	const unfenced = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "");
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	for (const m of unfenced.matchAll(/^#{1,6} (.+?)[ \t]*$/gm)) {
		const slug = (m[1] ?? "")
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, "")
			.replace(/\s/g, "-");
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return anchors;
}

/** Whether `word` stands in `text` with no identifier character on either side. */
function hasWord(text: string, word: string): boolean {
	const isIdentifier = (c: string | undefined) => c !== undefined && /[\w$]/.test(c);
	for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
		if (!isIdentifier(text[at - 1]) && !isIdentifier(text[at + word.length])) return true;
	}
	return false;
}

/** What a page's citations are checked against: the repository's files, as paths from its root. */
interface Repository {
	readonly files: ReadonlySet<string>;
	readonly read: (file: string) => string;
	/** The scripts of package.json. */
	readonly scripts: ReadonlySet<string>;
}

/** The files under `dir` of the repository, as paths from its root. */
function filesUnder(dir: string): string[] {
	const path = join(repoRoot, dir);
	if (!existsSync(path)) return [];
	return readdirSync(path, { withFileTypes: true, recursive: true })
		.filter((e) => e.isFile())
		.map((e) => relative(repoRoot, join(e.parentPath, e.name)).split(sep).join("/"));
}

/** Whether `path` (maybe ending in `/`, maybe with `*`) is a file of the repository or a folder holding one. */
function inRepository(files: ReadonlySet<string>, path: string): boolean {
	const bare = path.replace(/\/$/, "");
	if (files.has(bare)) return true;
	const star = bare.indexOf("*");
	const prefix = star === -1 ? `${bare}/` : bare.slice(0, star);
	return [...files].some((f) => f.startsWith(prefix));
}

/** Resolves a page named in `page` (a path from the root): a link relative to it, or a bare name in docs/ or the root. */
function pageOf(files: ReadonlySet<string>, page: string, named: string): string | undefined {
	const candidates = [posix.normalize(posix.join(posix.dirname(page), named)), `docs/${named}`, named];
	return candidates.find((c) => files.has(c));
}

/** Everything `text`, the page at `page`, names that does not resolve in `repo`, one line each. */
function unresolved(page: string, text: string, repo: Repository): string[] {
	const found: string[] = [];
	const whole = oneLine(text);
	const basenames = new Map<string, string[]>();
	for (const file of repo.files) {
		const name = posix.basename(file);
		basenames.set(name, [...(basenames.get(name) ?? []), file]);
	}
	const notOurs = new Set(NOT_OURS.filter((n) => n.page === page).map((n) => n.name));
	for (const path of rootPathsIn(text)) {
		if (!notOurs.has(path) && !inRepository(repo.files, path)) found.push(problem(page, `no such path ${path}`));
	}
	for (const m of text.matchAll(NPM_RUN)) {
		const script = m[1] ?? "";
		if (!notOurs.has(script) && !repo.scripts.has(script)) found.push(problem(page, `no npm script ${script}`));
	}
	for (const m of text.matchAll(BARE_FILE)) {
		const name = m[1] ?? "";
		if (!basenames.has(name)) found.push(problem(page, `no file is named ${name}`));
	}
	for (const m of whole.matchAll(SYMBOL_IN_FILE)) {
		const [symbol, file] = [m[1] ?? "", m[2] ?? ""];
		const holders = file.includes("/") ? (repo.files.has(file) ? [file] : []) : (basenames.get(file) ?? []);
		if (!holders.some((h) => hasWord(repo.read(h), symbol))) found.push(problem(page, `${file} holds no ${symbol}`));
	}
	for (const m of text.matchAll(LINK)) {
		const [target, anchor] = [m[1] ?? "", m[2]];
		const linked = target === "" ? page : pageOf(repo.files, page, target);
		if (linked === undefined) found.push(problem(page, `a link to ${target}, which is not there`));
		else if (anchor !== undefined && !anchorsOf(repo.read(linked)).has(anchor))
			found.push(problem(page, `a link to ${linked}#${anchor}, which has no such heading`));
	}
	for (const m of whole.matchAll(PROSE_CITATION)) {
		const [named, heading] = [m[1] ?? "", (m[2] ?? "").trim()];
		const cited = pageOf(repo.files, page, named);
		if (cited === undefined) found.push(problem(page, `a citation of ${named}, which is not there`));
		else if (!headingsOf(repo.read(cited)).has(heading))
			found.push(problem(page, `a citation of ${cited}, ${heading}: no such heading`));
	}
	return found;
}

const repoFiles = new Set([...ROOTS].flatMap(filesUnder));
for (const top of readdirSync(repoRoot, { withFileTypes: true })) if (top.isFile()) repoFiles.add(top.name);
const readRepo = (file: string) => readFileSync(join(repoRoot, file), "utf8");
const manifest = t.type({ scripts: t.record(t.string, t.string) }).decode(JSON.parse(readRepo("package.json")));
/** package.json's scripts, by name; none where it does not decode, so every `npm run` a page names fails. */
const scripts: Readonly<Record<string, string>> = E.isRight(manifest) ? manifest.right.scripts : {};
const repository: Repository = {
	files: repoFiles,
	read: readRepo,
	scripts: new Set(Object.keys(scripts)),
};

/** The pages checked: the two at the root, docs/*.md, and every README.md under test/fixtures. */
const pages = [
	"README.md",
	"CONTEXT.md",
	...[...repoFiles].filter((f) => /^docs\/[^/]+\.md$/.test(f)),
	...[...repoFiles].filter((f) => f.startsWith("test/fixtures/") && posix.basename(f) === "README.md"),
].sort();

describe("the docs: README.md, CONTEXT.md, docs/*.md and the fixtures' READMEs", () => {
	it("are all read: the root's two pages, every docs page and the reader corpus's README", () => {
		expect(pages).toEqual(
			expect.arrayContaining([
				"README.md",
				"CONTEXT.md",
				"docs/architecture.md",
				"docs/evaluation.md",
				"docs/security.md",
				"test/fixtures/reader-corpus/README.md",
			]),
		);
	});

	it("name only paths, files, symbols, links, anchors and headings that are there", () => {
		expect(pages.flatMap((page) => unresolved(page, repository.read(page), repository))).toEqual([]);
	});

	it("name each path or script listed as not this project's, so the list holds no stale entry", () => {
		const stale = NOT_OURS.filter((n) => !namesIn(repository.read(n.page)).includes(n.name));
		expect(stale).toEqual([]);
	});

	it("README.md says what Longhaul is, how to install and configure it, and gives the two set-up commands", () => {
		const readme = repository.read("README.md");
		const setUp = readme.slice(readme.indexOf("the two set-up commands"));
		expect({
			what: readme.startsWith("# Longhaul\n\nA compaction extension for the [pi coding agent]"),
			headings: [...headingsOf(readme)].filter((h) => h === "Install and run" || h === "Configure"),
			installAndRun: /^npm ci && npm run state -- \S+/m.test(setUp),
			test: /^npm test\b/m.test(setUp),
			npmTest: scripts.test,
		}).toEqual({
			what: true,
			headings: ["Install and run", "Configure"],
			installAndRun: true,
			test: true,
			npmTest: "npm run typecheck && npm run lint && vitest run",
		});
	});

	it("cite no document a clone does not have (the seed, SPEC)", () => {
		const outside = pages.filter((page) =>
			/\bthe seed\b|\bseed's\b|\(seed[,)]|\bSPEC\b/.test(oneLine(repository.read(page))),
		);
		expect(outside).toEqual([]);
	});
});

describe("the docs' citation reader", () => {
	const files = new Set(["docs/a.md", "README.md", "src/x/y.ts", "src/x/z.ts", "bench/b.ts"]);
	const texts: Record<string, string> = {
		"docs/a.md": "# A\n\n## One pass\n\n### On the data\n\n## On the data\n\n```\n## Fenced\n```\n",
		"README.md": "# R\n",
		"src/x/y.ts": "export const ANSWER_BOUNDS = 1; const answerBoundsX = 2;",
		"src/x/z.ts": "export function ledgerEvents() {}",
		"bench/b.ts": "",
	};
	const repo: Repository = { files, read: (file) => texts[file] ?? "", scripts: new Set(["state", "test:pi1"]) };

	it("passes what is there: paths, folders, globs, bare names, symbols, links, anchors, headings, scripts", () => {
		const text = [
			"`src/x/y.ts`, src/x/ and src/x, bench/*.ts; (`ANSWER_BOUNDS`, src/x/y.ts) `ledgerEvents` (z.ts)",
			"[a](a.md#one-pass) [b](a.md#on-the-data-1) [r](../README.md) [self](#on-the-data) [w](https://x.org/q.md)",
			"see a.md, One pass, step 7; and docs/a.md, On the data. Also `./config.js` and /home/u/src/q.ts.",
			"`npm run state -- F`, `npm run -s state`, npm run test:pi1; in packages/coding-agent, `dist/.sources`",
		].join("\n");
		expect(unresolved("docs/a.md", text, repo)).toEqual([]);
	});

	it("names the page and each thing that is not there", () => {
		const text = [
			"src/x/gone.ts and `test/none/` and `moved.ts`; `answerBounds` in src/x/y.ts and `ANSWER_BOUNDS`",
			"(src/x/z.ts) [c](c.md) [a](a.md#fenced) see a.md, Gone; npm run states",
		].join("\n");
		expect(unresolved("docs/a.md", text, repo)).toEqual([
			"docs/a.md: no such path src/x/gone.ts",
			"docs/a.md: no such path test/none/",
			"docs/a.md: no npm script states",
			"docs/a.md: no file is named moved.ts",
			"docs/a.md: src/x/y.ts holds no answerBounds",
			"docs/a.md: src/x/z.ts holds no ANSWER_BOUNDS",
			"docs/a.md: a link to c.md, which is not there",
			"docs/a.md: a link to docs/a.md#fenced, which has no such heading",
			"docs/a.md: a citation of docs/a.md, Gone: no such heading",
		]);
	});

	it("reads a symbol and its file wrapped over two lines", () => {
		expect(unresolved("docs/a.md", "(`ledgerEvents`,\nsrc/x/y.ts)", repo)).toEqual([
			"docs/a.md: src/x/y.ts holds no ledgerEvents",
		]);
	});
});
