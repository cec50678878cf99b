import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AssistantMessage, fauxAssistantMessage, fauxToolCall } from "@mariozechner/pi-ai";
import { runStateCli } from "../../src/adapters/cli/state-cli.js";
import { labeler } from "./fake-summarizer.js";
import { longhaulSession, tick } from "./longhaul-session.js";
import { fail, type Harness, type Reply, say } from "./pi-harness.js";
import { repoRoot } from "./shared.js";

// Writes the e2e sessions' golden files (`npm run make-golden-sessions`): three scenarios played in a real pi
// session (pi 0.73.1) with Longhaul loaded and only the model scripted, each session file copied to
// test/fixtures/golden/e2e-<name>.jsonl beside the `state --json` it gives (e2e-<name>.state.txt).
// test/unit/reducers/stored-sessions.test.ts checks that those files still fold to those outputs. The files are
// made once and committed: pi's entry ids, timestamps and temp paths differ on every run (and so does the entry id
// a foreign compaction's record names in `state --json`), so run this again only when a change is meant to alter
// the state, and name that change in the commit.

const GOLDEN = join(repoRoot, "test/fixtures/golden");

/** A command that fails until the file `fixed` exists in the cwd, then passes: an error and its fix. */
const TESTS = "test -f fixed && echo '12 passed' || { echo '3 failed'; exit 1; }";

let calls = 0;

/** A tool call with an id of its own (faux's are the clock and a random part), so a new run prints the same ids. */
function callTool(name: string, args: Record<string, unknown>): AssistantMessage {
	return fauxAssistantMessage(fauxToolCall(name, args, { id: `golden-call-${++calls}` }), { stopReason: "toolUse" });
}

const callBash = (command: string) => callTool("bash", { command });

/** Sends a user message with the agent's replies for its turn, and checks that the turn used them all. */
async function turn(h: Harness, text: string, ...replies: Reply[]): Promise<void> {
	h.model.scriptAgent(...replies);
	await h.prompt(text);
	if (h.model.pending() > 0) throw new Error(`"${text}": ${h.model.pending()} scripted replies left over`);
}

/** Compacts with the side calls' replies, checks they were all used, and lets the deferred line land. */
async function compact(h: Harness, ...side: Reply[]): Promise<void> {
	h.model.scriptSide(...side);
	await h.compact();
	await tick();
	if (h.model.pending() > 0) throw new Error(`a compaction left ${h.model.pending()} side replies unused`);
}

/** The leaf's entry id. */
function leaf(h: Harness): string {
	const id = h.branch().at(-1)?.id;
	if (id === undefined) throw new Error("the session has no entries");
	return id;
}

/** The entry id of the newest user message on the branch. */
function lastUser(h: Harness): string {
	const id = h.branch().findLast((e) => e.type === "message" && e.message.role === "user")?.id;
	if (id === undefined) throw new Error("no user message on the branch");
	return id;
}

/** Copies the session's file into the golden dir as e2e-<name>.jsonl and writes its `state --json` beside it. */
async function keep(h: Harness, name: string): Promise<void> {
	const file = h.session.sessionFile;
	if (file === undefined) throw new Error("the session is not persisted");
	const target = join(GOLDEN, `e2e-${name}.jsonl`);
	copyFileSync(file, target);
	const state = await runStateCli([target, "--json"], {});
	if (state.code !== 0) throw new Error(`state --json on e2e-${name}.jsonl: ${state.stderr}`);
	writeFileSync(join(GOLDEN, `e2e-${name}.state.txt`), state.stdout);
	process.stdout.write(`wrote e2e-${name}.jsonl and e2e-${name}.state.txt\n`);
}

/** Three compactions: rules added and one lifted, a note remembered, a failing command and the run that fixed it. */
async function rulesNotesErrors(h: Harness): Promise<void> {
	await turn(h, "never add dependencies without asking me first", say("understood"));
	await turn(h, "always run the linter before you commit", say("will do"));
	await turn(h, "run the tests", callBash(TESTS), say("3 tests fail"));
	await compact(h, labeler());
	await turn(
		h,
		"remember that the flaky test is net.test.ts",
		callTool("longhaul_remember", { note: "the flaky test is net.test.ts" }),
		say("remembered"),
	);
	await turn(h, "fix the tests", callBash("touch fixed"), callBash(TESTS), say("all 12 pass now"));
	await compact(h, labeler());
	await turn(h, "the dependencies rule is lifted, you may add zod", say("noted"));
	await turn(h, "never push to main", say("understood"));
	await compact(h, labeler({ "is lifted": "R1" }));
	await turn(h, "thanks", say("you're welcome"));
	await keep(h, "rules-notes-errors");
}

/** A `/tree` move back before a lift, a new rule on the new branch; then a fork from that branch. */
async function treeThenFork(h: Harness): Promise<void> {
	await turn(h, "never push to main", say("ok"));
	await turn(h, "next", say("ok"));
	await compact(h, labeler());
	const afterFirst = leaf(h);
	await turn(h, "the push rule is lifted", say("ok"));
	await turn(h, "more", say("ok"));
	await compact(h, labeler({ "is lifted": "R1" }));
	await h.navigateTree(afterFirst);
	await turn(h, "always write the test first", say("ok"));
	await turn(h, "go on", say("ok"));
	const goOn = lastUser(h);
	await compact(h, labeler());
	await turn(h, "and now?", say("carrying on"));
	await keep(h, "tree");
	await h.fork(goOn);
	await turn(h, "never log secrets", say("ok"));
	await turn(h, "then the docs", say("ok"));
	await compact(h, labeler());
	await turn(h, "done?", say("done"));
	await keep(h, "fork");
}

/** pi's own compaction first (PI_COMPACTOR=pi), taken over by Longhaul's next; then a pass whose model fails. */
async function takeover(h: Harness): Promise<void> {
	await turn(h, "never add dependencies without asking", say("ok"));
	await turn(h, "run the tests", callBash(TESTS), say("3 fail"));
	await compact(h, "## Goal\npi's own summary of the work so far", "## Turn\nthe turn so far");
	process.env.PI_COMPACTOR = "";
	await h.reload();
	await turn(h, "always run the linter before you commit", say("ok"));
	await turn(h, "fix the tests", callBash("touch fixed"), callBash(TESTS), say("green"));
	await compact(h, labeler());
	await turn(h, "never push to main", say("ok"));
	await turn(h, "next", say("ok"));
	await compact(h, fail("overloaded"));
	await turn(h, "are you there?", say("still here"));
	await keep(h, "takeover");
}

/** Each scenario, and the environment its session starts with. */
const SCENARIOS: readonly { env: Record<string, string>; run: (h: Harness) => Promise<void> }[] = [
	{ env: {}, run: rulesNotesErrors },
	{ env: {}, run: treeThenFork },
	{ env: { PI_COMPACTOR: "pi" }, run: takeover },
];

for (const scenario of SCENARIOS) {
	const h = await longhaulSession({
		persist: true,
		autoCompaction: false,
		env: { PI_COMPACT_STATE_DEBUG: "off", PI_COMPACTOR: "", ...scenario.env },
	});
	try {
		await scenario.run(h);
		if (h.extensionErrors.length > 0) throw new Error(`${scenario.run.name}: ${JSON.stringify(h.extensionErrors)}`);
	} finally {
		await h.dispose();
	}
}
