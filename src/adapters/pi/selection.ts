/** Which compactor runs, from `PI_COMPACTOR` (docs/contracts.md, Inside pi). */
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

/**
 * The pi versions the extension's e2e suite runs Longhaul in (`npm test` under pi 0.73.1, `npm run test:pi1` under
 * pi 1.6.0): an exact one is verified; another of the same release line (`major.minor`, patches only) is "line".
 */
export const VERIFIED_VERSIONS: readonly string[] = ["0.73.1", "1.6.0"];

/** The release line of a version: `major.minor.`, or undefined for a string that is no `x.y.z` version. */
function releaseLine(version: string): string | undefined {
	const match = /^(\d+)\.(\d+)\.\d+$/.exec(version);
	return match === null ? undefined : `${match[1]}.${match[2]}.`;
}

/** `true` for a version the suite runs, `"line"` for another patch of one's release line, `false` otherwise. */
export function versionVerified(version: string): boolean | "line" {
	if (VERIFIED_VERSIONS.includes(version)) return true;
	const line = releaseLine(version);
	return line !== undefined && VERIFIED_VERSIONS.some((v) => releaseLine(v) === line) ? "line" : false;
}
