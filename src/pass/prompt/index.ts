// The diff's prompt: the state so far, the messages to label (whole up to 240 characters), the ledger, the World and
// a condensed transcript, within the bounds the answer is held to.
export {
	diffPrompt,
	EARLIER_MESSAGE_CHARS,
	isCut,
	type Prompt,
	type PromptInput,
	SHOWN_MESSAGE_CHARS,
} from "./prompt.js";
export { argsText, cut, fileLines, headTail, ledgerLines, messageLine, worldLines } from "./prompt-parts.js";
export { RULE_DEFINITION } from "./rule-definition.js";
