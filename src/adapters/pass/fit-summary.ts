import { type Rendered, renderSummary } from "../../projections/index.js";
import type { State } from "../../reducers/index.js";

/** How many times the cut is tightened by what redaction added before every section is cut at once. */
const TIGHTENINGS = 3;

/**
 * The summary pi stores: the close's rendering of `state`, redacted (a marker can be longer than the secret it
 * replaces), and cut again until the redacted text fits the rendering's limit. The cap holds on these final bytes
 * unless the rules in force and Now alone pass it, and `capFit` measures them. Deterministic: the same state and
 * redactor give the same bytes.
 */
export async function fitSummary(
	rendered: Rendered,
	state: State,
	redact: (text: string) => Promise<string>,
): Promise<Rendered> {
	const limit = rendered.capFit.limit;
	let attempt = rendered;
	let budget = limit;
	for (let round = 0; ; round++) {
		const text = await redact(attempt.text);
		const over = text.length - limit;
		const floor = budget === 0;
		if (over <= 0 || floor) {
			const rulesAndNowChars = floor ? text.length : attempt.capFit.rulesAndNowChars;
			return { text, capFit: { ...attempt.capFit, limit, chars: text.length, rulesAndNowChars, fits: over <= 0 } };
		}
		budget = round < TIGHTENINGS ? Math.max(0, budget - over) : 0;
		attempt = renderSummary(state, budget);
	}
}
