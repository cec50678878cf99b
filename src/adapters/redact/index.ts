export { redactJson } from "./json.js";
export { redactingModel } from "./outgoing.js";
export { createRedactor, marker, type Redactor } from "./redactor.js";
