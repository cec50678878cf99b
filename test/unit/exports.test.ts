import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/shared.js";

// What is exported only for tests says so (docs/architecture.md, Folders): an export of src that no other src file
// uses, but a test or a bench does, ends its doc comment with MARK; an export that says so is used by no src file.
// The files are read with TypeScript's parser, not its type checker (which takes most of a minute here): a use is
// an import, followed through the index.ts files that re-export it, so a name inside another identifier is no use.

const MARK = "Exported for tests.";

/** Files whose imports count as uses by the code itself: src, and the scripts that build from it. */
const isCode = (path: string) => path.startsWith("src/") || path.startsWith("scripts/");

/** One exported name of a src file, with the declarations that make it and the doc comment above the first. */
interface Export {
	readonly file: string;
	readonly name: string;
	readonly declarations: ts.Node[];
	readonly marked: boolean;
}

/** What the scan finds: exports unmarked though only tests use them, marks that are wrong, imports it cannot read. */
interface Audit {
	readonly missing: string[];
	readonly stale: string[];
	readonly unread: string[];
}

/** The text of the `/** ... *\/` comment directly above a node, its stars and line breaks gone; "" when none. */
function docOf(node: ts.Node, text: string): string {
	const last = ts.getLeadingCommentRanges(text, node.pos)?.at(-1);
	const comment = last === undefined ? "" : text.slice(last.pos, last.end);
	if (!comment.startsWith("/**")) return "";
	return comment
		.slice(3, -2)
		.split("\n")
		.map((line) => line.replace(/^\s*\*?\s?/, ""))
		.join(" ")
		.replace(/\s+/g, " ")
		.trim();
}

const exported = (node: ts.Node) =>
	ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a top-level statement exports, each with the node that declares it. */
function declared(statement: ts.Statement): [string, ts.Node][] {
	if (!exported(statement)) return [];
	if (ts.isVariableStatement(statement))
		return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [[d.name.text, d]] : []));
	if (
		(ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
		statement.name !== undefined &&
		!(ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)
	)
		return [[statement.name.text, statement]];
	if (ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement))
		return [[statement.name.text, statement]];
	return [];
}

/** True for an export that declares a type: an interface, a type alias, a class or an enum. */
const isType = (e: Export | undefined) =>
	e?.declarations.some(
		(d) =>
			ts.isInterfaceDeclaration(d) ||
			ts.isTypeAliasDeclaration(d) ||
			ts.isClassDeclaration(d) ||
			ts.isEnumDeclaration(d),
	) === true;

/** The path a relative import names, as a repository path; undefined for a package. */
function target(from: string, specifier: string, paths: ReadonlySet<string>): string | undefined {
	if (!specifier.startsWith(".")) return undefined;
	const base = posix.join(posix.dirname(from), specifier).replace(/\.js$/, ".ts");
	return paths.has(base) ? base : posix.join(base, "index.ts");
}

/** The names of this file's exports that the signature of a declaration mentions (types, `typeof`, heritage). */
function mentioned(node: ts.Node): string[] {
	const names: string[] = [];
	const leftmost = (name: ts.EntityName | ts.Expression): void => {
		if (ts.isIdentifier(name)) names.push(name.text);
		else if (ts.isQualifiedName(name)) leftmost(name.left);
		else if (ts.isPropertyAccessExpression(name)) leftmost(name.expression);
	};
	const visit = (n: ts.Node): void => {
		if (ts.isBlock(n)) return;
		if (ts.isTypeReferenceNode(n)) leftmost(n.typeName);
		if (ts.isTypeQueryNode(n)) leftmost(n.exprName);
		if (ts.isExpressionWithTypeArguments(n)) leftmost(n.expression);
		if (ts.isFunctionLike(n)) {
			for (const part of [...(n.typeParameters ?? []), ...n.parameters.map((p) => p.type), n.type])
				if (part !== undefined) visit(part);
			return;
		}
		if (ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n)) {
			if (n.type !== undefined) visit(n.type);
			const init = n.initializer;
			if (init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) visit(init);
			return;
		}
		ts.forEachChild(n, visit);
	};
	visit(node);
	return names;
}

