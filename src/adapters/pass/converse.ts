import { type Ask, type ConversationState, type Heard, next, type Plan, start } from "../../pass/conversation/index.js";
import type { Conversation, PassModel } from "./model.js";

/** The pass was cancelled: the only way a conversation rejects. */
export class Aborted extends Error {}

/** What holding a conversation needs besides the model: the pass's signal and clock, and pi's footer. */
export interface ConverseOptions {
	readonly signal: AbortSignal;
	readonly now: () => number;
	readonly status?: (text: string) => void;
}

function errorClass(error: unknown): string {
	return error instanceof Error ? error.constructor.name : typeof error;
}

/** An abort signal that fires at `ms` or with the outer signal, and a promise that rejects when it does. */
function deadline(ms: number, outer: AbortSignal) {
	const controller = new AbortController();
	let timedOut = false;
	const timer = setTimeout(
		() => {
			timedOut = true;
			controller.abort();
		},
		Math.max(0, Math.min(ms, 2 ** 31 - 1)),
	);
	const onOuter = () => controller.abort();
	outer.addEventListener("abort", onOuter, { once: true });
	if (outer.aborted) controller.abort();
	const ended = new Promise<never>((_, reject) => {
		const end = () => reject(new Aborted("ended"));
		if (controller.signal.aborted) end();
		else controller.signal.addEventListener("abort", end, { once: true });
	});
	ended.catch(() => undefined);
	const clear = () => {
		clearTimeout(timer);
		outer.removeEventListener("abort", onOuter);
	};
	return { signal: controller.signal, ended, timedOut: () => timedOut, clear };
}

/**
 * The one driver of the pass's model conversations: it performs each ask the decider makes (a single call, or a
 * send in a continuing conversation before its deadline), tells the decider what it heard, and returns the
 * conversation once the decider is done. It decides nothing: a reply stopped `aborted` that the pass did not cause
 * is heard as a failed call. A send starts from the conversation as the last ended turn left it (`fresh`), or goes
 * on from the reply before it; a reply with no tool calls and no error ends the turn. Rejects only on abort.
 */
export async function converse(plan: Plan, model: PassModel, options: ConverseOptions): Promise<ConversationState> {
	const { signal, now } = options;
	let committed: Conversation | undefined;
	let pending: Conversation | undefined;
	const perform = async (ask: Ask): Promise<Heard> => {
		const begun = now();
		const heard = (h: { kind: "timeout" } | { kind: "threw"; errorClass: string }): Heard => ({
			...h,
			at: now(),
			ms: now() - begun,
		});
		if (ask.kind === "send" && ask.status !== undefined) options.status?.(ask.status);
		const limit = deadline(ask.kind === "send" ? ask.deadline - begun : 2 ** 31 - 1, signal);
		try {
			if (ask.kind === "call") {
				const request = { system: ask.system, prompt: ask.prompt, maxTokens: ask.maxTokens };
				const reply = await Promise.race([model.call(request, limit.signal), limit.ended]);
				if (signal.aborted) throw new Aborted("aborted");
				if (reply.stopReason === "aborted") return heard({ kind: "threw", errorClass: "AbortedReply" });
				return { kind: "reply", reply: { ...reply, toolCalls: [] }, at: now(), ms: now() - begun };
			}
			const from = ask.fresh ? committed : pending;
			const conversation = from ?? model.converse?.(ask.system, ask.tools);
			if (conversation === undefined) return heard({ kind: "threw", errorClass: "CannotConverse" });
			const step = await Promise.race([conversation.send(ask.input, ask.maxTokens, limit.signal), limit.ended]);
			if (signal.aborted) throw new Aborted("aborted");
			const { reply } = step;
			if (reply.stopReason === "aborted")
				return heard(limit.timedOut() ? { kind: "timeout" } : { kind: "threw", errorClass: "AbortedReply" });
			pending = step.next;
			if (reply.toolCalls.length === 0 && reply.stopReason !== "error") committed = pending;
			return { kind: "reply", reply, at: now(), ms: now() - begun };
		} catch (error) {
			if (signal.aborted) throw new Aborted("aborted");
			return heard(limit.timedOut() ? { kind: "timeout" } : { kind: "threw", errorClass: errorClass(error) });
		} finally {
			limit.clear();
		}
	};
	let step = start(plan, now());
	while (step.kind === "ask") step = next(step.conversation, await perform(step.ask));
	return step.conversation;
}
