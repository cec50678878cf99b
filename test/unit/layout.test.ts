import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/shared.js";

// The layout docs/architecture.md describes (Layers, Folders), held on every import of src: the layers import one
// way, the folders of src/pass form a chain and not a circle, src never reaches into bench/ or test/, and a sealed
// folder is entered from outside only through its index.ts. Imports are read with TypeScript's parser (import and
// export-from declarations, type-only ones too, and `import("…")`), so a specifier in a comment or a string is none.

/** The layers of src, lowest first: a file may import its own layer and those below it. */
const LAYERS: readonly (readonly string[])[] = [
	["src/events"],
	["src/reducers"],
	["src/projections"],
	["src/pass"],
	// The evaluation, a second application, sits beside the adapters it drives; only the CLI may load it (below).
	["src/adapters", "src/eval"],
	["src/extension.ts"],
];

/** The folders behind an index.ts: from outside a folder, the only way in is its index. */
const SEALED = [
	"src/events",
	"src/reducers",
	"src/projections",
	...readdirSync(join(repoRoot, "src/pass")).map((name) => `src/pass/${name}`),
];

/** One relative import: the importing file and the module it names, both relative to the repository. */
interface Import {
	readonly from: string;
	readonly to: string;
}

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return tsFiles(path);
		return path.endsWith(".ts") ? [path] : [];
	});
}