/** Audits a set of files, keyed by repository path (src/..., test/..., bench/..., scripts/...). */
function audit(files: ReadonlyMap<string, string>): Audit {
	const paths = new Set(files.keys());
	const sources = new Map(
		[...files].map(([path, text]) => [path, ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)]),
	);
	const exports = new Map<string, Export>();
	const reexports = new Map<string, string>();
	const unread: string[] = [];
	const key = (file: string, name: string) => `${file}: ${name}`;

	for (const [path, source] of sources) {
		for (const statement of source.statements) {
			if (ts.isExportDeclaration(statement)) {
				const from = statement.moduleSpecifier;
				const to = from !== undefined && ts.isStringLiteral(from) ? target(path, from.text, paths) : undefined;
				const clause = statement.exportClause;
				if (to === undefined || clause === undefined || !ts.isNamedExports(clause)) {
					unread.push(`${path}: ${statement.getText(source)}`);
					continue;
				}
				for (const e of clause.elements)
					reexports.set(key(path, e.name.text), key(to, (e.propertyName ?? e.name).getText(source)));
				continue;
			}
			if (!path.startsWith("src/")) continue;
			for (const [name, node] of declared(statement)) {
				const known = exports.get(key(path, name));
				if (known !== undefined) known.declarations.push(node);
				else
					exports.set(key(path, name), {
						file: path,
						name,
						declarations: [node],
						marked: docOf(statement, source.text).endsWith(MARK),
					});
			}
		}
	}

	/** The export a name of a module stands for, through the index.ts files that re-export it. */
	const origin = (k: string): string | undefined => {
		for (let at: string | undefined = k, hops = 0; at !== undefined && hops < 20; at = reexports.get(at), hops++)
			if (exports.has(at)) return at;
		return undefined;
	};
	const bySrc = new Set<string>();
	const byTest = new Set<string>();
	const use = (from: string, to: string, name: string) => {
		const k = origin(key(to, name));
		if (k !== undefined) (isCode(from) ? bySrc : byTest).add(k);
	};

	for (const [path, source] of sources) {
		// A namespace import (`import * as ev from "./events.js"`) uses each name read off it (`ev.ruleAdded`); one
		// used otherwise (passed whole, indexed) cannot be followed.
		const namespaces = new Map<string, string>();
		const visit = (n: ts.Node): void => {
			if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
				const to = target(path, n.moduleSpecifier.text, paths);
				const bindings = n.importClause?.namedBindings;
				if (to !== undefined && bindings !== undefined && ts.isNamespaceImport(bindings))
					namespaces.set(bindings.name.text, to);
				if (to !== undefined && bindings !== undefined && ts.isNamedImports(bindings))
					for (const e of bindings.elements) use(path, to, (e.propertyName ?? e.name).getText(source));
			}
			if (ts.isIdentifier(n) && namespaces.has(n.text) && !ts.isNamespaceImport(n.parent)) {
				const to = namespaces.get(n.text) ?? "";
				const read = n.parent;
				if (ts.isPropertyAccessExpression(read) && read.expression === n) use(path, to, read.name.text);
				else if (ts.isQualifiedName(read) && read.left === n) use(path, to, read.right.text);
				else unread.push(`${path}: ${n.text} used whole at ${read.getText(source)}`);
			}
			if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
				const [specifier] = n.arguments;
				const to =
					specifier !== undefined && ts.isStringLiteral(specifier) ? target(path, specifier.text, paths) : undefined;
				if (to !== undefined) {
					const names = dynamicNames(n);
					if (names === undefined) unread.push(`${path}: ${n.getText(source)}`);
					for (const name of names ?? []) use(path, to, name);
				}
			}
			if (ts.isImportTypeNode(n)) unread.push(`${path}: ${n.getText(source)}`);
			ts.forEachChild(n, visit);
		};
		visit(source);
	}

	// A type in the signature of an export that src uses is part of that API, and so on down; a value (a function
	// named in a `typeof`) is not.
	const api = [...bySrc];
	for (let k = api.pop(); k !== undefined; k = api.pop()) {
		const e = exports.get(k);
		for (const name of (e?.declarations ?? []).flatMap(mentioned)) {
			const m = e === undefined ? undefined : key(e.file, name);
			if (m !== undefined && isType(exports.get(m)) && !bySrc.has(m)) {
				bySrc.add(m);
				api.push(m);
			}
		}
	}

	const all = [...exports].sort(([a], [b]) => a.localeCompare(b));
	return {
		missing: all.filter(([k, e]) => !e.marked && !bySrc.has(k) && byTest.has(k)).map(([k]) => k),
		stale: all.filter(([k, e]) => e.marked && (bySrc.has(k) || !byTest.has(k))).map(([k]) => k),
		unread,
	};
}

