import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LONGHAUL_USAGE, longhaul, piResolves } from "../../../../src/adapters/cli/main.js";
import { repoRoot } from "../../../support/shared.js";
import { place, transcriptText } from "../../../support/transcript.js";

const noPi = () => false;

describe("longhaul <command>", () => {
	it("no command prints the usage on stderr and exits 2; --help prints it on stdout and exits 0", async () => {
		expect(await longhaul([])).toEqual({ stdout: "", stderr: `${LONGHAUL_USAGE}\n`, code: 2 });
		expect(await longhaul(["--help"])).toEqual({ stdout: `${LONGHAUL_USAGE}\n`, stderr: "", code: 0 });
		for (const name of ["state", "preview", "replay", "facts", "score", "demo", "bench"])
			expect(LONGHAUL_USAGE).toContain(`  ${name} `);
	});

	it("an unknown command, or one inherited from Object, is named and exits 2", async () => {
		for (const name of ["frobnicate", "toString", "constructor"]) {
			const run = await longhaul([name]);
			expect(run.code).toBe(2);
			expect(run.stderr.split("\n")[0]).toBe(`longhaul: no command ${name}`);
		}
	});

	it("state runs with what follows it, and prints JSON alone", async () => {
		const path = join(mkdtempSync(join(tmpdir(), "longhaul-main-")), "s.jsonl");
		writeFileSync(path, transcriptText(place([{ kind: "foreign-compaction", summary: "pi's summary" }])));
		const run = await longhaul(["state", path, "--json"], noPi);
		expect(run.code).toBe(0);
		expect(run.stderr).toBe("");
		expect(JSON.parse(run.stdout).foreign).toHaveLength(1);
	});

	it("where pi's SDK does not resolve, replay, score, demo and bench say so in one line and exit 2; state, preview and facts run", async () => {
		for (const name of ["replay", "score", "demo", "bench"]) {
			const run = await longhaul([name], noPi);
			expect(run.code).toBe(2);
			expect(run.stdout).toBe("");
			expect(run.stderr).toMatch(
				new RegExp(`^longhaul ${name} drives real pi sessions and needs pi's SDK[^\\n]*a clone[^\\n]*\\n$`),
			);
		}
		expect((await longhaul(["facts"], noPi)).code).toBe(0);
		const demo = join(repoRoot, "test/fixtures/demo/demo.jsonl");
		const preview = await longhaul(["preview", demo, "--keep-recent-tokens", "120"], noPi);
		expect(preview.code).toBe(0);
		expect(preview.stdout).toContain("(narrative-less: preview, no model)");
	});

	it("bench runs the benchmarks the launcher hands it, with what follows it; without them it says it runs in a clone and exits 2", async () => {
		const seen: (readonly string[])[] = [];
		const runBench = async (argv: readonly string[]) => {
			seen.push(argv);
			return { stdout: "figures\n", stderr: "", code: 0 };
		};
		expect(
			await longhaul(
				["bench", "x"],
				() => true,
				async () => runBench,
			),
		).toEqual({
			stdout: "figures\n",
			stderr: "",
			code: 0,
		});
		expect(seen).toEqual([["x"]]);
		const absent = await longhaul(["bench"], () => true);
		expect(absent.code).toBe(2);
		expect(absent.stdout).toBe("");
		expect(absent.stderr).toMatch(/^longhaul bench runs in a clone[^\n]*no build of bench\/[^\n]*\n$/);
	});

	it("pi's SDK resolves in this checkout, where it is a dev dependency", () => {
		expect(piResolves()).toBe(true);
	});
});
