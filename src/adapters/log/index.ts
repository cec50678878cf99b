export { ERROR_HEAD_CHARS, type ErrorFields, errorFields, homeAsTilde } from "./error-fields.js";
export { defaultLogPath, type LogConfig, resolveLogConfig } from "./log-config.js";
export { createLog, type Log, type LogCapabilities, processLogCapabilities, ROTATE_BYTES } from "./log-file.js";
export {
	type LogEventName,
	type LogRecord,
	LogRecordCodec,
	type LogRecordOf,
	type LogSession,
	logEventNames,
} from "./log-records.js";
export { logReport, REPORT_TAIL_BYTES, reportLines, sha256Hex } from "./log-report.js";
