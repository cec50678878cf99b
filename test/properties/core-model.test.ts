import fc from "fast-check";
import { describe, it } from "vitest";
import { encodeEvent } from "../../src/events/index.js";
import { rememberedNote } from "../../src/pass/decide/note.js";
import { foldEntries, foldTranscript } from "../../src/reducers/index.js";
import { carefulAnswer } from "../support/fake-summarizer.js";
import { answeringModel, compactBranch } from "../support/passes.js";
import { type RulesAndNotes, type SessionModel, sessionModel } from "../support/session-model.js";
import { entriesWithoutIds } from "../support/without-ids.js";
import { params } from "./laws.js";

// A model-based property of the pure core: sequences of what a user and the agent do to a session (messages that
// give or lift rules, `longhaul_remember`, compactions by the real pass with a scripted model, `/tree` moves, forks,
// reloads from the file's bytes), checked after each step against a small model of the rules and notes in force.

type Raw = Record<string, unknown>;

/** The session as pi keeps it: every entry in file order, and the leaf new entries go under. */
interface Session {
	file: Raw[];
	leaf: string | null;
	ids: number;
}

function entryId(u: unknown): string {
	if (typeof u === "object" && u !== null && "id" in u && typeof u.id === "string") return u.id;
	throw new Error("model test: an entry has no id");
}

function path(session: Session): Raw[] {
	const byId = new Map(session.file.map((e) => [entryId(e), e]));
	const out: Raw[] = [];
	for (let at = session.leaf; at !== null; ) {
		const entry = byId.get(at);
		if (entry === undefined) break;
		out.push(entry);
		const parent = entry.parentId;
		at = typeof parent === "string" ? parent : null;
	}
	return out.reverse();
}

function append(session: Session, body: Raw): string {
	const id = `x${++session.ids}`;
	session.file.push({ ...body, id, parentId: session.leaf, timestamp: "2026-01-01T00:00:00.000Z" });
	session.leaf = id;
	return id;
}

const userBody = (text: string): Raw => ({ type: "message", message: { role: "user", content: text, timestamp: 0 } });
const okBody: Raw = {
	type: "message",
	message: { role: "assistant", content: [{ type: "text", text: "ok" }], stopReason: "stop", timestamp: 0 },
};

/** The rules and notes in force on the session's branch, as the fold reads them. */
function folded(entries: readonly Raw[]): RulesAndNotes {
	const { state } = foldEntries(entries);
	return { rules: state.rules, notes: state.notes, anomalies: state.anomalies.length };
}

type Cmd = fc.AsyncCommand<SessionModel, Session>;

function check(m: SessionModel, r: Session): void {
	const onBranch = path(r);
	const got = folded(onBranch);
	// (docs/contracts.md, Stored sessions and ids): the ids the pass and the tool carry are the ids the fold gives the
	// same events stored without them.
	const carried = JSON.stringify(foldEntries(onBranch).state);
	const counted = JSON.stringify(foldEntries(entriesWithoutIds(onBranch)).state);
	if (carried !== counted)
		throw new Error(`carried ids differ from the fold's\n carried: ${carried}\n counted: ${counted}`);
	const want = { ...m.current(), anomalies: 0 };
	if (JSON.stringify(got) !== JSON.stringify(want))
		throw new Error(`the fold and the model differ\n fold:  ${JSON.stringify(got)}\n model: ${JSON.stringify(want)}`);
}

class Say implements Cmd {
	constructor(readonly text: string) {}
	check = () => true;
	async run(m: SessionModel, r: Session): Promise<void> {
		m.said(append(r, userBody(this.text)), this.text);
		check(m, r);
	}
	toString = () => `say(${JSON.stringify(this.text)})`;
}

class Remember implements Cmd {
	constructor(readonly note: string) {}
	check = () => true;
	async run(m: SessionModel, r: Session): Promise<void> {
		// As `longhaul_remember` writes it: the next seq after the branch's, in a custom entry, with the id it answers.
		const { state } = foldEntries(path(r));
		const event = rememberedNote(state, this.note);
		const data = { stateFormat: 1, seq: state.lastSeq + 1, event: encodeEvent(event) };
		m.remembered(append(r, { type: "custom", customType: "compaction-state.event", data }), this.note);
		check(m, r);
	}
	toString = () => `remember(${JSON.stringify(this.note)})`;
}

