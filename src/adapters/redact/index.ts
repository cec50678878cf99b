export { createRedactor, marker, type Redactor } from "./redactor.js";
