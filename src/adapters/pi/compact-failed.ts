import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";

/** The part of pi's `session_compact_failed` event (pi >= 0.84.3) Longhaul reads. */
const CompactFailedCodec = t.type({ aborted: t.boolean });

/**
 * The `compact-failed` reason for what pi reported: cancelled or aborted, or failed for another reason.
 * Exported for tests.
 */
export function compactFailedReason(event: unknown): "compaction-aborted" | "compaction-error" {
	const decoded = CompactFailedCodec.decode(event);
	return E.isRight(decoded) && decoded.right.aborted ? "compaction-aborted" : "compaction-error";
}

/** pi's `on` for an event its 0.73 types do not name; the event reaches the handler undecoded. */
interface CompactFailedHook {
	on(event: "session_compact_failed", handler: (event: unknown, ctx: ExtensionContext) => void): void;
}

// pi's `on` files a handler under any event name, in 0.73 (its loader keeps handlers in a map by name) as in 1.x, and
// a pi that never sends the event never calls it: the guard only widens the type to the name pi >= 0.84.3 sends.
function takesAnyEvent(pi: ExtensionAPI): pi is ExtensionAPI & CompactFailedHook {
	return typeof pi.on === "function";
}

/** Calls `handler` where pi reports a failed or aborted compaction (pi >= 0.84.3); on older pi it is never called. */
export function onCompactFailed(
	pi: ExtensionAPI,
	handler: (reason: ReturnType<typeof compactFailedReason>, ctx: ExtensionContext) => void,
): void {
	if (takesAnyEvent(pi)) pi.on("session_compact_failed", (event, ctx) => handler(compactFailedReason(event), ctx));
}
