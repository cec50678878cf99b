/**
 * A small model of what Longhaul keeps on a branch: the rules and notes in force, with the ids the fold gives them
 * (R and N counted along the branch, never reused), and the user messages the next compaction will read. It knows
 * the state at every entry, so a `/tree` move, a fork or a reload is a lookup.
 */

export interface ModelRule {
	readonly id: string;
	readonly text: string;
	readonly source: string;
}

export interface ModelNote {
	readonly id: string;
	readonly text: string;
}

export interface RulesAndNotes {
	readonly rules: readonly ModelRule[];
	readonly notes: readonly ModelNote[];
	readonly anomalies: number;
}

interface Point {
	readonly rules: readonly ModelRule[];
	readonly notes: readonly ModelNote[];
	readonly nextR: number;
	readonly nextN: number;
	readonly users: number;
	/** The user messages since the last compaction on the branch: the next compaction's span. */
	readonly pending: readonly { readonly ref: string; readonly text: string }[];
}

const EMPTY: Point = { rules: [], notes: [], nextR: 1, nextN: 1, users: 0, pending: [] };

export interface SessionModel {
	/** The rules and notes in force at the leaf. */
	current(): { readonly rules: readonly ModelRule[]; readonly notes: readonly ModelNote[] };
	/** How many entries the model has seen. */
	entries(): number;
	/** The user said `text` in entry `id`. */
	said(id: string, text: string): void;
	/** `longhaul_remember` kept `text` in entry `id`. */
	remembered(id: string, text: string): void;
	/** The agent answered in entry `id` (the state does not change). */
	answered(id: string): void;
	/** What a careful model answers for the span's lift messages: the message's words to the rule id it lifts. */
	liftsAsked(): Record<string, string>;
	/** A compaction in entry `id` recorded the span's rules and lifts; the last `kept` user messages stay for the next. */
	compacted(id: string, kept?: number): void;
	/** The leaf moved to `id` (`/tree`, a fork, a resume); null is before the first entry. */
	movedTo(id: string | null): void;
}

/** A rule message reads `never|always <verb> <topic>`; a lift message `the <topic> rule is lifted`. */
export function sessionModel(topics: readonly string[]): SessionModel {
	const at = new Map<string, Point>();
	let leaf: Point = EMPTY;
	const put = (id: string, point: Point) => {
		at.set(id, point);
		leaf = point;
	};
	const isRule = (text: string) => /^(never|always) /.test(text);
	const liftNeedle = (topic: string) => `the ${topic} rule is lifted`;
	/** The newest rule in force before the span whose words name the topic. */
	const liftTarget = (point: Point, topic: string) => point.rules.findLast((r) => r.text.endsWith(` ${topic}`));

	return {
		current: () => ({ rules: leaf.rules, notes: leaf.notes }),
		entries: () => at.size,
		said: (id, text) => {
			const users = leaf.users + 1;
			put(id, { ...leaf, users, pending: [...leaf.pending, { ref: `u${users}`, text }] });
		},
		remembered: (id, text) => {
			put(id, { ...leaf, notes: [...leaf.notes, { id: `N${leaf.nextN}`, text }], nextN: leaf.nextN + 1 });
		},
		answered: (id) => put(id, leaf),
		liftsAsked: () => {
			const lifts: Record<string, string> = {};
			for (const topic of topics) {
				const target = liftTarget(leaf, topic);
				if (target !== undefined && leaf.pending.some((m) => m.text === liftNeedle(topic)))
					lifts[liftNeedle(topic)] = target.id;
			}
			return lifts;
		},
		compacted: (id, kept = 0) => {
			const before = leaf;
			const shown = before.pending.slice(0, before.pending.length - kept);
			let rules = [...before.rules];
			let nextR = before.nextR;
			for (const message of shown) {
				if (isRule(message.text)) rules.push({ id: `R${nextR++}`, text: message.text, source: message.ref });
			}
			for (const topic of topics) {
				const target = liftTarget(before, topic);
				if (target !== undefined && shown.some((m) => m.text === liftNeedle(topic)))
					rules = rules.filter((r) => r.id !== target.id);
			}
			put(id, { ...before, rules, nextR, pending: before.pending.slice(shown.length) });
		},
		movedTo: (id) => {
			leaf = id === null ? EMPTY : (at.get(id) ?? EMPTY);
		},
	};
}
