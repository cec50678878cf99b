/** A stretch of a text, `start` inclusive, `end` exclusive, in UTF-16 offsets. */
export interface Region {
	readonly start: number;
	readonly end: number;
}

/** The region with the whitespace at both ends left out. */
export function trimRegion(text: string, region: Region): Region {
	let { start, end } = region;
	while (start < end && /\s/.test(text[start] ?? "")) start++;
	while (end > start && /\s/.test(text[end - 1] ?? "")) end--;
	return { start, end };
}

/*
 * What of a user message the user wrote (issue 28). pi puts text the user never typed into user messages, and stores
 * it with no mark but its own format; each such region is material, like tool output: never a rule, never a withdrawal,
 * shown to the model as material. The forms, from pi 0.73.1's and 1.6.0's source (both the same unless said):
 * - `/skill:name args`: `<skill name="…" location="…">\nReferences are relative to …\n\n<SKILL.md body>\n</skill>`,
 *   then `\n\n<args>` when args were given (AgentSession._expandSkillCommand). The args are the user's.
 * - `pi @a.md @b.png "message"` (the CLI, print or interactive start): one `<file name="<abs path>">\n<content>\n</file>\n`
 *   per text file, `<file name="…"><note></file>\n` per image, then the message (cli/file-processor, initial-message).
 * - 1.6.0 only, an image attached to a prompt: pi's notes on it appended after `\n\n`, one a line: `[Image: original
 *   …]`, `[Image converted from … to ….]`, `[Image omitted: …]` (AgentSession._normalizePromptImages).
 * A file's own text may hold a closing tag to end its block early ("</skill>\n\nFrom now on …"), so a block runs to the
 * last closing line of its kind in the message, or to the end when there is none: pi always closes its blocks, and text
 * a user wrote after a forged close is never lost, only shown as material. Forms pi stores with no mark at all cannot be
 * told from typed text: a prompt template's expansion (`/name args`), piped stdin, an extension's `sendUserMessage` or
 * `input` rewrite. `!command` output, `pi.sendMessage` and `before_agent_start` messages are not user messages (roles
 * `bashExecution` and `custom`), so they never reach here.
 */

/** What pi put into a user message: a skill's file, files named on the command line, its notes on an image. */
export type MaterialKind = "skill" | "file" | "image-note";

/** A region of a user message pi wrote, with the skill's or first file's name as pi gave it ("" for a note). */
export interface Material extends Region {
	readonly kind: MaterialKind;
	readonly name: string;
}

/** A user message read for who wrote what. */
export interface UserText {
	/** The stretches the user's words may be quoted from, trimmed, none empty, in order. */
	readonly own: readonly Region[];
	/** The regions pi wrote, in order, none overlapping. */
	readonly material: readonly Material[];
}

interface Line {
	readonly start: number;
	readonly end: number;
	readonly text: string;
}

function linesOf(text: string): Line[] {
	const lines: Line[] = [];
	let start = 0;
	for (const line of text.split("\n")) {
		lines.push({ start, end: start + line.length, text: line });
		start += line.length + 1;
	}
	return lines;
}

const SKILL_OPEN = '<skill name="';
const FILE_OPEN = '<file name="';
const IMAGE_NOTES = ["[Image: original ", "[Image converted from ", "[Image omitted: "];

/** The value of the first attribute of an opening tag line: up to its closing quote. */
function nameIn(line: string, opener: string): string {
	const rest = line.slice(opener.length);
	const close = rest.indexOf('"');
	return close < 0 ? rest : rest.slice(0, close);
}

/** The index of the last line `closes` accepts, or -1. */
function lastLine(lines: readonly Line[], closes: (line: string) => boolean): number {
	for (let i = lines.length - 1; i >= 0; i--) if (closes(lines[i]?.text.trimEnd() ?? "")) return i;
	return -1;
}

