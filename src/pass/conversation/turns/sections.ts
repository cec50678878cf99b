/** A section of the turns-mode answer; one is asked for per turn. */
export type Section = "narrative" | "objective" | "labels" | "findings" | "now";

/** The fixed order the sections are asked in (docs/turns-mode.md, The conversation). */
export const SECTIONS: readonly Section[] = ["narrative", "objective", "labels", "findings", "now"];

/** The answer's keys each section reads; anything else in a reply is not read. */
export const SECTION_KEYS: Readonly<Record<Section, readonly string[]>> = {
	narrative: ["narrative", "excuse"],
	objective: ["objective"],
	labels: ["labels"],
	findings: ["decisions", "deadEnds", "openErrors", "excuse"],
	now: ["now", "excuse"],
};

/**
 * A turn may repair its section this many times; an item still failing after them is dropped (docs/turns-mode.md, The
 * gate).
 */
export const REPAIR_TURNS = 2;

/** `show(ref)` answers at most this many calls a turn; later calls in the turn are refused. */
export const SHOWS_PER_TURN = 3;
