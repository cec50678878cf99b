import { longSession } from "./long-session.js";
import { report } from "./measure.js";

/**
 * (docs/contracts.md, Performance targets): over the 12-compaction session (here 13, in a real pi session with Longhaul
 * loaded from `root`), the prompts sent sum to at most 25% of the spans' tokens, both by pi's `estimateTokens`: nothing
 * is sent twice.
 */
export async function longSessionBench(root: string): Promise<void> {
	const session = await longSession(root);
	const prompts = session.compactions.reduce((sum, c) => sum + c.promptTokens, 0);
	const spans = session.spanTokens.reduce((sum, n) => sum + n, 0);
	const calls = session.compactions.reduce((sum, c) => sum + c.calls, 0);
	const share = spans === 0 ? Number.POSITIVE_INFINITY : prompts / spans;
	report(
		`prompts / spans over ${session.compactions.length} compactions (${calls} calls)`,
		`${(share * 100).toFixed(1)}% (${prompts} of ${spans} tokens)`,
		"<= 25%",
		share <= 0.25,
	);
}