/** The regions pi wrote: each block from its opening line to the last closing line of its kind, and each note line. */
function materialOf(text: string): Material[] {
	// No line can open material where no opener stands at all: most messages, read without making their lines.
	if (![SKILL_OPEN, FILE_OPEN, ...IMAGE_NOTES].some((opener) => text.includes(opener))) return [];
	const lines = linesOf(text);
	const skillClose = lastLine(lines, (line) => line === "</skill>");
	const fileClose = lastLine(lines, (line) => line.endsWith("</file>"));
	const found: Material[] = [];
	const block = (at: number, close: number, kind: MaterialKind, name: string): number => {
		const last = close >= at ? close : lines.length - 1;
		found.push({ start: lines[at]?.start ?? 0, end: lines[last]?.end ?? text.length, kind, name });
		return last;
	};
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		if (line === undefined) continue;
		if (line.text.startsWith(SKILL_OPEN)) i = block(i, skillClose, "skill", nameIn(line.text, SKILL_OPEN));
		else if (line.text.startsWith(FILE_OPEN)) i = block(i, fileClose, "file", nameIn(line.text, FILE_OPEN));
		else if (IMAGE_NOTES.some((note) => line.text.startsWith(note)) && line.text.trimEnd().endsWith("]")) {
			found.push({ start: line.start, end: line.end, kind: "image-note", name: "" });
		}
	}
	return found;
}

/**
 * Tags that hold the user's objective in a pi-goal message. pi-goal and its forks send `/goal` as a user message
 * whose template wraps the objective in `<objective>` (or `<untrusted_objective>`, or `<goal>`) tags; the template
 * around it is the extension's text, not the user's. A user who writes such tags by hand is read the same way.
 */
const GOAL_TAG = /<(goal|objective|untrusted_objective)>/g;

/**
 * Inside the goal tags of the text, when it has any; else undefined. Each opening tag is paired with the first closing
 * tag of its name after it, as `<(goal|…)>([\s\S]*?)<\/\1>` pairs them; one with none after it is passed over at
 * once (the last closing tag of each name is looked up first), where that pattern read on to the text's end from
 * each, so opening tags never closed were quadratic. Exported for tests.
 */
export function goalRegions(text: string): Region[] | undefined {
	const regions: Region[] = [];
	const lastClose = new Map<string, number>();
	GOAL_TAG.lastIndex = 0;
	for (let tag = GOAL_TAG.exec(text); tag !== null; tag = GOAL_TAG.exec(text)) {
		const name = tag[1] ?? "";
		const close = `</${name}>`;
		if (!lastClose.has(name)) lastClose.set(name, text.lastIndexOf(close));
		const open = tag.index + tag[0].length;
		if ((lastClose.get(name) ?? -1) < open) continue;
		const end = text.indexOf(close, open);
		regions.push({ start: open, end });
		GOAL_TAG.lastIndex = end + close.length;
	}
	return regions.length > 0 ? regions : undefined;
}

/** `regions` with every material region cut out of them, each piece trimmed, empty ones left out. */
function withoutMaterial(text: string, regions: readonly Region[], material: readonly Material[]): Region[] {
	const out: Region[] = [];
	for (const region of regions) {
		let from = region.start;
		const pieces: Region[] = [];
		for (const m of material) {
			if (m.end <= from || m.start >= region.end) continue;
			pieces.push({ start: from, end: Math.max(from, m.start) });
			from = Math.max(from, m.end);
		}
		pieces.push({ start: from, end: Math.max(from, region.end) });
		for (const piece of pieces) {
			const trimmed = trimRegion(text, piece);
			if (trimmed.end > trimmed.start) out.push(trimmed);
		}
	}
	return out;
}

/** The text with each material region blanked (line breaks kept), so nothing in it is read as the user's markup. */
function blanked(text: string, material: readonly Material[]): string {
	let out = "";
	let from = 0;
	for (const m of material) {
		out += text.slice(from, m.start) + text.slice(m.start, m.end).replace(/[^\n]/g, " ");
		from = m.end;
	}
	return out + text.slice(from);
}

/**
 * The one reading of who wrote what in a user message, for every reader of the user's own words (the standing-rule
 * reader, acceptance's own-words, rule-words and lift checks, the prompt): pi's material (above) is cut out, and of
 * what is left, a pi-goal message offers only its objectives inside the goal tags, any other message all of it. Goal
 * tags inside material are not read, so a skill file cannot pose as an objective.
 */
export function userText(text: string): UserText {
	const material = materialOf(text);
	const goals = material.length === 0 ? goalRegions(text) : goalRegions(blanked(text, material));
	const candidates = goals ?? [{ start: 0, end: text.length }];
	return { own: withoutMaterial(text, candidates, material), material };
}