/** Every module specifier a source file names: import and export-from declarations, and `import("…")`. */
function specifiers(file: string): string[] {
	const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
	const found: string[] = [];
	const visit = (node: ts.Node): void => {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier !== undefined &&
			ts.isStringLiteral(node.moduleSpecifier)
		)
			found.push(node.moduleSpecifier.text);
		else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
			const [arg] = node.arguments;
			// A computed import would hide its target from this test: only a literal is read as one.
			found.push(arg !== undefined && ts.isStringLiteralLike(arg) ? arg.text : "<computed import>");
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** The relative imports of the .ts files under `dirs`, each as the repository path of the module it names. */
function importsUnder(dirs: readonly string[]): Import[] {
	return dirs.flatMap((dir) =>
		tsFiles(join(repoRoot, dir)).flatMap((file) =>
			specifiers(file).flatMap((spec): Import[] => {
				const from = relative(repoRoot, file);
				if (spec === "<computed import>") return [{ from, to: spec }];
				if (!spec.startsWith(".")) return [];
				return [{ from, to: relative(repoRoot, resolve(dirname(file), spec.replace(/\.js$/, ".ts"))) }];
			}),
		),
	);
}

const within = (path: string, place: string) => path === place || path.startsWith(`${place}/`);

/** The place of LAYERS a path is in, and the rank of its layer; undefined when it is in none. */
function layerOf(path: string): { readonly place: string; readonly rank: number } | undefined {
	for (const [rank, layer] of LAYERS.entries()) {
		const place = layer.find((p) => within(path, p));
		if (place !== undefined) return { place, rank };
	}
	return undefined;
}

/** Each import that goes up the layers, or leaves them (into bench/, test/, or a place no layer holds). */
function layerBreaks(imports: readonly Import[]): string[] {
	return imports.flatMap(({ from, to }) => {
		const mine = layerOf(from);
		const theirs = layerOf(to);
		if (mine === undefined) return [`${from} is in no layer (add its folder to LAYERS)`];
		if (theirs === undefined) return [`${from} -> ${to}: outside src's layers`];
		return theirs.rank > mine.rank ? [`${from} -> ${to}: ${mine.place} imports ${theirs.place}, a higher layer`] : [];
	});
}

/** The folder of src/pass or src/adapters a path is in (`src/pass/accept`, `src/adapters/redact`), or undefined. */
function phaseFolder(path: string): string | undefined {
	const [src, layer, folder, ...rest] = path.split("/");
	return src === "src" && (layer === "pass" || layer === "adapters") && folder !== undefined && rest.length > 0
		? `${src}/${layer}/${folder}`
		: undefined;
}

/**
 * Each circle among the folders of src/pass and among those of src/adapters, one per strongly connected set of folders (Tarjan), written as a walk
 * from its first folder back to it, with the imports that make each step and the other folders of the set.
 */
function folderCircles(imports: readonly Import[]): string[] {
	const edges = new Map<string, Map<string, string>>();
	for (const { from, to } of imports) {
		const a = phaseFolder(from);
		const b = phaseFolder(to);
		if (a === undefined || b === undefined || a === b) continue;
		const out = edges.get(a) ?? new Map<string, string>();
		if (!out.has(b)) out.set(b, `${from} -> ${to}`);
		edges.set(a, out);
		if (!edges.has(b)) edges.set(b, new Map());
	}
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const sets: string[][] = [];
	const connect = (node: string): void => {
		index.set(node, index.size);
		low.set(node, index.get(node) ?? 0);
		stack.push(node);
		for (const next of (edges.get(node) ?? new Map()).keys()) {
			if (!index.has(next)) {
				connect(next);
				low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
			} else if (stack.includes(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
		}
		if (low.get(node) !== index.get(node)) return;
		const set: string[] = [];
		for (let top = stack.pop(); top !== undefined; top = top === node ? undefined : stack.pop()) set.push(top);
		if (set.length > 1) sets.push(set.sort());
	};
	for (const node of [...edges.keys()].sort()) if (!index.has(node)) connect(node);
	return sets.map((set) => {
		const start = set[0] ?? "";
		const walk = walkBack(start, new Set(set), edges);
		const steps = walk.slice(1).map((to, i) => edges.get(walk[i] ?? "")?.get(to) ?? "");
		const others = set.filter((folder) => !walk.includes(folder));
		const knot = others.length === 0 ? "" : `; in the same knot: ${others.join(", ")}`;
		return `${walk.join(" -> ")} (${steps.join("; ")})${knot}`;
	});
}

/** A shortest walk from `start` back to it inside `set` (breadth first); `set` is strongly connected. */
function walkBack(start: string, set: ReadonlySet<string>, edges: ReadonlyMap<string, ReadonlyMap<string, string>>) {
	const cameFrom = new Map<string, string>();
	const queue = [start];
	for (let i = 0; i < queue.length; i++) {
		const node = queue[i] ?? "";
		for (const next of (edges.get(node) ?? new Map()).keys()) {
			if (!set.has(next) || cameFrom.has(next)) continue;
			cameFrom.set(next, node);
			if (next === start) {
				const walk = [start];
				for (let at = node; at !== start; at = cameFrom.get(at) ?? start) walk.unshift(at);
				return [start, ...walk];
			}
			queue.push(next);
		}
	}
	return [start];
}

/** The one file of src outside src/eval that may import it: the CLI, which loads each evaluation command as it runs. */
const EVAL_LOADER = "src/adapters/cli/main.ts";

/** Each import of src/eval from src but the CLI: the extension pi loads carries none of the evaluation. */
function evalBreaks(imports: readonly Import[]): string[] {
	return imports.flatMap(({ from, to }) =>
		within(to, "src/eval") && !within(from, "src/eval") && from !== EVAL_LOADER && within(from, "src")
			? [`${from} -> ${to}: only ${EVAL_LOADER} loads src/eval`]
			: [],
	);
}

const sealedOf = (path: string) => SEALED.find((folder) => path.startsWith(`${folder}/`));

const srcImports = importsUnder(["src"]);

describe("the layout", () => {
	it('reads every kind of import of src: declarations, type-only ones, export-from and import("…")', () => {
		const seen = (from: string, to: string) => srcImports.some((i) => i.from === from && i.to === to);
		expect(seen("src/reducers/evolve.ts", "src/events/index.ts")).toBe(true);
		expect(seen("src/pass/answer/repair.ts", "src/pass/answer/defects.ts")).toBe(true); // import type
		expect(seen("src/pass/reader/index.ts", "src/pass/reader/standing-rules.ts")).toBe(true); // export … from
		expect(seen("src/adapters/cli/main.ts", "src/adapters/cli/state-cli.ts")).toBe(true); // import("…")
	});

	it("src imports down its layers only (events < reducers < projections < pass < adapters < extension.ts), never bench/ or test/", () => {
		expect(layerBreaks(srcImports)).toEqual([]);
	});

	it("nothing in src but the CLI imports the evaluation (src/eval)", () => {
		expect(srcImports.some((i) => i.from === EVAL_LOADER && within(i.to, "src/eval"))).toBe(true);
		expect(evalBreaks(srcImports)).toEqual([]);
		expect(
			evalBreaks([
				{ from: "src/adapters/pi/longhaul.ts", to: "src/eval/replay.ts" },
				{ from: EVAL_LOADER, to: "src/eval/replay.ts" },
				{ from: "src/eval/score.ts", to: "src/eval/judge.ts" },
			]),
		).toEqual(["src/adapters/pi/longhaul.ts -> src/eval/replay.ts: only src/adapters/cli/main.ts loads src/eval"]);
	});

	it("the folders of src/pass, and those of src/adapters, import one another without a circle", () => {
		expect(folderCircles(srcImports)).toEqual([]);
	});

	it("a planted import against the layers, into bench/, or closing a circle of src/pass or src/adapters is named", () => {
		const planted: Import[] = [
			{ from: "src/projections/index.ts", to: "src/adapters/recall/by-ref.ts" },
			{ from: "src/adapters/cli/main.ts", to: "bench/run.ts" },
			{ from: "src/pass/answer/repair.ts", to: "src/pass/accept/index.ts" },
			{ from: "src/pass/accept/accept.ts", to: "src/pass/answer/index.ts" },
			{ from: "src/pass/span/span.ts", to: "src/events/index.ts" },
			{ from: "src/adapters/redact/outgoing.ts", to: "src/adapters/pass/model.ts" },
			{ from: "src/adapters/pass/run-pass.ts", to: "src/adapters/redact/span.ts" },
		];
		expect(layerBreaks(planted)).toEqual([
			"src/projections/index.ts -> src/adapters/recall/by-ref.ts: src/projections imports src/adapters, a higher layer",
			"src/adapters/cli/main.ts -> bench/run.ts: outside src's layers",
		]);
		expect(folderCircles(planted)).toEqual([
			"src/adapters/pass -> src/adapters/redact -> src/adapters/pass (src/adapters/pass/run-pass.ts -> src/adapters/redact/span.ts; src/adapters/redact/outgoing.ts -> src/adapters/pass/model.ts)",
			"src/pass/accept -> src/pass/answer -> src/pass/accept (src/pass/accept/accept.ts -> src/pass/answer/index.ts; src/pass/answer/repair.ts -> src/pass/accept/index.ts)",
		]);
	});

	it("every src/pass folder is a phase behind its index.ts", () => {
		for (const folder of SEALED) expect(statSync(join(repoRoot, folder, "index.ts")).isFile()).toBe(true);
	});

	it("no file of src, bench or scripts reaches into a sealed folder past its index", () => {
		const bypasses = importsUnder(["src", "bench", "scripts"]).flatMap(({ from, to }) => {
			const folder = sealedOf(to);
			if (folder === undefined || from.startsWith(`${folder}/`) || to === `${folder}/index.ts`) return [];
			return [`${from} -> ${to}`];
		});
		expect(bypasses).toEqual([]);
	});
});
