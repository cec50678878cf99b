/**
 * What a rule is, in the words each model that tells one apart is given: the summarizer that labels a span's
 * messages (prompt.ts) and the evaluation's judge that grades what an answer kept (src/eval/judge.ts), so
 * the labels and their grading read one definition (docs/how-it-works.md, One pass, step 5).
 */
export const RULE_DEFINITION = `A rule is an instruction about how the work goes from now on, however phrased: an order ("never add dependencies", "the code must run on Node 22.11"), a wish, a complaint about how the agent works ("why do you rewrite the whole file??") or a question asking for a standing change ("can we always keep a backup?"). Not rules: a request or permission for now ("you may push to main now"), and a description of what is being built (a flag, a limit, how a feature behaves: "the export should skip empty rows, no?") unless stated as standing over later work ("every dry-run line must start with DRY:").`;
