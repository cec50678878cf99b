// The score of a Stryker JSON report (`node mutation/score.mjs reports/mutation-events.json`), per file and in all,
// with the mutants outside every function counted apart. Such a mutant changes code that runs once, when its module
// loads (a codec, a regex, a table); the vitest runner keeps loaded modules between mutants, so it never takes
// effect and cannot be killed. Stryker calls these static and `ignoreStatic` should leave them out, but it does not
// always tell them: this script does, from the TypeScript source.
import { readFileSync } from "node:fs";
import ts from "typescript";

const isFunction = (node) =>
	ts.isFunctionDeclaration(node) ||
	ts.isFunctionExpression(node) ||
	ts.isArrowFunction(node) ||
	ts.isMethodDeclaration(node) ||
	ts.isConstructorDeclaration(node) ||
	ts.isGetAccessorDeclaration(node) ||
	ts.isSetAccessorDeclaration(node);

/** The [start, end) offsets of every function body in the source. */
function bodies(file, source) {
	const found = [];
	const visit = (node) => {
		if (isFunction(node) && node.body !== undefined) found.push([node.body.getStart(), node.body.getEnd()]);
		ts.forEachChild(node, visit);
	};
	visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true));
	return found;
}

const offset = (lineStarts, { line, column }) => lineStarts[line - 1] + column - 1;
const score = (c) => {
	const all = c.killed + c.survived;
	return all === 0 ? "-" : `${((100 * c.killed) / all).toFixed(2)}%`;
};

const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
const total = { killed: 0, survived: 0, atLoad: 0 };
for (const [file, { source, mutants }] of Object.entries(report.files)) {
	const lineStarts = [0];
	for (let i = 0; i < source.length; i++) if (source[i] === "\n") lineStarts.push(i + 1);
	const inBodies = bodies(file, source);
	const counts = { killed: 0, survived: 0, atLoad: 0 };
	for (const m of mutants) {
		if (m.status === "Ignored" || m.status === "CompileError" || m.status === "RuntimeError") continue;
		const at = offset(lineStarts, m.location.start);
		if (!inBodies.some(([from, to]) => at >= from && at < to)) counts.atLoad++;
		else if (m.status === "Killed" || m.status === "Timeout") counts.killed++;
		else counts.survived++;
	}
	for (const key of Object.keys(total)) total[key] += counts[key];
	console.log(`${file}: ${score(counts)} (${counts.killed} killed, ${counts.survived} not; ${counts.atLoad} at load)`);
}
console.log(`all: ${score(total)} (${total.killed} killed, ${total.survived} not; ${total.atLoad} at load, left out)`);