/** The names taken from `(await import("x")).name` or `const { a, b } = await import("x")`; undefined otherwise. */
function dynamicNames(call: ts.CallExpression): string[] | undefined {
	const awaited = ts.isAwaitExpression(call.parent) ? call.parent : undefined;
	const outer =
		awaited !== undefined && ts.isParenthesizedExpression(awaited.parent) ? awaited.parent.parent : undefined;
	if (outer !== undefined && ts.isPropertyAccessExpression(outer)) return [outer.name.text];
	const binding = awaited !== undefined && ts.isVariableDeclaration(awaited.parent) ? awaited.parent.name : undefined;
	if (binding === undefined || !ts.isObjectBindingPattern(binding)) return undefined;
	return binding.elements.map((b) => (b.propertyName ?? b.name).getText());
}

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return tsFiles(path);
		return path.endsWith(".ts") ? [path] : [];
	});
}

const repoFiles = new Map(
	["src", "test", "bench", "scripts"]
		.flatMap((dir) => tsFiles(join(repoRoot, dir)))
		.map((path) => [relative(repoRoot, path).split("\\").join("/"), readFileSync(path, "utf8")]),
);

describe("what is exported only for tests says so", () => {
	const found = audit(repoFiles);

	it("every export of src that only tests or benches use ends its doc comment with the mark", () => {
		expect(found.missing, `add "${MARK}" to the doc comment of`).toEqual([]);
	});

	it("no export that carries the mark is used by src, and each is used by a test or a bench", () => {
		expect(found.stale, `remove "${MARK}" from (or use from a test)`).toEqual([]);
	});

	it("every import of the project is one the scan can follow", () => {
		expect(found.unread).toEqual([]);
	});
});

describe("the scan of exports", () => {
	const planted = new Map([
		["src/a/index.ts", `export { viaIndex, typed } from "./a.js";\n`],
		[
			"src/a/a.ts",
			[
				"/** Used by b through the index. */",
				"export function viaIndex(options: Options): Result { return run(options); }",
				"export interface Options { readonly depth: number }",
				"export type Result = { readonly done: Inner };",
				"export type Inner = boolean;",
				"/** Only the test uses this one. */",
				"export const testOnly = 1;",
				`/** Marked, though b uses it. ${MARK} */`,
				"export class Stale {}",
				`/** A bound. ${MARK} */`,
				"export const LIMIT = 3;",
				"export const typed = (n: number): Counted => ({ n });",
				"export interface Counted { readonly n: number }",
				"export function kindOf(): string { return typed(1).n > 0 ? 'a' : 'b'; }",
				"export function handle(kind: ReturnType<typeof kindOf>): void {}",
			].join("\n"),
		],
		[
			"src/b.ts",
			`import { typed, viaIndex } from "./a/index.js";\nimport { handle, Stale } from "./a/a.js";\nconst testOnlyish = 2;\n`,
		],
		[
			"test/a.test.ts",
			`import { kindOf, LIMIT, testOnly } from "../src/a/a.js";\nimport { Options } from "../src/a/index.js";\n`,
		],
	]);

	it("reports an export only a test uses without the mark, and a mark on an export src uses", () => {
		expect(audit(planted)).toEqual({
			missing: ["src/a/a.ts: kindOf", "src/a/a.ts: testOnly"],
			stale: ["src/a/a.ts: Stale"],
			unread: [],
		});
	});

	it("reports a mark on an export nothing uses, and a namespace import it cannot follow", () => {
		const unused = new Map([...planted, ["test/a.test.ts", `import * as a from "../src/a/a.js";\nconst all = a;\n`]]);
		expect(audit(unused)).toEqual({
			missing: [],
			stale: ["src/a/a.ts: LIMIT", "src/a/a.ts: Stale"],
			unread: ["test/a.test.ts: a used whole at all = a"],
		});
	});

	it("follows the names a namespace import reads off it", () => {
		const read = new Map([...planted, ["test/a.test.ts", `import * as a from "../src/a/a.js";\nconst n = a.LIMIT;\n`]]);
		expect(audit(read)).toEqual({ missing: [], stale: ["src/a/a.ts: Stale"], unread: [] });
	});
});
