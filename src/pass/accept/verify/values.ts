import { occurrences, onWordBoundaries } from "../../../events/index.js";

/**
 * True when the value stands verbatim in the turn's text, as a whole token: `5173` stands in "port 5173" but not
 * in "port 51730", so a value is never read out of a longer one.
 */
export function valueStands(value: string, turnText: string): boolean {
	if (value.trim() === "" || value !== value.trim()) return false;
	return occurrences(turnText, value, { start: 0, end: turnText.length }).some((at) => onWordBoundaries(turnText, at));
}
