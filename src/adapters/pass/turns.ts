import {
	cannotConverse,
	type TurnsBudgets,
	type TurnsInput,
	type TurnsOutcome,
	turnsOutcomeOf,
	turnsPlan,
} from "../../pass/conversation/index.js";
import { type ConverseOptions, converse } from "./converse.js";
import type { PassModel } from "./model.js";

/** The budgets and effects of a turns-mode pass. */
export interface TurnsOptions extends TurnsBudgets, ConverseOptions {}

/** Turns mode: the five-section conversation, held by the driver. Rejects only on abort. */
export async function diffTurns(input: TurnsInput, model: PassModel, options: TurnsOptions): Promise<TurnsOutcome> {
	if (model.converse === undefined) return cannotConverse(input);
	return turnsOutcomeOf(await converse(turnsPlan(input, options, model.maxTokens), model, options), input);
}
