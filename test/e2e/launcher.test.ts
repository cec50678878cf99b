import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/shared.js";

// The `longhaul` launcher (bin/longhaul.js) in a copy of the project's build inputs, its node_modules the project's
// own (so its TypeScript is there, as in a clone after npm ci): it builds dist/ before running whenever the sources
// changed since the last build, never runs stale code, and says why on stderr, so stdout stays the command's.

/** A whole tsc build on a shared two-core machine: a generous bound for a hang, not a speed target. */
const BUILD_TIMEOUT = 300_000;

const REBUILD = "longhaul: the sources changed since the last build; building dist/ first (tsc)\n";

interface Ran {
	readonly code: number | null;
	readonly stdout: string;
	readonly stderr: string;
}

let copy = "";

function longhaul(...args: string[]): Ran {
	const result = spawnSync(process.execPath, [join(copy, "bin", "longhaul.js"), ...args], {
		cwd: copy,
		encoding: "utf8",
	});
	return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
	copy = mkdtempSync(join(tmpdir(), "longhaul-launcher-"));
	for (const part of ["bin", "src", "bench", "scripts", "test/fixtures/demo", "package.json", "tsconfig.json"])
		cpSync(join(repoRoot, part), join(copy, part), { recursive: true });
	cpSync(join(repoRoot, "tsconfig.build.json"), join(copy, "tsconfig.build.json"));
	symlinkSync(join(repoRoot, "node_modules"), join(copy, "node_modules"), "dir");
});

afterAll(() => {
	if (copy !== "") rmSync(copy, { recursive: true, force: true });
});

describe("the longhaul launcher in a clone", { timeout: BUILD_TIMEOUT }, () => {
	it("builds once when there is no build, then runs the built command without building again", () => {
		expect(existsSync(join(copy, "dist"))).toBe(false);
		const first = longhaul("--help");
		expect(first).toMatchObject({ code: 0, stderr: REBUILD });
		expect(first.stdout).toContain("usage: longhaul <command>");
		expect(existsSync(join(copy, "dist", "src", "adapters", "cli", "main.js"))).toBe(true);
		const second = longhaul("--help");
		expect(second).toEqual({ code: 0, stdout: first.stdout, stderr: "" });
	});

	it("a changed source is built before the command runs, so what runs is the change", () => {
		appendFileSync(
			join(copy, "src", "adapters", "cli", "main.ts"),
			'\nexport const LAUNCHER_PROBE = "built after the change";\n',
		);
		const after = longhaul("--help");
		expect(after).toMatchObject({ code: 0, stderr: REBUILD });
		const built = spawnSync(
			process.execPath,
			[
				"--input-type=module",
				"-e",
				`import(${JSON.stringify(join(copy, "dist", "src", "adapters", "cli", "main.js"))}).then((m) => process.stdout.write(String(m.LAUNCHER_PROBE)))`,
			],
			{ encoding: "utf8" },
		);
		expect(built.stdout).toBe("built after the change");
		expect(longhaul("--help").stderr).toBe("");
	});

	it("a source that does not compile: the command does not run, one line says why, exit 2", () => {
		appendFileSync(
			join(copy, "src", "adapters", "cli", "main.ts"),
			"\nexport const broken: number = 'not a number';\n",
		);
		const ran = longhaul("--help");
		expect(ran.code).toBe(2);
		expect(ran.stdout).not.toContain("usage: longhaul <command>");
		expect(ran.stderr).toContain("longhaul: the build failed (tsc failed (exit 2)); fix it or run npm run build\n");
	});
});
