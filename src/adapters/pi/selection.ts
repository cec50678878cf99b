/** Which compactor runs, from `PI_COMPACTOR` (SPEC 3.6). */
export type Selection =
	| { readonly kind: "longhaul" }
	| { readonly kind: "pi" }
	| { readonly kind: "unknown"; readonly value: string };

/** Unset, empty or `state`: Longhaul compacts; `pi`: pi's own compaction; anything else stands down with a notice. */
export function selection(value: string | undefined): Selection {
	const v = (value ?? "").trim();
	if (v === "" || v === "state") return { kind: "longhaul" };
	if (v === "pi") return { kind: "pi" };
	return { kind: "unknown", value: v };
}

/** The pi versions Longhaul was verified with: an exact version, and the release line. */
export const VERIFIED_VERSION = "0.73.1";
export const VERIFIED_LINE = "0.73.";

/** `true` for the exact verified version, `"line"` for its release line, `false` otherwise. */
export function versionVerified(version: string): boolean | "line" {
	if (version === VERIFIED_VERSION) return true;
	return version.startsWith(VERIFIED_LINE) ? "line" : false;
}
