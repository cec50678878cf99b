import { join } from "node:path";

/** pi's `keepRecentTokens` the demo is recorded and replayed with: its turns are short, pi's 20000 would keep all. */
export const DEMO_KEEP_RECENT_TOKENS = 120;

/** The demo transcript `npm run demo` replays, made by `scripts/make-demo.ts`. */
export function demoTranscript(root: string): string {
	return join(root, "test", "fixtures", "demo", "demo.jsonl");
}
