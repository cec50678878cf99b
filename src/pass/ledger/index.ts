// The ledger: commands, errors, fixes, values and files read from the span's messages by code, with no model.
export { ledgerEvents, ledgerOf } from "./ledger.js";
export { valueEvents } from "./values.js";