class Compact implements Cmd {
	check = () => true;
	async run(m: SessionModel, r: Session): Promise<void> {
		m.answered(append(r, okBody));
		const lifts = m.liftsAsked();
		const model = answeringModel((request) => carefulAnswer(request.prompt, lifts));
		const id = `x${++r.ids}`;
		const { branch } = await compactBranch(path(r), model, id);
		const entry = branch.at(-1);
		if (entry === undefined) throw new Error("model test: no compaction entry");
		r.file.push(entry);
		r.leaf = id;
		m.compacted(id);
		check(m, r);
	}
	toString = () => "compact";
}

class TreeMove implements Cmd {
	constructor(readonly pick: number) {}
	check = (m: Readonly<SessionModel>) => m.entries() > 0;
	async run(m: SessionModel, r: Session): Promise<void> {
		const target = entryId(r.file[this.pick % r.file.length]);
		r.leaf = target;
		m.movedTo(target);
		check(m, r);
	}
	toString = () => `tree(${this.pick})`;
}

class Fork implements Cmd {
	constructor(readonly pick: number) {}
	check = (m: Readonly<SessionModel>) => m.entries() > 0;
	async run(m: SessionModel, r: Session): Promise<void> {
		const onBranch = path(r);
		if (onBranch.length === 0) return;
		const at = this.pick % onBranch.length;
		r.file = onBranch.slice(0, at + 1);
		r.leaf = entryId(onBranch[at]);
		m.movedTo(r.leaf);
		check(m, r);
	}
	toString = () => `fork(${this.pick})`;
}

class Reload implements Cmd {
	check = () => true;
	async run(m: SessionModel, r: Session): Promise<void> {
		// pi resumes a session at the last entry in file order, and Longhaul keeps nothing but what the file holds.
		const text = `${[JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/w" }), ...r.file.map((e) => JSON.stringify(e))].join("\n")}\n`;
		const last = r.file.at(-1);
		r.leaf = last === undefined ? null : entryId(last);
		m.movedTo(r.leaf);
		const { state } = foldTranscript(text);
		const got = { rules: state.rules, notes: state.notes, anomalies: state.anomalies.length };
		const want = { ...m.current(), anomalies: 0 };
		if (JSON.stringify(got) !== JSON.stringify(want))
			throw new Error(
				`reload: the fold of the file and the model differ\n fold:  ${JSON.stringify(got)}\n model: ${JSON.stringify(want)}`,
			);
	}
	toString = () => "reload";
}

const TOPICS = ["alpha", "bravo"] as const;

const rule = fc
	.tuple(fc.constantFrom("never", "always"), fc.constantFrom("edit", "deploy"), fc.constantFrom(...TOPICS))
	.map(([how, verb, topic]) => `${how} ${verb} ${topic}`);
const lift = fc.constantFrom(...TOPICS).map((topic) => `the ${topic} rule is lifted`);

/** Weighted so that most runs give rules, compact them, lift some and move about the tree. */
const command: fc.Arbitrary<Cmd> = fc.oneof(
	{ arbitrary: rule.map((text): Cmd => new Say(text)), weight: 4 },
	{ arbitrary: lift.map((text): Cmd => new Say(text)), weight: 2 },
	{ arbitrary: fc.constantFrom("go on", "thanks").map((text): Cmd => new Say(text)), weight: 1 },
	{ arbitrary: fc.constantFrom("port 5433", "net.test.ts is flaky").map((text): Cmd => new Remember(text)), weight: 2 },
	{ arbitrary: fc.constant<Cmd>(new Compact()), weight: 3 },
	{ arbitrary: fc.nat().map((pick): Cmd => new TreeMove(pick)), weight: 1 },
	{ arbitrary: fc.nat().map((pick): Cmd => new Fork(pick)), weight: 1 },
	{ arbitrary: fc.constant<Cmd>(new Reload()), weight: 1 },
);

const commands = fc.commands([command], { maxCommands: 30, size: "+1" });

describe("the pure core against a model of the rules and notes in force", () => {
	it("remember, compact, fork, /tree and reload keep exactly the rules and notes the model predicts, ids included", async () => {
		await fc.assert(
			fc.asyncProperty(commands, async (cmds) => {
				await fc.asyncModelRun(() => ({ model: sessionModel(TOPICS), real: { file: [], leaf: null, ids: 0 } }), cmds);
			}),
			params({ numRuns: 100 }),
		);
	});
});
