import type { RawAnswer } from "../answer/index.js";
import type { Failure } from "./turns/codecs.js";
import type { Excused, ExpectationCheck } from "./turns/expectations.js";

/** What a turns-mode section's turns came to; `reason` is why it stopped short, the first such. */
export interface TurnSectionResult {
	readonly answered: boolean;
	readonly part: Partial<RawAnswer>;
	readonly excused: readonly Excused[];
	readonly unmet: readonly ExpectationCheck[];
	readonly dropped: readonly Failure[];
	readonly reason: string | null;
}

/** A section that was never answered: it adds nothing, so the state keeps what it had. */
export function notAnswered(reason: string | null): TurnSectionResult {
	return { answered: false, part: {}, excused: [], unmet: [], dropped: [], reason };
}
