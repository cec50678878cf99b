import { type Region, trimRegion } from "./words.js";

/**
 * Tags that hold the user's objective in a pi-goal message. pi-goal and its forks send `/goal` as a user message
 * whose template wraps the objective in `<objective>` (or `<untrusted_objective>`, or `<goal>`) tags; the template
 * around it is the extension's text, not the user's. A user who writes such tags by hand is read the same way.
 */
const GOAL_TAGS = /<(goal|objective|untrusted_objective)>([\s\S]*?)<\/\1>/g;

/**
 * The parts of a user message its words may be quoted from: inside the goal tags for a pi-goal message (empty
 * objectives left out), else the whole message; whitespace at the ends is never part of one.
 */
export function quotableRegions(text: string): Region[] {
	const regions: Region[] = [];
	let tagged = false;
	for (const match of text.matchAll(GOAL_TAGS)) {
		tagged = true;
		const open = (match.index ?? 0) + (match[1]?.length ?? 0) + 2;
		const inner = trimRegion(text, { start: open, end: open + (match[2]?.length ?? 0) });
		if (inner.end > inner.start) regions.push(inner);
	}
	if (tagged) return regions;
	const whole = trimRegion(text, { start: 0, end: text.length });
	return whole.end > whole.start ? [whole] : [];
}
