import * as t from "io-ts";

/** A snapshot of the git workspace taken at a pass by five read-only git commands. */
export const WorldTakenCodec = t.strict({
	taken: t.literal(true),
	branch: t.string,
	head: t.string,
	status: t.string,
	log: t.string,
	diffStat: t.string,
});

/** Why no snapshot was taken: outside a repository, git missing, a time-out, a failed command. */
export const WorldSkippedCodec = t.strict({
	taken: t.literal(false),
	reason: t.string,
});

export const WorldCodec = t.union([WorldTakenCodec, WorldSkippedCodec]);

/** The workspace as a pass saw it, or the reason it was not looked at. */
export type World = t.TypeOf<typeof WorldCodec>;
