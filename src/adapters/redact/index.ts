export { redactJson } from "./json.js";
export { createRedactor, marker, type Redactor } from "./redactor.js";
